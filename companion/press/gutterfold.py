"""Gutterfold sheets: arithmetic only. The cards are imposed on the page's left half as
on any sheet (press/imposition.py), their backs on the right half mirrored about the fold
line down the middle: folded along it, each back lies behind its front, the back turned
as a long-edge flip turns it (imposition.back_turn)."""

from functools import lru_cache

import msgspec
from msgspec import structs

from companion.files import paths
from companion.files.data import load_fields
from companion.press.imposition import Grid, Path, Placed, Rect, plan_grid
from companion.text.units import parse_length

FLIP = "long"  # folding about an upright line turns the paper as a long-edge flip does


class Fold(msgspec.Struct, frozen=True):
    gutter: float
    dash: tuple[float, float]
    line_width: float
    outline_width: float
    outline_grey: float


@lru_cache(maxsize=1)
def fold() -> Fold:
    f = load_fields(paths.layout("gutterfold.toml"), english=True).sub("fold")

    def length(key: str) -> float:
        return parse_length(f.get(key, str), field=f"fold.{key}")

    on, off = f.get("dash", list)
    return Fold(length("gutter"), (float(on), float(off)), length("line_width"),
                length("outline_width"), float(f.get("outline_grey", (int, float))))


def words():
    return load_fields(paths.layout("gutterfold.toml"), english=True).sub("words")


def plan(page_w: float, page_h: float, card_w: float, card_h: float, settings,
         bleed: float = 0.0, spaced: bool = False, shape=None) -> Grid:
    """The fronts' grid on the left half (less half the gutter), on the whole page: its
    `back(slot, FLIP)` is the mirror about the fold. Raises CompanionError when the card
    does not fit the half."""
    half = page_w / 2 - fold().gutter / 2
    grid = plan_grid(half, page_h, card_w, card_h, settings, bleed, spaced, shape)
    band = grid.band
    if grid.band_side == "bottom":  # the bar and the label along the whole page
        band = Rect(band.x, band.y, page_w - 2 * band.x, band.h)
    return structs.replace(grid, page_w=page_w, band=band)


def fold_x(grid: Grid) -> float:
    return grid.page_w / 2


def fold_line(grid: Grid) -> tuple[float, float, float, float]:
    """The dashed fold line, from the band (the bar and the label) to the paper's top."""
    x = fold_x(grid)
    low = grid.band.top if grid.band_side == "bottom" else 0.0
    return x, low, x, grid.page_h


def places(grid: Grid, count: int) -> list[tuple[Placed, Placed]]:
    """(front, back) of each of the first `count` slots."""
    return [(grid.front(slot), grid.back(slot, FLIP)) for slot in range(count)]


def outlines(grid: Grid, count: int) -> list[Path]:
    """The cut line round each front: its shape, or its trim box."""
    shaped = grid.cut_lines(count)
    if shaped:
        return shaped
    out = []
    for slot in range(count):
        b: Rect = grid.front(slot).box
        out.append([("M", b.x, b.y), ("L", b.right, b.y), ("L", b.right, b.top),
                    ("L", b.x, b.top), ("Z",)])
    return out
