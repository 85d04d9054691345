"""Drawing imposed sheets: card fronts, their backs behind them, crop marks, and on
every sheet the calibration bar and a label."""

from dataclasses import dataclass, field
from typing import Callable

from companion.draw import text
from companion.imposition import Grid, Placed
from companion.units import mm

# draw(canvas, width, height, bleed) paints a face with (0, 0) at its trim box's lower-left.
Draw = Callable[[object, float, float, float], None]


@dataclass(frozen=True)
class Face:
    draw: Draw
    key: str | None = None  # faces with one key are drawn once, as a PDF form, and reused


@dataclass(frozen=True)
class Card:
    component: str  # the component's title, for the sheet label
    front: Face
    back: Face | None = None


@dataclass
class SheetText:
    game: str
    caption: str  # under the calibration bar, with {length}
    sheet_label: str  # with {game}, {component}, {n}, {total}
    back_word: str = "back"
    forms: set = field(default_factory=set)


def _place(c, placed: Placed, grid: Grid, face: Face, forms: set) -> None:
    b = placed.box
    c.saveState()
    c.translate(b.x, b.y)
    if placed.turned:
        c.translate(b.w, b.h)
        c.rotate(180)
    bl = grid.bleed
    p = c.beginPath()
    p.rect(-bl, -bl, b.w + 2 * bl, b.h + 2 * bl)
    c.clipPath(p, stroke=0, fill=0)
    if face.key is not None and face.key in forms:
        c.doForm(face.key)
    else:
        face.draw(c, b.w, b.h, bl)
    c.restoreState()


def _define_forms(c, faces, grid: Grid, forms: set) -> None:
    bl = grid.bleed
    for face in faces:
        if face.key is not None and face.key not in forms:
            c.beginForm(face.key, -bl, -bl, grid.card_w + bl, grid.card_h + bl)
            face.draw(c, grid.card_w, grid.card_h, bl)
            c.endForm()
            forms.add(face.key)


def furniture(c, grid: Grid, band_flip: str | None, caption: str, label: str,
              short_label: str | None = None) -> None:
    """The 50 mm calibration bar with its caption, and the sheet label, in the band.
    A label too long for the room left falls back to `short_label`."""
    band = grid.band if band_flip is None else grid.mirror(grid.band, band_flip)
    turned = band_flip == "short"
    c.saveState()
    if grid.band_side == "left":
        # The band runs up the sheet: write along it, reading from the bottom.
        c.translate(band.x + band.w, band.y) if not turned else c.translate(band.x, band.y + band.h)
        c.rotate(90 if not turned else -90)
        length, thick = band.h, band.w
    else:
        c.translate(band.x, band.y) if not turned else c.translate(band.x + band.w, band.y + band.h)
        if turned:
            c.rotate(180)
        length, thick = band.w, band.h
    bar = grid.settings.calibration_bar
    base = thick * 0.3
    c.setFillGray(0)
    c.rect(0, base, bar, mm(1.2), stroke=0, fill=1)
    c.setLineWidth(0.4)
    for i in range(6):
        x = min(i * bar / 5, bar - 0.2)
        c.line(x, base, x, base + mm(2.2))
    cap = caption.format(length=round(bar / mm(1)))
    text.line(c, cap, bar + mm(2), base, "regular", 6.5)
    room = length - bar - mm(4) - text.width(cap, "regular", 6.5)
    if short_label and text.width(label, "regular", 5) > room:
        label = short_label
    text.line(c, label, length, base, "regular", 7, align="right", max_w=room)
    c.restoreState()


def crop_marks(c, grid: Grid) -> None:
    c.saveState()
    c.setStrokeGray(0)
    c.setLineWidth(grid.settings.crop_width)
    for x1, y1, x2, y2 in grid.crop_marks():
        c.line(x1, y1, x2, y2)
    c.restoreState()


def render(c, cards: list[Card], grid: Grid, flip: str, words: SheetText) -> int:
    """Draws every card, sheet by sheet; returns the number of pages written."""
    per = grid.per_sheet
    total = -(-len(cards) // per)
    forms: set = set()
    pages = 0
    for n in range(total):
        batch = cards[n * per:(n + 1) * per]
        names = list(dict.fromkeys(card.component for card in batch))
        label = words.sheet_label.format(game=words.game, component=" + ".join(names),
                                         n=n + 1, total=total)
        short = words.sheet_label.format(game=words.game, component=names[0], n=n + 1,
                                         total=total)
        crop_marks(c, grid)
        furniture(c, grid, None, words.caption, label, short)
        for slot, card in enumerate(batch):
            _place(c, grid.front(slot), grid, card.front, forms)
        c.showPage()
        pages += 1
        if flip == "none":
            continue
        _define_forms(c, [card.back for card in batch if card.back], grid, forms)
        furniture(c, grid, flip, words.caption, f"{label} · {words.back_word}",
                  f"{short} · {words.back_word}")
        for slot, card in enumerate(batch):
            if card.back:
                _place(c, grid.back(slot, flip), grid, card.back, forms)
        c.showPage()
        pages += 1
    return pages
