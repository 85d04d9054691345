"""Issue 35: `shape = "hex" | "circle" | "rounded"` on a component. A hex tile or a round
token takes its bounding box's place on the sheet; the sheet draws its cut line round each
front, and its face (the art and the ground running into the bleed) is cut to the shape
grown by the bleed. The arithmetic (imposition) is tested without drawing; the kit by its
PDF's drawing operators and its pixels at 100 dpi."""

import ctypes
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.press.imposition import Shape, grown, plan_grid
from companion.text.units import mm

TILE = (0x16, 0x32, 0x3D)
COIN = (0xB8, 0x86, 0x0B)

SHAPED = '''
[tiles]
count = 3

[coins]
count = 5

[components.tiles]
kind = "tile"
cards = "tiles"
file = "tokens.pdf"
size = "40x46mm"
stock = "tokens"
shape = "hex"
back = "common"

[components.coins]
kind = "coin"
cards = "coins"
file = "tokens.pdf"
size = "25x25mm"
stock = "tokens"
shape = "circle"
back = "common"

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

[kinds.coin]

[[kinds.coin.elements]]
type = "background"
fill = "#B8860B"
'''


def _game(cli, tmp_path, more: str):
    """`companion new vocab`, with `more` added to its game file: the game file."""
    folder = tmp_path / "vocab"
    r = cli("new", "vocab", str(folder))
    assert r.code == 0, r.err
    game = folder / "vocab.toml"
    game.write_text(game.read_text(encoding="utf-8") + more, encoding="utf-8")
    return game


def _points(path) -> list[tuple[float, float]]:
    """The end points of a path's operators (a polygon's corners)."""
    return [tuple(op[-2:]) for op in path if op[0] != "Z"]


def _grids(game, bleed: float = 0.0) -> dict:
    """Each component of tokens.pdf: (its part, its sheet's grid), drawing nothing."""
    from companion import kit
    from companion.press import presets

    prepared = kit.prepare(str(game), kit.Options())
    page = presets.paper_size("a4")
    return {c.id: (f, plan_grid(*page, *f.size, presets.sheet_settings(), bleed,
                                spaced=f.spaced, shape=f.shape))
            for f in prepared.files if f.path == "tokens.pdf" for c in f.components}


# ---- the arithmetic -------------------------------------------------------------------------

def test_a_pointy_hex_touches_its_boxs_four_sides_a_corner_at_top_and_bottom():
    w, h = mm(40), mm(46)
    pts = _points(Shape("hex").outline(w, h))
    assert len(pts) == 6
    assert (w / 2, 0) in pts and (w / 2, h) in pts  # pointy: corners at the bottom and top
    assert min(x for x, _ in pts) == 0 and max(x for x, _ in pts) == w
    assert sorted(x for x, _ in pts).count(0) == 2  # an upright side on the left...
    flat = _points(Shape("hex", hex="flat").outline(h, w))
    assert (0, w / 2) in flat and (h, w / 2) in flat  # flat: corners left and right
    assert sorted(y for _, y in flat).count(0) == 2  # a flat side at the bottom


def _side_distance(p, a, b) -> float:
    """How far p lies from the line through a and b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    return abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / math.hypot(bx - ax, by - ay)


@settings(max_examples=60, deadline=None)
@given(w=st.floats(20, 400), h=st.floats(20, 400), bleed=st.floats(0.5, 20),
       top=st.sampled_from(["pointy", "flat"]))
def test_a_hexs_bleed_is_each_side_moved_out_by_the_bleed(w, h, bleed, top):
    inner = _points(Shape("hex", hex=top).outline(w, h))
    outer = _points(Shape("hex", hex=top).outline(w, h, bleed))
    for i in range(6):  # each grown side parallel to its own, the bleed away
        a, b = inner[i], inner[(i + 1) % 6]
        for p in (outer[i], outer[(i + 1) % 6]):
            assert _side_distance(p, a, b) == pytest.approx(bleed, rel=1e-6, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(d=st.floats(10, 300), bleed=st.floats(0, 20))
def test_a_circles_bleed_is_its_radius_grown_by_the_bleed(d, bleed):
    path = Shape("circle").outline(d, d, bleed)
    for x, y in _points(path):  # the four ends of its quarter arcs
        assert math.hypot(x - d / 2, y - d / 2) == pytest.approx(d / 2 + bleed)


def test_a_rounded_pieces_bleed_is_its_box_and_corner_grown_by_the_bleed():
    path = Shape("rounded", corner=mm(3)).outline(mm(63), mm(88), mm(2))
    xs, ys = [p[0] for p in _points(path)], [p[1] for p in _points(path)]
    assert (min(xs), max(xs)) == pytest.approx((-mm(2), mm(65)))
    assert (min(ys), max(ys)) == pytest.approx((-mm(2), mm(90)))
    assert path[0][1:] == pytest.approx((mm(3), -mm(2)))  # -2 mm and a radius of 3 + 2 mm


def test_grown_moves_a_squares_sides_out_and_its_corners_diagonally():
    square = grown([(0, 0), (1, 0), (1, 1), (0, 1)], 1)
    assert [v for p in square for v in p] == pytest.approx([-1, -1, 2, -1, 2, 2, -1, 2])


def test_rectangles_keep_their_crop_marks_alone_and_their_bleed_rectangle():
    from companion.press import presets

    grid = plan_grid(*presets.paper_size("a4"), mm(63), mm(88), presets.sheet_settings(),
                     mm(3))
    assert grid.shape is None and grid.cut_lines(grid.per_sheet) == []
    corners = [v for p in _points(grid.bleed_path(mm(63), mm(88))) for v in p]
    assert corners == pytest.approx([-mm(3), -mm(3), mm(66), -mm(3), mm(66), mm(91),
                                     -mm(3), mm(91)])


# ---- a kit ----------------------------------------------------------------------------------

def test_a_hex_tile_and_a_circle_token_each_get_sheets_of_their_own_shape(cli, tmp_path):
    grids = _grids(_game(cli, tmp_path, SHAPED))
    tiles, coins = grids["tiles"][0], grids["coins"][0]
    assert tiles is not coins
    assert tiles.shape == Shape("hex") and coins.shape == Shape("circle")
    assert grids["tiles"][1].cut_lines(3) and grids["coins"][1].cut_lines(5)


def _stroked_paths(page) -> list[list[tuple[float, float]]]:
    """The points of every stroked path drawn on a PDF page (its drawing operators)."""
    import pypdfium2.raw as raw

    out = []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH]):
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if not stroke.value:
            continue
        pts = []
        for i in range(raw.FPDFPath_CountSegments(obj.raw)):
            x, y = ctypes.c_float(), ctypes.c_float()
            raw.FPDFPathSegment_GetPoint(raw.FPDFPath_GetPathSegment(obj.raw, i), x, y)
            pts.append((x.value, y.value))
        out.append(pts)
    return out


def _build(cli, tmp_path, game, *more: str):
    out = tmp_path / "kit"
    r = cli("build", str(game), "--out", str(out), *more)
    assert r.code == 0, r.err
    return out


def test_the_tiles_sheet_holds_each_hexs_cut_line(cli, tmp_path):
    import pypdfium2 as pdfium

    game = _game(cli, tmp_path, SHAPED)
    out = _build(cli, tmp_path, game)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    tokens = next(f for f in manifest["files"] if f["path"] == "tokens.pdf")
    assert [c["id"] for c in tokens["components"]] == ["tiles", "coins"]
    guide = (out / "print-guide.txt").read_text(encoding="utf-8")
    assert "Cut to shape (hexagons)" in guide and "Cut to shape (circles)" in guide, guide
    assert guide.count("Cut to shape") == 2  # not the cards
    grid = _grids(game)["tiles"][1]
    doc = pdfium.PdfDocument(out / "tokens.pdf")
    drawn = _stroked_paths(doc[0])
    for cut in grid.cut_lines(3):  # each tile's hexagon, its six corners where they belong
        want = _points(cut)
        assert any(len(p) >= 6 and all(math.dist(a, b) < 0.05 for a, b in zip(p, want))
                   for p in drawn), (want, drawn)
    # and no cut line on the backs: the crop marks and the cut lines are the fronts'
    assert not any(len(p) == 7 for p in _stroked_paths(doc[1]))


def _pixel(sheet, page_h: float, x: float, y: float) -> tuple[int, int, int]:
    """The pixel of a 100 dpi page at the sheet's point (x, y)."""
    return sheet.getpixel((int(x * 100 / 72), int((page_h - y) * 100 / 72)))[:3]


def _near(rgb, want, by: int = 14) -> bool:
    return all(abs(a - b) <= by for a, b in zip(rgb, want))


@pytest.mark.parametrize("bleed", ["0mm", "3mm"])
def test_a_hex_tiles_ground_is_cut_to_the_hex_grown_by_the_bleed(cli, tmp_path, bleed):
    """Off the middle of each of a tile's slanting sides, along its normal: inside, the
    tile; 1.5 mm out, the tile only with 3 mm of bleed; 4.5 mm out (still inside the box's
    bleed rectangle, which the ground fills), paper."""
    import pypdfium2 as pdfium
    from companion.press.imposition import on_sheet

    game = _game(cli, tmp_path, SHAPED)
    out = _build(cli, tmp_path, game, "--bleed", bleed)
    b = mm(float(bleed[:-2]))
    grid = _grids(game, b)["tiles"][1]
    doc = pdfium.PdfDocument(out / "tokens.pdf")
    page_h = doc[0].get_size()[1]
    sheet = doc[0].render(scale=100 / 72).to_pil().convert("RGB")
    for slot in range(3):
        placed = grid.front(slot)
        w, h = placed.size
        hexagon = _points(grid.shape.outline(w, h))
        for i in (0, 2, 3, 5):  # the four slanting sides of a pointy hex
            (ax, ay), (bx, by) = hexagon[i], hexagon[(i + 1) % 6]
            n = math.hypot(bx - ax, by - ay)
            nx, ny = (by - ay) / n, -(bx - ax) / n  # outwards
            mx, my = (ax + bx) / 2, (ay + by) / 2

            def at(d, mx=mx, my=my, nx=nx, ny=ny):
                (x, y), = _points(on_sheet([("M", mx + d * nx, my + d * ny)], placed))
                assert -b <= mx + d * nx <= w + b and -b <= my + d * ny <= h + b
                return _pixel(sheet, page_h, x, y)
            assert _near(at(-mm(1.5)), TILE), (slot, i)
            assert _near(at(mm(1.5)), TILE if b else (255, 255, 255)), (slot, i, bleed)
            assert _near(at(b + mm(1.5)), (255, 255, 255)), (slot, i, bleed)


def test_a_round_tokens_ground_is_cut_to_its_circle_grown_by_the_bleed(cli, tmp_path):
    import pypdfium2 as pdfium

    game = _game(cli, tmp_path, SHAPED)
    out = _build(cli, tmp_path, game, "--bleed", "2mm")
    grid = _grids(game, mm(2))["coins"][1]
    doc = pdfium.PdfDocument(out / "tokens.pdf")
    page_h = doc[2].get_size()[1]
    sheet = doc[2].render(scale=100 / 72).to_pil().convert("RGB")
    r = mm(12.5)
    for slot in range(5):
        box = grid.front(slot).box
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        for angle in (45, 135, 225, 315):  # towards the box's corners
            ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            assert _near(_pixel(sheet, page_h, cx + (r + mm(1)) * ux, cy + (r + mm(1)) * uy),
                         COIN)
            assert _near(_pixel(sheet, page_h, cx + (r + mm(3.5)) * ux,
                                cy + (r + mm(3.5)) * uy), (255, 255, 255))
    assert not any(len(p) > 3 for p in _stroked_paths(doc[3])), "no cut line on backs"


def test_a_rounded_card_is_cut_with_its_corner_and_a_rectangle_beside_it_is_not(
        cli, tmp_path):
    import pypdfium2 as pdfium

    game = _game(cli, tmp_path, SHAPED.replace('shape = "circle"', 'shape = "rounded"\n'
                                               'corner = "4mm"'))
    out = _build(cli, tmp_path, game)
    grid = _grids(game)["coins"][1]
    assert grid.shape == Shape("rounded", corner=mm(4))
    doc = pdfium.PdfDocument(out / "tokens.pdf")
    page_h = doc[2].get_size()[1]
    sheet = doc[2].render(scale=100 / 72).to_pil().convert("RGB")
    box = grid.front(0).box
    assert _near(_pixel(sheet, page_h, box.x + mm(0.4), box.y + mm(0.4)), (255, 255, 255))
    assert _near(_pixel(sheet, page_h, box.x + mm(4), box.y + mm(0.6)), COIN)
    # the card component of the same game: its sheets as they were, no cut line
    from companion import kit

    cards = next(f for f in kit.prepare(str(game), kit.Options()).files
                 if f.path == "cards.pdf")
    assert cards.shape is None


@pytest.mark.parametrize("key, value, says", [
    ("shape", '"star"', '"star" is no shape (use hex, circle, rounded'),
    ("corner", '"-1mm"', '"-1mm" is not a length'),
    ("corner", '"0mm"', '"0mm" is no corner'),
    ("corner", '"30mm"', '"30mm" is more than half the piece\'s 25 mm side'),
    ("hex", '"sideways"', '"sideways" is no hex (use pointy, flat)'),
])
def test_a_wrong_shape_is_one_line_naming_the_file_the_component_and_the_key(
        cli, tmp_path, key, value, says):
    shape = {"hex": "hex"}.get(key, "rounded")
    text = SHAPED.replace('shape = "circle"', f"shape = {value}" if key == "shape"
                          else f'shape = "{shape}"\n{key} = {value}')
    game = _game(cli, tmp_path, text)
    out = tmp_path / "kit"
    r = cli("build", str(game), "--out", str(out))
    assert r.code == 2, r.err
    line = r.err.strip()
    assert "\n" not in line and "Traceback" not in line, line
    assert "vocab.toml" in line and f"components.coins.{key}" in line and says in line, line
    assert not out.exists()


def test_a_corner_on_a_hex_is_refused_by_name(cli, tmp_path):
    game = _game(cli, tmp_path, SHAPED.replace('shape = "hex"', 'shape = "hex"\ncorner = "3mm"'))
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2
    assert "components.tiles.corner: only for shape = \"rounded\"" in r.err, r.err


def test_a_png_of_a_hex_tile_is_its_bounding_rectangle_and_the_guide_says_so(
        cli, tmp_path):
    from PIL import Image

    # (no --shop: no shop lists a 40 x 46 mm piece, tests/test_first_week.py)
    game = _game(cli, tmp_path, SHAPED)
    out = tmp_path / "png"
    r = cli("export", str(game), "png", "--dpi", "150", "--out", str(out))
    assert r.code == 0, r.err
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    shapes = {c["id"]: c.get("shape") for c in manifest["components"]}
    assert shapes == {"cards": None, "aids": None, "tiles": "hex", "coins": "circle"}
    tile = Image.open(out / "tiles" / "01-front.png").convert("RGB")
    w, h = tile.size
    for x, y in ((1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2), (w // 2, h // 2 + 20)):
        assert _near(tile.getpixel((x, y)), TILE), (x, y)  # the art to the corners
    guide = (out / "guide.txt").read_text(encoding="utf-8")
    assert guide.count("each picture is the rectangle round one") == 2, guide
    assert "cards: pieces" not in guide
