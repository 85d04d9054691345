"""Issue 35, defects 5, 7, 8 and 9: what a designer's kit did without a word. A landscape
deck is turned onto a shop's portrait picture, the rest exported as before; two
components sharing one PDF each print at their own size; the fit checker measures a line
with its icons and bold runs as drawn, and judges contrast as WCAG does; a text that
overflows its box, runs past the trim or lies over a symbol is a problem the build names
(refused by --strict)."""

import json
import re

import pytest
from PIL import Image

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
