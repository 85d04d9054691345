"""A designer's pictures made by a careless or hostile designer (issue 20): pixel bombs of a
few kilobytes, a JPEG cut short or whose header lies, float and 32-bit pixels that print
black, a FIFO or a link to /dev/zero as a picture, art outside the data folder. Each build
runs capped (tests/capped.py: 30 s of CPU, 2 GB) and must end with exit 2 and one line
naming the file and what is wrong, never a traceback or pillow's raw warning, the kit built
before it byte for byte as it was. A hypothesis run over damaged and odd pictures asks the
same of every build: exit 0, or 2 in one line with the kit kept."""

import io
import os
import random
import shutil
import struct
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image

from companion.files import designer_files, images
from companion.errors import CompanionError
from tests.capped import MEMORY, refused_in_one_line, run, snapshot

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="setrlimit and FIFOs: POSIX")


def data_file(folder: Path, token: str = "art/token.png") -> Path:
    """A Covenia data file whose round tokens carry the picture `token`."""
    from companion.files import paths

    text = paths.layout("covenia.toml").read_text(encoding="utf-8")
    path = folder / "covenia.toml"
    path.write_text(text + f'\n[art]\ntoken = "{token}"\n', encoding="utf-8")
    return path


def build(folder: Path, out: Path, *args: str, token: str = "art/token.png"):
    return run(folder, "build", "covenia", "--only", "tokens", "--data",
               str(data_file(folder, token)), "--out", str(out), *args,
               env={"TABLE_COMPANION_CACHE": str(folder / "cache")})


def png_bytes(w: int, h: int, mode: str = "RGB", colour=(200, 80, 40)) -> bytes:
    out = io.BytesIO()
    Image.new(mode, (w, h), colour if mode != "L" else 120).save(out, "PNG")
    return out.getvalue()


def jpeg_bytes(w: int = 600, h: int = 600) -> bytes:
    out = io.BytesIO()
    Image.effect_noise((w, h), 60).convert("RGB").save(out, "JPEG", quality=90)
    return out.getvalue()


@pytest.fixture(scope="module")
def good_kit(tmp_path_factory):
    """A kit built with a good token picture: every hostile build goes to a copy of it."""
    folder = tmp_path_factory.mktemp("good")
    (folder / "art").mkdir()
    (folder / "art/token.png").write_bytes(png_bytes(600, 600))
    r = build(folder, folder / "kit")
    assert r.code == 0, r
    return folder / "kit", snapshot(folder / "kit")


def hostile(tmp_path, good_kit, picture: bytes | None, *args: str, name: str = "token.png"):
    """Builds over a copy of the good kit with art/NAME holding `picture` (None: the test
    made art/NAME itself); the kit must come out as it went in."""
    kit, before = good_kit
    (tmp_path / "art").mkdir(exist_ok=True)
    if picture is not None:
        (tmp_path / "art" / name).write_bytes(picture)
    out = tmp_path / "kit"
    shutil.copytree(kit, out)
    r = build(tmp_path, out, *args, token=f"art/{name}")
    if r.code != 0:
        assert snapshot(out) == before, ("a failed build changed the kit", r)
    return r


# ---- the pictures found --------------------------------------------------------------------

def _png_bomb() -> bytes:
    """A 40,000 x 40,000 RGBA PNG of one colour: about 20 KB, 6.4 GB once decoded."""
    w = h = 40_000
    row = b"\x00" + b"\x00" * (4 * w)
    raw = zlib.compressobj(9)
    body = b"".join(raw.compress(row) for _ in range(h)) + raw.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def png_bomb():
    return _png_bomb()


def _lying_jpeg(w: int, h: int) -> bytes:
    """A 600 x 600 JPEG whose frame header says w x h."""
    data = bytearray(jpeg_bytes())
    i = data.find(b"\xff\xc0")
    data[i + 5:i + 9] = struct.pack(">HH", h, w)
    return bytes(data)


def _tiff(mode: str, value) -> bytes:
    out = io.BytesIO()
    Image.new(mode, (300, 300), value).save(out, "TIFF")
    return out.getvalue()


def test_a_pixel_bomb_of_a_few_kilobytes_is_refused_from_its_header(tmp_path, good_kit,
                                                                     png_bomb):
    assert len(png_bomb) < 8_000_000
    r = hostile(tmp_path, good_kit, png_bomb)
    refused_in_one_line(r, "token.png", "40000 × 40000 pixels", "24 million")
    assert r.peak_mb is None or r.peak_mb < 400, r  # the header only was read


def test_just_over_the_pixel_limit_is_our_one_line_not_pillows_warning(tmp_path, good_kit):
    """pillow warns (two raw lines) between its limit and twice it: that band is refused
    in our one line too."""
    r = hostile(tmp_path, good_kit, png_bytes(5000, 5000, "L"))
    refused_in_one_line(r, "token.png", "5000 × 5000 pixels")
    assert "DecompressionBomb" not in r.err and "warn" not in r.err.lower(), r


def test_a_jpeg_cut_in_half_is_refused_not_printed_half_grey(tmp_path, good_kit):
    data = jpeg_bytes()
    r = hostile(tmp_path, good_kit, data[:len(data) // 2], name="token.jpg")
    refused_in_one_line(r, "token.jpg", "cut short")


def test_a_jpeg_whose_header_claims_9000_by_9000_is_refused(tmp_path, good_kit):
    r = hostile(tmp_path, good_kit, _lying_jpeg(9000, 9000), name="token.jpg")
    refused_in_one_line(r, "token.jpg", "9000 × 9000 pixels")


def test_float_pixels_which_print_black_are_refused(tmp_path, good_kit):
    r = hostile(tmp_path, good_kit, _tiff("F", 0.5), name="token.tif")
    refused_in_one_line(r, "token.tif", "32-bit floating point", "8-bit")


def test_32_bit_integer_pixels_are_refused(tmp_path, good_kit):
    r = hostile(tmp_path, good_kit, _tiff("I", 5_000_000), name="token.tif")
    refused_in_one_line(r, "token.tif", "32-bit integer")


def test_16_bit_grey_still_prints_scaled(tmp_path, good_kit):
    """The 32-bit check leaves honest 16-bit grey alone."""
    out = io.BytesIO()
    Image.new("I;16", (300, 300), 40000).save(out, "PNG")
    r = hostile(tmp_path, good_kit, out.getvalue())
    assert r.code == 0, r


def test_a_fifo_as_a_picture_is_refused_not_read_for_ever(tmp_path, good_kit):
    (tmp_path / "art").mkdir()
    os.mkfifo(tmp_path / "art/token.png")
    r = hostile(tmp_path, good_kit, None)
    refused_in_one_line(r, "token.png", "is a pipe (FIFO), not a picture")


def test_a_fifo_with_draft_prints_a_placeholder_and_says_why(tmp_path, good_kit):
    (tmp_path / "art").mkdir()
    os.mkfifo(tmp_path / "art/token.png")
    r = hostile(tmp_path, good_kit, None, "--draft")
    assert r.code == 0, r
    assert "token.png" in r.err and "unreadable" in r.err, r


def test_a_picture_linked_to_dev_zero_is_refused(tmp_path, good_kit):
    (tmp_path / "art").mkdir()
    os.symlink("/dev/zero", tmp_path / "art/token.png")
    r = hostile(tmp_path, good_kit, None)
    refused_in_one_line(r, "token.png", "is a device, not a picture")


def test_a_picture_over_the_size_limit_is_refused_before_it_is_read(tmp_path, good_kit):
    (tmp_path / "art").mkdir()
    with open(tmp_path / "art/token.png", "wb") as f:  # sparse: takes no disk
        f.truncate(images.MAX_BYTES + 1)
    r = hostile(tmp_path, good_kit, None)
    refused_in_one_line(r, "token.png", "over the 200 MB a picture may be")
    assert r.peak_mb is None or r.peak_mb < 400, r


def test_permission_denied_is_said_so(tmp_path, monkeypatch):
    """Not "not a picture pillow can read" (tried in this process: root reads any file)."""
    path = tmp_path / "token.png"
    path.write_bytes(png_bytes(10, 10))
    real = os.open

    def denied(p, *a, **k):
        if str(p) == str(path):
            raise PermissionError(13, "Permission denied")
        return real(p, *a, **k)
    monkeypatch.setattr(designer_files.os, "open", denied)
    monkeypatch.setattr(images, "_digests", {})
    with pytest.raises(CompanionError) as e:
        images.picture(path)
    assert "permission denied" in e.value.line() and str(path) in e.value.line()


def test_art_outside_the_data_folder_is_said_once_and_refused_with_strict(tmp_path, good_kit):
    inside = tmp_path / "game"
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared/token.png").write_bytes(png_bytes(600, 600))
    inside.mkdir()
    kit, before = good_kit
    out = inside / "kit"
    shutil.copytree(kit, out)
    r = build(inside, out, token="../shared/token.png")
    assert r.code == 0, r
    said = [line for line in r.err.splitlines() if "outside the data file's folder" in line]
    assert len(said) == 1 and "token.png" in said[0], r  # once, though 20 tokens use it
    r = build(inside, out, "--strict", token="../shared/token.png")
    refused_in_one_line(r, "token.png", "outside the data file's folder", "--strict")


# ---- any picture: builds, or is refused in one line ------------------------------------------

MODES = ["1", "L", "LA", "P", "RGB", "RGBA", "CMYK", "I;16", "I", "F"]


@st.composite
def pictures(draw):
    """(file name, bytes): a picture of any mode and format, then perhaps damaged: cut
    short, a byte changed, or its size in the header changed."""
    fmt = draw(st.sampled_from(["PNG", "JPEG", "TIFF", "GIF", "BMP", "WEBP"]))
    mode = draw(st.sampled_from(MODES))
    w, h = draw(st.integers(1, 400)), draw(st.integers(1, 400))
    out = io.BytesIO()
    try:
        noise = random.Random(draw(st.integers(0, 2 ** 16))).randbytes(w * h * 3)
        Image.frombytes("RGB", (w, h), noise).convert(mode).save(out, fmt)
    except (OSError, ValueError, KeyError):
        Image.new("RGB", (w, h), (30, 60, 90)).save(out, "PNG")
        fmt = "PNG"
    data = bytearray(out.getvalue())
    damage = draw(st.sampled_from(["none", "cut", "byte", "size"]))
    if damage == "cut":
        data = data[:draw(st.integers(0, max(0, len(data) - 1)))]
    elif damage == "byte" and data:
        i = draw(st.integers(0, len(data) - 1))
        data[i] = draw(st.integers(0, 255))
    elif damage == "size" and len(data) > 24:
        i = draw(st.integers(0, min(len(data), 200) - 4))
        data[i:i + 4] = struct.pack(">I", draw(st.integers(0, 2 ** 32 - 1)))
    return f"token.{fmt.lower()}", bytes(data)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(picture=pictures())
def test_any_picture_builds_or_is_refused_in_one_line_and_the_kit_is_kept(
        tmp_path_factory, good_kit, picture):
    name, data = picture
    folder = tmp_path_factory.mktemp("picture")
    r = hostile(folder, good_kit, data, name=name)
    assert r.code in (0, 2), r
    assert "Traceback" not in r.err and "Warning" not in r.err, r
    if r.code == 2:
        refused_in_one_line(r, name)
    assert r.peak_mb is None or r.peak_mb * 1024 ** 2 < MEMORY, r
    shutil.rmtree(folder)
