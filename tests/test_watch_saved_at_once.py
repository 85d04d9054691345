"""`build --watch`: a save made the moment a build is done, before the watcher has begun
to watch, still rebuilds (the watcher also looks at the files' stamps)."""

import threading

from companion.files.data import load_toml
from companion.files.watch import watch


def test_a_save_made_as_the_watch_begins_is_built(tmp_path):
    data = tmp_path / "d.toml"
    data.write_text("a = 1\n")
    seen, stop = [], threading.Event()

    def build():
        seen.append(load_toml(data)["a"])
        if len(seen) == 2:
            stop.set()

    def say(line: str) -> None:
        if line.startswith("watching") and len(seen) == 1:
            data.write_text("a = 2\n")  # saved after the stamps were read, before watching

    t = threading.Thread(target=watch, args=(build, say), kwargs={"stop_event": stop},
                         daemon=True)
    t.start()
    t.join(30)
    assert seen == [1, 2]
