"""Drawing label and sticker sheets: an alignment page first (each label's outline on
plain paper, to hold against a sheet of labels), then the faces, each upright at its
label's place, clipped to the label's shape. No crop marks: the labels are cut already.
Where each label lies is companion.press.label_sheets' arithmetic."""

import msgspec

from companion.draw import forms as xobjects, text
from companion.draw.sheets import Card, _path
from companion.press.imposition import Placed
from companion.press.label_sheets import LabelSheet
from companion.text.units import mm

OUTLINE_GREY, OUTLINE_WIDTH = 0.45, 0.5


class AlignWords(msgspec.Struct):
    title: str  # with {sheet}
    lines: list[str]  # what to do with the page
    caption: str  # under the 50 mm bar, with {length}


def outline(sheet: LabelSheet, w: float, h: float):
    """A label's outline in its own box (0, 0 its lower-left): its shape, or the box."""
    if sheet.shape is None:
        return [("M", 0, 0), ("L", w, 0), ("L", w, h), ("L", 0, h), ("Z",)]
    return sheet.shape.outline(w, h)


def alignment_page(c, sheet: LabelSheet, words: AlignWords, bar: float) -> None:
    """Every label's outline with a cross at its centre, and in the middle what to do:
    print on plain paper at actual size, lay over a label sheet against the light."""
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


def render(c, cards: list[Card], sheet: LabelSheet, words: AlignWords, bar: float,
           component_ids: list[str], card_ids: list[str]) -> tuple[int, list[dict]]:
    """The alignment page, then every card's front on its label, sheet by sheet; returns
    the pages written and each face's place (its component's id and its card's, given in
    the cards' order; page, x, y, w, h in points from the page's bottom-left)."""
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
            if face.key is not None and face.key not in forms:  # copies alike: drawn once
                xobjects.begin(c, face.key, (0, 0, w, h))  # its resources given, and checked
                face.draw(c, w, h, 0.0)
                xobjects.end(c, face.key)
                forms.add(face.key)
            c.saveState()
            c.transform(*Placed(box).matrix)
            c.clipPath(_path(c, outline(sheet, w, h)), stroke=0, fill=0)
            if face.key is not None:
                c.doForm(face.key)
            else:
                face.draw(c, w, h, 0.0)
            c.restoreState()
            places.append({"component": component_ids[start + i], "id": card_ids[start + i],
                           "page": pages, "x": _pt(box.x), "y": _pt(box.y), "w": _pt(w),
                           "h": _pt(h)})
        c.showPage()
    return pages, places


def _pt(v: float) -> float:
    return round(v, 3)
