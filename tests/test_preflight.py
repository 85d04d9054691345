"""Issue 44's preflight (companion.press.preflight, `companion preflight FILE`): each rule
of PDF/X-1a:2003 as a deck printer asks it, shown by breaking a file that passes in one
way at a time; a designer's file is read bounded, a file it cannot read is one line and
exit 2."""

import io

import pikepdf
import pytest

from companion import export
from companion.press import preflight


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    out = tmp_path_factory.mktemp("preflight") / "x"
    m = export.export("covenia", "pdfx", export.Options(out=out, only=["aids"]))
    data = (out / m["components"][0]["path"]).read_bytes()
    assert preflight.check(data, bleed=9.0) == []
    return data


def _broken(data: bytes, change, **save) -> bytes:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        change(pdf)
        buf = io.BytesIO()
        pdf.save(buf, **save)
        return buf.getvalue()


def _add_content(pdf, raw: bytes, **resources):
    page = pdf.pages[0]
    for kind, entries in resources.items():
        d = page.obj.Resources.get("/" + kind, pikepdf.Dictionary())
        for n, obj in entries.items():
            d[n] = obj
        page.obj.Resources["/" + kind] = d
    page.contents_add(pdf.make_stream(raw))


def _rgb_image(pdf, smask=False):
    im = pikepdf.Stream(pdf, b"\xff\x00\x00" * 4)
    im.Type, im.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    im.Width = im.Height = 2
    im.BitsPerComponent = 8
    im.ColorSpace = pikepdf.Name.DeviceRGB if not smask else pikepdf.Name.DeviceCMYK
    if smask:
        im.write(b"\x00" * 16)
        mask = pikepdf.Stream(pdf, b"\x80" * 4)
        mask.Type, mask.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        mask.Width = mask.Height = 2
        mask.BitsPerComponent = 8
        mask.ColorSpace = pikepdf.Name.DeviceGray
        im.SMask = mask
    return im


def _lzw(pdf):
    """A form whose (empty) content is compressed with LZW: clear, end (9-bit codes)."""
    form = pdf.make_stream(b"", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 1, 1])
    form.write(b"\x80\x40\x40", filter=pikepdf.Name.LZWDecode)
    return form


def _gs(**values):
    return pikepdf.Dictionary({"/Type": pikepdf.Name.ExtGState,
                               **{"/" + k: v for k, v in values.items()}})


CASES = {
    "version": (lambda pdf: None, {"force_version": "1.6"}),
    "pdfx-version": (lambda pdf: pdf.docinfo.__delitem__("/GTS_PDFXVersion"), {}),
    "info": (lambda pdf: pdf.docinfo.__delitem__("/Title"), {}),
    "trapped": (lambda pdf: pdf.docinfo.__setitem__("/Trapped", pikepdf.Name.Unknown), {}),
    "id": (lambda pdf: None, {"static_id": True}),  # replaced below: a file without an ID
    "output-intent": (lambda pdf: pdf.Root.__delitem__("/OutputIntents"), {}),
    "boxes": (lambda pdf: pdf.pages[0].obj.__delitem__("/TrimBox"), {}),
    "bleed": (lambda pdf: pdf.pages[0].obj.__setitem__("/BleedBox",
                                                      pdf.pages[0].obj.TrimBox), {}),
    "colour": (lambda pdf: _add_content(pdf, b"1 0 0 rg 0 0 5 5 re f"), {}),
    "transparency": (lambda pdf: _add_content(pdf, b"/GTx gs", ExtGState={
        "/GTx": _gs(ca=0.5)}), {}),
    "fonts": (lambda pdf: _add_content(pdf, b"BT /FHx 9 Tf (a) Tj ET", Font={
        "/FHx": pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                   BaseFont=pikepdf.Name.Helvetica)}), {}),
    "compression": (lambda pdf: _add_content(pdf, b"/FLx Do", XObject={"/FLx": _lzw(pdf)}),
                    {"stream_decode_level": pikepdf.StreamDecodeLevel.none,
                     "compress_streams": False}),
    "actions": (lambda pdf: pdf.Root.__setitem__("/OpenAction", pikepdf.Dictionary(
        S=pikepdf.Name.JavaScript, JS=pikepdf.String("1"))), {}),
}


@pytest.mark.parametrize("rule", [r for r in CASES if r != "id"])
def test_breaking_a_rule_is_found_and_named(good, rule):
    change, save = CASES[rule]
    problems = preflight.check(_broken(good, change, **save), bleed=9.0)
    assert {p.rule for p in problems} == {rule}, problems


@pytest.mark.parametrize("what, change", [
    ("an RGB picture", lambda pdf: _add_content(pdf, b"q 5 0 0 5 0 0 cm /IRx Do Q",
                                                XObject={"/IRx": _rgb_image(pdf)})),
    ("an RGB gradient", lambda pdf: _add_content(pdf, b"/SRx sh", Shading={
        "/SRx": pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB,
                                   Coords=[0, 0, 1, 1], Function=pikepdf.Dictionary(
                                       FunctionType=2, Domain=[0, 1], C0=[1, 0, 0],
                                       C1=[0, 0, 1], N=1))})),
    ("an ICC-based colour", lambda pdf: _add_content(
        pdf, b"/CSx cs 1 0 0 sc 0 0 5 5 re f", ColorSpace={
            "/CSx": pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(b"x", N=3)])})),
])
def test_rgb_and_icc_colour_in_pictures_gradients_and_spaces_are_found(good, what, change):
    problems = preflight.check(_broken(good, change), bleed=9.0)
    assert [p.rule for p in problems] == ["colour"], (what, problems)


@pytest.mark.parametrize("what, change", [
    ("a soft-masked picture", lambda pdf: _add_content(
        pdf, b"q 5 0 0 5 0 0 cm /IMx Do Q", XObject={"/IMx": _rgb_image(pdf, smask=True)})),
    ("a blend mode", lambda pdf: _add_content(pdf, b"/GBx gs", ExtGState={
        "/GBx": _gs(BM=pikepdf.Name.Multiply)})),
    ("a soft mask", lambda pdf: _add_content(pdf, b"/GSx gs", ExtGState={
        "/GSx": _gs(SMask=pikepdf.Dictionary(S=pikepdf.Name.Luminosity))})),
    ("a stroke alpha", lambda pdf: _add_content(pdf, b"/GAx gs", ExtGState={
        "/GAx": _gs(CA=0.2)})),
])
def test_every_kind_of_transparency_is_found(good, what, change):
    problems = preflight.check(_broken(good, change), bleed=9.0)
    assert [p.rule for p in problems] == ["transparency"], (what, problems)


def test_a_bleed_short_of_what_is_asked_is_found_and_any_bleed_passes_without_asking(good):
    assert preflight.check(good, bleed=9.0) == []
    problems = preflight.check(good, bleed=10.0)
    assert problems and {p.rule for p in problems} == {"bleed"}
    assert preflight.check(good, bleed=None) == []


def test_the_command_says_pass_or_each_problem(cli, tmp_path, good):
    ok = tmp_path / "ok.pdf"
    ok.write_bytes(good)
    r = cli("preflight", str(ok))
    assert r.code == 0 and "passes (PDF/X-1a:2003)" in r.out, r.err
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(_broken(good, CASES["colour"][0]))
    r = cli("preflight", str(bad))
    assert r.code == 1 and "page 1: an RGB colour (rg) (colour)" in r.out, r.out


@pytest.mark.parametrize("raw", [b"", b"%PDF-1.4\n" + b"\x00" * 100, b"not a pdf at all"])
def test_a_file_that_is_not_a_pdf_is_one_line_and_exit_2(cli, tmp_path, raw):
    f = tmp_path / "x.pdf"
    f.write_bytes(raw)
    r = cli("preflight", str(f))
    assert r.code == 2 and str(f) in r.err and "Traceback" not in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1, r.err


def test_a_designers_pdf_with_forms_nested_without_end_is_refused_not_followed(cli, tmp_path,
                                                                               good):
    def loop(pdf):
        form = pdf.make_stream(b"/Fx Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                               BBox=[0, 0, 1, 1])
        form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fx=form))
        _add_content(pdf, b"/Fx Do", XObject={"/Fx": form})

    f = tmp_path / "loop.pdf"
    f.write_bytes(_broken(good, loop))
    r = cli("preflight", str(f))
    assert r.code in (0, 1) and "Traceback" not in r.err, r.err  # read once, not for ever


def test_drawing_operators_past_the_files_budget_are_refused_in_one_line(good, monkeypatch):
    from companion.errors import CompanionError

    monkeypatch.setattr(preflight, "CONTENT_BYTES", 0)
    monkeypatch.setattr(preflight, "CONTENT_GROWTH", 0)
    with pytest.raises(CompanionError, match=r"page 1: over 0 bytes of drawing operators"):
        preflight.check(_broken(good, lambda pdf: _add_content(pdf, b"0 g\n" * 60)))


@pytest.mark.hostile
def test_a_designers_pdf_of_too_many_pages_is_refused_in_one_line(cli, tmp_path):
    pdf = pikepdf.new()
    for _ in range(preflight.MAX_PAGES + 1):
        pdf.add_blank_page(page_size=(10, 10))
    f = tmp_path / "many.pdf"
    pdf.save(f)
    r = cli("preflight", str(f))
    assert r.code == 2 and "5,001 pages: over 5,000" in r.err, r.err
