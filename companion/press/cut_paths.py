"""Cutting machines' sheets: where pieces may lie, the registration marks, each piece's
cut line. Arithmetic only (the cutters are data: layouts/cutters.toml); the cut files
are written from these paths by companion/kit/cut_files.py, and the PDF draws the same.

Coordinates are PDF points, (0, 0) the sheet's lower-left corner, y up; the cutters'
data measures marks from the top-left corner, turned here."""

from functools import lru_cache
from math import ceil

import msgspec
from msgspec import structs

from companion.errors import CompanionError, shown
from companion.files import paths
from companion.files.data import load_fields
from companion.press.imposition import Grid, Path, Placed, Rect, on_sheet, plan_grid
from companion.text.units import parse_length, parse_size, to_mm


class Cutter(msgspec.Struct, frozen=True):
    key: str
    name: str
    marks: str  # "silhouette-type1" or "none"
    sheet: tuple[float, float] | None = None  # its own sheet size (Cricut), else the paper's
    margin: float = 0.0
    png_dpi: int | None = None
    kerf: float = 0.0
    square: float = 0.0
    arm: float = 0.0
    line: float = 0.0
    keepout: float = 0.0
    gap: float = 0.0
    paper: dict = {}  # paper -> {left, top, x, y} (points), the marks' places


class Mark(msgspec.Struct, frozen=True):
    """A registration mark: "square" (a filled path) or "L" (a stroked open path)."""
    kind: str
    path: Path
    width: float = 0.0


def _table():
    return load_fields(paths.layout("cutters.toml"), english=True)


def names() -> list[str]:
    return [k for k, v in _table().table.items() if isinstance(v, dict) and "marks" in v]


@lru_cache(maxsize=8)
def cutter(key: str) -> Cutter:
    if key not in names():
        raise CompanionError(f"unknown cutter {shown(key)} (use {', '.join(names())})",
                             field="--cutter")
    t = _table().sub(key)

    def length(name: str, default: str = "0mm") -> float:
        return parse_length(t.get(name, str, default), field=f"{key}.{name}")

    papers = {}
    if "paper" in t.table:
        for paper, where in t.get("paper", dict).items():
            p = t.sub("paper").sub(paper)
            papers[paper] = {k: parse_length(p.get(k, str), field=f"{key}.paper.{paper}.{k}")
                             for k in ("left", "top", "x", "y")}
    sheet = t.get("sheet", str, None)
    return Cutter(key, t.get("name", str), t.get("marks", str),
                  parse_size(sheet, field=f"{key}.sheet") if sheet else None,
                  length("margin"), t.get("png_dpi", int, None), length("kerf"),
                  length("square"), length("arm"), length("line"), length("keepout"),
                  length("gap"), papers)


def with_kerf(c: Cutter, kerf: float | None) -> Cutter:
    return c if kerf is None else structs.replace(c, kerf=kerf)


def page_size(c: Cutter, paper: tuple[float, float]) -> tuple[float, float]:
    return c.sheet or paper


def _marks_box(c: Cutter, paper_name: str, page: tuple[float, float]) -> Rect:
    """The rectangle the marks' corners span, in PDF points."""
    if paper_name not in c.paper:
        raise CompanionError(f"{c.name} has marks for {', '.join(c.paper)}, not "
                             f"{shown(paper_name)}", field="--paper")
    m = c.paper[paper_name]
    return Rect(m["left"], page[1] - m["top"] - m["y"], m["x"], m["y"])


def marks(c: Cutter, paper_name: str, page: tuple[float, float]) -> list[Mark]:
    """The sheet's registration marks (none for a cutter without)."""
    if c.marks == "none":
        return []
    if c.marks != "silhouette-type1":
        raise CompanionError(f"unknown marks {shown(c.marks)}", field=f"{c.key}.marks")
    b, s, a = _marks_box(c, paper_name, page), c.square, c.arm
    top, right = b.top, b.right
    square = [("M", b.x, top), ("L", b.x + s, top), ("L", b.x + s, top - s),
              ("L", b.x, top - s), ("Z",)]
    return [Mark("square", square),
            # the top-right L: its corner at the box's corner, arms left and down
            Mark("L", [("M", right - a, top), ("L", right, top), ("L", right, top - a)],
                 c.line),
            # the bottom-left L: arms right and up
            Mark("L", [("M", b.x + a, b.y), ("L", b.x, b.y), ("L", b.x, b.y + a)], c.line)]


def area(c: Cutter, paper_name: str, page: tuple[float, float]) -> Rect:
    """Where pieces may lie: inside the marks, clear of the marks' corner squares (the
    strips along the top and the bottom the marks stand in), or the sheet less its
    margin."""
    if c.marks == "none":
        w, h = page
        return Rect(c.margin, c.margin, w - 2 * c.margin, h - 2 * c.margin)
    b, k = _marks_box(c, paper_name, page), c.keepout + c.gap
    return Rect(b.x + c.gap, b.y + k, b.w - 2 * c.gap, b.h - 2 * k)


def plan(c: Cutter, paper_name: str, page: tuple[float, float], card_w: float,
         card_h: float, settings, bleed: float = 0.0, spaced: bool = False,
         shape=None) -> Grid:
    """The grid of a sheet of pieces inside the cutter's area (planned as a sheet of the
    area's size, crop marks and the bar's band inside it, then put in its place)."""
    a = area(c, paper_name, page)
    # the area keeps clear of the paper's edge already: no printable margin inside it
    settings = structs.replace(settings, printable_margin=0.0)
    try:
        g = plan_grid(a.w, a.h, card_w, card_h, settings, bleed, spaced, shape)
    except CompanionError:
        raise CompanionError(
            f"a {to_mm(card_w):.1f} x {to_mm(card_h):.1f} mm piece does not fit {c.name}'s "
            f"area ({to_mm(a.w):.1f} x {to_mm(a.h):.1f} mm)", field="--cutter") from None
    band = Rect(g.band.x + a.x, g.band.y + a.y, g.band.w, g.band.h)
    return structs.replace(g, page_w=page[0], page_h=page[1], x0=g.x0 + a.x,
                           y0=g.y0 + a.y, band=band)


def _rect(x: float, y: float, w: float, h: float) -> Path:
    return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]


def outline(shape, w: float, h: float, kerf: float = 0.0) -> Path:
    """A w x h piece's cut line in its own box (0, 0 its lower-left): its shape, or the
    box, half the kerf outside it."""
    if shape is not None:
        return shape.outline(w, h, kerf / 2)
    return _rect(-kerf / 2, -kerf / 2, w + kerf, h + kerf)


def label_lines(shape, places: list[dict], pages: int, kerf: float = 0.0) -> list[list[Path]]:
    """A label sheet's cut lines, page by page (1 to `pages`): each label's outline where
    the manifest's places put it (x, y, w, h in points; labels lie upright)."""
    out: list[list[Path]] = [[] for _ in range(pages)]
    for p in places:
        placed = Placed(Rect(p["x"], p["y"], p["w"], p["h"]))
        out[p["page"] - 1].append(on_sheet(outline(shape, p["w"], p["h"], kerf), placed))
    return out


def cut_lines(grid: Grid, count: int, kerf: float = 0.0) -> list[Path]:
    """One closed path a piece, the first `count` slots: its shape (rounded corners, a
    hexagon, a disc) or its trim box, half the kerf outside it."""
    out = []
    for slot in range(count):
        placed = grid.front(slot)
        out.append(on_sheet(outline(grid.shape, *placed.size, kerf), placed))
    return out


def flattened(path: Path, step: float) -> list[list[tuple[float, float]]]:
    """A path as polylines (one a subpath), each curve cut into pieces at most `step`
    long along its control polygon."""
    out: list[list[tuple[float, float]]] = []
    for op, *xy in path:
        if op == "M":
            out.append([(xy[0], xy[1])])
        elif op == "L":
            out[-1].append((xy[0], xy[1]))
        elif op == "C":
            p0 = out[-1][-1]
            p1, p2, p3 = (xy[0], xy[1]), (xy[2], xy[3]), (xy[4], xy[5])
            length = sum(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
                         for a, b in ((p0, p1), (p1, p2), (p2, p3)))
            n = max(4, ceil(length / step))
            for i in range(1, n + 1):
                t = i / n
                u = 1 - t
                out[-1].append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c
                                     + t ** 3 * d for a, b, c, d in zip(p0, p1, p2, p3)))
        elif op == "Z" and out[-1][-1] != out[-1][0]:
            out[-1].append(out[-1][0])
    return out


def net_lines(piece, at) -> tuple[Path, list[Path]]:
    """A tuck box piece's cut line (closed) and fold lines on the page, at its placement
    (tuck_box.Placement: turned a quarter, its width runs up the page)."""
    def put(u: float, v: float) -> tuple[float, float]:
        return (at.x + piece.h - v, at.y + u) if at.turned else (at.x + u, at.y + v)

    points = [put(*p) for p in piece.cut]
    if points[0] == points[-1]:
        points = points[:-1]
    cut = [("M", *points[0])] + [("L", *p) for p in points[1:]] + [("Z",)]
    folds = [[("M", *put(*a)), ("L", *put(*b))] for a, b in piece.folds]
    return cut, folds


def described(c: Cutter, paper_name: str, page: tuple[float, float]) -> dict:
    """The manifest's "cutter": its name, sheet, kerf and marks, in mm from the sheet's
    top-left corner (as its software measures them)."""
    def top_left(path: Path) -> list[list[float]]:
        return [[round(to_mm(xy[0]), 3), round(to_mm(page[1] - xy[1]), 3)]
                for _, *xy in path if xy]

    a = area(c, paper_name, page)
    return {"key": c.key, "name": c.name,
            "sheet_mm": [round(to_mm(v), 3) for v in page],
            "area_mm": [round(to_mm(v), 3) for v in (a.x, page[1] - a.top, a.w, a.h)],
            "kerf_mm": round(to_mm(c.kerf), 4),
            "marks": [{"kind": m.kind, "points_mm": top_left(m.path),
                       "line_mm": round(to_mm(m.width), 3)} for m in marks(c, paper_name, page)]}
