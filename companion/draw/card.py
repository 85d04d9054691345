"""Pieces most card faces use: a full-bleed background, an inner panel, a framed back,
a token disc with its cut line, bulleted text that shrinks until it fits, and the
designer's picture in its art box."""

from contextvars import ContextVar
from typing import Callable

import msgspec
from reportlab.lib.colors import Color, white

from companion.scoped import Scoped
from companion.draw import art
from companion.draw import text

# --ink saver: grounds are printed pale and backs light (an outline and the emblem on
# white). Set for a whole build by companion.kit; the faces ask, through the helpers below.
_saving: ContextVar[bool] = ContextVar("ink_saver", default=False)
PALE = 0.85  # how far a ground moves towards white
LEGIBLE = 3.0  # an ink keeps its colour on a light back if its contrast with white is this


def ink_saver(on: bool) -> Scoped:
    return Scoped(_saving, on)


def saving() -> bool:
    return _saving.get()


def ground(fill) -> Color:
    """A ground's colour as printed: itself, or a pale tint of it when saving ink (the
    hue stays, so colour cues stay)."""
    if not saving():
        return fill
    return Color(*(v + (1 - v) * PALE for v in fill.rgb()))


def on_back(fill, *inks):
    """(ground, inks...) of a card back: the back's colour with its inks as given; when
    saving ink, white with each ink kept if it reads on white, else the back's colour."""
    if not saving():
        return (fill, *inks)
    from companion.text.fit import contrast

    legible = [i if contrast(i.rgb(), (1, 1, 1)) >= LEGIBLE else fill for i in inks]
    return (white, *legible)


def ink_on(fill, ink, fallback):
    """`ink` on a ground of `fill`; when saving ink (the ground paled) and `ink` no longer
    reads on it (WCAG 4.5:1), `fallback`."""
    if not saving():
        return ink
    from companion.text.fit import contrast

    return ink if contrast(ink.rgb(), ground(fill).rgb()) >= 4.5 else fallback


def background(c, w, h, bleed, fill, cue: bool = False) -> None:
    """A full-bleed ground. `cue`: the colour itself is part of the game (never paled)."""
    c.setFillColor(fill if cue else ground(fill))
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


def panel(c, w, h, inset, fill, radius=None) -> None:
    c.setFillColor(fill)
    r = radius if radius is not None else inset * 1.2
    c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, r, stroke=0, fill=1)


def disc(c, cx, cy, r, bleed, fill) -> None:
    """A token's ground: a disc of `fill` running `bleed` past its cut line at r, so a cut
    a little off the line still shows no paper."""
    c.setFillColor(ground(fill))
    c.circle(cx, cy, r + bleed, stroke=0, fill=1)


BULLET = "• "


def _height(lines: list[str], w: float, size: float, role: str,
            gap: float | None = None) -> float:
    total = 0.0
    for ln in lines:
        indent = size * 1.1 if ln.startswith(BULLET) else 0
        body = ln[len(BULLET):] if ln.startswith(BULLET) else ln
        total += len(text.wrap(body, role, size, w - indent)) * size * 1.2 + \
            (size * 0.35 if gap is None else gap)
    return total


def bullets(c, lines: list[str], x: float, top: float, w: float, h: float, size: float,
            ink, mark: Callable[[object, str, float, float, float], None],
            role: str = "regular", min_size: float = 4.6, field: str = "lines",
            gap: float | None = None, first: int = 0) -> float:
    """Paragraphs, those starting with '• ' as bullets; all shrink together to fit h (not
    below the card's floor). mark(c, body, x, y, size) draws a bullet's mark. `gap`: the
    space after each paragraph (default: 0.35 of the size); `first`: the number of the
    first line in its list, for the reports. Returns the size used."""
    floor = text._floor(c, min_size)
    while _height(lines, w, size, role, gap) > h and size > floor:
        size = max(floor, size * 0.95)
    bottom = top - h
    for i, ln in enumerate(lines):
        is_bullet = ln.startswith(BULLET)
        body = ln[len(BULLET):] if is_bullet else ln
        indent = size * 1.1 if is_bullet else 0
        if is_bullet:
            mark(c, body, x + size * 0.4, top - size * 0.38, size)
        c.setFillColor(ink)
        # Each paragraph gets what is left of the box, so an overflow is reported where it is.
        top -= text.block(c, body, x + indent, top, w - indent, top - bottom, role, size,
                          min_size=size, field=f"{field}[{first + i}]") + \
            (size * 0.35 if gap is None else gap)
    return size


def dot_mark(fill):
    """A bullet mark: a small dot of `fill`."""
    def mark(c, body, x, y, size):
        c.setFillColor(fill)
        c.circle(x - size * 0.05, y + size * 0.03, size * 0.18, stroke=0, fill=1)
    return mark


def aid(c, w, h, *, title: str, lines: list[str], ink, accent, size: float,
        title_size: float = 0.07, title_ink=None, title_field: str = "aid.title",
        lines_field: str = "aid.lines") -> None:
    """An aid card's body on its panel: a title over a rule, then bulleted paragraphs.
    The fields name the data keys they print, for the text-limit reports."""
    m = 0.07 * w
    c.setFillColor(title_ink or ink)
    text.line(c, title, w / 2, h - 0.1 * h, "bold", title_size * w, align="center",
              max_w=w - 2 * m, field=title_field)
    c.setStrokeColor(accent)
    c.setLineWidth(1)
    c.line(m, h - 0.125 * h, w - m, h - 0.125 * h)
    bullets(c, lines, m, h - 0.15 * h, w - 2 * m, 0.8 * h, size * w, ink, dot_mark(accent),
            field=lines_field)


# ---- the designer's pictures (companion.draw.art; which card gets which: engine/pictures.py) ----

class Pic(msgspec.Struct, frozen=True):
    """A card's picture: its kind's art box and what the card asks for."""
    box: art.Box
    spec: art.Spec

    @property
    def whole(self) -> bool:
        return self.box.whole_card()


def picture_ground(c, w, h, bleed, pic: Pic | None) -> bool:
    """A picture whose box is the whole card is the card's ground: drawn into the bleed,
    under everything else (the face then skips its own ground and panel). True if so."""
    if pic is None or not pic.whole:
        return False
    return art.draw(c, w, h, bleed, pic.box, pic.spec)


def picture_window(c, w, h, bleed, pic: Pic | None, edge=None, width: float = 0.0) -> bool:
    """A picture in a box smaller than the card, with a thin `edge` line round it if given.
    True whenever the card has a picture (whatever its box): the element the box stands
    for (an emblem, a symbol) is then not drawn."""
    if pic is None:
        return False
    if not pic.whole:
        art.draw(c, w, h, bleed, pic.box, pic.spec)
        if edge is not None:
            b = pic.box
            c.saveState()
            c.setStrokeColor(edge)
            c.setLineWidth(width or max(0.6, w * 0.008))
            c.rect(b.x * w, h - (b.y + b.h) * h, b.w * w, b.h * h, stroke=1, fill=0)
            c.restoreState()
    return True


def picture_disc(c, cx, cy, r, w, h, bleed, pic: Pic | None) -> bool:
    """A round token's ground from a whole-token picture, cut to its disc (and the bleed
    past it); True if so (the face then skips its own disc)."""
    if pic is None or not pic.whole:
        return False
    c.saveState()
    p = c.beginPath()
    p.circle(cx, cy, r + bleed)
    c.clipPath(p, stroke=0, fill=0)
    art.draw(c, w, h, bleed, pic.box, pic.spec)
    c.restoreState()
    return True


def todo_box(c, note: str, word: str, x, top, w, h, size: float, ground, ink,
             field: str | None = None) -> None:
    """A text still to be written: a hatched box in `ink` on `ground`, its heading `word`
    (TO COME) and the note inside."""
    from companion.draw import colour

    c.saveState()
    p = c.beginPath()
    p.roundRect(x, top - h, w, h, size * 0.6)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(colour.mix(ground, ink, 0.08))
    c.rect(x, top - h, w, h, stroke=0, fill=1)
    c.setStrokeColor(colour.mix(ground, ink, 0.25))
    c.setLineWidth(0.5)
    step = size * 0.9
    k = -h
    while k < w:
        c.line(x + k, top - h, x + k + h, top)
        k += step
    c.restoreState()
    c.setStrokeColor(ink)
    c.setLineWidth(0.8)
    c.setDash(2.5, 1.5)
    c.roundRect(x, top - h, w, h, size * 0.6, stroke=1, fill=0)
    c.setDash()
    c.setFillColor(ink)
    text.line(c, word, x + w / 2, top - size * 1.15, "narrow-bold", size * 0.85,
              align="center", field="texts.to_come")
    # The note at 0.8 of the element's size, never under the text floor (a narrower card).
    from companion.text import fit

    rec = fit.current()
    note_size = max(size * 0.8, rec.floor(c) + 0.05) if rec is not None else size * 0.8
    text.block(c, note, x + size * 0.4, top - size * 1.5, w - size * 0.8, h - size * 1.6,
               "narrow", note_size, align="center", field=field)
