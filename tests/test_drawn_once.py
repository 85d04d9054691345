"""Drawn once per PDF, placed by reference (issue 36): a designer's icon is a Form XObject
made once for each ink and placed at every use; the text fit check still knows which of
the icon's filled shapes lies under a text; the version-stamp check is linear in the
number of faces; a picture is one image in the PDF however often it is placed."""

import re
import zlib

import pypdfium2 as pdfium
from hypothesis import given, settings, strategies as st
from reportlab.lib.colors import HexColor

from companion.draw import icons
from companion.press import presets
from companion.press.pdf import open_canvas
from companion.text import fit
from tests.test_icons import POTION, _loaded
from tests.test_layout_engine import H, W, engine

# The potion's bottom half is its own green (#00FF00), its top half the ink; a faint
# (half transparent) disc over the whole of it.
FAINT = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect x="0" y="0" width="100" height="100" fill="currentColor" fill-opacity="0.5"/>
</svg>"""

# A symbol filling the card's middle, and a text on its green half.
OVER_ICON = {"k": {"elements": [
    {"type": "symbol", "name": "potion", "x": 0.5, "y": 0.5, "r": 0.4, "colour": "red"},
    {"type": "text", "text": "on the green", "x": 0.5, "y": 0.62, "size": 0.04,
     "colour": "ink", "field": "words"}]}}


def _icon(tmp_path, svg: str, name="potion"):
    (tmp_path / "icons").mkdir(exist_ok=True)
    path = tmp_path / "icons" / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return _loaded(path)


def _inline(self, c, cx, cy, r):
    """The drawing replayed op by op where it is used: how an icon was drawn before."""
    from reportlab.lib import colors

    ink = c._fillColorObj
    ink = colors.HexColor("#" + ink.hexval()[2:])
    s = 2 * r / max(self.width, self.height)
    c.saveState()
    c.translate(cx - self.width * s / 2, cy - self.height * s / 2)
    c.scale(s, s)
    icons._replay(c, self.ops, ink)
    c.restoreState()


def _opened(pdf: bytes) -> bytes:
    """The PDF with its streams inflated after it: the drawing operators readable."""
    streams = re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.S)
    inflated = []
    for s in streams:
        try:
            inflated.append(zlib.decompress(s))
        except zlib.error:
            pass
    return pdf + b"\n".join(inflated)


def _canvas(tmp_path, size=(W, H)):
    path = tmp_path / f"out{len(list(tmp_path.glob('out*.pdf')))}.pdf"
    return path, open_canvas(path, size, "test", "")


def _measured(tmp_path, table, loaded, copies=1):
    """(the measures of `copies` faces drawn on one page, the PDF, its streams inflated)."""
    face = engine(table, icons=loaded).face("k", {}, None)
    out, c = _canvas(tmp_path)
    with fit.recording(presets.text_limits()) as rec:
        for n in range(copies):
            rec.wrap(face.draw, f"k{n}")(c, W, H, 0.0)
    c.showPage()
    c.save()
    return rec.measures, _opened(out.read_bytes())


def test_a_text_over_an_icons_filled_shape_is_measured_against_that_shape(tmp_path,
                                                                         monkeypatch):
    """The icon is placed as a form, and the text on its green half is still measured
    against that green: the same ground as when the icon was replayed on the card."""
    loaded = _icon(tmp_path, POTION)
    measures, pdf = _measured(tmp_path, OVER_ICON, loaded)
    assert re.search(rb"/FormXob\.Icon\w+ Do", pdf)  # placed by reference
    text = [m for m in measures if m.field == "words"]
    assert [m.ground for m in text] == [(0.0, 1.0, 0.0)]

    monkeypatch.setattr(icons.Icon, "draw", _inline)
    before, pdf = _measured(tmp_path, OVER_ICON, loaded)
    assert b"/FormXob.Icon" not in pdf
    assert [(m.field, m.box, m.ground) for m in before] == \
        [(m.field, m.box, m.ground) for m in measures]


def test_the_ink_coloured_half_is_a_ground_in_the_symbols_colour(tmp_path):
    table = {"k": {"elements": [OVER_ICON["k"]["elements"][0],
                                {**OVER_ICON["k"]["elements"][1], "y": 0.38}]}}
    measures, _ = _measured(tmp_path, table, _icon(tmp_path, POTION))
    assert [m.ground for m in measures if m.field == "words"] == [(1.0, 0.0, 0.0)]


def test_an_icon_is_drawn_once_per_pdf_for_each_ink(tmp_path):
    """Fifty cards, the icon in red on each: one form in the PDF, fifty placements."""
    measures, pdf = _measured(tmp_path, OVER_ICON, _icon(tmp_path, POTION), copies=50)
    names = re.findall(rb"/FormXob\.(Icon\w+) Do", pdf)
    assert len(names) == 50 and len(set(names)) == 1
    assert pdf.count(b"/Subtype /Form") == 1
    assert sum(m.ground == (0.0, 1.0, 0.0) for m in measures) == 50  # each face its ground

    blue = {"k": {"elements": [{**OVER_ICON["k"]["elements"][0], "colour": "blue"}]}}
    both = {"k": {"elements": OVER_ICON["k"]["elements"] + blue["k"]["elements"]}}
    _, pdf = _measured(tmp_path, both, _icon(tmp_path, POTION), copies=3)
    assert pdf.count(b"/Subtype /Form") == 2  # one per ink


def test_a_transparent_icon_keeps_its_transparency_in_its_form(tmp_path):
    """A form's resources hold its transparency states (reportlab leaves them out): the
    half-transparent red square prints pink on white, placed on a page and inside a
    face that is itself drawn once (a form in a form), as when replayed on the page."""
    loaded = _icon(tmp_path, FAINT)
    table = {"k": {"elements": [{"type": "symbol", "name": "potion", "x": 0.5, "y": 0.5,
                                 "r": 0.4, "colour": "red"}]}}
    face = engine(table, icons=loaded).face("k", {}, None)
    out, c = _canvas(tmp_path, (2 * W, H))
    c.setFillAlpha(0.5)  # a page whose alpha was changed before: the form sets its own
    c.setFillAlpha(1)
    face.draw(c, W, H, 0.0)
    c.beginForm("face", 0, 0, W, H)
    face.draw(c, W, H, 0.0)
    c.endForm()
    c.translate(W, 0)
    c.doForm("face")
    c.showPage()
    c.save()
    pdf = _opened(out.read_bytes())
    assert re.search(rb"/FormXob\.Icon\w+ Do", pdf)
    im = pdfium.PdfDocument(out.read_bytes())[0].render(scale=1).to_pil().convert("RGB")
    for x in (W / 2, W + W / 2):  # on the page, and in the face's form
        r, g, b = im.getpixel((int(x), int(H / 2)))
        assert r == 255 and 120 <= g <= 135 and 120 <= b <= 135, (x, (r, g, b))


def _stamped(faces: int) -> fit.Recorder:
    rec = fit.Recorder(presets.text_limits())
    for n in range(faces):
        face = f"c{n}"
        rec.sizes[face] = (W, H)
        rec.measures += [
            fit.Measure(face, "stamp", "v1", 6, (150, 10, 190, 16), True, False, (0, 0, 0), None),
            fit.Measure(face, "title", f"Card {n}", 10, (20, 250, 180, 262), True, False,
                        (0, 0, 0), None),
            fit.Measure(face, "text", "under it" if n % 2 else "clear", 8,
                        (100, 8, 170, 20) if n % 2 else (20, 40, 90, 60), True, False,
                        (0, 0, 0), None)]
    return rec


def test_the_stamp_check_is_linear_in_the_number_of_faces(monkeypatch):
    """A stamp is compared with its own face's texts only: 20,000 stamped faces of two
    texts each take 40,000 comparisons (it compared every stamp with every text of the
    kit: 20,000 x 60,000). Counted, not timed."""
    rec = _stamped(20000)
    compared = []
    overlap = fit._overlap
    monkeypatch.setattr(fit, "_overlap", lambda a, b: compared.append(1) or overlap(a, b))
    found = rec._stamps_over_texts(set())
    assert [p.face for p in found] == [f"c{n}" for n in range(1, 20000, 2)]
    assert len(compared) == 2 * 20000


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["stamp", "a", "b"]),
                          st.integers(0, 60), st.integers(0, 60)), max_size=40))
def test_the_stamp_check_finds_what_comparing_every_pair_finds(texts):
    rec = fit.Recorder(presets.text_limits())
    for face, field, x, y in texts:
        rec.measures.append(fit.Measure(f"f{face}", field, f"{field}{x}", 8,
                                        (x, y, x + 20, y + 8), True, False, (0, 0, 0), None))
    want, seen = [], set()
    for s in (m for m in rec.measures if m.field == "stamp"):
        for m in rec.measures:
            if m.face == s.face and m.field != "stamp" and fit._overlap(s.box, m.box):
                if (m.face, m.field, m.text, "stamp") not in seen:
                    seen.add((m.face, m.field, m.text, "stamp"))
                    want.append((m.face, m.field, m.text))
    assert [(p.face, p.field, p.text) for p in rec._stamps_over_texts(set())] == want


def test_a_picture_is_one_image_in_the_pdf_however_often_it_is_placed(tmp_path):
    """reportlab names an image by its file and mask and embeds it once: 30 placements
    of two pictures are two image XObjects (what the 2,000-card game relies on)."""
    from PIL import Image

    from companion.draw import picture

    class Pic:
        deflated = False

        def __init__(self, path):
            self.path = str(path)

    pics = []
    for n, colour in enumerate(("red", "blue")):
        path = tmp_path / f"p{n}.jpg"
        Image.new("RGB", (60, 40), colour).save(path)
        pics.append(Pic(path))
    out, c = _canvas(tmp_path)
    for n in range(30):
        picture.draw(c, pics[n % 2], 10, 10, 60, 40)
    c.showPage()
    c.save()
    assert out.read_bytes().count(b"/Subtype /Image") == 2


def test_an_opaque_icon_placed_where_the_alpha_is_lower_stays_opaque(tmp_path):
    """An icon's drawing sets its alpha to 1: in a form, reportlab would leave that out (1
    being PDF's default), and the form would take the half alpha of where it is placed."""
    from reportlab.lib.colors import red

    potion = _icon(tmp_path, POTION)["potion"]
    out, c = _canvas(tmp_path)
    c.setFillColor(red)
    c.setFillAlpha(0.5)
    potion.draw(c, W / 2, H / 2, 80)
    c.showPage()
    c.save()
    assert re.search(rb"/FormXob\.Icon\w+ Do", _opened(out.read_bytes()))
    im = pdfium.PdfDocument(out.read_bytes())[0].render(scale=1).to_pil().convert("RGB")
    assert im.getpixel((int(W / 2), int(H / 2) - 30)) == (255, 0, 0)  # its red half
    assert im.getpixel((int(W / 2), int(H / 2) + 30)) == (0, 255, 0)  # its green half


def test_the_coverage_check_draws_an_icon_once_for_all_the_faces_it_measures(tmp_path,
                                                                             monkeypatch):
    """The poker lay-out the coverage check measures (companion.engine.coverage.printed)
    is drawn on one scratch canvas: forty faces printing the icon replay its drawing once
    (they replayed it forty times, a canvas each), measured as each face alone is."""
    from companion.engine import coverage
    from companion.engine.parts import CardFile

    replays = []
    real = icons._replay
    monkeypatch.setattr(icons, "_replay", lambda *a: replays.append(1) or real(*a))
    loaded = _icon(tmp_path, POTION)
    eng = engine(OVER_ICON, icons=loaded)

    class Card:
        def __init__(self, n):
            self.front, self.back = eng.face("k", {}, None), None

    class Comp:
        id = "cards"
        cards = [Card(n) for n in range(40)]

    measures = coverage.printed([CardFile("cards.pdf", [Comp()], (W, H), "poker")])
    assert len(replays) == 1
    alone, _ = _measured(tmp_path, OVER_ICON, loaded)
    assert [(m.field, m.box, m.ground) for m in measures] == \
        [(m.field, m.box, m.ground) for m in alone] * 40


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.text("xyz ", min_size=1, max_size=6)),
                max_size=12),
       st.lists(st.tuples(st.sampled_from(["a", "b"]), st.text("xyz ", min_size=1, max_size=8)),
                max_size=12))
def test_the_coverage_comparison_finds_what_looking_in_each_text_finds(full, small):
    """Looking for each poker text in the smaller size's words joined (one scan) finds
    what looking in each of them did."""
    from companion.engine import coverage

    def measures(texts, size):
        return [fit.Measure(f"{size} {n}", field, words, 8, (0, 0, 1, 1), True, False,
                            (0, 0, 0), None) for n, (field, words) in enumerate(texts)
                if words.strip()]
    big, little = coverage._texts(measures(full, "poker")), coverage._texts(measures(small, "mini"))
    want = [(face, field, words) for field, texts in big.items()
            if len(little.get(field, {})) < len(texts)
            for folded, (words, face) in texts.items()
            if not any(folded in other for other in little.get(field, {}))]
    got = coverage.missing(measures(full, "poker"), measures(small, "mini"), {}, "mini")
    assert [(p.face, p.field, p.text) for p in got] == want


def test_a_texts_measurement_is_kept_for_every_card_that_prints_it(tmp_path, monkeypatch):
    """A markup text (bold, an icon) on thirty cards: broken into lines and shrunk to its
    box once in the build, not once a card; each card measured and drawn as the first."""
    from companion.engine import markup

    calls = []
    real = markup._lines
    monkeypatch.setattr(markup, "_lines", lambda *a: calls.append(1) or real(*a))
    table = {"k": {"elements": [{"type": "textblock", "text": "**Strong:** gains :potion: when "
                                 "played; twice on turn three, then again and again.",
                                 "x": 0.1, "y": 0.1, "w": 0.8, "h": 0.15, "size": 0.06,
                                 "field": "words"}]}}
    loaded = _icon(tmp_path, POTION)
    one, pdf_one = _measured(tmp_path, table, loaded)
    once = len(calls)
    assert once > 1  # shrunk at least once to fit its box
    thirty, pdf = _measured(tmp_path, table, loaded, copies=30)
    assert len(calls) == 2 * once
    assert [(m.text, m.size, m.box, m.fits) for m in thirty] == \
        [(m.text, m.size, m.box, m.fits) for m in one] * 30
