"""Drawing imposed sheets: card fronts, their backs behind them, crop marks, a shaped
piece's cut line round each front (a hex tile, a round token), and on every sheet the
calibration bar and a label."""

from typing import Callable

import msgspec

from companion.draw import forms as forms_mod, text
from companion.press import pdf
from companion.press.imposition import Grid, Path
from companion.press.presets import SheetSettings
from companion.text.units import mm

# draw(canvas, width, height, bleed) paints a face upright, (0, 0) at its trim box's
# lower-left, in the card's own width and height; its placement turns it onto the sheet.
Draw = Callable[[object, float, float, float], None]


class Face(msgspec.Struct, frozen=True):
    draw: Draw
    key: str | None = None  # faces with one key are drawn once, as a PDF form, and reused
    # (w, h, bleed) -> the face's digest without drawing it (the layout engine's faces);
    # None: companion.kit.identity draws the face to digest what it emits
    digest: Callable[[float, float, float], str] | None = None
    # what its drawing is kept under in a watching process (its digest and its name in the
    # checks): a face kept since the last build is not drawn again (companion.kit.drawings)
    kept: str | None = None
    # a back's own id ([backs] NAME, a back's `id`): what a preview calls it; None: none
    name: str | None = None


class Card(msgspec.Struct, frozen=True):
    component: str  # the component's title, for the sheet label
    front: Face
    back: Face | None = None
    id: str | None = None  # stable within its component (e.g. "red-7A"); None: its position
    # its data's fields as the build read them (title, text, points...): for the deck list
    fields: dict | None = None


class SheetText(msgspec.Struct):
    game: str
    caption: str  # under the calibration bar, with {length}
    sheet_label: str  # with {game}, {component}, {n}, {total}
    back_word: str = "back"
    forms: set = msgspec.field(default_factory=set)


def _place(c, placed: tuple, grid: Grid, face: Face, forms: set, keeper=None) -> None:
    """Draws a face upright in its own size, turned onto its place on the sheet (`placed`:
    a Placed's size, matrix and the operators opening it, from _opening)."""
    (w, h), matrix, opening = placed
    bl = grid.bleed
    # A form placed, or a drawing kept put back, changes nothing of the canvas's state:
    # the place's operators are written as they were, around it (2,000 cards a PDF).
    if face.key is not None and face.key in forms:
        c._code.extend(opening)
        c.doForm(face.key)
        c._code.append("Q")
        return
    if keeper is not None and face.kept is not None:
        n = len(c._code)
        c._code.extend(opening)
        if keeper.kept(face, w, h, bl):
            c._code.append("Q")
            return
        del c._code[n:]
    _open(c, grid, w, h, matrix)
    if keeper is not None and face.kept is not None:  # drawn now, and kept
        keeper(c, face, w, h, bl)
    else:
        face.draw(c, w, h, bl)
    c.restoreState()


def _open(c, grid: Grid, w: float, h: float, matrix) -> None:
    """A place on the sheet: the face's matrix, clipped to its trim grown by the bleed."""
    bl = grid.bleed
    c.saveState()
    c.transform(*matrix)
    if grid.shape is None:
        p = c.beginPath()
        p.rect(-bl, -bl, w + 2 * bl, h + 2 * bl)
    else:  # a shaped piece: its face clipped to its shape grown by the bleed
        p = _path(c, grid.bleed_path(w, h))
    c.clipPath(p, stroke=0, fill=0)


def _opening(c, grid: Grid, placed) -> tuple:
    """(size, matrix, the operators _open writes for the place): worked out once a
    place, the canvas left as it was."""
    size, matrix = placed.size, placed.matrix
    n = len(c._code)
    _open(c, grid, *size, matrix)
    opening = c._code[n:]
    c.restoreState()
    del c._code[n:]
    return size, matrix, opening


def _define_forms(c, faces, grid: Grid, forms: set) -> None:
    bl = grid.bleed
    for face in faces:
        if face.key is not None and face.key not in forms:
            forms_mod.begin(c, face.key, (-bl, -bl, grid.card_w + bl, grid.card_h + bl))
            face.draw(c, grid.card_w, grid.card_h, bl)
            forms_mod.end(c, face.key)
            forms.add(face.key)


def label_room(grid: Grid, caption: str) -> float:
    """The band's length left for the label after the bar and its caption."""
    s = grid.settings
    length = grid.band.h if grid.band_side == "left" else grid.band.w
    return length - s.calibration_bar - mm(4) - text.width(caption, "regular", s.caption_size)


def fit_label(compose: Callable[[list[str]], str], names: list[str], room: float,
              settings: SheetSettings) -> tuple[list[str], float]:
    """The sheet label naming every component, and its size: one line at label_size, or
    smaller down to label_min; else two lines at label_min; else with the longest name cut
    short word by word ("Temple of…") until it fits."""
    s, names = settings, list(names)
    while True:
        label = compose(names)
        size = min(s.label_size, s.label_size * room / text.width(label, "regular", s.label_size))
        if size >= s.label_min:
            return [label], size
        lines = _two_lines(label, room, s.label_min)
        if lines:
            return lines, s.label_min
        cuttable = [i for i, name in enumerate(names) if " " in name]
        if not cuttable:  # nothing left to cut: text.line squeezes what remains
            return [label], s.label_min
        i = max(cuttable, key=lambda i: text.width(names[i], "regular", 1))
        names[i] = names[i].removesuffix("…").rsplit(" ", 1)[0] + "…"


def _two_lines(label: str, room: float, size: float) -> list[str] | None:
    """The label broken after a " · " or " + ", as evenly as can be, if both lines fit."""
    def widest(lines: list[str]) -> float:
        return max(text.width(t, "regular", size) for t in lines)

    cuts = [i + 3 for i in range(len(label)) if label[i:i + 3] in (" · ", " + ")]
    best = min(([label[:i].rstrip(), label[i:]] for i in cuts), key=widest, default=None)
    return best if best and widest(best) <= room else None


def furniture(c, grid: Grid, band_flip: str | None, caption: str, label: list[str],
              size: float) -> None:
    """The 50 mm calibration bar with its caption, and the label's lines (from fit_label),
    in the band."""
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
    s = grid.settings
    bar = s.calibration_bar
    base = thick * 0.3
    # The bar and its caption, the same on every sheet: written once a PDF, then put
    # back (its operators, and the canvas's state as it leaves it).
    kept = c.__dict__.setdefault("_companion_bars", {})
    key = (bar, base, caption, s.caption_size, pdf.state_of(c), c._currentMatrix)
    got = kept.get(key)
    if got is not None:
        c._code.extend(got[0])
        c.__dict__.update(got[1])
    else:
        n0 = len(c._code)
        c.setFillGray(0)
        c.rect(0, base, bar, mm(1.2), stroke=0, fill=1)
        c.setLineWidth(0.4)
        for i in range(6):
            x = min(i * bar / 5, bar - 0.2)
            c.line(x, base, x, base + mm(2.2))
        text.line(c, caption, bar + mm(2), base, "regular", s.caption_size)
        kept[key] = (c._code[n0:], dict(zip(pdf.STATE, pdf.state_of(c))))
    room = label_room(grid, caption)
    for i, line in enumerate(label):  # the last line on the bar's baseline
        y = base + (len(label) - 1 - i) * size * 1.2
        text.line(c, line, length, y, "regular", size, align="right", max_w=room)
    c.restoreState()


def crop_marks(c, grid: Grid) -> None:
    # The same on every sheet of a grid, and in a state of their own (q ... Q): written
    # once a PDF, their operators put back on the next sheets.
    kept = c.__dict__.setdefault("_companion_marks", {})
    got = kept.get(id(grid))
    if got is not None and got[0] is grid:
        c._code.extend(got[1])
        return
    n0 = len(c._code)
    c.saveState()
    c.setStrokeGray(0)
    c.setLineWidth(grid.settings.crop_width)
    for x1, y1, x2, y2 in grid.crop_marks():
        c.line(x1, y1, x2, y2)
    c.restoreState()
    kept[id(grid)] = (grid, c._code[n0:])  # the grid held: its id is no other's meanwhile


# A shaped piece's cut line: as thin, grey and dashed as a round token's drawn by its kind
# (CUT_GREY, CUT_WIDTH, CUT_DASH), over its face's edge.
CUT_GREY, CUT_WIDTH, CUT_DASH = 0.55, 0.3, (2, 1.5)


def _path(c, ops: Path):
    """A reportlab path from imposition's drawing operators."""
    p = c.beginPath()
    for op, *xy in ops:
        if op == "M":
            p.moveTo(*xy)
        elif op == "L":
            p.lineTo(*xy)
        elif op == "C":
            p.curveTo(*xy)
        else:
            p.close()
    return p


def cut_lines(c, grid: Grid, count: int) -> None:
    """The cut line round each of the first `count` pieces of a sheet of shaped pieces."""
    paths = grid.cut_lines(count)
    if not paths:
        return
    c.saveState()
    c.setStrokeGray(CUT_GREY)
    c.setLineWidth(CUT_WIDTH)
    c.setDash(*CUT_DASH)
    for ops in paths:
        c.drawPath(_path(c, ops), stroke=1, fill=0)
    c.restoreState()


def _labeller(words: SheetText, n: int, total: int,
              tail: str = "") -> Callable[[list[str]], str]:
    """Sheet n's label for a list of component names."""
    return lambda names: words.sheet_label.format(
        game=words.game, component=" + ".join(names), n=n, total=total) + tail


def _fold_page(c, grid: Grid, count: int) -> None:
    """A gutterfold page's dashed fold line and the cut line round each front."""
    from companion.press import gutterfold

    f = gutterfold.fold()
    c.saveState()
    c.setStrokeGray(0)
    c.setLineWidth(f.line_width)
    c.setDash(*f.dash)
    c.line(*gutterfold.fold_line(grid))
    c.setDash()
    c.setStrokeGray(f.outline_grey)
    c.setLineWidth(f.outline_width)
    for ops in gutterfold.outlines(grid, count):
        c.drawPath(_path(c, ops), stroke=1, fill=0)
    c.restoreState()


def cutter_page(c, marks: list, cuts: list[Path]) -> None:
    """A cutter's sheet: its registration marks (press/cut_paths.py) and each piece's cut
    line, the very paths its cut files hold."""
    c.saveState()
    c.setFillGray(0)
    c.setStrokeGray(0)
    for m in marks:
        if m.kind == "square":
            c.drawPath(_path(c, m.path), stroke=0, fill=1)
        else:
            c.setLineWidth(m.width)
            c.drawPath(_path(c, m.path), stroke=1, fill=0)
    c.setStrokeGray(CUT_GREY)
    c.setLineWidth(CUT_WIDTH)
    for ops in cuts:
        c.drawPath(_path(c, ops), stroke=1, fill=0)
    c.restoreState()


def render(c, cards: list[Card], grid: Grid, flip: str, words: SheetText,
           keeper: Callable | None = None, back_matrix: tuple | None = None,
           folded: bool = False, overlay: Callable | None = None) -> int:
    """Draws every card, sheet by sheet; returns the number of pages written. `keeper(c,
    face, w, h, bleed)`, if given, draws each front that has a `kept` key: again from
    what it kept, or anew (a watching process's rebuild). `back_matrix`, if given, is what
    every back page is drawn through (a printer profile's correction, press.calibration).
    `folded`: gutterfold sheets (press/gutterfold.py), each back on the same page as its
    front, mirrored about the fold line (`flip` is then the fold's). `overlay(c, count)`,
    if given, draws over each front page holding `count` pieces (a cutter's marks and
    cut lines) in place of the shaped pieces' dashed lines."""
    per = grid.per_sheet
    total = -(-len(cards) // per)
    caption = words.caption.format(length=round(grid.settings.calibration_bar / mm(1)))
    room = label_room(grid, caption)
    forms: set = set()
    pages = 0
    # every sheet's places are the same: each worked out once (_opening)
    fronts = [_opening(c, grid, grid.front(slot)) for slot in range(per)]
    backs = [_opening(c, grid, grid.back(slot, flip)) for slot in range(per)] \
        if flip != "none" else []
    for n in range(total):
        batch = cards[n * per:(n + 1) * per]
        names = list(dict.fromkeys(card.component for card in batch))
        if folded:
            _define_forms(c, [card.back for card in batch if card.back], grid, forms)
        crop_marks(c, grid)
        label = _labeller(words, n + 1, total)
        furniture(c, grid, None, caption, *fit_label(label, names, room, grid.settings))
        for slot, card in enumerate(batch):
            _place(c, fronts[slot], grid, card.front, forms, keeper)
        if folded:
            for slot, card in enumerate(batch):
                if card.back:
                    _place(c, backs[slot], grid, card.back, forms)
            _fold_page(c, grid, len(batch))
        elif overlay is not None:
            overlay(c, len(batch))
        else:
            cut_lines(c, grid, len(batch))
        c.showPage()
        pages += 1
        if flip == "none" or folded:
            continue
        _define_forms(c, [card.back for card in batch if card.back], grid, forms)
        if back_matrix is not None:
            c.saveState()
            c.transform(*back_matrix)
        label = _labeller(words, n + 1, total, f" · {words.back_word}")
        furniture(c, grid, flip, caption, *fit_label(label, names, room, grid.settings))
        for slot, card in enumerate(batch):
            if card.back:
                _place(c, backs[slot], grid, card.back, forms)
        if back_matrix is not None:
            c.restoreState()
        c.showPage()
        pages += 1
    return pages
