"""Issue 35, defects 5, 7, 8 and 9: what a designer's kit did without a word. A landscape
deck is turned onto a shop's portrait picture, the rest exported as before; two
components sharing one PDF each print at their own size; the fit checker measures a line
with its icons and bold runs as drawn, and judges contrast as WCAG does; a text that
overflows its box, runs past the trim or lies over a symbol is a problem the build names
(refused by --strict)."""

import json
import re

import pytest
from PIL import Image, ImageChops

LOCATIONS = '''
[[locations]]
id = "harbour"
title = { en = "Harbour", fr = "Port" }

[[locations]]
id = "reef"
title = { en = "Reef", fr = "Récif" }

[components.locations]
kind = "location"
cards = "locations"
file = "locations.pdf"
size = "88x63mm"
back = "common"

[kinds.location]

[[kinds.location.elements]]
type = "background"
fill = "sand"

[[kinds.location.elements]]
type = "text"
text = "{title}"
x = 0.3
y = 0.5
size = 0.1
font = "bold"
'''


def _vocab(cli, tmp_path, more: str = ""):
    """`companion new vocab`, with `more` added to its game file: the game file."""
    folder = tmp_path / "vocab"
    r = cli("new", "vocab", str(folder))
    assert r.code == 0, r.err
    game = folder / "vocab.toml"
    game.write_text(game.read_text(encoding="utf-8") + more, encoding="utf-8")
    return game


# ---- 5. a landscape deck at a print shop ---------------------------------------------------

def test_a_landscape_deck_is_turned_onto_the_shops_portrait_picture_the_rest_as_before(
        cli, tmp_path):
    game = _vocab(cli, tmp_path, LOCATIONS)
    out = tmp_path / "png"
    r = cli("export", str(game), "png", "--shop", "tgc", "--out", str(out))
    assert r.code == 0, r.err
    assert "locations (2 cards, landscape, turned to portrait)" in r.out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    turned = {c["id"]: c["turned"] for c in manifest["components"]}
    assert turned == {"cards": False, "aids": False, "locations": True}
    for png in out.rglob("*.png"):
        assert Image.open(png).size == (825, 1125), png
    guide = (out / "guide.txt").read_text(encoding="utf-8")
    assert "locations: landscape cards, turned a quarter turn" in guide
    assert "cards:" not in guide and "aids:" not in guide
    # The card's top is on the picture's left: its title, centred 0.3 across, its baseline
    # half-way down the landscape card (88 mm of the picture's 95.25), is centred 0.3 up from the
    # trim's foot, its baseline in the middle across and its letters left of it.
    face = Image.open(out / "locations" / "harbour-front.png").convert("L")
    ink = face.point(lambda v: 255 if v < 100 else 0)
    left, top, right, bottom = ink.getbbox()
    assert right == pytest.approx(825 / 2, abs=20) and left < 380, (left, right)  # baseline
    want = 1125 * (3.625 + 0.7 * 88) / 95.25
    assert (top + bottom) / 2 == pytest.approx(want, abs=1125 * 0.02), (top, bottom)
    assert bottom - top > 2 * (right - left)  # the word runs up the picture


def test_a_deck_too_large_either_way_up_is_still_refused_by_name(cli, tmp_path):
    game = _vocab(cli, tmp_path, LOCATIONS.replace('"88x63mm"', '"120x100mm"'))
    r = cli("export", str(game), "png", "--shop", "tgc", "--out", str(tmp_path / "png"))
    assert r.code == 2
    assert "locations cards are larger than The Game Crafter's poker picture" in r.err
    assert not (tmp_path / "png").exists()


# ---- 7. two components of different sizes in one PDF ----------------------------------------

DICE_AND_TILES = '''
[dice]
count = 2

[tiles]
count = 3

[components.dice]
kind = "die"
cards = "dice"
file = "tokens.pdf"
size = "16x16mm"
stock = "tokens"

[components.tiles]
kind = "tile"
cards = "tiles"
file = "tokens.pdf"
size = "40x46mm"
stock = "tokens"

[kinds.die]

[[kinds.die.elements]]
type = "background"
fill = "accent"

[kinds.tile]

[[kinds.tile.elements]]
type = "background"
fill = "#16323D"

[[kinds.tile.elements]]
type = "text"
text = "tile {n}"
y = 0.5
size = 0.12
colour = "paper"
'''


def test_components_sharing_a_pdf_are_each_imposed_at_their_own_size(cli, tmp_path):
    """The arithmetic, drawing nothing: tokens.pdf holds a part a size, each planned on
    sheets of its own at its own size."""
    from companion import kit
    from companion.press import presets
    from companion.press.imposition import plan_grid
    from companion.text.units import mm

    game = _vocab(cli, tmp_path, DICE_AND_TILES)
    prepared = kit.prepare(str(game), kit.Options())
    parts = [f for f in prepared.files if f.path == "tokens.pdf"]
    sizes = {c.id: f.size for f in parts for c in f.components}
    assert sizes["dice"] == pytest.approx((mm(16), mm(16)))
    assert sizes["tiles"] == pytest.approx((mm(40), mm(46)))
    page = presets.paper_size("a4")
    for f in parts:
        grid = plan_grid(*page, *f.size, presets.sheet_settings(), 0.0, spaced=f.spaced)
        assert sorted((grid.card_w, grid.card_h)) == pytest.approx(sorted(f.size))


def test_hex_tiles_in_the_dices_pdf_print_at_their_own_40_by_46_mm(cli, tmp_path):
    import pypdfium2 as pdfium

    game = _vocab(cli, tmp_path, DICE_AND_TILES)
    out = tmp_path / "kit"
    r = cli("build", str(game), "--out", str(out))
    assert r.code == 0, r.err
    guide = (out / "print-guide.txt").read_text(encoding="utf-8")
    assert "Tokens: 16 × 16 mm" in guide and "Tokens: 40 × 46 mm" in guide, guide
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    tokens = next(f for f in manifest["files"] if f["path"] == "tokens.pdf")
    assert tokens["pages"] == 4  # the dice's sheet and its backs, the tiles' and theirs
    assert [c.get("card_size") for c in tokens["components"]] == ["16x16mm", "40x46mm"]
    doc = pdfium.PdfDocument(out / "tokens.pdf")
    assert "tile 1" not in doc[0].get_textpage().get_text_range()
    assert "tile 1" in doc[2].get_textpage().get_text_range()
    # The three tiles side by side on their sheet, each 40 x 46 mm (either way round).
    sheet = doc[2].render(scale=1).to_pil().convert("RGB")
    near = [band.point(lambda v, want=want: 255 if abs(v - want) < 12 else 0)
            for band, want in zip(sheet.split(), (0x16, 0x32, 0x3D))]
    tiles = ImageChops.multiply(ImageChops.multiply(near[0], near[1]), near[2])
    x0, y0, x1, y1 = tiles.getbbox()
    w_mm, h_mm = sorted(((x1 - x0) * 25.4 / 72, (y1 - y0) * 25.4 / 72))
    assert (w_mm, h_mm) in ((pytest.approx(40, abs=1.5), pytest.approx(138, abs=2)),
                            (pytest.approx(46, abs=1.5), pytest.approx(120, abs=2))), (w_mm, h_mm)
