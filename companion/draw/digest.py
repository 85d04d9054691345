"""A face's digest from what it draws: its operators on a scratch canvas, every name in
them read as its content (issue 49): a font by its face's name (a designer's holds its
file's digest: companion.press.fonts), never by the name it was registered under, a
picture by its content's digest; transparency states, shadings and
icons are named by their content already (companion.press.pdf, companion.draw.icons).
So a change to anything the face prints (an opacity, a gradient's colours, a font's
bytes) changes the digest."""

import hashlib
import io
import re

from companion.draw import picture

_FONT_REF = re.compile(r"/(F\d+)((?:\+\d+)? )")  # a font, and its subset: "/F2+0 7.5 Tf"
_PICTURE_REF = re.compile(r"/FormXob\.([0-9a-f]+) ")


def drawn(draw, w: float, h: float, bleed: float) -> str:
    """SHA-256 (16 hex digits) of what `draw(c, w, h, bleed)` writes."""
    from companion.press.pdf import open_canvas

    c = open_canvas(io.BytesIO(), (w + 2 * bleed, h + 2 * bleed), "digest", "")
    draw(c, w, h, bleed)
    names = {internal.lstrip("/"): _face_name(real)
             for real, internal in c._doc.fontMapping.items()}
    ops = _FONT_REF.sub(lambda m: f"/{names.get(m.group(1), m.group(1))}{m.group(2)}",
                        "\n".join(c._code))
    if "/FormXob." in ops:  # a picture by its content, not by the cache folder's path
        ops = _PICTURE_REF.sub(
            lambda m: f"/picture:{picture.CONTENT.get(m.group(1), m.group(1))} ", ops)
    return hashlib.sha256(ops.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _face_name(registered: str) -> str:
    """The font registered as `registered`, named by what it is: its face's name. Not the
    name itself: reportlab gives a second name of a face it knows the font first
    registered (one file as two roles, or a font put back where another stood), so which
    name a drawing writes depends on what the process met before (F2: a `--watch` process
    wrote digests a cold build does not)."""
    from reportlab.pdfbase import pdfmetrics

    name = getattr(getattr(pdfmetrics.getFont(registered), "face", None), "name", registered)
    return name.decode("latin-1") if isinstance(name, bytes) else str(name)
