"""Where cards sit on a sheet: plain arithmetic, no drawing.

Coordinates are PDF points with the origin at the sheet's lower-left corner. Slots run
row by row from the top-left. Cards butt against each other (they share cut lines) unless
there is bleed, in which case each card keeps its own bleed around it.
"""

from dataclasses import dataclass
from math import floor

from companion.errors import CompanionError
from companion.presets import SheetSettings
from companion.units import to_mm

FLIPS = ("long", "short", "none")
_EPS = 1e-6


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class Placed:
    """A card's trim box on a sheet, and whether it is drawn turned 180 degrees."""
    box: Rect
    turned: bool = False


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    x0: float  # lower-left corner of the grid, bleed included
    y0: float
    band: Rect  # holds the calibration bar and the label
    band_side: str  # "bottom" or "left": a band on the left is written turned 90 degrees
    settings: SheetSettings

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def pitch_x(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def pitch_y(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def outer(self) -> Rect:
        return Rect(self.x0, self.y0, self.cols * self.pitch_x, self.rows * self.pitch_y)

    def front(self, slot: int) -> Placed:
        col, row = slot % self.cols, slot // self.cols
        x = self.x0 + self.bleed + col * self.pitch_x
        y = self.y0 + self.bleed + (self.rows - 1 - row) * self.pitch_y
        return Placed(Rect(x, y, self.card_w, self.card_h))

    def back(self, slot: int, flip: str) -> Placed:
        """Where the back of `slot` must be drawn so it lands behind its front."""
        return Placed(self.mirror(self.front(slot).box, flip), turned=(flip == "short"))

    def mirror(self, r: Rect, flip: str) -> Rect:
        if flip == "long":  # the sheet turns over its long (vertical) edge
            return Rect(self.page_w - r.x - r.w, r.y, r.w, r.h)
        if flip == "short":  # the sheet turns over its short edge: 180 degrees on the page
            return Rect(r.x, self.page_h - r.y - r.h, r.w, r.h)
        raise ValueError(f"no backs for flip {flip!r}")

    def cut_xs(self) -> list[float]:
        return _unique(x for c in range(self.cols) for x in
                       (self.x0 + self.bleed + c * self.pitch_x,
                        self.x0 + self.bleed + c * self.pitch_x + self.card_w))

    def cut_ys(self) -> list[float]:
        return _unique(y for r in range(self.rows) for y in
                       (self.y0 + self.bleed + r * self.pitch_y,
                        self.y0 + self.bleed + r * self.pitch_y + self.card_h))

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Short lines in the margin on the extension of every cut line, outside the cards."""
        s, o = self.settings, self.outer
        m = s.printable_margin
        low_y = self.band.top + s.crop_gap if self.band_side == "bottom" else m
        low_x = self.band.right + s.crop_gap if self.band_side == "left" else m
        marks = []
        for x in self.cut_xs():
            start = o.top + s.crop_gap
            marks.append((x, start, x, min(start + s.crop_max, self.page_h - m)))
            start = o.y - s.crop_gap
            marks.append((x, start, x, max(start - s.crop_max, low_y)))
        for y in self.cut_ys():
            start = o.right + s.crop_gap
            marks.append((start, y, min(start + s.crop_max, self.page_w - m), y))
            start = o.x - s.crop_gap
            marks.append((start, y, max(start - s.crop_max, low_x), y))
        return marks


def _unique(values) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > _EPS:
            out.append(v)
    return out


def _fit(avail: float, pitch: float, reserve: float) -> int:
    return max(0, floor((avail - reserve + _EPS) / pitch))


def plan_grid(page_w: float, page_h: float, card_w: float, card_h: float,
              settings: SheetSettings, bleed: float = 0.0) -> Grid:
    """As many cards as fit inside the printable margins, leaving room for crop marks
    on every side and for the furniture band on the bottom or, failing that, the left."""
    s = settings
    m = s.printable_margin
    pitch_x, pitch_y = card_w + 2 * bleed, card_h + 2 * bleed
    avail_w, avail_h = page_w - 2 * m, page_h - 2 * m
    crop = 2 * (s.crop_gap + s.crop_min)  # a visible mark on both sides
    band = s.furniture_band + s.crop_gap
    options = []
    for side in ("bottom", "left"):
        cols = _fit(avail_w, pitch_x, crop + (band if side == "left" else 0))
        rows = _fit(avail_h, pitch_y, crop + (band if side == "bottom" else 0))
        options.append((cols * rows, side, cols, rows))
    count, side, cols, rows = max(options, key=lambda o: o[0])  # ties keep "bottom"
    if count == 0:
        raise CompanionError(
            f"a {to_mm(card_w):.1f} x {to_mm(card_h):.1f} mm card"
            + (f" with {to_mm(bleed):.1f} mm bleed" if bleed else "")
            + f" does not fit on a {to_mm(page_w):.0f} x {to_mm(page_h):.0f} mm sheet "
            f"inside its {to_mm(m):.0f} mm printable margins", field="--card-size")
    grid_w, grid_h = cols * pitch_x, rows * pitch_y
    if side == "bottom":
        band_rect = Rect(m, m, page_w - 2 * m, s.furniture_band)
        x0 = (page_w - grid_w) / 2
        y0 = band_rect.top + (page_h - m - band_rect.top - grid_h) / 2
    else:
        band_rect = Rect(m, m, s.furniture_band, page_h - 2 * m)
        x0 = band_rect.right + (page_w - m - band_rect.right - grid_w) / 2
        y0 = (page_h - grid_h) / 2
    return Grid(page_w, page_h, card_w, card_h, bleed, cols, rows, x0, y0,
                band_rect, side, s)


def sheets_needed(count: int, grid: Grid) -> int:
    return -(-count // grid.per_sheet)
