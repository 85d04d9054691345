"""`companion build GAME --watch`: a save rebuilds the kit; a bad save keeps the last good
kit and says why in one line; the next good save rebuilds."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

from companion.files import paths


class Watching:
    def __init__(self, tmp_path):
        self.data = tmp_path / "covenia.toml"
        self.data.write_text(paths.layout("covenia.toml").read_text(encoding="utf-8"),
                             encoding="utf-8")
        self.out = tmp_path / "kit"
        self.lines: list[str] = []
        self.p = subprocess.Popen(
            [sys.executable, "-m", "companion", "build", "covenia", "--only", "aids",
             "--data", str(self.data), "--out", str(self.out), "--watch"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        threading.Thread(target=lambda: [self.lines.append(x) for x in self.p.stdout],
                         daemon=True).start()

    def wait_for(self, text: str, after: int = 0, timeout: float = 20) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(self.lines[after:], after):
                if text in line:
                    return i + 1
            time.sleep(0.02)
        raise AssertionError(f"no {text!r} in {self.lines}")

    def edit(self, old: str, new: str) -> None:
        text = self.data.read_text(encoding="utf-8")
        assert old in text
        self.data.write_text(text.replace(old, new), encoding="utf-8")

    def stop(self) -> int:
        self.p.send_signal(signal.SIGINT)
        return self.p.wait(10)


def aid_title(kit) -> str:
    from tests.pdfs import page_texts

    return page_texts(kit / "cards.pdf")[0]


def test_a_saved_edit_rebuilds_and_a_bad_one_keeps_the_last_good_kit(tmp_path):
    w = Watching(tmp_path)
    try:
        n = w.wait_for("watching")
        first = (w.out / "cards.pdf").read_bytes()
        w.edit('front_title = { en = "A round"', 'front_title = { en = "One round"')
        n = w.wait_for("watching", w.wait_for("rebuilding", n))
        assert "One round" in aid_title(w.out)
        good = (w.out / "cards.pdf").read_bytes()
        assert good != first

        w.edit('front_title = { en = "One round"', 'front_title = { en = ')  # broken TOML
        n = w.wait_for("the last good kit is kept", n)
        assert w.lines[n - 1].startswith("companion: ") and "covenia.toml" in w.lines[n - 1]
        n = w.wait_for("watching", n)
        assert (w.out / "cards.pdf").read_bytes() == good
        assert "Traceback" not in "".join(w.lines)

        w.edit('front_title = { en = ', 'front_title = { en = "Round two"')
        w.wait_for("watching", w.wait_for("rebuilding", n))
        assert "Round two" in aid_title(w.out)
    finally:
        assert w.stop() == 0  # Ctrl+C ends a watch: exit 0 whenever it comes


def test_a_file_saved_while_it_builds_is_built_again(tmp_path):
    from companion.files.data import load_toml
    from companion.files.watch import watch

    data = tmp_path / "d.toml"
    data.write_text("a = 1\n")
    seen, stop = [], threading.Event()

    def build():
        seen.append(load_toml(data)["a"])
        if len(seen) == 1:
            time.sleep(0.05)
            data.write_text("a = 2\n")  # the designer saves again mid-build
        else:
            stop.set()

    t = threading.Thread(target=watch, args=(build, lambda _: None),
                         kwargs={"stop_event": stop}, daemon=True)
    t.start()
    t.join(10)
    assert seen == [1, 2]
