"""A game's own fonts ([fonts] in its file): TTF files beside it, for one of our roles or
a role of its own that its kinds name; an .otf with CFF outlines, a collection, a file
that is no font, one outside the game's folder, each refused in one line naming it. Every
font a designer's kit prints is embedded (a print shop refuses one that is not)."""

import json
import shutil

import pytest
from pypdf import PdfReader

from companion.files import paths
from tests.pdfs import fonts as pdf_fonts


def _use_font(starter, file="fonts/Display.ttf", role="title"):
    text = starter.read_text(encoding="utf-8")
    text = text.replace("[icons]", f'[fonts]\n{role} = "{file}"\n\n[icons]', 1)
    text = text.replace('size = 0.075\nfont = "bold"', f'size = 0.075\nfont = "{role}"', 1)
    starter.write_text(text, encoding="utf-8")


def _font_objects(pdf) -> int:
    """How many distinct embedded font programs the PDF holds."""
    reader = PdfReader(pdf)
    seen = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            seen.add(font.idnum)
    return len(seen)


def test_every_font_of_the_starter_kit_is_embedded(starter, cli, tmp_path):
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    for pdf in ("cards.pdf", "scorepad.pdf"):
        found = pdf_fonts(PdfReader(tmp_path / "kit" / pdf))
        assert found and all(embedded for _, embedded in found), (pdf, found)


def test_a_font_of_the_game_prints_the_role_its_kinds_name(starter, cli, tmp_path):
    before = cli("build", str(starter), "--out", str(tmp_path / "before"))
    assert before.code == 0, before.err
    (starter.parent / "fonts").mkdir()
    shutil.copy(paths.FONTS / "DejaVuSansCondensed-Bold.ttf", starter.parent / "fonts" / "Display.ttf")
    _use_font(starter)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    names = {n for n, _ in pdf_fonts(PdfReader(tmp_path / "kit" / "cards.pdf"))}
    assert any("DejaVuSansCondensed-Bold" in n for n in names)  # the game's title font
    assert _font_objects(tmp_path / "kit" / "cards.pdf") == \
        _font_objects(tmp_path / "before" / "cards.pdf") + 1
    # Another font in the same file: the titles' faces reprint, their digests change.
    shutil.copy(paths.FONTS / "DejaVuSans.ttf", starter.parent / "fonts" / "Display.ttf")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit2"))
    assert r.code == 0, r.err
    one, two = (json.loads((tmp_path / k / "manifest.json").read_text())
                for k in ("kit", "kit2"))
    fronts = [{c["id"]: c["front"] for c in m["cards"]} for m in (one, two)]
    assert fronts[0]["cards/hermit-crab"] != fronts[1]["cards/hermit-crab"]


@pytest.mark.parametrize("content, name, words", [
    (b"OTTO" + bytes(200), "Display.otf", "CFF outlines, which reportlab cannot read: use "
                                          "the TTF"),
    (b"ttcf" + bytes(200), "Display.ttc", "a font collection"),
    (b"%PDF-1.4 not a font", "Display.ttf", "not a TrueType (.ttf) font file"),
    (b"\x00\x01\x00\x00" + bytes(60), "Display.ttf", "not a TrueType font reportlab can read"),
])
def test_a_font_that_is_no_ttf_is_one_line_naming_it(starter, cli, tmp_path, content, name, words):
    (starter.parent / "fonts").mkdir()
    (starter.parent / "fonts" / name).write_bytes(content)
    _use_font(starter, f"fonts/{name}")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and not (tmp_path / "kit").exists(), r.err
    assert r.err.count("\n") == 1 and f"fonts/{name}: " in r.err and words in r.err, r.err


def test_a_font_outside_the_games_folder_or_an_unknown_role_is_refused(starter, cli, tmp_path):
    _use_font(starter, "../elsewhere.ttf")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "fonts.title: ../elsewhere.ttf is outside" in r.err, r.err
    text = starter.read_text(encoding="utf-8").replace('title = "../elsewhere.ttf"\n', "")
    starter.write_text(text, encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "font: 'title' is not one of regular, bold, narrow, narrow-bold" \
        in r.err, r.err
