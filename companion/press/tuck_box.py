"""Tuck boxes: a box's size from its deck, and its net (the flat shape printed, cut,
folded and glued), as plain arithmetic: panels, cut lines and fold lines in points, (0, 0)
the net's lower-left. No drawing (companion/draw/boxes.py draws it).

The net is a straight tuck end box: four body panels in a row, [glue flap] front, side,
back, side, each the box's height. The back panel carries a lid at each end (the box's
width by its depth) and on each lid a tuck flap that slides into the front; each side
carries a dust flap at each end; the front has a thumb notch at its top. Folded, the
body panels go round the deck (front and back W wide, sides D), the glue flap on the
front's left edge glued inside the last side's free edge. A net wider than the paper is
split in two pieces: glue flap, front and first side, then a glue strip on that side's
free edge; the back and the second side with their flaps."""

import math
from functools import cache

import msgspec

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.press.imposition import Rect
from companion.text.units import parse_length

NOTCH_STEPS = 12  # the thumb notch's half circle, as that many straight cuts

Point = tuple[float, float]
Line = tuple[Point, ...]  # a polyline


class Settings(msgspec.Struct, frozen=True):
    smallest_deck: int
    card_thickness: float
    clearance: float
    smallest_depth: float
    thickest_card: float
    widest_clearance: float
    glue: float
    tuck: float
    min_dust: float
    ease: float
    notch: float
    cut_width: float
    fold_width: float
    fold_dash: tuple[float, float]
    margin: float


@cache
def settings() -> Settings:
    path = paths.layout("boxes.toml")
    t = Fields(load_toml(path), str(path), english=True).sub("boxes")
    values = {}
    for k in Settings.__struct_fields__:
        if k == "smallest_deck":
            values[k] = t.get(k, int)
        elif k == "fold_dash":
            values[k] = tuple(parse_length(v, field=f"boxes.{k}") for v in t.get(k, list))
        else:
            values[k] = parse_length(t.get(k, str), field=f"boxes.{k}")
    return Settings(**values)


class Box(msgspec.Struct, frozen=True):
    """A box's inside: width and height (a card's, plus the clearance) and depth."""
    w: float
    h: float
    d: float


def box_for(card: tuple[float, float], cards: int, thickness: float, clearance: float,
            s: Settings) -> Box:
    """The box a deck of `cards` cards of size `card` goes in, upright (its height the
    card's longer side)."""
    w, h = sorted(card)
    return Box(w + clearance, h + clearance, max(cards * thickness, s.smallest_depth))


class Flaps(msgspec.Struct, frozen=True):
    glue: float  # the glue flap's (and strip's) width
    tuck: float  # the tuck flap's height
    dust: float  # the dust flaps' height
    ease: float
    notch: float  # the thumb notch's radius


def flaps(box: Box, s: Settings) -> Flaps:
    return Flaps(glue=min(s.glue, box.d - s.ease), tuck=min(s.tuck, box.h / 3),
                 dust=min(max(s.min_dust, box.d), box.w / 2 - s.ease), ease=s.ease,
                 notch=min(s.notch, box.w / 5))


class Piece(msgspec.Struct, frozen=True):
    """One piece of a net: what is cut out of one sheet."""
    w: float
    h: float
    panels: tuple[tuple[str, Rect], ...]  # ("front"|"side"|"back"|"lid"|"tuck"|"dust"|"glue", box)
    cut: Line  # its outline, closed
    folds: tuple[tuple[Point, Point], ...]


def pieces(box: Box, f: Flaps, split: bool = False) -> list[Piece]:
    """The net, whole or in two pieces."""
    if not split:
        return [_piece(box, f, True, ["front", "side", "back", "side"], False)]
    return [_piece(box, f, True, ["front", "side"], True),
            _piece(box, f, False, ["back", "side"], False)]


def _piece(box: Box, f: Flaps, glue_left: bool, kinds: list[str], strip_right: bool) -> Piece:
    W, H, D = box.w, box.h, box.d
    widths = {"front": W, "back": W, "side": D}
    reach = max(D + f.tuck, f.dust)  # how far the flaps reach past the body, each end
    y0, y1 = reach, reach + H
    x = f.glue if glue_left else 0.0
    body: list[tuple[str, float, float]] = []  # (kind, left, right)
    for k in kinds:
        body.append((k, x, x + widths[k]))
        x += widths[k]
    right = x
    total = right + (f.glue if strip_right else 0.0)
    panels: list[tuple[str, Rect]] = [(k, Rect(a, y0, b - a, H)) for k, a, b in body]
    folds: list[tuple[Point, Point]] = []
    for _, a, b in body[1:]:
        folds.append(((a, y0), (a, y1)))
    if glue_left:
        panels.append(("glue", Rect(0, y0, f.glue, H)))
        folds.append(((f.glue, y0), (f.glue, y1)))
    if strip_right:
        panels.append(("glue", Rect(right, y0, f.glue, H)))
        folds.append(((right, y0), (right, y1)))

    def chain(top: bool) -> list[Point]:
        """The outline along the body's top (or bottom) edge, left to right."""
        edge = y1 if top else y0
        out_ = 1 if top else -1  # outwards, away from the body
        pts: list[Point] = []
        for i, (k, a, b) in enumerate(body):
            back_left = i > 0 and body[i - 1][0] == "back"
            # in two pieces, the first's last side meets the back across the glue strip
            back_right = body[i + 1][0] == "back" if i + 1 < len(body) else strip_right
            if k == "front":
                pts.append((a, edge))
                if top:  # the thumb notch, a half circle cut into the front
                    cx, r = (a + b) / 2, f.notch
                    for n in range(NOTCH_STEPS + 1):
                        t = math.pi * n / NOTCH_STEPS
                        pts.append((cx - r * math.cos(t), edge - r * math.sin(t)))
                pts.append((b, edge))
            elif k == "side":  # a dust flap, cut away beside a lid so both fold freely
                taper = min(D / 2, f.dust / 2)
                top_edge = edge + out_ * f.dust
                pts += [(a, edge), (a + (taper if back_left else 0), top_edge),
                        (b - (taper if back_right else 0), top_edge), (b, edge)]
                panels.append(("dust", Rect(a, min(edge, top_edge), b - a, f.dust)))
            else:  # the back: its lid, then the tuck flap, rounded at its corners
                lid = edge + out_ * D
                tip = lid + out_ * f.tuck
                r = min(f.tuck / 2, (b - a) / 6)
                pts += [(a, edge), (a, lid), (a + f.ease, lid), (a + f.ease, tip - out_ * r),
                        (a + f.ease + r, tip), (b - f.ease - r, tip),
                        (b - f.ease, tip - out_ * r), (b - f.ease, lid), (b, lid), (b, edge)]
                panels.append(("lid", Rect(a, min(edge, lid), b - a, D)))
                panels.append(("tuck", Rect(a + f.ease, min(lid, tip), b - a - 2 * f.ease,
                                            f.tuck)))
                folds.append(((a, edge), (b, edge)))
                folds.append(((a + f.ease, lid), (b - f.ease, lid)))
            if k == "side":
                folds.append(((a, edge), (b, edge)))
        return pts

    taper = min(f.glue, H / 4)
    outline: list[Point] = []
    if glue_left:
        outline += [(f.glue, y0), (0, y0 + taper), (0, y1 - taper)]
    outline += chain(True)
    if strip_right:
        outline += [(right, y1), (total, y1 - taper), (total, y0 + taper), (right, y0)]
    outline += list(reversed(chain(False)))
    outline = _tidy(outline)
    return Piece(total, y1 + reach, tuple(panels), tuple(outline), tuple(folds))


def _tidy(points: list[Point]) -> Line:
    """The outline without a point repeated, closed."""
    out: list[Point] = []
    for p in points:
        if not out or abs(p[0] - out[-1][0]) > 1e-9 or abs(p[1] - out[-1][1]) > 1e-9:
            out.append(p)
    if out[0] != out[-1]:
        out.append(out[0])
    return tuple(out)


class Placement(msgspec.Struct, frozen=True):
    """Where a piece lies on a page: its lower-left, and whether it is turned a quarter
    (anticlockwise, so its width runs up the page)."""
    x: float
    y: float
    turned: bool


def place(piece: Piece, page: tuple[float, float], margin: float) -> Placement | None:
    """The piece centred on the page inside the margins, upright if it fits so, else
    turned; None if it fits neither way."""
    pw, ph = page
    for turned in (False, True):
        w, h = (piece.h, piece.w) if turned else (piece.w, piece.h)
        if w <= pw - 2 * margin + 1e-6 and h <= ph - 2 * margin + 1e-6:
            return Placement((pw - w) / 2, (ph - h) / 2, turned)
    return None


class Plan(msgspec.Struct, frozen=True):
    box: Box
    pieces: list[Piece]
    places: list[Placement | None]  # a None: that piece does not fit the paper

    @property
    def fits(self) -> bool:
        return all(p is not None for p in self.places)

    @property
    def split(self) -> bool:
        return len(self.pieces) > 1


def plan(box: Box, page: tuple[float, float], s: Settings) -> Plan:
    """The net whole if it fits the paper (either way round), else in two pieces; if even
    those do not fit, the two pieces anyway, each said not to fit (`fits`)."""
    f = flaps(box, s)
    whole = pieces(box, f)
    at = [place(p, page, s.margin) for p in whole]
    if all(at):
        return Plan(box, whole, at)
    halves = pieces(box, f, split=True)
    return Plan(box, halves, [place(p, page, s.margin) for p in halves])
