"""`companion export GAME cards-pdf`: per component, one page per card face, front then
back for every card, each page the trim plus the bleed with TrimBox and BleedBox set,
fonts embedded; quick."""


import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from companion import export
from companion.export import raster
from tests.pdfs import fonts

MM = 72 / 25.4


@pytest.fixture(scope="module")
def covenia_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("cards-pdf") / "covenia-cards-pdf"
    return out, export.export("covenia", "cards-pdf", export.Options(out=out))


def test_every_page_is_the_trim_plus_bleed_with_trimbox_and_bleedbox(covenia_pdf):
    out, manifest = covenia_pdf
    for comp in manifest["components"]:
        reader = PdfReader(out / comp["path"])
        w, h = (v * MM for v in comp["trim_mm"])
        b = 0.125 * 72
        assert len(reader.pages) == comp["pages"] == 2 * comp["cards"]
        for page in reader.pages:
            assert "/TrimBox" in page and "/BleedBox" in page
            assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, w + 2 * b, h + 2 * b],
                                                                       abs=0.02)
            assert [float(v) for v in page.trimbox] == pytest.approx([b, b, b + w, b + h], abs=0.02)
            assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, w + 2 * b, h + 2 * b],
                                                                       abs=0.02)


def test_the_bleed_option_sets_the_page_around_the_same_trim(tmp_path):
    manifest = export.export("coverta", "cards-pdf", export.Options(
        out=tmp_path / "c", bleed="3mm", only=["memo"], card_size="tarot"))
    (memo,) = manifest["components"]
    page = PdfReader(tmp_path / "c" / memo["path"]).pages[0]
    assert [float(v) for v in page.trimbox] == pytest.approx([3 * MM, 3 * MM, 73 * MM, 123 * MM],
                                                             abs=0.02)
    assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 76 * MM, 126 * MM], abs=0.02)


def test_fonts_are_embedded(covenia_pdf):
    out, manifest = covenia_pdf
    for comp in manifest["components"]:
        found = fonts(PdfReader(out / comp["path"]))
        assert found and all(embedded for _, embedded in found), found


def small(image: Image.Image, size) -> Image.Image:
    return image.convert("RGB").resize(size, Image.Resampling.BOX)


def test_fronts_and_backs_alternate_card_by_card_in_the_decks_order(covenia_pdf, tmp_path):
    """Each page, rendered, is the picture the png export writes for that card's front or
    back (the nearest of all the component's faces), in order: front 1, back 1, ..."""
    out, manifest = covenia_pdf
    png = export.export("covenia", "png", export.Options(out=tmp_path / "png", dpi=100))
    for comp, pics in zip(manifest["components"], png["components"]):
        size = tuple(pics["size_px"])
        files = sorted({f[s] for f in pics["faces"] for s in ("front", "back")})
        candidates = {f: small(Image.open(tmp_path / "png" / f), size) for f in files}
        expected = [name for f in pics["faces"] for _ in range(f["count"])
                    for name in (f["front"], f["back"])]
        doc = pdfium.PdfDocument(str(out / comp["path"]))
        assert len(doc) == len(expected)
        step = max(1, len(expected) // 24)  # a sample through the deck, both sides
        for n in sorted(set(range(0, len(expected), step)) | {1, len(expected) - 1}):
            page = raster.render(doc[n], *size)
            nearest = min(candidates, key=lambda f: sum(ImageStat.Stat(
                ImageChops.difference(page, candidates[f])).mean))
            assert nearest == expected[n], (comp["id"], n)


def test_a_card_printed_four_times_has_four_front_and_back_pairs_drawn_once(covenia_pdf):
    out, manifest = covenia_pdf
    aids = next(c for c in manifest["components"] if c["id"] == "aids")
    assert aids["cards"] == 4 and aids["pages"] == 8
    reader = PdfReader(out / aids["path"])
    forms = [sorted(p["/Resources"]["/XObject"]) for p in reader.pages]
    assert forms[0] == forms[2] == forms[4] == forms[6] != forms[1] == forms[7]


def test_the_guide_names_the_bleed_and_the_boxes(covenia_pdf):
    out, _ = covenia_pdf
    guide = (out / "guide.txt").read_text()
    assert "3.175 mm (0.125 in)" in guide and "TrimBox" in guide and "DriveThruCards" in guide
