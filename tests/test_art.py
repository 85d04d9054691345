"""Pictures in art boxes: where they land for each fit, what goes into the PDF, the
cache, low resolution and missing pictures."""

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader

from companion.draw import art
from companion.errors import CompanionError
from companion.press.pdf import open_canvas

W, H = 180.0, 252.0  # a poker card, points


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    from companion.files import images

    images._seen.clear()


def quadrants(path, size=(400, 200), fmt="JPEG", alpha=False):
    """A picture in four colours: red top-left, green top-right, blue bottom-left, yellow
    bottom-right (so where each lands shows how it was placed)."""
    w, h = size
    im = Image.new("RGBA" if alpha else "RGB", size)
    colours = [(220, 30, 30), (30, 160, 60), (30, 60, 200), (230, 200, 20)]
    for i, colour in enumerate(colours):
        x0, y0 = (i % 2) * w // 2, (i // 2) * h // 2
        im.paste(colour + ((255,) if alpha else ()), (x0, y0, x0 + w // 2, y0 + h // 2))
    if alpha:
        im.paste((0, 0, 0, 0), (0, 0, w, h // 8))  # a transparent band on top
    im.save(path, fmt, **({"quality": 95} if fmt == "JPEG" else {}))
    return path


def one_card_pdf(path, specs, box=art.Box(0.1, 0.1, 0.8, 0.4), ground=(1, 1, 1)):
    c = open_canvas(path, (W, H), "test", "test")
    c.setFillColorRGB(*ground)
    c.rect(0, 0, W, H, stroke=0, fill=1)
    for s in specs:
        art.draw(c, W, H, 0, box, s)
    c.showPage()
    c.save()
    return path


def render(pdf, dpi=72):
    import pypdfium2

    page = pypdfium2.PdfDocument(str(pdf))[0]
    return page.render(scale=dpi / 72).to_pil().convert("RGB")


def close(a, b, tol=40):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@given(st.sampled_from(art.FITS), st.sampled_from(list(art.ANCHORS)),
       st.integers(10, 5000), st.integers(10, 5000))
def test_cover_fills_the_box_contain_stays_inside_stretch_is_the_box(fit, anchor, pw, ph):
    box = (10.0, 20.0, 100.0, 150.0)
    x, y, w, h = art.placement(fit, anchor, box, pw, ph)
    eps = 1e-6
    if fit == "stretch":
        assert (x, y, w, h) == box
    elif fit == "cover":
        assert x <= 10 + eps and y <= 20 + eps and x + w >= 110 - eps and y + h >= 170 - eps
        assert w / h == pytest.approx(pw / ph)
    else:
        assert x >= 10 - eps and y >= 20 - eps and x + w <= 110 + eps and y + h <= 170 + eps
        assert w / h == pytest.approx(pw / ph) and (w == pytest.approx(100) or
                                                    h == pytest.approx(150))


TOP = 0.1 * H  # the box's top edge in image rows (72 dpi: 1 px = 1 pt); x from 18 to 162


@pytest.mark.parametrize("fit,letterbox", [("cover", None), ("contain", (255, 255, 255)),
                                           ("stretch", None)])
def test_each_fit_puts_the_picture_where_it_should_be(tmp_path, fit, letterbox):
    # A 2:1 picture in a 144 x 100.8 pt box: cover crops its sides, contain leaves a band
    # above and below, stretch fills the box.
    pic = quadrants(tmp_path / "q.jpg")
    im = render(one_card_pdf(tmp_path / "c.pdf", [art.Spec(pic, fit)]))
    assert close(im.getpixel((25, int(TOP + 20))), (220, 30, 30))  # top-left: red
    assert close(im.getpixel((155, int(TOP + 80))), (230, 200, 20))  # bottom-right: yellow
    assert close(im.getpixel((5, int(TOP + 50))), (255, 255, 255))  # outside the box
    if letterbox:
        assert close(im.getpixel((90, int(TOP + 5))), letterbox)
    else:
        assert close(im.getpixel((90 + 20, int(TOP + 5))), (30, 160, 60))


def test_the_anchor_chooses_what_cover_keeps(tmp_path):
    pic = quadrants(tmp_path / "q.jpg")
    west = render(one_card_pdf(tmp_path / "w.pdf", [art.Spec(pic, "cover", "w")]))
    east = render(one_card_pdf(tmp_path / "e.pdf", [art.Spec(pic, "cover", "e")]))
    # The box is 144 x 100.8: a 2:1 picture covers it 201.6 wide, 57.6 cropped from one
    # side: anchored west its green half starts at x 118.8, anchored east at x 61.2.
    row = int(TOP + 12)
    assert close(west.getpixel((100, row)), (220, 30, 30))
    assert close(east.getpixel((100, row)), (30, 160, 60))


def test_a_jpeg_goes_into_the_pdf_byte_for_byte_and_once(tmp_path):
    pic = quadrants(tmp_path / "q.jpg")
    (tmp_path / "copy.jpg").write_bytes(pic.read_bytes())  # same picture, another name
    pdf = one_card_pdf(tmp_path / "c.pdf", [art.Spec(pic), art.Spec(tmp_path / "copy.jpg")])
    images = [x for x in PdfReader(pdf).pages[0]["/Resources"]["/XObject"].values()
              if x.get_object()["/Subtype"] == "/Image"]
    assert len(images) == 1
    obj = images[0].get_object()
    filters = obj["/Filter"] if isinstance(obj["/Filter"], list) else [obj["/Filter"]]
    assert filters == ["/DCTDecode"] and obj._data == pic.read_bytes()


def test_a_png_is_converted_once_and_kept_in_the_cache(tmp_path):
    pic = quadrants(tmp_path / "q.png", fmt="PNG")
    one_card_pdf(tmp_path / "a.pdf", [art.Spec(pic)])
    cached = list((tmp_path / "cache" / "images").iterdir())
    assert len(cached) == 1 and cached[0].suffix == ".flate"  # lossless: deflated
    stamp = cached[0].stat().st_mtime_ns
    from companion.files import images

    images._seen.clear()  # a new build
    one_card_pdf(tmp_path / "b.pdf", [art.Spec(pic)])
    assert cached[0].stat().st_mtime_ns == stamp  # not converted again


def test_transparency_is_kept_over_the_ground(tmp_path):
    pic = quadrants(tmp_path / "a.png", fmt="PNG", alpha=True)
    im = render(one_card_pdf(tmp_path / "c.pdf", [art.Spec(pic, "stretch")],
                             ground=(0.2, 0.8, 0.8)))
    assert close(im.getpixel((60, int(TOP + 4))), (51, 204, 204))  # transparent band: ground
    assert close(im.getpixel((60, int(TOP + 30))), (220, 30, 30))


def test_half_transparency_blends_with_the_ground(tmp_path):
    Image.new("RGBA", (300, 200), (200, 0, 0, 128)).save(tmp_path / "half.png")
    im = render(one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "half.png", "stretch")],
                             ground=(0, 0, 1)))
    assert close(im.getpixel((90, int(TOP + 50))), (100, 0, 127), tol=12)


def images_in(pdf):
    page = PdfReader(str(pdf)).pages[0]
    xobjects = page["/Resources"]["/XObject"]
    return [xobjects[k].get_object() for k in xobjects]


def test_a_transparent_picture_is_cached_ready_for_the_pdf_and_never_decoded_again(tmp_path, monkeypatch):
    pic = quadrants(tmp_path / "a.png", fmt="PNG", alpha=True)
    one_card_pdf(tmp_path / "a.pdf", [art.Spec(pic)])
    (cached,) = (tmp_path / "cache" / "images").iterdir()
    assert cached.suffix == ".flate"
    from companion.files import images

    images._seen.clear()  # a new build: the cache is read, the picture is not decoded
    monkeypatch.setattr("PIL.ImageFile.ImageFile.load",
                        lambda *a, **k: pytest.fail("decoded again"))
    one_card_pdf(tmp_path / "b.pdf", [art.Spec(pic), art.Spec(pic, "contain")])
    (xobject,) = images_in(tmp_path / "b.pdf")  # drawn twice, stored once
    assert xobject["/Filter"] == ["/FlateDecode"] and "/SMask" in xobject  # a PNG: lossless
    codec, colour, alpha = images.picture(pic).streams()
    assert codec == "FlateDecode"
    assert xobject._data == colour and xobject["/SMask"].get_object()._data == alpha
    assert xobject["/SMask"]["/Filter"] == ["/FlateDecode"]


def test_what_the_alpha_hides_does_not_darken_an_edge(tmp_path):
    im = Image.new("RGBA", (320, 320), (0, 0, 0, 0))  # hidden black around a red square
    im.paste((230, 40, 40, 255), (80, 80, 240, 240))
    im.save(tmp_path / "edge.webp", "WEBP", quality=90)  # lossy: its colour cached as a JPEG
    from companion.files import images

    codec, colour, _ = images.picture(tmp_path / "edge.webp").streams()
    assert codec == "DCTDecode"
    shown = Image.open(io.BytesIO(colour)).convert("RGB")
    for x in range(80, 84):  # the visible pixels right at the edge keep their red
        assert close(shown.getpixel((x, 160)), (230, 40, 40), tol=25)


def test_a_png_saved_with_alpha_but_opaque_all_over_is_cached_without_alpha(tmp_path):
    Image.new("RGBA", (300, 200), (10, 200, 30, 255)).save(tmp_path / "opaque.png")
    one_card_pdf(tmp_path / "a.pdf", [art.Spec(tmp_path / "opaque.png")])
    (cached,) = (tmp_path / "cache" / "images").iterdir()
    (xobject,) = images_in(tmp_path / "a.pdf")
    assert cached.suffix == ".flate" and "/SMask" not in xobject


@pytest.mark.parametrize("name,save,lossless", [
    ("p.png", {}, True), ("p.gif", {}, True), ("p.tiff", {}, True),
    ("p.webp", {"lossless": True}, True), ("p.webp", {"quality": 80}, False),
    ("p.jpg", {"quality": 95}, False)])
def test_a_lossless_picture_is_deflated_a_lossy_one_a_jpeg(tmp_path, name, save, lossless):
    """Each format as pillow saves it: lossless ones (PNG, GIF, TIFF, lossless WebP) go
    into the PDF deflated, lossy ones (JPEG, lossy WebP) as a JPEG."""
    im = Image.new("RGB", (64, 48), (250, 250, 250))
    im.paste((200, 0, 0), (10, 10, 40, 30))
    (im.convert("P") if name.endswith(".gif") else im).save(tmp_path / name, **save)
    one_card_pdf(tmp_path / "a.pdf", [art.Spec(tmp_path / name)])
    (xobject,) = images_in(tmp_path / "a.pdf")
    filters = xobject["/Filter"] if isinstance(xobject["/Filter"], list) else [
        xobject["/Filter"]]
    assert filters == (["/FlateDecode"] if lossless else ["/DCTDecode"])


def test_a_cache_file_of_the_earlier_form_is_not_read_as_this_one(tmp_path):
    """Before, a PNG was cached as a JPEG under its content's digest: such a file, left in
    the cache, is not taken for the picture (its name says the form it was written in)."""
    import hashlib

    from companion.files import images

    pic = quadrants(tmp_path / "q.png", fmt="PNG")
    digest = hashlib.sha256(pic.read_bytes()).hexdigest()
    folder = tmp_path / "cache" / "images"
    folder.mkdir(parents=True)
    Image.open(pic).convert("RGB").save(folder / f"{digest}.jpg", quality=92)  # form 2's
    assert images.picture(pic).streams()[0] == "FlateDecode"


def test_a_damaged_cache_file_is_one_error_naming_it(tmp_path):
    pic = quadrants(tmp_path / "a.png", fmt="PNG", alpha=True)
    one_card_pdf(tmp_path / "a.pdf", [art.Spec(pic)])
    (cached,) = (tmp_path / "cache" / "images").iterdir()
    cached.write_bytes(b"garbage")
    from companion.files import images

    images._seen.clear()
    with pytest.raises(CompanionError) as e:
        one_card_pdf(tmp_path / "b.pdf", [art.Spec(pic)])
    assert "damaged picture cache" in e.value.message and e.value.source == str(cached)


def test_a_phone_photo_is_printed_the_way_up_its_camera_says(tmp_path):
    upright = Image.open(quadrants(tmp_path / "q.jpg")).convert("RGB")
    stored = upright.rotate(90, expand=True)  # as the sensor saw it: on its side
    exif = Image.Exif()
    exif[0x0112] = 6  # "turn 90 degrees clockwise to view"
    stored.save(tmp_path / "photo.jpg", "JPEG", quality=95, exif=exif.tobytes())
    from companion.files import images

    assert (images.picture(tmp_path / "photo.jpg").width,
            images.picture(tmp_path / "photo.jpg").height) == (400, 200)
    im = render(one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "photo.jpg", "stretch")]))
    assert close(im.getpixel((25, int(TOP + 20))), (220, 30, 30))  # top-left: red
    assert close(im.getpixel((155, int(TOP + 80))), (230, 200, 20))  # bottom-right: yellow


def test_a_16_bit_grey_picture_keeps_its_greys(tmp_path):
    Image.new("I;16", (300, 200), 128 * 256).save(tmp_path / "grey16.png")
    im = render(one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "grey16.png", "stretch")]))
    assert close(im.getpixel((90, int(TOP + 50))), (128, 128, 128), tol=10)


def test_a_picture_under_300_dpi_is_reported_once_with_file_dpi_and_box(tmp_path):
    pic = quadrants(tmp_path / "small.jpg", size=(200, 100))
    with art.logging() as log:
        one_card_pdf(tmp_path / "c.pdf", [art.Spec(pic), art.Spec(pic)])
    (line,) = log.warnings()
    # cover: 100 px over the box's 100.8 pt (1.4 in) -> 71 dpi
    assert "small.jpg" in line and "71 dpi" in line and "50.8 × 35.6 mm" in line
    big = quadrants(tmp_path / "big.jpg", size=(1200, 600))
    with art.logging() as log:
        one_card_pdf(tmp_path / "d.pdf", [art.Spec(big)])
    assert log.warnings() == []


def test_a_missing_picture_names_the_card_and_the_path(tmp_path):
    with pytest.raises(CompanionError) as e:
        one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "art" / "red-7A.jpg",
                                                   card="clan-cards/red-7A")])
    assert "clan-cards/red-7A" in e.value.line() and "red-7A.jpg" in e.value.line()


def test_draft_prints_a_placeholder_and_lists_what_is_missing(tmp_path):
    with art.logging(draft=True) as log:
        pdf = one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "red-7A.jpg",
                                                         card="clan-cards/red-7A")])
    assert log.missing == {str(tmp_path / "red-7A.jpg"): "clan-cards/red-7A, missing"}
    assert "missing: red-7A.jpg" in PdfReader(pdf).pages[0].extract_text()


def test_draft_prints_a_placeholder_for_a_file_that_is_no_picture_too(tmp_path):
    (tmp_path / "red-7A.jpg").write_bytes(b"not a jpeg")
    with art.logging(draft=True) as log:
        pdf = one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "red-7A.jpg",
                                                         card="clan-cards/red-7A")])
    assert log.missing == {str(tmp_path / "red-7A.jpg"): "clan-cards/red-7A, unreadable"}
    assert "unreadable: red-7A.jpg" in PdfReader(pdf).pages[0].extract_text()


def test_a_file_that_is_not_a_picture_is_an_error_not_a_traceback(tmp_path):
    (tmp_path / "x.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(CompanionError, match="not a picture"):
        one_card_pdf(tmp_path / "c.pdf", [art.Spec(tmp_path / "x.jpg", card="c")])
