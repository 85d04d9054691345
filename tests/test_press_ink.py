"""Issue 51: the shops' press rules as data (page order, ink limit, rich black, safe zone,
sizes) and the ink arithmetic (grey component replacement, then scaling; the black rule)."""

import pikepdf
import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image

from companion import export
from companion.export import shops
from companion.press import cmyk, ink
from tests import pdfx_game

unit = st.floats(0, 1)


@given(st.tuples(unit, unit, unit, unit), st.floats(1.0, 4.0))
@settings(max_examples=300, deadline=None)
def test_a_limited_colour_is_within_the_limit_and_changes_only_when_over(c, total):
    got = ink.limit(c, total)
    assert sum(got) <= total + 1e-9 and all(0 <= v <= 1 for v in got)
    if sum(c) <= total:
        assert got == pytest.approx(c)
    else:  # ink moved to black first: K never less than it was
        assert got[3] >= c[3] - 1e-12


def test_grey_component_goes_to_black_before_anything_is_scaled():
    # 80+70+70+60 = 280: moving 20 of the common grey to K brings it to 240, unscaled
    assert ink.limit((0.8, 0.7, 0.7, 0.6), 2.4) == pytest.approx((0.6, 0.5, 0.5, 0.8))


def test_near_black_is_by_lightness_and_chroma_or_named_by_the_game():
    rules = ink.Rules()
    for text in ("#000000", "#222222", "#2B2233", "#1D1D1F", "#26221F", "#1E1A22"):
        assert ink.near_black([int(text[i:i + 2], 16) / 255 for i in (1, 3, 5)], rules), text
    for text in ("#0A1478", "#808080", "#1D6F8C"):  # saturated dark blue; grey; a blue
        assert not ink.near_black([int(text[i:i + 2], 16) / 255 for i in (1, 3, 5)], rules)
    named = ink.Rules(inks=frozenset({(128, 128, 128)}))
    assert ink.near_black((128 / 255,) * 3, named)


def test_near_black_prints_as_black_ink_alone_at_the_k_of_its_lightness():
    press = shops.shop("drivethrucards").press
    conv = cmyk.Converter(cmyk.load(), ink.Rules(press.ink_limit, press.rich_black))
    c, m, y, k = conv.ink((0x2B / 255, 0x22 / 255, 0x33 / 255))  # Covenia's words
    assert (c, m, y) == (0, 0, 0) and k > 0.9
    own = conv.colour((0x2B / 255, 0x22 / 255, 0x33 / 255))
    assert sum(own) <= 2.4 and min(own[:3]) > 0  # its four inks, for a large area
    assert conv.area((0, 0, 0)) == press.rich_black  # black, large: the rich black
    assert sum(conv.colour((0, 0, 0))) <= 2.4


def test_a_picture_through_the_limited_table_is_within_the_limit():
    conv = cmyk.Converter(cmyk.load(), ink.Rules(2.4))
    im = Image.new("RGB", (256, 64))
    im.putdata([(x, (x * 7) % 256, (x * 13 + y) % 256) for y in range(64) for x in range(256)])
    assert ink.picture_max(conv.picture(im)) <= 2.4
    assert ink.picture_max(cmyk.Converter(cmyk.load()).picture(Image.new("RGB", (1, 1)))) > 2.5


def test_drivethrucards_data_as_its_specification_gives_it():
    s = shops.shop("drivethrucards")
    assert s.press.order == "back-first" and s.press.ink_limit == 2.4
    assert s.press.rich_black == (0.6, 0.4, 0.4, 1.0)
    assert s.press.safe == pytest.approx(9.0)  # 1/8 in
    assert {n: c.trim_text for n, c in s.cards.items()} == {
        "poker": "2.5x3.5in", "tarot": "2.75x4.75in", "mini": "1.75x2.5in"}
    for card in s.cards.values():  # 1/8 in of bleed on every side at 300 dpi
        assert shops.card_bleed(card, s.dpi) == pytest.approx((9.0, 9.0))


@pytest.mark.parametrize("order, expected", [
    ("back-first", [1, 0, 1, 0, 1, 2]),
    ("front-first", [0, 1, 0, 1, 2, 1]),
    ("backs-last", [0, 0, 2, 1]),  # one back shared: once, last
])
def test_the_page_order_follows_the_shops_data(order, expected):
    press = shops.Press(order, 2.4, (0.6, 0.4, 0.4, 1.0), 9.0)
    assert press.pages([(0, 1, 2), (2, 1, 1)]) == expected
    if order == "backs-last":  # backs that differ: all of them, card by card
        assert press.pages([(0, 1, 1), (2, 3, 2)]) == [0, 2, 2, 1, 3, 3]


def test_longpack_its_own_bleed_ink_and_order(tmp_path):
    s = shops.shop("longpack")
    assert s.press.order == "backs-last" and s.press.ink_limit == 2.8
    bx, by = shops.card_bleed(s.cards["poker"], s.dpi)
    assert bx == pytest.approx(3 * 72 / 25.4, abs=0.2) and by == pytest.approx(3 * 72 / 25.4,
                                                                               abs=0.2)
    game = pdfx_game.make(tmp_path / "vocab")
    m = export.export(str(game), "pdfx", export.Options(out=tmp_path / "x", shop="longpack",
                                                        only=["aids"]))
    (comp,) = m["components"]
    assert m["page_order"] == "backs-last" and m["ink_limit"] == 280
    cards = sum(f["count"] for f in comp["faces"])
    with pikepdf.open(tmp_path / "x" / comp["path"]) as pdf:
        assert len(pdf.pages) == cards + 1  # the fronts, then the back they share
        contents = [p.obj.Contents.objgen for p in pdf.pages]
        assert contents[-1] not in contents[:-1]


def test_a_game_names_its_own_ink_colours(tmp_path):
    """`[press] inks = ["accent"]`: the starter's blue accent printed as black ink alone,
    at the K of its lightness (not the K100 of a near-black)."""
    game = pdfx_game.make(tmp_path / "vocab")
    game.write_text(game.read_text(encoding="utf-8") + '\n[press]\ninks = ["accent"]\n',
                    encoding="utf-8")
    m = export.export(str(game), "pdfx", export.Options(out=tmp_path / "x", only=["aids"]))
    with pikepdf.open(tmp_path / "x" / m["components"][0]["path"]) as pdf:
        ks = {tuple(float(v) for v in a) for a, o in pikepdf.parse_content_stream(pdf.pages[1])
              if str(o) == "k"}
    assert any(k[:3] == (0, 0, 0) and 0.5 < k[3] < 0.9 for k in ks), ks


EVERY_ELEMENT = '''
[[kinds.creature.elements]]
type = "circle"
x = 0.2
y = 0.3
r = 0.05
fill = "sand"
stroke = "ink"

[[kinds.creature.elements]]
type = "line"
x1 = 0.1
y1 = 0.62
x2 = 0.9
y2 = 0.62
stroke = "ink"

[[kinds.creature.elements]]
type = "corners"
[[kinds.creature.elements.elements]]
type = "text"
text = "{points}"
x = 0.05
y = 0.05
size = 0.04

[[kinds.creature.elements]]
type = "image"
file = "art/flat.png"
x = 0.6
y = 0.2
w = 0.2
h = 0.1

[[kinds.creature.elements]]
type = "card"
kind = "tide"
x = 0.55
y = 0.35
w = 0.3
h = 0.3
fields = { title = "{title}", text = "{text}" }

[[kinds.creature.elements]]
type = "table"
rows = ["points"]
columns = 2
x = 0.1
y = 0.8
w = 0.4
h = 0.1
grid = "accent"
[[kinds.creature.elements.cell]]
type = "text"
text = "{value}{column}"
x = 0.1
y = 0.7
size = 0.5

[[kinds.creature.elements]]
type = "qr"
code = "code128"
data = "{title}"
x = 0.1
y = 0.9
w = 0.3
h = 0.05
'''


def _unembedded(pdf) -> list[str]:
    """pdffonts' rows of `pdf` whose font is not embedded."""
    from tests.needs import tool
    import subprocess

    rows = subprocess.run([tool("pdffonts"), str(pdf)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    return [r for r in rows if r.split()[-5] != "yes"]


def test_a_game_with_every_element_type_builds_with_embedded_fonts_and_goes_to_press(
        tmp_path, cli):
    """Every documented element (the starter's own: background, rect, symbol, picture,
    text, textblock, badge, bullets on its aid; added: circle, line, corners, image, card,
    table, a QR code and a Code 128 barcode): the kit's PDFs name only embedded fonts and
    the game exports to pdfx, through the preflight, within 240 % ink."""
    game = pdfx_game.make(tmp_path / "vocab")
    Image.new("RGB", (40, 20), (200, 40, 40)).save(tmp_path / "vocab" / "art" / "flat.png")
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("[kinds.tide]\n", EVERY_ELEMENT + "\n[kinds.tide]\n", 1),
                    encoding="utf-8")
    r = cli("build", game, "--out", tmp_path / "kit")
    assert r.code == 0, r.out + r.err
    pdfs = sorted((tmp_path / "kit").glob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        assert _unembedded(pdf) == [], pdf.name
    m = export.export(str(game), "pdfx", export.Options(out=tmp_path / "x"))
    for comp in m["components"]:
        r = cli("preflight", tmp_path / "x" / comp["path"], "--ink-limit", "240")
        assert r.code == 0 and "passes" in r.out, r.out


@pytest.mark.parametrize("game", ["covenia", "coverta", "lugvanion", "vengeance"])
def test_every_built_kit_names_only_embedded_fonts(game, tmp_path, cli):
    r = cli("build", game, "--out", tmp_path / game)
    assert r.code == 0, r.out + r.err
    pdfs = sorted((tmp_path / game).glob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        assert _unembedded(pdf) == [], pdf.name


EDGE = '''[[kinds.creature.elements]]
type = "text"
text = "edge"
x = "3.1mm"
y = 0.5
size = 0.05
align = "left"
'''


def test_text_at_3_1_mm_from_the_trim_warns_naming_the_card_for_drivethrucards(tmp_path, cli):
    """DriveThruCards' safe zone is 1/8 in (3.175 mm): a text 3.1 mm from the trim is a
    warning naming each card (the build's own 3 mm let it pass); --strict refuses; at
    LongPack (3 mm) it is within."""
    game = pdfx_game.make(tmp_path / "vocab")
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("[kinds.tide]\n", EDGE + "\n[kinds.tide]\n", 1),
                    encoding="utf-8")
    r = cli("export", game, "pdfx", "--only", "cards", "--out", tmp_path / "x")
    assert r.code == 0, r.err
    lines = [ln for ln in r.err.splitlines() if "safe zone" in ln]
    assert any("cards hermit-crab" in ln and "(“edge”)" in ln and "3.175 mm" in ln
               for ln in lines), r.err
    assert all("edge" in ln for ln in lines)  # no other text of the starter is as near
    r = cli("export", game, "pdfx", "--only", "cards", "--out", tmp_path / "y", "--strict")
    assert r.code == 2 and "safe zone" in r.err and not (tmp_path / "y").exists()
    r = cli("export", game, "pdfx", "--only", "cards", "--out", tmp_path / "z",
            "--shop", "longpack")
    assert r.code == 0 and "safe zone" not in r.err, r.err


def test_pdfx_is_byte_identical_under_source_date_epoch(tmp_path, monkeypatch):
    """Issue 50's point, here: two exports of a designer's game (a veil, a flattened
    region, a QR code, her pictures) under one SOURCE_DATE_EPOCH, the second from a warm
    cache, are equal byte for byte, every file; the date is the epoch's."""
    import os
    import subprocess
    import sys

    game = pdfx_game.make(tmp_path / "vocab")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000",
           "TABLE_COMPANION_CACHE": str(tmp_path / "cache")}
    outs = []
    for n in (1, 2):
        out = tmp_path / f"x{n}"
        r = subprocess.run([sys.executable, "-m", "companion", "export", str(game), "pdfx",
                            "--out", str(out)], env=env, capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stderr
        outs.append(out)
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
    assert len(files) >= 3
    for f in files:
        assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f
    with pikepdf.open(outs[0] / "cards.pdf") as pdf:
        assert str(pdf.docinfo["/CreationDate"]) == "D:20231114221320Z"


@pytest.mark.parametrize("sheet", ["avery-5294", "hama-50151"])
def test_on_round_labels_no_glyph_crosses_its_circle(sheet, tmp_path, cli):
    """The starter's aid (a title, bullets with marks) on round labels: every word's box
    (pdftotext's, from the PDF's glyphs) lies inside its label's circle. On the small
    Hama label its four bullets cannot fit the circle's square at the floor size: the
    build says which (a text limit: --strict refuses); a short one fits, inside."""
    import re
    import subprocess

    from companion.press import label_sheets
    from tests.needs import tool

    game = pdfx_game.make(tmp_path / "vocab")
    text = game.read_text(encoding="utf-8")
    text = text.replace('id_else = "aid"\n', f'id_else = "aid"\nlabel_sheet = "{sheet}"\n', 1)
    game.write_text(text, encoding="utf-8")
    if sheet == "hama-50151":
        r = cli("build", game, "--out", tmp_path / "warned")  # a text limit: --strict refuses
        assert "aids-aid · lines[3] · en: does not fit its box" in r.err, r.err
        lines = text[text.index("lines = [\n"):text.index("\n]\n") + 3]
        keep = "\n".join(lines.splitlines()[:1] + lines.splitlines()[2:3]) + "\n]\n"  # the 2nd
        game.write_text(text.replace(lines, keep, 1), encoding="utf-8")
    r = cli("build", game, "--out", tmp_path / "kit")
    assert r.code == 0, r.out + r.err
    (pdf,) = (tmp_path / "kit").glob("labels-*.pdf")
    layout = label_sheets.find(sheet, None, None)
    ph = layout.paper[1]
    words = subprocess.run([tool("pdftotext"), "-bbox", "-f", "2", "-l", "2", str(pdf), "-"],
                           capture_output=True, text=True, check=True).stdout
    boxes = [tuple(float(v) for v in b) for b in re.findall(
        r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"', words)]
    assert len(boxes) > 5
    for x0, y0, x1, y1 in boxes:
        corners = [(x, ph - y) for x in (x0, x1) for y in (y0, y1)]  # to PDF's y up
        label = min(layout.places, key=lambda p: (p.x + p.w / 2 - (x0 + x1) / 2) ** 2
                    + (p.y + p.h / 2 - (ph - (y0 + y1) / 2)) ** 2)
        cx, cy, radius = label.x + label.w / 2, label.y + label.h / 2, label.w / 2
        for x, y in corners:
            assert (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2, (sheet, (x0, y0, x1, y1))


def test_a_sheet_may_give_its_labels_a_bleed():
    from companion.files.data import Fields
    from companion.press import label_sheets

    t = {"paper": "210x297mm", "label": "40x40mm", "shape": "circle", "cols": 1, "rows": 1,
         "left": "10mm", "top": "10mm", "pitch": "50x50mm", "bleed": "2mm"}
    s = label_sheets.template("mine", Fields(t, "game.toml", "label_sheets.mine"))
    assert s.bleed == pytest.approx(2 * 72 / 25.4)
    x, y, w, h = s.content(*s.label)
    assert w == pytest.approx(s.label[0] / 2 ** 0.5) and x == pytest.approx((s.label[0] - w) / 2)
    with pytest.raises(Exception, match="bleed"):
        label_sheets.template("mine", Fields({**t, "bleed": "9mm"}, "game.toml", "label_sheets.mine"))


def test_each_distinct_face_is_checked_once_and_the_pages_ordered_after(tmp_path, monkeypatch):
    """The aids: 4 copies of one aid and their back, 8 pages in DriveThruCards' order; the
    preflight reads the 2 distinct pages once, the file's repeated pages share them."""
    from companion.press import preflight

    checked = []
    real = preflight.check

    def counting(data, *a, **k):
        with pikepdf.open(__import__("io").BytesIO(data)) as pdf:
            checked.append(len(pdf.pages))
        return real(data, *a, **k)

    monkeypatch.setattr(preflight, "check", counting)
    game = pdfx_game.make(tmp_path / "vocab")
    m = export.export(str(game), "pdfx", export.Options(out=tmp_path / "x", only=["aids"]))
    assert checked == [2]
    with pikepdf.open(tmp_path / "x" / m["components"][0]["path"]) as pdf:
        assert len(pdf.pages) == 8
        contents = [p.obj.Contents.objgen for p in pdf.pages]
        assert len(set(contents)) == 2 and contents[0] == contents[2] != contents[1]
        assert len({p.objgen for p in pdf.pages}) == 8  # each page its own object
    assert real((tmp_path / "x" / m["components"][0]["path"]).read_bytes(), bleed=9.0,
                ink_limit=2.4) == []


def test_a_deck_over_what_the_shop_takes_is_refused_before_any_work(tmp_path, cli):
    game = pdfx_game.make(tmp_path / "vocab")
    rows = (tmp_path / "vocab" / "cards.csv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    qty = header.index("qty")
    for i in range(1, len(rows)):  # every row 999 times (the most a row may ask)
        cells = rows[i].split(",")
        cells[qty] = "999"
        rows[i] = ",".join(cells)
    (tmp_path / "vocab" / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    r = cli("export", game, "pdfx", "--out", tmp_path / "x")
    assert r.code == 2 and "cards: " in r.err and "over the 5,000" in r.err, r.err
    assert not (tmp_path / "x").exists()


def test_the_5160_alignment_page_shows_all_30_outlines(tmp_path, cli):
    """The words in the middle of the alignment page hid 6 of Avery 5160's outlines: every
    label's centre cross now shows (rendered at 100 dpi, its centre pixel not white)."""
    import pypdfium2 as pdfium

    from companion.press import label_sheets

    game = pdfx_game.make(tmp_path / "vocab")
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('id_else = "aid"\n', 'id_else = "aid"\nlabel_sheet = "avery-5160"\n',
                                 1), encoding="utf-8")
    r = cli("build", game, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    sheet = label_sheets.find("avery-5160", None, None)
    doc = pdfium.PdfDocument(str(tmp_path / "kit" / "labels-avery-5160.pdf"))
    im = doc[0].render(scale=100 / 72).to_pil().convert("L")
    ph = sheet.paper[1]
    s = 100 / 72
    shown = [min(im.getpixel((round((b.x + b.w / 2) * s) + dx, round((ph - b.y - b.h / 2) * s)))
                 for dx in (-1, 0, 1)) < 200 for b in sheet.places]
    assert len(shown) == 30 and all(shown), shown


def test_each_font_subset_in_a_pdfx_file_has_a_tag_of_its_own(tmp_path):
    import re

    game = pdfx_game.make(tmp_path / "vocab")
    m = export.export(str(game), "pdfx", export.Options(out=tmp_path / "x", only=["aids"]))
    with pikepdf.open(tmp_path / "x" / m["components"][0]["path"]) as pdf:
        tags = [str(o.BaseFont)[1:7] for o in pdf.objects
                if isinstance(o, pikepdf.Dictionary) and str(o.get("/Type")) == "/Font"]
        names = [str(o.FontName) for o in pdf.objects
                 if isinstance(o, pikepdf.Dictionary) and str(o.get("/Type")) == "/FontDescriptor"]
    assert len(tags) >= 2 and len(set(tags)) == len(tags) and "AAAAAA" not in tags
    assert all(re.fullmatch(r"/[A-Z]{6}\+\S+", n) for n in names)


def test_the_docs_give_the_profile_version_the_file_has():
    from pathlib import Path

    data = cmyk.shipped().read_bytes()
    version = f"{data[8]}.{data[9] >> 4}.{data[9] & 15}"  # the ICC header's bytes 8-9
    docs = (Path(__file__).resolve().parents[1] / "docs" / "pdfx.md").read_text(encoding="utf-8")
    assert f"ICC version {version}" in docs


def _hard_edges() -> Image.Image:
    """A picture of hard edges: one-pixel lines and blocks of saturated colours on white,
    where a JPEG at quality 92 was off by up to 85 of 255."""
    from PIL import ImageDraw

    im = Image.new("RGB", (300, 60), (255, 255, 255))
    d = ImageDraw.Draw(im)
    for i, colour in enumerate([(0, 0, 0), (230, 20, 20), (20, 160, 40), (20, 40, 220),
                                (250, 220, 0), (200, 0, 200)]):
        d.rectangle((i * 50 + 5, 5, i * 50 + 30, 40), fill=colour)
        d.line((i * 50 + 35, 0, i * 50 + 35, 59), fill=colour)
        d.point([(i * 50 + 40 + k, 50 + k % 3) for k in range(8)], fill=colour)
    return im


def test_a_designers_lossless_picture_is_in_the_kit_pixel_for_pixel_and_in_the_press_file(
        tmp_path, cli):
    """Her PNG of hard edges, built into the kit: the picture in the PDF is deflated and
    its pixels are hers, every one; her half-transparent PNG keeps its colour and alpha
    exactly. The press file's picture is the shop's CMYK of her exact pixels."""
    from pikepdf import PdfImage

    game = pdfx_game.make(tmp_path / "vocab")
    mine = _hard_edges()
    mine.save(tmp_path / "vocab" / "art" / "dark.png")
    moon = Image.open(tmp_path / "vocab" / "art" / "moon.png").convert("RGBA")
    r = cli("build", game, "--out", tmp_path / "kit", "--only", "cards")
    assert r.code == 0, r.out + r.err
    with pikepdf.open(tmp_path / "kit" / "cards.pdf") as pdf:
        pictures = {(int(x.Width), int(x.Height)): x for x in pdf.objects
                    if isinstance(x, pikepdf.Stream) and str(x.get("/Subtype")) == "/Image"
                    and str(x.get("/ColorSpace")) == "/DeviceRGB"}
        dark = pictures[(300, 60)]
        assert str(dark.Filter) == "/FlateDecode" or list(dark.Filter) == ["/FlateDecode"]
        assert PdfImage(dark).as_pil_image().convert("RGB").tobytes() == mine.tobytes()
        shown = pictures[moon.size]
        assert PdfImage(shown).as_pil_image().convert("RGB").tobytes() == \
            moon.convert("RGB").tobytes()
        assert PdfImage(shown.SMask).as_pil_image().tobytes() == \
            moon.getchannel("A").tobytes()
    m = export.export(str(game), "pdfx", export.Options(out=tmp_path / "x", only=["cards"]))
    limit = shops.shop("drivethrucards").press.ink_limit
    want = cmyk.Converter(cmyk.load(), ink.Rules(limit)).picture(mine).tobytes()
    with pikepdf.open(tmp_path / "x" / m["components"][0]["path"]) as pdf:
        (printed,) = [x for x in pdf.objects if isinstance(x, pikepdf.Stream)
                      and str(x.get("/Subtype")) == "/Image"
                      and (int(x.Width), int(x.Height)) == (300, 60)]
        assert PdfImage(printed).as_pil_image().tobytes() == want


def _subset_tags(pdf_path) -> list[str]:
    with pikepdf.open(pdf_path) as pdf:
        return sorted(str(o.BaseFont)[1:] for o in pdf.objects
                      if isinstance(o, pikepdf.Dictionary) and str(o.get("/Type")) == "/Font"
                      and "/FontDescriptor" in o)


def test_two_subsets_of_one_font_in_a_file_have_tags_of_their_own_made_of_what_they_hold(
        tmp_path):
    """PDF 32000-1 9.6.4: a subset's tag is six capitals, another for another subset in
    the file. Text of more characters than one subset holds (Latin, Greek, Cyrillic):
    two subsets of one font, two tags (reportlab's were AAAAAA and AAAAAB, every font's
    first AAAAAA), none of them a number; the same text saved again, the same tags."""
    import re

    from companion.press import fonts
    from companion.press.pdf import open_canvas

    text = "".join(map(chr, [*range(0x21, 0x7F), *range(0xC0, 0x17F), *range(0x391, 0x3A2),
                             *range(0x3A3, 0x3CA), *range(0x410, 0x450)]))
    tags = []
    for n in (1, 2):
        c = open_canvas(tmp_path / f"t{n}.pdf", (900, 300), "t", "t")
        c.setFont(fonts.font("regular"), 6)
        for row in range(0, len(text), 120):
            c.drawString(10, 280 - row / 6, text[row:row + 120])
        c.setFont(fonts.font("bold"), 6)
        c.drawString(10, 20, "Covenia")
        c.showPage()
        c.save()
        tags.append(_subset_tags(tmp_path / f"t{n}.pdf"))
    names = tags[0]
    assert tags[0] == tags[1]  # a rebuild: the same tags
    regular = [t for t in names if t.endswith("+DejaVuSans")]
    assert len(regular) == 2 and len(names) == 3
    assert all(re.fullmatch(r"[A-Z]{6}\+\S+", t) for t in names)
    assert len({t[:6] for t in names}) == 3 and not {"AAAAAA", "AAAAAB"} & {t[:6] for t in names}


def test_every_font_subset_in_a_built_kit_has_a_tag_of_its_own(tmp_path, cli):
    """pdffonts of Covenia's kit: in each file, each subset a tag of its own; a rebuild
    writes the same tags."""
    import subprocess

    builds = []
    for n in (1, 2):
        r = cli("build", "covenia", "--out", tmp_path / f"k{n}")
        assert r.code == 0, r.out + r.err
        builds.append({pdf.name: _subset_tags(pdf) for pdf in (tmp_path / f"k{n}").glob("*.pdf")})
    assert builds[0] == builds[1] and builds[0]
    for name in builds[0]:
        listed = subprocess.run(["pdffonts", tmp_path / "k1" / name], capture_output=True,
                                text=True, check=True).stdout.splitlines()[2:]
        tags = [line.split("+")[0] for line in listed]
        assert tags and len(set(tags)) == len(tags) and "AAAAAA" not in tags, (name, listed)


def test_a_designer_may_ask_for_a_jpeg_of_her_lossless_picture(tmp_path, cli):
    """`jpeg = true` on an image: her PNG painting goes into the kit as a JPEG (a far
    smaller file), cached under a name of its own; the same PNG on another element
    without it stays deflated."""
    game = pdfx_game.make(tmp_path / "vocab")
    _hard_edges().save(tmp_path / "vocab" / "art" / "dark.png")
    text = game.read_text(encoding="utf-8")
    asked = pdfx_game.DARK_PICTURE.replace('fit = "stretch"\n', 'fit = "stretch"\njpeg = true\n', 1)
    assert asked != pdfx_game.DARK_PICTURE
    game.write_text(text.replace(pdfx_game.DARK_PICTURE, asked, 1), encoding="utf-8")
    assert _dark_filters(cli, game, tmp_path / "kit") == ["/DCTDecode"]
    game.write_text(text, encoding="utf-8")  # not asked: deflated, beside the JPEG
    assert _dark_filters(cli, game, tmp_path / "kit2") == ["/FlateDecode"]


def _dark_filters(cli, game, out) -> list[str]:
    """The filters of the 300 x 60 picture in the built kit's cards.pdf."""
    r = cli("build", game, "--out", out, "--only", "cards")
    assert r.code == 0, r.out + r.err
    with pikepdf.open(out / "cards.pdf") as pdf:
        (dark,) = [x for x in pdf.objects if isinstance(x, pikepdf.Stream)
                   and str(x.get("/Subtype")) == "/Image"
                   and (int(x.Width), int(x.Height)) == (300, 60)]
        filters = dark.Filter if isinstance(dark.Filter, pikepdf.Array) else [dark.Filter]
        return [str(f) for f in filters]
