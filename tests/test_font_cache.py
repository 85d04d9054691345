"""The font cache (companion.press.fonts): what reportlab parses from a font is read back from our
cache folder by later runs, and a font read back prints exactly as one parsed; a damaged
or unwritable cache costs only the parse."""

import io
import marshal

import pytest
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from companion.press import fonts
from companion.files import paths

FONT = paths.FONTS / "DejaVuSans.ttf"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "fonts"


def _pdf(font) -> bytes:
    """A page printing a few words (and a glyph outside Latin-1) in `font`, as bytes."""
    from reportlab.pdfbase import pdfmetrics

    pdfmetrics.registerFont(font)
    out = io.BytesIO()
    c = Canvas(out, invariant=1)
    c.setFont(font.fontName, 12)
    c.drawString(72, 720, "Covenia: 7 × ♥ — œuvre")
    c.save()
    return out.getvalue()


def test_a_font_read_back_from_the_cache_is_the_font_reportlab_parses(cache):
    raw = FONT.read_bytes()
    first = fonts._font("CacheA", raw, str(FONT))
    assert len(list(cache.glob("*.marshal"))) == 1  # kept by the first run
    again = fonts._font("CacheB", raw, str(FONT))
    parsed = TTFont("CacheC", str(FONT))
    assert type(again.face) is type(parsed.face)
    # The same attributes, with the same values, as reportlab's own parse gives.
    assert sorted(vars(again)) == sorted(vars(parsed))
    assert sorted(vars(again.face)) == sorted(vars(parsed.face))
    for key, value in vars(parsed.face).items():
        if key != "_pdfScale":
            assert getattr(again.face, key) == value, key
            assert type(getattr(again.face, key)) is type(value), key
    assert again.face._pdfScale(1000) == parsed.face._pdfScale(1000)
    assert again.stringWidth("Covenia 7 ♥", 10) == parsed.stringWidth("Covenia 7 ♥", 10)
    assert again.shapable == parsed.shapable
    # Printed, byte for byte (subset, widths, names) as the parsed font prints.
    pdfs = [_pdf(f) for f in (first, again, parsed)]
    assert pdfs[1].replace(b"CacheB", b"CacheC") == pdfs[2].replace(b"CacheB", b"CacheC")
    assert pdfs[0].replace(b"CacheA", b"CacheC") == pdfs[2]


def test_a_damaged_cache_file_is_parsed_again_and_replaced(cache):
    from companion.files import kept

    raw = FONT.read_bytes()
    fonts._font("DamagedA", raw, str(FONT))
    (file,) = cache.glob("*.marshal")
    whole = file.read_bytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0x10  # one bit of a width or a glyph number
    for damage in (b"", b"not marshal data", whole[:1000], bytes(flipped),
                   kept.FORMAT + b"\0\0\0\0" + marshal.dumps({"state": {}})):
        file.write_bytes(damage)
        font = fonts._font("DamagedB", raw, str(FONT))
        parsed = TTFont("X", str(FONT))
        assert font.face.charWidths == parsed.face.charWidths
        assert font.face.charToGlyph == parsed.face.charToGlyph
        assert file.read_bytes() == whole  # written again, whole


def test_another_font_or_reportlab_version_never_reads_this_one(cache, monkeypatch):
    import reportlab

    raw = FONT.read_bytes()
    fonts._font("VersionA", raw, str(FONT))
    monkeypatch.setattr(reportlab, "Version", reportlab.Version + ".next")
    fonts._font("VersionB", raw, str(FONT))
    bold = paths.FONTS / "DejaVuSans-Bold.ttf"
    fonts._font("VersionC", bold.read_bytes(), str(bold))
    assert len(list(cache.glob("*.marshal"))) == 3


def test_a_cache_that_cannot_be_written_costs_only_the_parse(tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(blocked))
    font = fonts._font("Unwritable", FONT.read_bytes(), str(FONT))
    assert font.stringWidth("Vengeance", 10) > 0
    assert blocked.read_text() == "a file where the cache folder would be"
