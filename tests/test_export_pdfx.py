"""Issue 44's `companion export GAME pdfx`: per component, a PDF/X-1a:2003 file as
DriveThruCards asks it (one card face a page, the poker page 2.75 x 3.75 in with 1/8 in of
bleed, CMYK through the shipped SWOP profile, nothing transparent, an output intent), each
checked by our preflight before it is written; poppler renders it without a complaint and,
printed (Ghostscript's inks through the profile), it looks like the RGB kit."""

import json
import re
import shutil
import subprocess

import pikepdf
import pytest
from PIL import Image, ImageCms

from companion import export
from companion.errors import CompanionError
from companion.press import cmyk, preflight
from tests import pdfx_game
from tests.needs import tool
from tests.proofs import difference, proof

PT = 72.0


@pytest.fixture(scope="module")
def covenia(tmp_path_factory):
    root = tmp_path_factory.mktemp("pdfx-covenia")
    m = export.export("covenia", "pdfx", export.Options(out=root / "x"))
    ref = export.export("covenia", "png", export.Options(out=root / "png"))
    return root / "x", m, root / "png", ref


@pytest.fixture(scope="module")
def designer(tmp_path_factory):
    root = tmp_path_factory.mktemp("pdfx-designer")
    game = pdfx_game.make(root / "vocab")
    m = export.export(str(game), "pdfx", export.Options(out=root / "x"))
    ref = export.export(str(game), "png", export.Options(out=root / "png"))
    return root / "x", m, root / "png", ref


def _both(covenia, designer):
    return [covenia, designer]


def test_every_file_passes_the_preflight_with_its_pages_as_drivethrucards_asks(covenia,
                                                                              designer):
    for out, m, _, _ in (covenia, designer):
        assert m["shop"] == "drivethrucards" and m["pdfx"] == "PDF/X-1a:2003"
        for comp in m["components"]:
            data = (out / comp["path"]).read_bytes()
            assert preflight.check(data, bleed=9.0) == [], comp["id"]
            with pikepdf.open(out / comp["path"]) as pdf:
                assert pdf.pdf_version == "1.4"
                assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
                assert str(pdf.docinfo["/Trapped"]) == "/False"
                (oi,) = pdf.Root.OutputIntents
                assert str(oi.S) == "/GTS_PDFX"
                assert str(oi.OutputConditionIdentifier) == "CGATS TR 003"
                assert str(oi.RegistryName) == "http://www.color.org"
                assert oi.DestOutputProfile.read_bytes() == cmyk.shipped().read_bytes()
                assert len(pdf.pages) == comp["pages"] == 2 * comp["cards"]
                if comp["trim_mm"] == [63.5, 88.9]:  # a poker card: the 2.75 x 3.75 in page
                    for page in pdf.pages:
                        assert [float(v) for v in page.mediabox] == pytest.approx(
                            [0, 0, 2.75 * PT, 3.75 * PT], abs=0.01)
                        assert [float(v) for v in page.obj.TrimBox] == pytest.approx(
                            [9, 9, 9 + 2.5 * PT, 9 + 3.5 * PT], abs=0.01)
                        assert [float(v) for v in page.obj.BleedBox] == pytest.approx(
                            [0, 0, 2.75 * PT, 3.75 * PT], abs=0.01)


def test_the_pages_go_front_back_card_by_card_each_card_as_often_as_it_is_printed(covenia):
    out, m, _, _ = covenia
    clan = next(c for c in m["components"] if c["id"] == "clan-cards")
    assert clan["pages"] == 2 * sum(f["count"] for f in clan["faces"])


def test_poppler_renders_every_file_without_a_complaint(covenia, designer, tmp_path):
    pdftoppm = tool("pdftoppm")
    for out, m, _, _ in (covenia, designer):
        for comp in m["components"]:
            r = subprocess.run([pdftoppm, "-r", "20", "-png", str(out / comp["path"]),
                                str(tmp_path / comp["id"])], capture_output=True, text=True,
                               timeout=300)
            assert r.returncode == 0 and r.stderr == "", (comp["id"], r.stderr)


def _reference_files(png_manifest, comp_id):
    comp = next(c for c in png_manifest["components"] if c["id"] == comp_id)
    files = []
    for f in comp["faces"]:  # DriveThruCards' order: each card's back, then its front
        files += [f["back"], f["front"]] * f["count"]
    return files


def test_printed_it_looks_like_the_rgb_kit(covenia, designer):
    """Mean ΔE*ab of each page printed (inks through the profile) against the RGB kit's
    picture of it: what a SWOP press cannot print (the most saturated blues) and the text's
    antialiasing make most of it."""
    profile = cmyk.shipped().read_bytes()
    found = {}
    for name, (out, m, png_out, png_m) in (("covenia", covenia), ("designer", designer)):
        comp = m["components"][0]
        files = _reference_files(png_m, comp["id"])
        for page in (1, 2, len(files) - 1):
            ref = Image.open(png_out / files[page - 1])
            got = proof(out / comp["path"], page, 50, profile)
            found[name, page] = difference(got, ref)
    for key, (de, rgb) in found.items():
        assert de < 7 and rgb < 12, (key, de, rgb)


def _pictures(page) -> list:
    xobjects = page.obj.Resources.get("/XObject", pikepdf.Dictionary())
    return [x for _, x in xobjects.items() if str(x.get("/Subtype")) == "/Image"]


def _patch_mean(im: Image.Image, box) -> tuple:
    w, h = im.size
    crop = im.convert("RGB").crop([round(box[0] * w), round(box[1] * h), round(box[2] * w),
                                   round(box[3] * h)])
    raw = crop.tobytes()
    n = len(raw) // 3
    return tuple(sum(raw[i::3]) / n for i in range(3))


def test_a_veil_over_a_flat_ground_prints_as_one_mixed_colour_and_the_text_over_it_stays_text(
        designer):
    out, m, png_out, png_m = designer
    comp = m["components"][0]
    faces = {f["face"]: f for f in comp["flattened"]}
    first = comp["faces"][0]["id"]  # a creature: its veil over the paper
    assert faces[first]["blended"] >= 1 and faces[first]["regions"] == 0
    with pikepdf.open(out / comp["path"]) as pdf:
        page = pdf.pages[1]  # card 1's front (page 1 is its back)
        # no picture but hers (300 x 60 px): the veil is a colour, not a region
        assert all((int(x.Width), int(x.Height)) == (300, 60) for x in _pictures(page))
        text = subprocess.run([tool("pdftotext"), "-f", "2", "-l", "2", str(out / comp["path"]),
                               "-"], capture_output=True, text=True).stdout
        assert "Moves house" in text or len(text.strip()) > 20, text
    # the veil's colour as printed, beside the words (its left end): the RGB kit's
    ref = Image.open(png_out / _reference_files(png_m, comp["id"])[1])
    got = proof(out / comp["path"], 2, 100, cmyk.shipped().read_bytes())
    box = (0.07, 0.70, 0.10, 0.80)
    a, b = _patch_mean(got, box), _patch_mean(ref, box)
    assert max(abs(x - y) for x, y in zip(a, b)) < 12, (a, b)


def test_a_veil_and_a_picture_over_a_gradient_are_drawn_into_cmyk_pictures(designer):
    out, m, png_out, png_m = designer
    comp = m["components"][0]
    tides = [f for f in comp["flattened"] if f["regions"]]
    assert tides, comp["flattened"]
    files = _reference_files(png_m, comp["id"])
    labels = [label for f in comp["faces"] for _ in range(f["count"])
              for label in (f"{f['id']} back", f["id"])]  # back first
    tide = tides[0]["face"]
    page = labels.index(tide) + 1
    with pikepdf.open(out / comp["path"]) as pdf:
        images = _pictures(pdf.pages[page - 1])
        assert len(images) >= 2  # the veil's region and the moon's
        assert all(str(i.ColorSpace) == "/DeviceCMYK" and "/SMask" not in i for i in images)
    text = subprocess.run([tool("pdftotext"), "-f", str(page), "-l", str(page),
                           str(out / comp["path"]), "-"], capture_output=True, text=True).stdout
    assert text.strip(), "the tide's words are still text"
    got = proof(out / comp["path"], page, 100, cmyk.shipped().read_bytes())
    ref = Image.open(png_out / files[page - 1])
    for box in ((0.15, 0.08, 0.25, 0.12), (0.35, 0.38, 0.45, 0.48)):  # veil; moon's lit side
        a, b = _patch_mean(got, box), _patch_mean(ref, box)
        assert max(abs(x - y) for x, y in zip(a, b)) < 16, (box, a, b)
    guide = (out / "guide.txt").read_text(encoding="utf-8")
    assert tide in guide and "flattened" in guide


def test_pure_black_prints_as_black_ink_alone():
    conv = cmyk.Converter(cmyk.load())
    assert conv.ink((0, 0, 0)) == (0.0, 0.0, 0.0, 1.0)
    c, m_, y, k = conv.ink((0.5, 0.5, 0.5))
    assert c > 0 and k > 0  # a grey is not black ink alone: the profile's own grey


def test_an_rgb_kit_breaks_the_preflight_by_name(covenia, tmp_path):
    rgb = export.export("covenia", "cards-pdf", export.Options(out=tmp_path / "rgb",
                                                               only=["aids"]))
    data = (tmp_path / "rgb" / rgb["components"][0]["path"]).read_bytes()
    rules = {p.rule for p in preflight.check(data, bleed=9.0)}
    assert {"colour", "pdfx-version", "output-intent"} <= rules, rules


def test_a_file_that_would_break_a_rule_is_not_written(monkeypatch, tmp_path):
    from companion.press import pdfx

    real = pdfx.convert

    def leaves_rgb(data, *a, **k):
        out, reports = real(data, *a, **k)
        with pikepdf.open(__import__("io").BytesIO(out)) as pdf:
            page = pdf.pages[0]
            page.contents_add(pdf.make_stream(b"1 0 0 rg 0 0 5 5 re f"))
            buf = __import__("io").BytesIO()
            pdf.save(buf)
        return buf.getvalue(), reports

    monkeypatch.setattr(pdfx, "convert", leaves_rgb)
    with pytest.raises(CompanionError, match=r"aids\.pdf would not pass the preflight: "
                                             r"page 1: an RGB colour"):
        export.export("covenia", "pdfx", export.Options(out=tmp_path / "x", only=["aids"]))
    assert not (tmp_path / "x").exists()


def test_a_designers_own_profile_is_used_and_named(tmp_path):
    mine = tmp_path / "my press.icc"
    shutil.copy(cmyk.shipped(), mine)
    m = export.export("covenia", "pdfx", export.Options(out=tmp_path / "x", only=["aids"],
                                                         icc=mine))
    assert m["profile_source"] == str(mine) and m["output_condition"] == "Custom"
    with pikepdf.open(tmp_path / "x" / m["components"][0]["path"]) as pdf:
        (oi,) = pdf.Root.OutputIntents
        assert str(oi.OutputConditionIdentifier) == "Custom" and "/RegistryName" not in oi
        assert str(oi.Info) == m["profile"] and oi.DestOutputProfile.read_bytes() == \
            mine.read_bytes()


@pytest.mark.parametrize("make, said", [
    (lambda p: ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes(),
     "not a CMYK one"),
    (lambda p: b"acsp" * 100, "not an ICC profile"),
    (lambda p: b"", "not an ICC profile"),
    (lambda p: cmyk.shipped().read_bytes()[:5000], "LittleCMS cannot convert to it"),
])
def test_a_bad_profile_is_refused_in_one_line_and_nothing_is_written(cli, tmp_path, make, said):
    bad = tmp_path / "bad.icc"
    bad.write_bytes(make(bad))
    r = cli("export", "covenia", "pdfx", "--only", "aids", "--icc", str(bad), "--out",
            str(tmp_path / "x"))
    assert r.code == 2 and said in r.err and str(bad) in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert not (tmp_path / "x").exists()


def test_a_profile_too_large_is_refused_before_it_is_read(cli, tmp_path):
    big = tmp_path / "big.icc"
    with open(big, "wb") as f:
        f.truncate(cmyk.MAX_PROFILE_BYTES + 1)
    r = cli("export", "covenia", "pdfx", "--only", "aids", "--icc", str(big), "--out",
            str(tmp_path / "x"))
    assert r.code == 2 and "over the 8.0 MB an ICC profile may be" in r.err, r.err


def test_other_formats_refuse_icc(cli, tmp_path):
    r = cli("export", "covenia", "png", "--icc", str(cmyk.shipped()), "--out", str(tmp_path))
    assert r.code == 2 and "png does not take --icc" in r.err, r.err


# ---- issue 51: what the press asks --------------------------------------------------------

def _lab_printed(profile: bytes, cmyk_values) -> tuple[float, float]:
    """(L*, chroma) of a CMYK colour (0..1) printed in the profile's condition."""
    import io
    import math

    to_lab = ImageCms.buildTransform(ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                     ImageCms.createProfile("LAB"), "CMYK", "LAB")
    px = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk_values))
    L, a, b = ImageCms.applyTransform(px, to_lab).getpixel((0, 0))
    a, b = a - 128, b - 128  # Pillow keeps a and b 128 up
    return L * 100 / 255, math.hypot(a, b)


def _text_colours(page) -> list[list[float]]:
    """The fill colour (CMYK, 0..1) of each text-showing operator of a page."""
    fill = [0.0, 0.0, 0.0, 1.0]
    stack, out = [], []
    for operands, op in pikepdf.parse_content_stream(page):
        name = str(op)
        if name == "q":
            stack.append(fill)
        elif name == "Q" and stack:
            fill = stack.pop()
        elif name == "k":
            fill = [float(v) for v in operands]
        elif name == "g":
            fill = [0.0, 0.0, 0.0, 1.0 - float(operands[0])]
        elif name in ("Tj", "TJ", "'", '"'):
            out.append(fill)
    return out


def _distinct_pages(pdf):
    seen = set()
    for n, page in enumerate(pdf.pages, 1):
        key = page.obj.Contents.objgen
        if key not in seen:
            seen.add(key)
            yield n, page


def test_page_one_of_each_file_is_a_back_by_what_it_shows(covenia, designer):
    """DriveThruCards: page 1 the back of card 1, page 2 its front. Page 1 printed looks
    like the RGB kit's back of card 1, not its front; page 2 the other way round."""
    profile = cmyk.shipped().read_bytes()
    for out, m, png_out, png_m in (covenia, designer):
        comp = m["components"][0]
        ref = next(c for c in png_m["components"] if c["id"] == comp["id"])["faces"][0]
        back, front = Image.open(png_out / ref["back"]), Image.open(png_out / ref["front"])
        one = proof(out / comp["path"], 1, 30, profile)
        two = proof(out / comp["path"], 2, 30, profile)
        assert difference(one, back)[0] < 7 < difference(one, front)[0], comp["id"]
        assert difference(two, front)[0] < 7 < difference(two, back)[0], comp["id"]
        assert m["page_order"] == "back-first"
        guide = (out / "guide.txt").read_text(encoding="utf-8")
        assert "page 1: back of card 1, page 2: its front" in guide


def test_near_black_text_is_black_ink_alone_and_every_ink_within_240(covenia, designer):
    """Every text-showing operator whose colour prints near-black (L* <= 30, chroma <= 15)
    has C = M = Y = 0; the most total ink of every colour operator and every CMYK picture's
    pixels (decoded) is within DriveThruCards' 240 %."""
    from companion.press import ink

    profile = cmyk.shipped().read_bytes()
    near = 0
    for out, m, _, _ in (covenia, designer):
        for comp in m["components"]:
            with pikepdf.open(out / comp["path"]) as pdf:
                for n, page in _distinct_pages(pdf):
                    for colour in _text_colours(page):
                        L, chroma = _lab_printed(profile, colour)
                        if L <= 30 and chroma <= 15:
                            near += 1
                            assert colour[:3] == [0, 0, 0], (comp["id"], n, colour)
                got = ink.measure(pdf)
                assert got.most <= 2.4 + 0.005, (comp["id"], got)
    assert near > 100  # the body texts of both games


def test_a_cmyk_picture_is_measured_pixel_by_pixel():
    from companion.press import ink

    im = Image.new("CMYK", (4, 4), (0, 0, 0, 0))
    im.putpixel((3, 2), (255, 255, 255, 0))
    assert ink.picture_max(im) == pytest.approx(3.0)


def test_the_designers_black_and_dark_picture_is_within_the_limit_and_keeps_its_look(designer):
    """Her picture: pure black and a saturated dark blue, over 240 % through the profile
    alone, within it after the limit; printed, it still looks like the RGB kit."""
    from companion.press import ink

    out, m, png_out, png_m = designer
    comp = m["components"][0]
    plain = cmyk.Converter(cmyk.load()).picture(Image.new("RGB", (1, 1), (0, 0, 0)))
    assert ink.picture_max(plain) > 2.5  # what the profile alone would print
    with pikepdf.open(out / comp["path"]) as pdf:
        pictures = [x for x in _pictures(pdf.pages[1]) if int(x.Width) == 300]
        assert pictures
        im = pikepdf.PdfImage(pictures[0]).as_pil_image()
        assert im.mode == "CMYK" and ink.picture_max(im) <= 2.4
        c, m_, y, k = im.getpixel((10, 30))  # the pure black
        assert k == 255 and c + m_ + y + k <= 240 * 255 // 100
    # printed, each area looks as the profile alone would print it (the dark blue is out
    # of a SWOP press's gamut either way): the limit moved ink, not the colour
    profile = cmyk.shipped().read_bytes()
    import io

    to_rgb = ImageCms.buildTransform(ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                     ImageCms.createProfile("sRGB"), "CMYK", "RGB")
    got = proof(out / comp["path"], 2, 100, profile)
    for box, rgb in (((0.12, 0.2, 0.4, 0.26), (0, 0, 0)), ((0.6, 0.2, 0.88, 0.26), (10, 20, 120))):
        alone = ImageCms.applyTransform(
            cmyk.Converter(cmyk.load()).picture(Image.new("RGB", (1, 1), rgb)), to_rgb)
        a = _patch_mean(got, box)
        assert max(abs(x - y) for x, y in zip(a, alone.getpixel((0, 0)))) < 12, (box, a, rgb)


def test_ghostscript_separations_show_no_cyan_magenta_or_yellow_under_body_text(covenia,
                                                                                designer,
                                                                                tmp_path):
    """Ghostscript's separations (tiffsep, 300 dpi) of each game's first front: where the
    black plate is solid inside a body text's words, the other three plates carry no ink."""
    import re as regex

    checked = 0
    for name, (out, m, _, _) in (("covenia", covenia), ("designer", designer)):
        path = out / m["components"][0]["path"]
        subprocess.run([tool("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER",
                        "-sDEVICE=tiffsep", "-r300", "-dFirstPage=2", "-dLastPage=2",
                        f"-sOutputFile={tmp_path / name}.tif", str(path)],
                       check=True, capture_output=True, timeout=120)
        plates = {c: Image.open(tmp_path / f"{name}({c}).tif").convert("L")
                  for c in ("Cyan", "Magenta", "Yellow", "Black")}
        words = subprocess.run([tool("pdftotext"), "-bbox", "-f", "2", "-l", "2", str(path),
                                "-"], capture_output=True, text=True).stdout
        boxes = [tuple(float(v) * 300 / 72 for v in b) for b in regex.findall(
            r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"', words)]
        assert len(boxes) > 5, name
        for x0, y0, x1, y1 in boxes:
            box = (round(x0), round(y0), round(x1), round(y1))
            black = plates["Black"].crop(box).tobytes()
            others = [plates[c].crop(box).tobytes() for c in ("Cyan", "Magenta", "Yellow")]
            for i, v in enumerate(black):
                if v <= 25:  # a glyph's pixel: 90 % black ink or more (tiffsep: 255 no ink)
                    checked += 1
                    assert all(o[i] == 255 for o in others), (name, box)
    assert checked > 1000


def test_the_preflight_passes_each_file_and_names_its_most_ink(cli, covenia, designer):
    for out, m, _, _ in (covenia, designer):
        for comp in m["components"]:
            r = cli("preflight", out / comp["path"], "--ink-limit", "240")
            assert r.code == 0, r.out
            assert "passes" in r.out and "total ink at most" in r.out and "240 %" in r.out


def test_the_preflight_names_a_file_over_the_ink_limit(cli, designer):
    out, m, _, _ = designer
    r = cli("preflight", out / m["components"][0]["path"], "--ink-limit", "200")
    assert r.code == 1 and "(ink)" in r.out and "over the 200 %" in r.out, r.out
