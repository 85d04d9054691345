"""Every printed string goes through here, so each is checked against its font first, and
on a card measured (companion.text.fit): a text shrinks to fit its box, never below the
card's floor (nor is it set below it: a size given as a fraction of a mini card's width);
what still does not fit is drawn at the floor and reported, not hidden."""

from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from companion.press import fonts
from companion.text import fit

ASCENT, DESCENT = 0.76, 0.24  # of the size: DejaVu's glyphs above and below the baseline


def _floor(c, asked: float) -> float:
    rec = fit.current()
    return rec.floor(c) if rec is not None and rec.on_card() else asked


def width(s: str, role: str, size: float) -> float:
    return stringWidth(s, fonts.font(role), size)


def fit_size(s: str, role: str, size: float, max_w: float, min_size: float = 4.0) -> float:
    """The largest size up to `size` at which `s` fits in `max_w`."""
    w = width(s, role, size)
    return size if w <= max_w else max(min_size, size * max_w / w)


def line(c, s: str, x: float, y: float, role: str, size: float,
         align: str = "left", max_w: float | None = None, field: str | None = None) -> None:
    """One line of text at baseline y; shrinks to max_w when given. `field` names what
    it prints in reports (e.g. "reminder")."""
    name = fonts.font(role)
    fonts.check(name, s)
    rec = fit.current()
    floor = rec.floor(c) if rec is not None and rec.on_card() else None  # as _floor
    size = max(size, floor or 0.0)  # on a card, never set below the floor (a mini card)
    w = None
    if max_w is not None:  # fit_size's, its width kept where the size stays
        w = stringWidth(s, name, size)
        if w > max_w:
            size, w = max(4.0 if floor is None else floor, size * max_w / w), None
    c.setFont(name, size)
    if align == "center":
        c.drawCentredString(x, y, s)
    elif align == "right":
        c.drawRightString(x, y, s)
    else:
        c.drawString(x, y, s)
    if rec is not None:
        if w is None:
            w = stringWidth(s, name, size)
        x0 = x - w / 2 if align == "center" else x - w if align == "right" else x
        rec.record(c, s, field, size, (x0, y - DESCENT * size, x0 + w, y + ASCENT * size),
                   max_w is None or w <= max_w + 0.01, "bold" in role)


def wrap(s: str, role: str, size: float, max_w: float) -> list[str]:
    """Lines of at most max_w, broken at plain spaces only: a no-break space (French
    punctuation, "7 cartes") keeps its neighbours on one line. A word wider than max_w
    stands alone on its line."""
    return list(_wrapped(s, fonts.font(role), size, max_w))


@lru_cache(maxsize=4096)
def _wrapped(s: str, name: str, size: float, max_w: float) -> tuple[str, ...]:
    """wrap's lines, by font name: a text shrinking to fit is wrapped at each size it
    tries, and the cards of a clan or a team print the same reminders."""
    space = stringWidth(" ", name, size)
    out: list[str] = []
    for para in s.split("\n"):
        line, used = [], 0.0
        for word in para.split(" "):
            if not word:
                continue
            w = stringWidth(word, name, size)
            if line and used + space + w > max_w:
                out.append(" ".join(line))
                line, used = [], 0.0
            used += (space if line else 0) + w
            line.append(word)
        out.append(" ".join(line))
    return tuple(out)


def block(c, s: str, x: float, top: float, w: float, h: float, role: str, size: float,
          align: str = "left", leading: float = 1.2, min_size: float = 4.5,
          field: str | None = None) -> float:
    """Wrapped text in the box (x, top-h, w, h), shrunk until it fits; returns the height used."""
    name = fonts.font(role)
    fonts.check(name, s)
    min_size = _floor(c, min_size)
    size = max(size, _floor(c, 0.0))  # on a card, never set below the floor (a mini card)
    while True:  # shrunk until its lines fit the box's height, and its widest its width
        lines = wrap(s, role, size, w)
        step = size * leading
        if len(lines) * step <= h and max(width(ln, role, size) for ln in lines) <= w + 0.01 \
                or size <= min_size:
            break
        size = max(min_size, size * 0.92)
    c.setFont(name, size)
    y = top - size
    for ln in lines:
        if align == "center":
            c.drawCentredString(x + w / 2, y, ln)
        else:
            c.drawString(x, y, ln)
        y -= step
    used = len(lines) * step
    rec = fit.current()
    if rec is not None:
        widest = max((width(ln, role, size) for ln in lines), default=0.0)
        x0 = x + (w - widest) / 2 if align == "center" else x
        last = top - size - (len(lines) - 1) * step  # the last line's baseline
        rec.record(c, s, field, size, (x0, last - DESCENT * size,
                                       x0 + widest, top - (1 - ASCENT) * size),
                   used <= h + 0.01 and widest <= w + 0.01, "bold" in role)
    return used
