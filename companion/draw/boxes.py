"""Drawing tuck box nets (companion.press.tuck_box's arithmetic): cut lines solid, fold
lines dashed, the game's and the deck's names on the front and the sides, the deck's
own card back on the box's back (or the names, for a deck without one), the glue flaps
marked. One page a piece."""

import msgspec

from companion.draw import text
from companion.press.tuck_box import Piece, Placement, Settings
from companion.text.units import mm


class BoxWords(msgspec.Struct):
    game: str
    deck: str
    cards: str  # "100 cards"
    inside: str  # "inside 65 × 90.4 × 30 mm"
    legend: str  # what the lines mean
    glue: str
    part: str  # "" for a whole net, else "part 1 of 2"


def page(c, piece: Piece, at: Placement, s: Settings, words: BoxWords, back=None,
         card: tuple[float, float] | None = None) -> None:
    """One piece on the current page, at its placement; `back` (a Face of `card`'s size),
    the deck's back, drawn on the box's back panel."""
    c.saveState()
    if at.turned:  # its width up the page: (u, v) -> (x + h - v, y + u)
        c.translate(at.x + piece.h, at.y)
        c.rotate(90)
    else:
        c.translate(at.x, at.y)
    _words(c, piece, words, back is not None)
    if back is not None:
        for kind, r in piece.panels:
            if kind == "back":
                _card_back(c, r, back, card)
    c.setStrokeGray(0.35)
    c.setLineWidth(s.fold_width)
    c.setDash(*s.fold_dash)
    for (x1, y1), (x2, y2) in piece.folds:
        c.line(x1, y1, x2, y2)
    c.setDash()
    c.setStrokeGray(0)
    c.setLineWidth(s.cut_width)
    p = c.beginPath()
    p.moveTo(*piece.cut[0])
    for pt in piece.cut[1:]:
        p.lineTo(*pt)
    p.close()
    c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def _card_back(c, r, back, card: tuple[float, float]) -> None:
    """The deck's back, centred on the panel (the card and the clearance round it), upright
    as the box stands: a landscape card's back turned a quarter."""
    cw, ch = card
    turned = cw > ch
    c.saveState()
    clip = c.beginPath()
    clip.rect(r.x, r.y, r.w, r.h)
    c.clipPath(clip, stroke=0, fill=0)
    if turned:  # its lower-left at the panel's lower-right, its top on the left
        c.translate(r.x + (r.w + ch) / 2, r.y + (r.h - cw) / 2)
        c.rotate(90)
    else:
        c.translate(r.x + (r.w - cw) / 2, r.y + (r.h - ch) / 2)
    back.draw(c, cw, ch, 0.0)
    c.restoreState()


def _words(c, piece: Piece, w: BoxWords, back_drawn: bool = False) -> None:
    c.setFillGray(0.1)
    fronted = any(kind == "front" for kind, _ in piece.panels)
    for kind, r in piece.panels:
        if kind == "lid" and not fronted and w.part:  # a piece without the front: its number
            text.line(c, w.part, r.x + r.w / 2, r.y + r.h / 2 - 2.5, "regular", 6.5,
                      align="center", max_w=r.w - mm(4))
            fronted = True  # on one lid
        room = r.w - mm(6)
        if kind == "front":
            cx, cy = r.x + r.w / 2, r.y + r.h / 2
            text.line(c, w.game, cx, cy + mm(4), "bold", 16, align="center", max_w=room)
            text.line(c, w.deck, cx, cy - mm(4), "regular", 12, align="center", max_w=room)
            text.line(c, w.cards, cx, cy - mm(10), "regular", 9, align="center", max_w=room)
            for i, line in enumerate(filter(None, [w.part, w.inside, w.legend])):
                text.line(c, line, cx, r.y + mm(12) - i * mm(3.5), "regular", 6.5,
                          align="center", max_w=room)
        elif kind == "back" and not back_drawn:
            cx = r.x + r.w / 2
            text.line(c, w.game, cx, r.y + r.h * 0.62, "bold", 12, align="center", max_w=room)
            text.line(c, w.deck, cx, r.y + r.h * 0.62 - mm(6), "regular", 10, align="center",
                      max_w=room)
        elif kind == "side" and r.w >= mm(6):  # the deck's name along the side, upright box
            c.saveState()
            c.translate(r.x + r.w / 2 + 3.5, r.y + r.h / 2)
            c.rotate(90)
            text.line(c, f"{w.game} · {w.deck}", 0, 0, "bold", min(10, r.w * 0.5),
                      align="center", max_w=r.h - mm(8))
            c.restoreState()
        elif kind == "glue":
            c.saveState()
            c.translate(r.x + r.w / 2 + 2.5, r.y + r.h / 2)
            c.rotate(90)
            text.line(c, w.glue, 0, 0, "regular", min(7, r.w * 0.6), align="center",
                      max_w=r.h / 2)
            c.restoreState()
