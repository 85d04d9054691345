"""Cards by name and by content: each card's stable id within its component, and a digest
of what draws each face (the PDF operators it emits, fonts named by their real names), so
that a changed text, colour, layout value or picture changes the digest and nothing else
does. The manifest lists both; --changed-since compares them. The version stamp is no part
of a digest (companion.kit._stamped): a version bump alone reprints nothing."""

from companion.draw import digest as digest_of
from companion.draw.print_sheets import Card, Face


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


def digest(face: Face, w: float, h: float, bleed: float) -> str:
    """SHA-256 (16 hex digits) of what the face draws, drawn alone on a scratch canvas
    (companion.draw.digest); a face that knows its own digest (the layout engine's) is
    not drawn for it."""
    if face.digest is not None:
        return face.digest(w, h, bleed)
    return digest_of.drawn(face.draw, w, h, bleed)
