"""Label and sticker sheets: where each label lies, plain arithmetic, no drawing.

A template (companion/layouts/label_sheets.toml, or a game file's own [label_sheets.NAME]) gives the
sheet's paper, one label's size and shape, and either a grid (columns, rows, the first
label's left and top margins, the pitch from one label to the next) or a list of places.
Makers measure from the sheet's top-left; `LabelSheet.places` are PDF points from the
page's bottom-left, as everything else on a page. A designer's template is untrusted: its
counts are bounded, every label lies on the paper and no two overlap."""

import re
from functools import cache

import msgspec

from companion.errors import CompanionError, shown
from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.press.imposition import Rect, Shape
from companion.text.units import parse_length, parse_size, to_mm

MOST_LABELS = 500  # a sheet's labels at most: the smallest stickers come 189 to a page
SHAPES = ("rect", "rounded", "circle")
KEYS = {"name", "paper", "label", "shape", "corner", "cols", "rows", "left", "top", "pitch",
        "places", "bleed"}
MOST_BLEED = 72 / 25.4 * 5  # a label's bleed: 5 mm at the most (its neighbours are near)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_EPS = 0.01  # points: a label may touch the paper's edge or its neighbour


class LabelSheet(msgspec.Struct, frozen=True):
    key: str  # its name in the data, "avery-5160"
    name: str  # as the print guide shows it, "Avery 5160"
    paper: tuple[float, float]
    label: tuple[float, float]
    places: tuple[Rect, ...]  # each label's box, from the page's bottom-left, in order
    shape: Shape | None = None  # None: a rectangle
    bleed: float = 0.0  # points: each face drawn this far past its label's outline

    @property
    def per_sheet(self) -> int:
        return len(self.places)

    def content(self, w: float, h: float) -> tuple[float, float, float, float]:
        """Where a face's texts and marks go on a w x h label: the largest box inside its
        shape, as (x, y, w, h) from the label's lower-left. A circle's is its inscribed
        square (an ellipse's, its inscribed rectangle: w and h over the square root of 2);
        a rectangle or a rounded one, the label itself (the safe zone keeps texts off a
        rounded corner)."""
        if self.shape is not None and self.shape.kind == "circle":
            cw, ch = w / 2 ** 0.5, h / 2 ** 0.5
            return (w - cw) / 2, (h - ch) / 2, cw, ch
        return 0.0, 0.0, w, h


@cache
def bundled() -> Fields:
    path = paths.layout("label_sheets.toml")
    return Fields(load_toml(path), str(path), english=True).sub("label_sheets")


def names(data: Fields | None = None) -> list[str]:
    own = list(_own(data).table) if data is not None else []
    return list(bundled().table) + [n for n in own if n not in bundled().table]


def _own(data: Fields) -> Fields:
    if "label_sheets" not in data.table:
        return Fields({}, data.source, "label_sheets")
    return data.sub("label_sheets")


def find(name: str, data: Fields | None, field: Fields | None,
         key: str = "label_sheet") -> LabelSheet:
    """The template `name`: the game file's own [label_sheets.NAME] first, else ours. `field`
    and `key` name where it was asked for, for the error when there is none."""
    own = _own(data) if data is not None else None
    if own is not None and name in own.table:
        return template(name, own.sub(name))
    if name in bundled().table:
        return _bundled(name)
    message = (f"no label sheet {shown(name)} (use {', '.join(names(data))}, or write your "
               "own [label_sheets.NAME])")
    if field is None:
        raise CompanionError(message, field=key)
    raise field.error(key, message)


@cache
def _bundled(name: str) -> LabelSheet:
    return template(name, bundled().sub(name))


def template(key: str, t: Fields) -> LabelSheet:
    """A template's labels, checked: every count bounded, every label on the paper, none
    over another."""
    if not _NAME.fullmatch(key):  # it names a file of the kit: labels-NAME.pdf
        raise CompanionError(f"{shown(key)} is no sheet name: letters, digits, '-' and '_', "
                             "64 at most", source=t.source, field=t.path or "label_sheets")
    for k in t.table:
        if k not in KEYS:
            raise t.error(k, f"unknown key (use {', '.join(sorted(KEYS))})")

    def size(k: str) -> tuple[float, float]:
        try:
            return parse_size(t.get(k, str), field=k)
        except CompanionError as e:
            raise t.error(k, e.message) from None

    paper, label = size("paper"), size("label")
    kind = t.get("shape", str, "rect")
    if kind not in SHAPES:
        raise t.error("shape", f"{shown(kind)} is no label shape (use {', '.join(SHAPES)})")
    if "corner" in t.table and kind != "rounded":
        raise t.error("corner", "only for shape = \"rounded\"")
    shape = None
    if kind == "circle":
        shape = Shape("circle")
    elif kind == "rounded":
        corner = _length(t, "corner") if "corner" in t.table else 0.0
        if corner > min(label) / 2 + _EPS:
            raise t.error("corner", f"is more than half the label's {to_mm(min(label)):g} mm "
                                    "side")
        shape = Shape("rounded", corner=corner)
    tops = _grid(t, label, size) if "places" not in t.table else _listed(t)
    boxes = tuple(Rect(x, paper[1] - y - label[1], *label) for x, y in tops)
    for i, b in enumerate(boxes):
        if b.x < -_EPS or b.y < -_EPS or b.right > paper[0] + _EPS or b.top > paper[1] + _EPS:
            raise t.error("places" if "places" in t.table else "pitch",
                          f"label {i + 1} runs off the {to_mm(paper[0]):g} x "
                          f"{to_mm(paper[1]):g} mm paper")
    _no_overlap(t, boxes)
    bleed = _length(t, "bleed") if "bleed" in t.table else 0.0
    if bleed > MOST_BLEED:
        raise t.error("bleed", f"is over {to_mm(MOST_BLEED):g} mm")
    return LabelSheet(key, t.get("name", str, key), paper, label, boxes, shape, bleed)


def _count(t: Fields, k: str) -> int:
    n = t.get(k, int)
    if isinstance(n, bool) or not 1 <= n <= MOST_LABELS:
        raise t.error(k, f"{shown(n)} is not a count from 1 to {MOST_LABELS}")
    return n


def _grid(t: Fields, label, size) -> list[tuple[float, float]]:
    """Each label's top-left, from the sheet's top-left, row by row."""
    for k in ("cols", "rows", "left", "top", "pitch"):
        t.get(k)  # "missing", by name, before anything else
    cols, rows = _count(t, "cols"), _count(t, "rows")
    if cols * rows > MOST_LABELS:
        raise t.error("rows", f"{cols} x {rows} labels: at most {MOST_LABELS} a sheet")
    left, top = _length(t, "left"), _length(t, "top")
    dx, dy = size("pitch")
    if (cols > 1 and dx < label[0] - _EPS) or (rows > 1 and dy < label[1] - _EPS):
        raise t.error("pitch", "is less than a label: labels would overlap")
    return [(left + c * dx, top + r * dy) for r in range(rows) for c in range(cols)]


def _listed(t: Fields) -> list[tuple[float, float]]:
    for k in ("cols", "rows", "left", "top", "pitch"):
        if k in t.table:
            raise t.error(k, "a sheet gives a grid or its places, not both")
    places = t.items("places")
    if not 1 <= len(places) <= MOST_LABELS:
        raise t.error("places", f"{len(places)} places: from 1 to {MOST_LABELS}")
    for p in places:
        for k in p.table:
            if k not in ("x", "y"):
                raise p.error(k, "unknown key (use x, y: a label's top-left corner)")
    return [(_length(p, "x"), _length(p, "y")) for p in places]


def _length(p: Fields, k: str) -> float:
    """A length a sheet's table (or a place of its own) gives, never negative."""
    try:
        value = parse_length(p.get(k, str), field=k)
    except CompanionError as e:
        raise p.error(k, e.message) from None
    if value < 0:
        raise p.error(k, "must not be negative")
    return value


def _no_overlap(t: Fields, boxes: tuple[Rect, ...]) -> None:
    """No two labels over each other (their boxes; at most 500, so 125,000 pairs), row
    by row so a grid's are checked in one pass."""
    ordered = sorted(range(len(boxes)), key=lambda i: boxes[i].x)
    for n, i in enumerate(ordered):
        a = boxes[i]
        for j in ordered[n + 1:]:
            b = boxes[j]
            if b.x >= a.right - _EPS:
                break  # sorted by x: nothing further right can reach back over a
            if b.y < a.top - _EPS and a.y < b.top - _EPS:
                raise t.error("places" if "places" in t.table else "pitch",
                              f"labels {min(i, j) + 1} and {max(i, j) + 1} overlap")
