"""Every header and cell the tool writes to a CSV goes through one escaper
(companion.files.csv_cells.writer) (issue 50): a card list's column named like a formula is
written as text in decklist.csv's header; a designer's text printed (an ICC profile's
description in guide.txt) has its control characters escaped."""

import csv
import io

from companion.files import csv_cells


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_writer_escapes_headers_and_cells_alike():
    buf = io.StringIO()
    csv_cells.writer(buf).writerows([["=HYPERLINK(\"x\")", "name", "@A"],
                                     ["+1+1", "-3", 4]])
    assert buf.getvalue().endswith("\r\n")
    assert _rows(buf.getvalue()) == [["'=HYPERLINK(\"x\")", "name", "'@A"],
                                     ["'+1+1", "-3", "4"]]


def test_decklist_header_from_the_card_list_is_escaped(tmp_path, cli, starter):
    cards = starter.parent / "cards.csv"
    head, *rest = cards.read_text(encoding="utf-8").splitlines()
    cards.write_text("\n".join([head + ',"=HYPERLINK(""http://x"",""y"")"']
                               + [r + ",note" for r in rest]) + "\n", encoding="utf-8")
    r = cli("export", starter, "decklist", "--out", tmp_path / "d")
    assert r.code == 0, r.err
    raw = (tmp_path / "d" / "decklist.csv").read_bytes().decode("utf-8-sig")
    header = _rows(raw)[0]
    assert "'=HYPERLINK(\"http://x\",\"y\")" in header
    assert not any(h[:1] in "=+@" for h in header)


def test_history_csv_goes_through_the_one_writer():
    from companion.web.games import history

    text = history.as_csv([{"id": 1, "date": "2026-11-01", "game": "=cmd", "players":
                            ["@Ana"], "winners": ["@Ana"], "scores": {"@Ana": 3}}])
    rows = _rows(text)
    assert rows[1][2] == "'=cmd" and rows[1][3] == "'@Ana"


def test_an_icc_description_with_control_characters_is_escaped(tmp_path, cli):
    from companion.press import cmyk

    data = bytearray(cmyk.shipped().read_bytes())
    at = data.index(b"CGATS TR 003")  # the description's ASCII text, the same length
    data[at:at + 5] = b"\x1b[31m"
    icc = tmp_path / "red.icc"
    icc.write_bytes(bytes(data))
    r = cli("export", "covenia", "pdfx", "--only", "aids", "--icc", icc, "--out",
            tmp_path / "x")
    assert r.code == 0, r.err
    guide = (tmp_path / "x" / "guide.txt").read_text(encoding="utf-8")
    assert "\x1b" not in guide and "\x1b" not in r.out + r.err
    assert "\\x1b[31m TR 003" in guide
