"""companion.press.pdfx on small pages of our own (reportlab, as the faces draw): what is
blended, what becomes a CMYK picture, what stays vector, and that the printed colour is
the one the RGB page shows."""

import io

import pikepdf
import pytest
from PIL import Image
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader

from companion.press import cmyk, pdfx, preflight
from companion.press.pdf import open_canvas

INTENT = pdfx.Intent("CGATS TR 003", "SWOP 2006 Coated #3")


@pytest.fixture(scope="module")
def conv():
    return cmyk.Converter(cmyk.load())


def _page(draw) -> bytes:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.pdf"
        c = open_canvas(path, (100, 100), "t", "us")
        c.setTrimBox((9, 9, 91, 91))
        c.setBleedBox((0, 0, 100, 100))
        draw(c)
        c.showPage()
        c.save()
        return path.read_bytes()


def _convert(conv, draw):
    data, (report,) = pdfx.convert(_page(draw), conv, INTENT, "t", 300)
    assert preflight.check(data, bleed=9.0) == []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        ops = [(str(o), [v for v in a]) for a, o in pikepdf.parse_content_stream(page)]
        xobjects = page.obj.Resources.get("/XObject", pikepdf.Dictionary())
        images = [{"space": str(x.get("/ColorSpace")), "smask": "/SMask" in x,
                   "size": (int(x.Width), int(x.Height))}
                  for _, x in xobjects.items() if str(x.get("/Subtype")) == "/Image"]
    return report, ops, images


def _ground(c, rgb=(0.9, 0.8, 0.6)):
    c.setFillColorRGB(*rgb)
    c.rect(0, 0, 100, 100, stroke=0, fill=1)


def _k(ops):
    return [tuple(round(float(v), 4) for v in a) for o, a in ops if o == "k"]


def test_a_veil_over_a_flat_ground_is_one_colour_mixed_as_a_viewer_shows_it(conv):
    def draw(c):
        _ground(c)
        c.setFillColor(Color(0.1, 0.2, 0.7, alpha=0.4))
        c.rect(20, 20, 60, 30, stroke=0, fill=1)

    report, ops, images = _convert(conv, draw)
    assert (report.blended, report.regions, images) == (1, 0, [])
    mixed = tuple(0.4 * a + 0.6 * b for a, b in zip((0.1, 0.2, 0.7), (0.9, 0.8, 0.6)))
    assert tuple(round(v, 4) for v in conv.colour(mixed)) in _k(ops)


def test_veils_over_veils_chain_and_text_at_an_opacity_over_them_blends_too(conv):
    def draw(c):
        _ground(c, (1, 1, 1))
        c.setFillColor(Color(1, 0, 0, alpha=0.5))
        c.rect(10, 10, 80, 80, stroke=0, fill=1)  # pink over white
        c.setFillColor(Color(0, 0, 1, alpha=0.5))
        c.rect(20, 20, 60, 60, stroke=0, fill=1)  # over the pink
        c.setFillColor(Color(0, 0, 0, alpha=0.5))
        c.setFont(c._fontname, 8)
        c.drawString(30, 45, "veil")

    report, ops, images = _convert(conv, draw)
    assert (report.blended, report.regions, images) == (3, 0, [])
    second = (0.5, 0.25, 0.75)  # blue at 1/2 over the pink, (1, .5, .5)
    assert tuple(round(v, 4) for v in conv.colour(second)) in _k(ops)
    assert any(o == "Tj" for o, _ in ops)


def test_a_veil_over_two_grounds_becomes_a_picture_and_the_text_after_it_stays_text(conv):
    def draw(c):
        _ground(c)
        c.setFillColorRGB(0.2, 0.5, 0.2)
        c.rect(50, 0, 50, 100, stroke=0, fill=1)  # a second ground under half the veil
        c.setFillColor(Color(0.1, 0.2, 0.7, alpha=0.4))
        c.rect(20, 20, 60, 30, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFillAlpha(1)  # reportlab keeps the last alpha until told
        c.setFont(c._fontname, 8)
        c.drawString(25, 30, "over")

    report, ops, images = _convert(conv, draw)
    assert (report.blended, report.regions, len(images)) == (0, 1, 1)
    (im,) = images
    assert im["space"] == "/DeviceCMYK" and not im["smask"]
    w, h = im["size"]
    assert (w, h) == pytest.approx((61 * 300 / 72, 31 * 300 / 72), abs=6)  # the veil's box
    names = [o for o, _ in ops]
    assert names.index("Do") < names.index("Tj")  # the words print over the picture
    assert (0, 0, 0, 1) in _k(ops)  # the black words: black ink alone


@pytest.mark.parametrize("what", ["alpha picture", "blend mode", "stroke over gradient"])
def test_what_cannot_be_one_colour_is_drawn_into_a_cmyk_picture(conv, what):
    def draw(c):
        _ground(c)
        if what == "alpha picture":
            im = Image.new("RGBA", (20, 20), (200, 30, 30, 100))
            c.drawImage(ImageReader(im), 30, 30, 40, 40, mask="auto")
        elif what == "blend mode":  # a state reportlab's canvas has no method for
            c.setFillColorRGB(0.2, 0.4, 0.9)
            c._extgstate.set(c, "BM", "Multiply")  # named and listed as any state
            c.rect(30, 30, 40, 40, stroke=0, fill=1)
        else:
            c.linearGradient(0, 0, 100, 100, (Color(1, 0, 0), Color(0, 0, 1)))
            c.setStrokeColor(Color(1, 1, 1, alpha=0.5))
            c.setLineWidth(4)
            c.line(10, 50, 90, 50)

    raw = _page(draw)
    if what == "blend mode":
        with pikepdf.open(io.BytesIO(raw)) as pdf:
            states = pdf.pages[0].obj.Resources.ExtGState
            assert [s.get("/BM") for s in states.values()] == [pikepdf.Name.Multiply]
    data, (report,) = pdfx.convert(raw, conv, INTENT, "t", 300)
    assert preflight.check(data, bleed=9.0) == []
    assert report.regions == 1 and report.blended == 0


def test_the_printed_region_is_the_rgb_pages_colours(conv):
    import pypdfium2 as pdfium

    def draw(c):
        c.linearGradient(0, 0, 100, 0, (Color(0.9, 0.9, 0.2), Color(0.2, 0.3, 0.8)))
        c.setFillColor(Color(1, 1, 1, alpha=0.5))
        c.rect(20, 20, 60, 60, stroke=0, fill=1)

    raw = _page(draw)
    data, (report,) = pdfx.convert(raw, conv, INTENT, "t", 300)
    assert report.regions == 1
    rgb = pdfium.PdfDocument(raw)[0].render(scale=1).to_pil().convert("RGB")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        xobjects = pdf.pages[0].obj.Resources.XObject
        (im,) = [x for _, x in xobjects.items() if str(x.get("/Subtype")) == "/Image"]
        cmyk_px = Image.frombytes("CMYK", (int(im.Width), int(im.Height)), im.read_bytes())
    import io as _io
    from PIL import ImageCms

    back = ImageCms.applyTransform(cmyk_px, ImageCms.buildTransform(
        ImageCms.ImageCmsProfile(_io.BytesIO(conv.profile.data)),
        ImageCms.createProfile("sRGB"), "CMYK", "RGB"))
    # the middle of the veil, in the picture and on the RGB page (y down from the top)
    got = back.getpixel((back.width // 2, back.height // 2))
    want = rgb.getpixel((50, 50))
    assert max(abs(a - b) for a, b in zip(got, want)) < 14, (got, want)


def _kept_drawing_pages() -> bytes:
    """Four pages drawing one form (a kept drawing: a ground, text, a line), then a veil
    over the form's ground: the form alone, after another font (so the page names the
    form's font otherwise), twice, and moved."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pages.pdf"
        c = open_canvas(path, (100, 100), "t", "us")
        c.beginForm("kept")
        _ground(c)
        c.setFillColorRGB(0.17, 0.13, 0.2)
        c.setFont("Helvetica", 9)
        c.drawString(12, 50, "Kept")
        c.setStrokeColorRGB(0.2, 0.4, 0.6)
        c.line(10, 10, 90, 40)
        c.endForm()
        for page in range(4):
            if page == 1:
                c.saveState()
                c.setFont("Courier", 8)
                c.drawString(5, 95, "first")
                c.restoreState()
            if page == 3:
                c.translate(3, 4)
            c.doForm("kept")
            if page == 2:
                c.doForm("kept")
            c.setFillColor(Color(0.1, 0.3, 0.8, alpha=0.5))  # over the form's ground
            c.rect(60, 50, 25, 30, stroke=0, fill=1)
            c.showPage()
        c.save()
        return path.read_bytes()


def test_a_form_drawn_on_many_pages_is_converted_once_and_writes_what_walking_it_writes(
        conv, monkeypatch):
    """A kept drawing on every page is walked once for each state it is drawn in (here:
    in place, and moved) and put back elsewhere with the page's own names; the file is
    the one walking every form again writes, byte for byte."""
    from datetime import datetime, timezone

    data = _kept_drawing_pages()
    when = datetime(2024, 1, 1, tzinfo=timezone.utc)
    walks = []
    walk = pdfx._Page._form_walk
    monkeypatch.setattr(pdfx._Page, "_form_walk", lambda self, *a: (walks.append(1),
                                                                      walk(self, *a)))
    once, reports = pdfx.convert(data, conv, INTENT, "t", 300, created=when)
    assert len(walks) == 2  # five forms drawn: in place (4 times), moved (once)
    monkeypatch.setattr(pdfx._Page, "_form_key", lambda self, form, depth: None)
    walks.clear()
    every, again = pdfx.convert(data, conv, INTENT, "t", 300, created=when)
    assert len(walks) == 5
    assert once == every and reports == again
    assert [r.blended for r in reports] == [1, 1, 1, 1]  # over the form's ground, put back
    with pikepdf.open(io.BytesIO(once)) as pdf:  # page 2 names the form's font F2
        fonts = [sorted(str(f.BaseFont) for _, f in p.obj.Resources.Font.items())
                 for p in pdf.pages]
        assert len({len(f) for f in fonts}) == 2
