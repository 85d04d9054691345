"""Where cards sit on a sheet: plain arithmetic, no drawing.

Coordinates are PDF points with the origin at the sheet's lower-left corner. Slots run
row by row from the top-left. Cards butt against each other (they share cut lines) unless
there is bleed, in which case each card keeps its own bleed around it, and tokens, cut out
one by one, a gap between their bleeds too. Cards lie turned a quarter on the sheet when
more fit that way; a card's face is always drawn upright in its own width and height and
turned onto its place by `Placed.matrix`.

A piece that is not a rectangle (a hex tile, a round token, a card with rounded corners:
`Shape`) still takes its bounding box's place; its cut line is the shape inside that box,
and its bleed the shape grown by the bleed, both given as paths (`Path`) to be drawn.
"""

from math import floor, hypot

import msgspec

from companion.errors import CompanionError
from companion.press.presets import SheetSettings
from companion.text.units import to_mm

FLIPS = ("long", "short", "none")
TURNS = (0, 90)  # how cards may lie on a sheet, degrees anticlockwise; ties keep the first
_COS_SIN = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}
_EPS = 1e-6


class Rect(msgspec.Struct, frozen=True):
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


class Placed(msgspec.Struct, frozen=True):
    """A card's trim box on a sheet, and the turn (degrees anticlockwise, a multiple of 90)
    that takes the card's upright face onto it."""
    box: Rect
    rotation: int = 0

    @property
    def size(self) -> tuple[float, float]:
        """The card's own width and height, as its face is drawn."""
        b = self.box
        return (b.h, b.w) if self.rotation % 180 else (b.w, b.h)

    @property
    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """(a, b, c, d, e, f): the card's point (u, v) lands on the sheet at
        (a u + c v + e, b u + d v + f), as canvas.transform takes it."""
        cos, sin = _COS_SIN[self.rotation % 360]
        w, h = self.size
        corners = [(0, 0), (w, 0), (0, h), (w, h)]
        # Turned about its own lower-left, the card must then be moved onto the box.
        e = self.box.x - min(cos * u - sin * v for u, v in corners)
        f = self.box.y - min(sin * u + cos * v for u, v in corners)
        return cos, sin, -sin, cos, e, f

    def to_sheet(self, u: float, v: float) -> tuple[float, float]:
        a, b, c, d, e, f = self.matrix
        return a * u + c * v + e, b * u + d * v + f


def back_turn(rotation: int, flip: str) -> int:
    """How a back lies so that, once cut, the card turns over about its own upright axis
    (the back's top behind the front's top), as unturned cards always did. The paper's
    flip mirrors the sheet (long: x -> W - x; short: y -> H - y) and turning the card
    over mirrors it again, so the back turns by -rotation (long) or 180 - rotation
    (short)."""
    if flip == "long":
        return -rotation % 360
    if flip == "short":
        return (180 - rotation) % 360
    raise ValueError(f"no backs for flip {flip!r}")


SHAPES = ("hex", "circle", "rounded")
HEX_TOPS = ("pointy", "flat")
KAPPA = 0.5522847498  # a quarter circle's Bezier handles, of its radius

# A path as drawing operators: ("M", x, y) move, ("L", x, y) line, ("C", x1, y1, x2, y2,
# x, y) a Bezier curve, ("Z",) close.
Path = list[tuple]


class Shape(msgspec.Struct, frozen=True):
    """A piece's outline inside its trim box (w x h, the size its component gives):
    "hex" the hexagon touching the box's four sides, `hex` "pointy" (a corner at the top and
    the bottom, two upright sides: a 40 x 46 mm box holds a regular one) or "flat" (a flat
    top and bottom, a corner left and right: 46 x 40 mm); "circle" the circle filling the
    box (an ellipse in a box that is not square); "rounded" the box with corners of radius
    `corner` (points)."""
    kind: str
    hex: str = "pointy"
    corner: float = 0.0

    def outline(self, w: float, h: float, grow: float = 0.0) -> Path:
        """The cut line of a w x h piece, (0, 0) its box's lower-left, or with `grow` the
        shape grown that far out all round (its bleed): a hexagon's sides moved out
        parallel, a circle's radius (an ellipse's two) and a rounded box's sides and
        corner radius grown by it."""
        if self.kind == "hex":
            if self.hex == "flat":
                points = [(w / 4, 0), (3 * w / 4, 0), (w, h / 2), (3 * w / 4, h), (w / 4, h),
                          (0, h / 2)]
            else:
                points = [(w / 2, 0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0, 3 * h / 4),
                          (0, h / 4)]
            points = grown(points, grow)
            return [("M", *points[0])] + [("L", *pt) for pt in points[1:]] + [("Z",)]
        if self.kind == "circle":
            return _ellipse(w / 2, h / 2, w / 2 + grow, h / 2 + grow)
        if self.kind == "rounded":
            r = min(self.corner, w / 2, h / 2)
            return _rounded(-grow, -grow, w + 2 * grow, h + 2 * grow, r + grow)
        raise ValueError(f"no shape {self.kind!r}")


def grown(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A convex polygon (its corners anticlockwise) with every side moved `by` outwards,
    parallel to itself: each corner where its two moved sides meet."""
    if not by:
        return list(points)
    out = []
    n = len(points)
    for i, (x, y) in enumerate(points):
        normals = []
        for (ax, ay), (bx, by_) in ((points[i - 1], (x, y)), ((x, y), points[(i + 1) % n])):
            dx, dy = bx - ax, by_ - ay
            length = hypot(dx, dy)
            normals.append((dy / length, -dx / length))  # outwards, the corners anticlockwise
        (n1x, n1y), (n2x, n2y) = normals
        k = by / (1 + n1x * n2x + n1y * n2y)
        out.append((x + k * (n1x + n2x), y + k * (n1y + n2y)))
    return out


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> Path:
    kx, ky = KAPPA * rx, KAPPA * ry
    return [("M", cx + rx, cy),
            ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy), ("Z",)]


def _rounded(x: float, y: float, w: float, h: float, r: float) -> Path:
    k = KAPPA * r
    return [("M", x + r, y), ("L", x + w - r, y),
            ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r), ("L", x + w, y + h - r),
            ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h),
            ("L", x + r, y + h),
            ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r), ("L", x, y + r),
            ("C", x, y + r - k, x + r - k, y, x + r, y), ("Z",)]


def on_sheet(path: Path, placed: "Placed") -> Path:
    """A path in a card's own coordinates, where it lies on the sheet."""
    out = []
    for op, *xy in path:
        pts = [placed.to_sheet(xy[i], xy[i + 1]) for i in range(0, len(xy), 2)]
        out.append((op, *[v for pt in pts for v in pt]))
    return out


class Grid(msgspec.Struct, frozen=True):
    page_w: float
    page_h: float
    card_w: float  # the card's own size, upright
    card_h: float
    bleed: float
    gap: float  # paper between neighbouring bleeds (tokens)
    rotation: int  # how every front lies on the sheet, degrees anticlockwise
    cols: int
    rows: int
    x0: float  # lower-left corner of the grid, bleed included
    y0: float
    band: Rect  # holds the calibration bar and the label
    band_side: str  # "bottom" or "left": a band on the left is written turned 90 degrees
    settings: SheetSettings
    shape: Shape | None = None  # its pieces' outline; None: rectangles (crop marks alone)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def box_w(self) -> float:
        """A card's trim width as it lies on the sheet."""
        return self.card_h if self.rotation % 180 else self.card_w

    @property
    def box_h(self) -> float:
        return self.card_w if self.rotation % 180 else self.card_h

    @property
    def pitch_x(self) -> float:
        return self.box_w + 2 * self.bleed + self.gap

    @property
    def pitch_y(self) -> float:
        return self.box_h + 2 * self.bleed + self.gap

    @property
    def outer(self) -> Rect:
        return Rect(self.x0, self.y0, self.cols * self.pitch_x - self.gap,
                    self.rows * self.pitch_y - self.gap)

    def front(self, slot: int) -> Placed:
        col, row = slot % self.cols, slot // self.cols
        x = self.x0 + self.bleed + col * self.pitch_x
        y = self.y0 + self.bleed + (self.rows - 1 - row) * self.pitch_y
        return Placed(Rect(x, y, self.box_w, self.box_h), self.rotation)

    def back(self, slot: int, flip: str) -> Placed:
        """Where the back of `slot` must be drawn so it lands behind its front."""
        return Placed(self.mirror(self.front(slot).box, flip), back_turn(self.rotation, flip))

    def mirror(self, r: Rect, flip: str) -> Rect:
        """Where `r` of the front page lies on the back page."""
        if flip == "long":  # the sheet turns over its long (vertical) edge
            return Rect(self.page_w - r.x - r.w, r.y, r.w, r.h)
        if flip == "short":  # the sheet turns over its short edge
            return Rect(r.x, self.page_h - r.y - r.h, r.w, r.h)
        raise ValueError(f"no backs for flip {flip!r}")

    def cut_xs(self) -> list[float]:
        return _unique(x for c in range(self.cols) for x in
                       (self.x0 + self.bleed + c * self.pitch_x,
                        self.x0 + self.bleed + c * self.pitch_x + self.box_w))

    def cut_ys(self) -> list[float]:
        return _unique(y for r in range(self.rows) for y in
                       (self.y0 + self.bleed + r * self.pitch_y,
                        self.y0 + self.bleed + r * self.pitch_y + self.box_h))

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """A line on the extension of every cut line, on all four sides, from crop_gap off
        the cards' bleed outwards, crop_max long or up to the paper's edge or the band.
        The planner left room for crop_min; the outer end may fall where a printer
        cannot print, the end next to the cut does not."""
        s, o = self.settings, self.outer
        g, most = s.crop_gap, s.crop_max
        low_y = self.band.top + g if self.band_side == "bottom" else 0.0
        low_x = self.band.right + g if self.band_side == "left" else 0.0
        marks = []
        for x in self.cut_xs():
            marks.append((x, o.top + g, x, min(o.top + g + most, self.page_h)))
            marks.append((x, o.y - g, x, max(o.y - g - most, low_y)))
        for y in self.cut_ys():
            marks.append((o.right + g, y, min(o.right + g + most, self.page_w), y))
            marks.append((o.x - g, y, max(o.x - g - most, low_x), y))
        return marks

    def bleed_path(self, w: float, h: float) -> Path:
        """What of a w x h face (its own coordinates) prints: its trim and bleed, or a
        shaped piece's shape grown by the bleed."""
        b = self.bleed
        if self.shape is None:
            return [("M", -b, -b), ("L", w + b, -b), ("L", w + b, h + b), ("L", -b, h + b),
                    ("Z",)]
        return self.shape.outline(w, h, b)

    def cut_lines(self, count: int) -> list[Path]:
        """A shaped piece's cut line round each of the first `count` slots, on the sheet;
        none for rectangles (their crop marks say where to cut)."""
        if self.shape is None:
            return []
        out = []
        for slot in range(count):
            placed = self.front(slot)
            out.append(on_sheet(self.shape.outline(*placed.size), placed))
        return out


def _unique(values) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > _EPS:
            out.append(v)
    return out


def _fit(avail: float, size: float, gap: float) -> int:
    """How many of `size`, `gap` apart, fit in `avail`."""
    return max(0, floor((avail + gap + _EPS) / (size + gap)))


def plan_grid(page_w: float, page_h: float, card_w: float, card_h: float,
              settings: SheetSettings, bleed: float = 0.0, spaced: bool = False,
              shape: Shape | None = None) -> Grid:
    """As many cards as fit, upright or turned a quarter: cards and their bleed inside the
    printable margins, a crop mark of crop_min or more starting inside them on every side,
    and the band (bar and label) along the bottom or, failing that, the left. `spaced` (tokens) puts
    token_gap between bleeds when there is bleed. A `shape` is placed as its box is."""
    s = settings
    m = s.printable_margin
    gap = s.token_gap if spaced and bleed else 0.0
    # From the paper's edge to the grid: a crop mark starts inside the printable margin
    # (its outer end may run past it) and has crop_min before the edge; on the band's
    # side it must fit, crop_gap clear, between the band and the grid.
    edge = max(m, s.crop_min) + s.crop_gap
    by_band = m + s.furniture_band + s.crop_gap + s.crop_min + s.crop_gap
    options = []
    for turn in TURNS:
        w, h = (card_h, card_w) if turn % 180 else (card_w, card_h)
        for side in ("bottom", "left"):
            cols = _fit(page_w - edge - (by_band if side == "left" else edge), w + 2 * bleed, gap)
            rows = _fit(page_h - edge - (by_band if side == "bottom" else edge), h + 2 * bleed,
                        gap)
            options.append((cols * rows, turn, side, cols, rows))
    count, turn, side, cols, rows = max(options, key=lambda o: o[0])  # ties: the first
    if count == 0:
        raise CompanionError(
            f"a {to_mm(card_w):.1f} x {to_mm(card_h):.1f} mm card"
            + (f" with {to_mm(bleed):.1f} mm bleed" if bleed else "")
            + f" does not fit on a {to_mm(page_w):.0f} x {to_mm(page_h):.0f} mm sheet "
            f"inside its {to_mm(m):.0f} mm printable margins", field="--card-size")
    w, h = (card_h, card_w) if turn % 180 else (card_w, card_h)
    grid_w = cols * (w + 2 * bleed + gap) - gap
    grid_h = rows * (h + 2 * bleed + gap) - gap
    if side == "bottom":
        band = Rect(m, m, page_w - 2 * m, s.furniture_band)
        low_x, low_y = edge, by_band
    else:
        band = Rect(m, m, s.furniture_band, page_h - 2 * m)
        low_x, low_y = by_band, edge
    # Centred in the room left, so the spare paper goes to the crop marks evenly.
    x0 = low_x + (page_w - edge - low_x - grid_w) / 2
    y0 = low_y + (page_h - edge - low_y - grid_h) / 2
    return Grid(page_w, page_h, card_w, card_h, bleed, gap, turn, cols, rows, x0, y0,
                band, side, s, shape)
