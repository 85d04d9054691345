"""Cards by name and by content: each card's stable id within its component, and a digest
of what draws each face (the PDF operators it emits, fonts named by their real names), so
that a changed text, colour, layout value or picture changes the digest and nothing else
does. The manifest lists both; --changed-since compares them. The version stamp is no part
of a digest (companion.kit._stamped): a version bump alone reprints nothing."""

import hashlib
import io
import re

from companion.draw import picture
from companion.draw.sheets import Card, Face


def card_ids(cards: list[Card]) -> list[str]:
    """Each card's id: its own (Card.id), else its position ("001"); a card repeated
    (the same id again, e.g. four identical aids) takes "-2", "-3"... after the first."""
    seen: dict[str, int] = {}
    out = []
    for n, card in enumerate(cards, 1):
        base = card.id or f"{n:03d}"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


_FONT_REF = re.compile(r"/(F\d+) ")
_PICTURE_REF = re.compile(r"/FormXob\.([0-9a-f]+) ")


def digest(face: Face, w: float, h: float, bleed: float) -> str:
    """SHA-256 (16 hex digits) of what the face draws, drawn alone on a scratch canvas;
    a face that knows its own digest (the layout engine's) is not drawn for it."""
    if face.digest is not None:
        return face.digest(w, h, bleed)
    from companion.press.pdf import open_canvas

    c = open_canvas(io.BytesIO(), (w + 2 * bleed, h + 2 * bleed), "digest", "")
    face.draw(c, w, h, bleed)
    names = {internal: real for real, internal in c._doc.fontMapping.items()}
    ops = _FONT_REF.sub(lambda m: f"/{names.get(m.group(1), m.group(1))} ", "\n".join(c._code))
    if "/FormXob." in ops:  # a picture by its content, not by the cache folder's path
        ops = _PICTURE_REF.sub(
            lambda m: f"/picture:{picture.CONTENT.get(m.group(1), m.group(1))} ", ops)
    return hashlib.sha256(ops.encode("utf-8", "surrogatepass")).hexdigest()[:16]
