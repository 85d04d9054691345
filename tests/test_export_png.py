"""`companion export GAME png`: one picture per face with its bleed, exactly the pixels
asked (at --dpi, or a print shop's published size), RGB without alpha, each face once,
and the same pixels as the face on the kit's sheets."""

import json
import re
from collections import Counter
from fractions import Fraction
from math import floor
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image, ImageChops, ImageStat

from companion import export, kit
from companion.press import presets
from companion.errors import CompanionError
from companion.export import face_pages, raster, shops
from companion.press.imposition import plan_grid
from companion.draw.print_sheets import Face

MM = 72 / 25.4


@pytest.fixture(scope="module")
def covenia_png(tmp_path_factory):
    out = tmp_path_factory.mktemp("png") / "covenia-png"
    return out, export.export("covenia", "png", export.Options(out=out))


def open_rgb(path: Path) -> Image.Image:
    image = Image.open(path)
    image.load()
    return image


def test_every_face_is_an_rgb_picture_of_exactly_the_trim_and_bleed_at_300_dpi(covenia_png):
    out, manifest = covenia_png
    pngs = sorted(out.rglob("*.png"))
    assert len(pngs) == manifest["faces"]  # Covenia: no face shows on two files
    for path in pngs:
        image = open_rgb(path)
        assert image.format == "PNG" and image.mode == "RGB", path  # no alpha, no palette
        assert "transparency" not in image.info
    sizes = {c["id"]: tuple(c["size_px"]) for c in manifest["components"]}
    assert sizes["clan-cards"] == (825, 1125)  # 2.75 x 3.75 in: poker with 1/8 in bleed
    assert sizes["tokens"] == (round((38 + 2 * 3.175) / 25.4 * 300),) * 2
    for comp in manifest["components"]:
        for f in comp["faces"]:
            for side in ("front", "back"):
                if f[side]:
                    assert open_rgb(out / f[side]).size == tuple(comp["size_px"])


def test_one_file_per_distinct_face_with_each_cards_count(covenia_png):
    out, manifest = covenia_png
    laid_out = kit.prepare("covenia", kit.Options())
    expected = {c.id: c.count for _, c in laid_out.card_components()}
    for comp in manifest["components"]:
        assert sum(f["count"] for f in comp["faces"]) == comp["cards"] == expected[comp["id"]]
        on_disk = {p.relative_to(out).as_posix() for p in (out / comp["id"]).iterdir()}
        listed = {f[s] for f in comp["faces"] for s in ("front", "back") if f[s]}
        assert on_disk == listed
    comps = {c["id"]: c for c in manifest["components"]}
    # 100 different clan cards, one back shared by all: written once as back.png
    assert len(comps["clan-cards"]["faces"]) == 100
    assert comps["clan-cards"]["back"] == "clan-cards/back.png"
    assert not list((out / "clan-cards").glob("*-back.png"))
    # the four identical aids are one card with a count of 4
    assert [(f["id"], f["count"]) for f in comps["aids"]["faces"]] == [("aid", 4)]
    # the two tokens have different backs: one back file each
    assert sorted(p.name for p in (out / "tokens").iterdir()) == [
        "first-player-back.png", "first-player-front.png", "shield-back.png",
        "shield-front.png"]
    assert set(manifest["files"]) == {p.relative_to(out).as_posix()
                                      for p in out.rglob("*") if p.is_file()}


def test_cards_with_the_same_keyed_faces_are_one_face_with_their_count(tmp_path):
    manifest = export.export("vengeance", "png", export.Options(
        out=tmp_path / "v", only=["objects"], dpi=72))
    (objects,) = manifest["components"]
    assert objects["cards"] == 66
    assert [f["count"] for f in objects["faces"]] == [26, 22, 18]
    assert len(list((tmp_path / "v" / "objects").iterdir())) == 4  # 3 fronts, 1 back


def render_sheet_card(pdf: Path, page: int, box, dpi: int) -> Image.Image:
    doc = pdfium.PdfDocument(str(pdf))
    p = doc[page]
    s = dpi / 72
    image = p.render(scale=s).to_pil().convert("RGB")
    H = p.get_height()
    return image.crop((round(box.x * s), round((H - box.top) * s),
                       round(box.right * s), round((H - box.y) * s)))


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.resize(b.size), b)).mean) / 3


def test_a_png_face_is_the_face_on_the_kits_sheets(tmp_path, cli):
    assert cli("build", "covenia", "--out", tmp_path / "kit").code == 0
    manifest = export.export("covenia", "png", export.Options(
        out=tmp_path / "png", bleed="0mm", only=["cards", "temple"]))
    grid = plan_grid(*presets.paper_size("a4"), *presets.card_size("poker"),
                     presets.sheet_settings(), 0.0)
    per = grid.per_sheet
    pdf = tmp_path / "kit" / "cards.pdf"
    checks = [(0, "clan-cards/red-1A-front.png", False),
              (57, "clan-cards/red-8B-front.png", False),
              (101, "temple/yellow-front.png", False), (3, "clan-cards/back.png", True)]
    for index, png, back in checks:
        sheet, slot = divmod(index, per)
        placed = grid.back(slot, "long") if back else grid.front(slot)
        assert placed.rotation == 0
        on_sheet = render_sheet_card(pdf, 2 * sheet + back, placed.box, 300)
        face = open_rgb(tmp_path / "png" / png)
        assert face.size == (750, 1050)
        assert mean_difference(on_sheet, face) < 4, png
    # and the comparison tells faces apart: another card's face is far off
    other = open_rgb(tmp_path / "png" / "temple/green-front.png")
    on_sheet = render_sheet_card(pdf, 2 * (101 // per), grid.front(101 % per).box, 300)
    assert mean_difference(on_sheet, other) > 10


# ---- exact pixel sizes -----------------------------------------------------------------

def full_bleed(c, w, h, bleed):
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


def rasterized(tmp_path, pic: shops.Picture) -> Image.Image:
    pdf = tmp_path / "one.pdf"
    face_pages.write_pdf(pdf, [face_pages.Page(Face(full_bleed), pic.trim, pic.bleed)], "t", "a")
    image = raster.picture(pdfium.PdfDocument(str(pdf)),
                           raster.Job(("x.png",), pic.px, (raster.Tile(0, 0, 0, *pic.px),)))
    return image


def exact_inches(card: str) -> tuple[Fraction, Fraction]:
    """A preset's size from presets.toml's own text, in exact fractions of an inch."""
    text = presets.table().sub("card").sub(card).get("size", str)
    w, h, unit = re.fullmatch(r"([0-9.]+)x([0-9.]+)(mm|in)", text).groups()
    per_inch = Fraction(254, 10) if unit == "mm" else Fraction(1)
    return Fraction(w) / per_inch, Fraction(h) / per_inch


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dpi=st.integers(72, 1200), card=st.sampled_from(presets.card_names()),
       bleed=st.sampled_from(["0mm", "2mm", "3mm", "0.125in", "5mm"]))
def test_a_face_is_exactly_its_inches_times_dpi_whatever_the_rounding(tmp_path, dpi, card,
                                                                      bleed):
    w_in, h_in = exact_inches(card)
    b_in = Fraction(bleed[:-2]) / (Fraction(254, 10) if bleed.endswith("mm") else 1)
    # the nearest whole pixel, a half up, from exact arithmetic
    want = tuple(floor((side + 2 * b_in) * dpi + Fraction(1, 2)) for side in (w_in, h_in))
    pic = shops.picture(presets.card_size(card), presets.bleed(bleed), dpi)
    assert pic.px == want
    image = rasterized(tmp_path, pic)
    assert image.size == want and image.mode == "RGB"
    # the bleed runs to every edge: no white row or column from pixel rounding
    for xy in [(0, 0), (want[0] - 1, 0), (0, want[1] - 1), (want[0] - 1, want[1] - 1)]:
        assert image.getpixel(xy) == (51, 102, 153), (xy, image.getpixel(xy))


@pytest.mark.parametrize("dpi,card,bleed,want", [
    (300, "poker", 9.0, (825, 1125)), (557, "poker", 9.0, (1532, 2089)),
    (557, "poker", 0.0, (1393, 1950)),  # 1392.5 px across: a half, up
    (72, "bridge", 9.0, (180, 270)), (1200, "tarot", 9.0, (3607, 5969))])
def test_known_sizes(dpi, card, bleed, want):
    assert shops.picture(presets.card_size(card), bleed, dpi).px == want


def test_the_game_crafters_poker_card_is_exactly_825_by_1125_with_an_eighth_inch_bleed():
    tgc = shops.shop("tgc")
    poker = tgc.card("poker")
    assert poker.image == (825, 1125) and tgc.dpi == 300
    assert shops.card_bleed(poker, 300) == pytest.approx((9.0, 9.0))  # 1/8 in, points
    mpc = shops.shop("mpc").card("poker")
    assert mpc.image == (822, 1122)
    assert shops.card_bleed(mpc, 300) == pytest.approx((36 * 72 / 300,) * 2)  # 36 px a side


SHOP_SIZES = [(s, name) for s in shops.names() for name in shops.shop(s).cards]


@pytest.mark.parametrize("shop,size", SHOP_SIZES)
def test_every_shop_size_gives_exactly_the_shops_pixels(tmp_path, shop, size):
    out = tmp_path / "x"
    manifest = export.export("coverta", "png", export.Options(
        out=out, only=["memo"], shop=shop, card_size=size))
    want = shops.shop(shop).card(size).image
    (memo,) = manifest["components"]
    assert tuple(memo["size_px"]) == want
    files = sorted(out.rglob("*.png"))
    assert len(files) == 2  # the memo's front, and its back
    for path in files:
        image = open_rgb(path)
        assert image.size == want and image.mode == "RGB"
    assert shops.shop(shop).name in (out / "guide.txt").read_text()


def test_every_shop_preset_has_a_whole_bleed_around_its_trim():
    for key in shops.names():
        shop = shops.shop(key)
        for card in shop.cards.values():
            bx, by = shops.card_bleed(card, shop.dpi)
            assert 2 * MM <= bx <= 5 * MM and 2 * MM <= by <= 5 * MM, (key, card.name)


def test_a_shop_refuses_a_card_size_it_does_not_make_naming_those_it_does():
    with pytest.raises(CompanionError) as e:
        export.plan("covenia", "png", export.Options(shop="mpc", card_size="euro"))
    assert e.value.field == "--card-size"
    assert "MakePlayingCards" in e.value.message and "poker, bridge, tarot" in e.value.message


def test_png_manifest_records_the_pixels_and_each_face(covenia_png):
    out, manifest = covenia_png
    on_disk = json.loads((out / "manifest.json").read_text())
    assert on_disk == manifest
    assert on_disk["format"] == "png" and on_disk["dpi"] == 300 and on_disk["shop"] is None
    counts = Counter(f for c in manifest["components"] for f in
                     [x["front"] for x in c["faces"]])
    assert max(counts.values()) == 1  # every front its own file
