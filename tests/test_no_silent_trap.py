"""Issue 35, defects 5, 7, 8 and 9: what a designer's kit did without a word. A landscape
deck is turned onto a shop's portrait picture, the rest exported as before; two
components sharing one PDF each print at their own size; the fit checker measures a line
with its icons and bold runs as drawn, and judges contrast as WCAG does; a text that
overflows its box, runs past the trim or lies over a symbol is a problem the build names
(refused by --strict)."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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


def test_a_deck_of_a_size_the_shop_does_not_list_is_left_out_said_or_refused_by_name(
        cli, tmp_path):
    # one rule for every component (issue 41): a whole export leaves it out, in a word;
    # named by --only, it is refused
    game = _vocab(cli, tmp_path, LOCATIONS.replace('"88x63mm"', '"120x100mm"'))
    r = cli("export", str(game), "png", "--shop", "tgc", "--out", str(tmp_path / "png"))
    assert r.code == 0, r.err
    assert "locations: 120 x 100 mm cards, a size The Game Crafter does not list: left out" \
        in r.err
    assert not (tmp_path / "png" / "locations").exists()
    r = cli("export", str(game), "png", "--shop", "tgc", "--only", "locations", "--out",
            str(tmp_path / "png2"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "locations cards are 120 x 100 mm, a size The Game Crafter does not list" in r.err
    assert not (tmp_path / "png2").exists()


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
back = "common"

[components.tiles]
kind = "tile"
cards = "tiles"
file = "tokens.pdf"
size = "40x46mm"
stock = "tokens"
back = "common"                # one back, drawn at each size

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
    # The three tiles side by side on their sheet, each 40 x 46 mm (either way round), and
    # their backs (the dice's back design) at that size too.
    for page, colour in ((2, (0x16, 0x32, 0x3D)), (3, (0x1D, 0x6F, 0x8C))):
        sheet = doc[page].render(scale=1).to_pil().convert("RGB")
        near = [band.point(lambda v, want=want: 255 if abs(v - want) < 12 else 0)
                for band, want in zip(sheet.split(), colour)]
        tiles = ImageChops.multiply(ImageChops.multiply(near[0], near[1]), near[2])
        x0, y0, x1, y1 = tiles.getbbox()
        w_mm, h_mm = sorted(((x1 - x0) * 25.4 / 72, (y1 - y0) * 25.4 / 72))
        assert (w_mm, h_mm) in ((pytest.approx(40, abs=1.5), pytest.approx(138, abs=2)),
                                (pytest.approx(46, abs=1.5), pytest.approx(120, abs=2))), \
            (page, w_mm, h_mm)


# ---- 8. the checker measures what is drawn, and judges contrast as WCAG does ---------------

def _rgb(hex_: str) -> tuple[float, float, float]:
    return tuple(int(hex_[i:i + 2], 16) / 255 for i in (1, 3, 5))


def test_a_line_with_bold_and_an_icon_shrinks_to_its_box_instead_of_a_false_overflow(
        cli, tmp_path):
    """`Deal **1** damage. Gain :shell:.` in a narrow, tall box: at the box's size its
    unbreakable "damage." is wider than the box, a size smaller (over the floor) it fits;
    --strict builds it, and a text too long is quoted with its icon."""
    game = _vocab(cli, tmp_path)
    rows = (game.parent / "cards.csv").read_text(encoding="utf-8").splitlines()
    rows = [rows[0]] + [r.replace("Regrows what it loses.", "Deal **1** damage. Gain :shell:.")
                        for r in rows[1:]]
    (game.parent / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    toml = game.read_text(encoding="utf-8").replace(
        'x = 0.1\ny = 0.63\nw = 0.8\nh = 0.22\nsize = 0.062',
        'x = 0.35\ny = 0.6\nw = 0.25\nh = 0.3\nsize = 0.062')
    game.write_text(toml, encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"), "--strict")
    assert r.code == 0, r.err
    assert "does not fit" not in r.err


def test_a_text_too_long_for_its_box_is_quoted_with_its_icons_as_drawn(monkeypatch):
    import io

    from reportlab.pdfgen.canvas import Canvas

    from companion.draw import symbols
    from companion.engine import markup
    from companion.press import presets
    from companion.text import fit

    monkeypatch.setattr(symbols, "known", lambda name: name == "mana")
    monkeypatch.setattr(symbols, "draw", lambda *a, **k: None)
    with fit.recording(presets.text_limits()) as rec:
        rec.wrap(lambda c, w, h, b: markup.block(
            c, "Deal **1** damage. Gain :mana:.", 10, 100, 40, 8, "regular", 9),
            "card")(Canvas(io.BytesIO()), 200, 280, 0)
    [problem] = [p for p in rec.problems() if "fit" in p.what]
    assert problem.text == "Deal 1 damage. Gain :mana:."


@pytest.mark.parametrize("size,bold,need", [
    (10, False, 4.5), (13.9, True, 4.5), (14, True, 3.0), (17.9, False, 4.5), (18, False, 3.0),
    (24, False, 3.0)])
def test_large_text_is_wcags_large_scale_14_pt_bold_or_18_pt(size, bold, need):
    from companion.press import presets

    assert presets.text_limits().contrast_for(size, bold) == need


@pytest.mark.parametrize("ink,ground,ratio", [
    ("#FFFFFF", "#000000", 21.0), ("#777777", "#FFFFFF", 4.48), ("#FFFFFF", "#FFFFFF", 1.0),
    ("#F7F3EA", "#4A86B0", 3.56)])
def test_contrast_is_wcags_ratio(ink, ground, ratio):
    from companion.text.fit import contrast

    assert contrast(_rgb(ink), _rgb(ground)) == pytest.approx(ratio, abs=0.005)
    assert contrast(_rgb(ground), _rgb(ink)) == pytest.approx(ratio, abs=0.005)


@pytest.mark.parametrize("size,warned", [("20pt", False), ("10pt", True)])
def test_a_light_title_on_a_mid_tone_faction_colour_warns_only_when_small(
        cli, tmp_path, size, warned):
    """Paper (#F7F3EA) on a mid-tone blue is 3.56:1: enough for large text (18 pt, or
    14 pt bold), not for ordinary text."""
    band = f'''
[[kinds.creature.elements]]
type = "rect"
y = 0.2
h = 0.2
fill = "#4A86B0"

[[kinds.creature.elements]]
type = "text"
text = "Faction"
y = 0.33
size = "{size}"
colour = "paper"
field = "faction"
'''
    game = _vocab(cli, tmp_path)
    toml = game.read_text(encoding="utf-8").replace("[kinds.tide]\n", band + "\n[kinds.tide]\n", 1)
    game.write_text(toml, encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert ("faction · en: contrast 3.56:1, under 4.5:1" in r.err) == warned, r.err


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.floats(25, 200), st.floats(8, 80), st.floats(6, 14),
       st.sampled_from(["Deal **1** damage. Gain :mana:.", ":mana::mana: **pour** elle",
                        "Gain *two* :mana: then **draw**.", "plain words only, no markup"]))
def test_a_block_said_not_to_fit_fits_at_no_size_over_the_floor(monkeypatch, w, h, size, text):
    import io

    from reportlab.pdfgen.canvas import Canvas

    from companion.draw import symbols
    from companion.engine import markup
    from companion.press import presets
    from companion.text import fit

    monkeypatch.setattr(symbols, "known", lambda name: name == "mana")
    monkeypatch.setattr(symbols, "draw", lambda *a, **k: None)
    limits = presets.text_limits()
    with fit.recording(limits) as rec:
        rec.wrap(lambda c, cw, ch, b: markup.block(c, text, 10, 200, w, h, "regular", size),
                 "card")(Canvas(io.BytesIO()), 220, 280, 0)
    if any("fit" in p.what for p in rec.problems()):
        paragraphs = markup.runs(text)
        s = size
        while s >= limits.floor:
            lines = markup._lines(paragraphs, "regular", s, w)
            assert not (len(lines) * s * 1.2 <= h and max(
                markup._line_width(ln, "regular", s) for ln in lines) <= w), (s, lines)
            s *= 0.98


# ---- 9. a text off its box, off the card or under a symbol is said ------------------------

OVERFLOWS = '''
[[kinds.creature.elements]]
type = "text"
text = "{title} {title} {title} {title}"
y = 0.62
size = 0.06
field = "echo"

[[kinds.creature.elements]]
type = "symbol"
name = "wave"
x = 0.88
y = 0.94
r = 0.05
colour = "accent"
'''
LONG = ("The tide rises and every creature on the shore must find shelter or be swept away "
        "into the open sea. ") * 6


def _overflowing(cli, tmp_path):
    """The starter with a version (the stamp), a title band's text reaching its icon, a
    centred line wider than the card, a 600-character text and a symbol at the foot."""
    game = _vocab(cli, tmp_path)
    toml = game.read_text(encoding="utf-8").replace('# version = "0.1"', 'version = "0.1"')
    toml = toml.replace("max_w = 0.7\n", "max_w = 0.85\n", 1)
    toml = toml.replace("\n[kinds.tide]\n", OVERFLOWS + "\n[kinds.tide]\n", 1)
    game.write_text(toml, encoding="utf-8")
    cards = game.parent / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows[1] = rows[1].replace("Moves house when it grows: keep it with another shell.", LONG[:600])
    rows[2] = rows[2].replace("Sea Star", "Sea Star of the Deep Reef")
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return game


def test_every_overflow_is_a_problem_naming_the_card_and_what_it_runs_into(cli, tmp_path):
    game = _overflowing(cli, tmp_path)
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    lines = r.err.splitlines()

    def said(card, field, what):
        return any(f"vocab · cards {card} · {field} · en: {what}" in ln for ln in lines)

    # a centred line too wide for the card runs past the trim, by so much
    assert said("cards-hermit-crab", "echo", "runs 16.5 mm past the trim"), r.err
    # the 600-character text at the floor: too long, and under the symbol drawn after it
    assert said("cards-hermit-crab", "text", "does not fit its box"), r.err
    assert said("cards-hermit-crab", "text", "under the symbol wave, drawn over it"), r.err
    # the long title shrunk to its max_w, under the icon at the band's end
    star = "cards-sea-star-of-the-deep-reef"
    assert said(star, "text", "under the symbol wave, drawn over it"), r.err
    # the version stamp over the symbol at the foot
    assert said(star, "stamp", "the version stamp over the symbol wave"), r.err
    # a text on a symbol drawn behind it, fitting its box, is as the designer meant it
    assert not any("anemone" in ln and "symbol" in ln for ln in lines), r.err


def test_strict_refuses_a_title_under_its_cost_icon_alone(cli, tmp_path):
    game = _vocab(cli, tmp_path)
    game.write_text(game.read_text(encoding="utf-8").replace("max_w = 0.7\n", "max_w = 0.85\n", 1),
                    encoding="utf-8")
    cards = game.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "Sea Star,", "Sea Star of the Deep Reef,"), encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"), "--strict")
    assert r.code == 2, r.err
    assert "1 texts break the text limits" in r.err and "under the symbol wave" in r.err, r.err
    assert not (tmp_path / "kit").exists()


def test_a_text_overflowing_onto_a_symbol_drawn_before_it_runs_over_it():
    import io

    from reportlab.pdfgen.canvas import Canvas

    from companion.draw import text as plain
    from companion.press import presets
    from companion.text import fit

    def face(c, w, h, b):
        fit.current().symbol(c, "coin", 100, 60, 12)  # drawn first: a backdrop
        plain.block(c, LONG, 20, 110, 160, 30, "regular", 9, field="rules")  # runs down
        plain.line(c, "Coin", 100, 58, "bold", 9, align="center", field="label")  # fits

    with fit.recording(presets.text_limits()) as rec:
        rec.wrap(face, "card 1 front")(Canvas(io.BytesIO()), 200, 280, 0)
    whats = {(p.field, p.what) for p in rec.problems()}
    assert ("rules", "does not fit its box and runs over the symbol coin") in whats
    assert not any(f == "label" for f, _ in whats)
