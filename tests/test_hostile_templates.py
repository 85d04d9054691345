"""Art path templates a careless or hostile designer writes (issue 20): only {field} and
{field:format} are read, with a width or precision of at most 255; attribute and item
access, conversions, a NUL and formats that do not fit the field's value are refused in
one line naming the file, the field and the card (exit 2), within 30 s and 2 GB, in a
process of its own; a watch survives them."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.draw import art
from companion.files import paths
from tests.test_hostile_spreadsheets import (CLANS, build, data_file, refused_in_one_line,
                                             write_csv)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="setrlimit: POSIX")

RED = 'id = "red"\n'


def data_copy(folder: Path, template: str, clan_id: str = "red") -> Path:
    """The bundled Covenia data with art = TEMPLATE (a TOML string, escapes as written) on
    the red clan."""
    text = paths.layout("covenia.toml").read_text(encoding="utf-8")
    assert RED in text
    text = text.replace(RED, f'id = "{clan_id}"\nart = "{template}"\n', 1)
    path = folder / "covenia.toml"
    path.write_text(text, encoding="utf-8")
    return path


HOSTILE = {
    # template as written in TOML: words the one line holds (after the file and field)
    "art/{clan:>1000000000}.jpg": "{clan:>1000000000}: a width of 1000000000: over the 255",
    "art/{clan:.999999999}.jpg": "{clan:.999999999}: a precision of 999999999: over the 255",
    "art/{clan.nope}.jpg": "{clan.nope}: an attribute or an item of a field cannot be named",
    "art/{value[0]}.jpg": "{value[0]}: an item of a field cannot be named",
    "art/{clan!r}.jpg": "{clan!r}: a conversion (!r, !s, !a) cannot be named",
    "art/\\u0000{clan}.jpg": "holds a NUL character",
    "art/{clan:d}.jpg": "{clan:d}: format d needs a number, and clan is text (\"red\")",
    "art/{value:s}.jpg": "{value:s}: format s needs text, and value is a number (1)",
    "art/{clan:+}.jpg": "{clan:+}: a sign needs a number, and clan is text",
    "art/{value:.2}.jpg": "{value:.2}: a precision needs a format such as f",
    "art/{clan:/>9}.jpg": "{clan:/>9}: a fill of / would make folders of the path",
    "art/{clan:{value}}.jpg": "a brace inside a field",
    "art/{clan.jpg": "has unpaired braces: a { with no } after it",
    "art/clan}.jpg": "has unpaired braces: a } with no { before it",
    "art/{clan:%Y}.jpg": "{clan:%Y}: \"%Y\" is not a format",
}


@pytest.mark.parametrize("template", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_template_is_one_line_naming_the_file_the_field_and_the_card(tmp_path,
                                                                               template):
    data = data_copy(tmp_path, template)
    r = build(tmp_path, data, tmp_path / "kit")
    refused_in_one_line(r, "covenia.toml: clans[0].art: ", HOSTILE[template],
                        "on card clan-cards/red-1A")
    assert not (tmp_path / "kit").exists()


def test_a_nul_in_a_field_the_template_names_is_refused(tmp_path):
    data = data_copy(tmp_path, "art/{clan}.jpg", "re\\u0000d")
    r = build(tmp_path, data, tmp_path / "kit")
    refused_in_one_line(r, "covenia.toml: clans[0].art: {clan}: clan is \"re\\x00d\", with a "
                           "NUL character")


def test_a_template_in_a_sheet_names_the_sheet_row_column_and_card(tmp_path):
    rows = [r[:] + ["art" if i == 0 else "art/{value:>99999}.jpg"] for i, r in enumerate(CLANS)]
    write_csv(tmp_path / "clans.csv", rows)
    r = build(tmp_path, data_file(tmp_path, "clans.csv"), tmp_path / "kit")
    refused_in_one_line(r, "clans.csv, row 2: column P (art): {value:>99999}: a width of "
                           "99999: over the 255", "on card clan-cards/red-1A")


def test_bounded_formats_fill_the_path(tmp_path):
    data = data_copy(tmp_path, "art/{clan:.1}-{value:03}{deck:_<2}.jpg")
    r = build(tmp_path, data, tmp_path / "kit", "--draft")
    assert r.code == 0, r
    assert "art/r-007A_.jpg (clan-cards/red-7A, missing)" in r.err, r


@pytest.mark.parametrize("template,expanded", [
    ("art/{clan}-{value}{deck}.jpg", "art/red-7A.jpg"),
    ("{{x}}/{clan:>5}", "{x}/  red"),
    ("{value:02}{value:x}{value:.1f}{value:+}", "0777.0+7"),
    ("{clan:.255}", "red"),
])
def test_expand_reads_what_it_may(template, expanded):
    assert art.expand(template, {"id": "red-7A", "clan": "red", "value": 7,
                                 "deck": "A"}) == expanded


def test_a_watch_survives_a_hostile_template_and_rebuilds_after_it(tmp_path):
    """{clan.nope} used to end the watch with a traceback."""
    data = data_copy(tmp_path, "art/{clan}.jpg")
    (tmp_path / "art").mkdir()  # a watch watches the folder of a missing picture
    lines: list[str] = []
    p = subprocess.Popen(
        [sys.executable, "-m", "companion", "build", "covenia", "--only", "cards", "--draft",
         "--data", str(data), "--out", str(tmp_path / "kit"), "--watch"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    threading.Thread(target=lambda: [lines.append(x) for x in p.stdout], daemon=True).start()

    def wait_for(text: str, after: int = 0, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(lines[after:], after):
                if text in line:
                    return i + 1
            if p.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no {text!r} in {lines} (exit {p.poll()})")

    def edit(old: str, new: str) -> None:
        time.sleep(0.05)  # a new modification time
        text = data.read_text(encoding="utf-8")
        data.write_text(text.replace(old, new, 1), encoding="utf-8")

    try:
        n = wait_for("watching")
        edit("{clan}", "{clan.nope}")
        n = wait_for("{clan.nope}: an attribute or an item of a field cannot be named", n)
        assert p.poll() is None, lines
        edit("{clan.nope}", "{clan}")
        wait_for("cards.pdf", n)
        assert p.poll() is None, lines
        assert not any("Traceback" in line for line in lines), lines
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(10)
