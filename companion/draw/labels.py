"""Drawing label and sticker sheets: an alignment page first (each label's outline on
plain paper, to hold against a sheet of labels), then the faces, each upright at its
label's place, clipped to the label's shape. No crop marks: the labels are cut already.
Where each label lies is companion.press.label_sheets' arithmetic."""

import msgspec

from companion.draw import forms as xobjects, text
from companion.draw.print_sheets import Card, _path
from companion.press.imposition import Placed
from companion.press.label_sheets import LabelSheet
from companion.text.units import mm

OUTLINE_GREY, OUTLINE_WIDTH = 0.45, 0.5


class AlignWords(msgspec.Struct):
    title: str  # with {sheet}
    lines: list[str]  # what to do with the page
    caption: str  # under the 50 mm bar, with {length}


def outline(sheet: LabelSheet, w: float, h: float, grow: float = 0.0):
    """A label's outline in its own box (0, 0 its lower-left): its shape, or the box;
    `grow`: that far out all round (its bleed)."""
    if sheet.shape is None:
        g = grow
        return [("M", -g, -g), ("L", w + g, -g), ("L", w + g, h + g), ("L", -g, h + g), ("Z",)]
    return sheet.shape.outline(w, h, grow)


def alignment_page(c, sheet: LabelSheet, words: AlignWords, bar: float) -> None:
    """In the middle what to do (print on plain paper at actual size, lay over a label
    sheet against the light), then every label's outline with a cross at its centre, drawn
    over it."""
    pw, ph = sheet.paper
    width = min(pw - mm(30), mm(150))
    size = 9.0
    lines = [line for para in words.lines for line in text.wrap(para, "regular", size, width)]
    height = mm(10) + len(lines) * size * 1.35 + mm(12)
    x, top = (pw - width) / 2, (ph + height) / 2
    c.saveState()
    c.setFillGray(1)
    c.setStrokeGray(0)
    c.setLineWidth(0.8)
    c.rect(x - mm(4), top - height - mm(2), width + mm(8), height + mm(4), stroke=1, fill=1)
    c.setFillGray(0)
    text.line(c, words.title.format(sheet=sheet.name), x, top - mm(6), "bold", 11, max_w=width)
    y = top - mm(10) - size
    for line in lines:
        text.line(c, line, x, y, "regular", size)
        y -= size * 1.35
    y -= mm(3)
    c.rect(x, y, bar, mm(1.2), stroke=0, fill=1)
    c.setLineWidth(0.4)
    for i in range(6):
        tick = min(i * bar / 5, bar - 0.2)
        c.line(x + tick, y, x + tick, y + mm(2.2))
    text.line(c, words.caption.format(length=round(bar / mm(1))), x + bar + mm(2), y,
              "regular", 6.5, max_w=width - bar - mm(2))
    c.restoreState()
    _outlines(c, sheet)  # over the words: no label's outline hidden (30 on a 5160)


def _outlines(c, sheet: LabelSheet) -> None:
    """Every label's outline with a cross at its centre."""
    c.saveState()
    c.setStrokeGray(OUTLINE_GREY)
    c.setLineWidth(OUTLINE_WIDTH)
    for box in sheet.places:
        c.saveState()
        c.translate(box.x, box.y)
        c.drawPath(_path(c, outline(sheet, box.w, box.h)), stroke=1, fill=0)
        cx, cy, arm = box.w / 2, box.h / 2, min(box.w, box.h, mm(8)) / 4
        c.line(cx - arm, cy, cx + arm, cy)
        c.line(cx, cy - arm, cx, cy + arm)
        c.restoreState()
    c.restoreState()


def render(c, cards: list[Card], sheet: LabelSheet, words: AlignWords, bar: float,
           component_ids: list[str], card_ids: list[str]) -> tuple[int, list[dict]]:
    """The alignment page, then every card's front on its label, sheet by sheet; returns
    the pages written and each face's place (its component's id and its card's, given in
    the cards' order; page, x, y, w, h in points from the page's bottom-left).
    A face is laid out in the largest box inside its label's shape (a round label's
    inscribed square: no text or mark crosses the circle), its grounds drawn out to the
    shape and the sheet's bleed beyond it (they are the face's bleed)."""
    alignment_page(c, sheet, words, bar)
    c.showPage()
    pages, places, per = 1, [], sheet.per_sheet
    forms: set = set()
    for start in range(0, len(cards), per):
        pages += 1
        for i, card in enumerate(cards[start:start + per]):
            box = sheet.places[i]
            w, h = box.w, box.h
            face = card.front
            b = sheet.bleed
            if face.key is not None and face.key not in forms:  # copies alike: drawn once
                xobjects.begin(c, face.key, (-b, -b, w + b, h + b))  # its resources given
                _face(c, face, sheet, w, h)
                xobjects.end(c, face.key)
                forms.add(face.key)
            c.saveState()
            c.transform(*Placed(box).matrix)
            c.clipPath(_path(c, outline(sheet, w, h, b)), stroke=0, fill=0)
            if face.key is not None:
                c.doForm(face.key)
            else:
                _face(c, face, sheet, w, h)
            c.restoreState()
            places.append({"component": component_ids[start + i], "id": card_ids[start + i],
                           "page": pages, "x": _pt(box.x), "y": _pt(box.y), "w": _pt(w),
                           "h": _pt(h)})
        c.showPage()
    return pages, places


def _face(c, face, sheet: LabelSheet, w: float, h: float) -> None:
    """A face on its w x h label: laid out in the box its shape holds, the rest (and the
    sheet's bleed) its bleed."""
    x, y, cw, ch = sheet.content(w, h)
    c.saveState()
    c.translate(x, y)
    face.draw(c, cw, ch, max(x, y) + sheet.bleed)
    c.restoreState()


def _pt(v: float) -> float:
    return round(v, 3)
