"""Vector symbols by name. Data files name them (a clan's symbol, a deck mark); each draws
centred on (cx, cy) inside a circle of radius r, so it reads in greyscale and at any size."""

from contextvars import ContextVar
from math import atan2, cos, degrees, pi, sin, sqrt

from companion.scoped import Scoped
from companion.errors import shown


def _poly(c, pts, fill=True, stroke=False):
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    p.close()
    c.drawPath(p, fill=int(fill), stroke=int(stroke))


def flame(c, cx, cy, r):
    """Three tongues of fire over a round base: unlike the drop even in silhouette."""
    pts = [(0.55, -0.9, 0.85, -0.45, 0.6, 0.4), (0.5, 0.15, 0.38, 0.08, 0.27, 0.15),
           (0.38, 0.5, 0.18, 0.78, 0.0, 1.0), (-0.12, 0.7, -0.3, 0.48, -0.28, 0.2),
           (-0.38, 0.3, -0.46, 0.4, -0.55, 0.55), (-0.85, 0.0, -0.6, -0.9, 0.0, -0.9)]
    p = c.beginPath()
    p.moveTo(cx, cy - 0.9 * r)
    for x1, y1, x2, y2, x3, y3 in pts:
        p.curveTo(cx + x1 * r, cy + y1 * r, cx + x2 * r, cy + y2 * r, cx + x3 * r, cy + y3 * r)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


def star(c, cx, cy, r, points=5, inner=0.45):
    pts = []
    for i in range(2 * points):
        a = pi / 2 + i * pi / points
        k = r if i % 2 == 0 else r * inner
        pts.append((cx + k * cos(a), cy + k * sin(a) - 0.08 * r))
    _poly(c, pts)


def leaf(c, cx, cy, r):
    p = c.beginPath()
    p.moveTo(cx - 0.75 * r, cy - 0.75 * r)
    p.curveTo(cx - 0.9 * r, cy + 0.4 * r, cx + 0.1 * r, cy + 0.95 * r, cx + 0.8 * r, cy + 0.8 * r)
    p.curveTo(cx + 0.95 * r, cy + 0.1 * r, cx + 0.4 * r, cy - 0.9 * r, cx - 0.75 * r, cy - 0.75 * r)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


def drop(c, cx, cy, r):
    k = 0.62 * r
    by = cy - 0.3 * r
    p = c.beginPath()
    p.moveTo(cx, cy + r)
    p.curveTo(cx + 0.2 * r, cy + 0.55 * r, cx + k, cy + 0.2 * r, cx + k, by)
    p.curveTo(cx + k, by - 0.9 * k, cx - k, by - 0.9 * k, cx - k, by)
    p.curveTo(cx - k, cy + 0.2 * r, cx - 0.2 * r, cy + 0.55 * r, cx, cy + r)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


def gem(c, cx, cy, r):
    _poly(c, [(cx, cy + r), (cx + 0.72 * r, cy + 0.25 * r), (cx, cy - r),
              (cx - 0.72 * r, cy + 0.25 * r)])


def sun(c, cx, cy, r, rays=12):
    c.circle(cx, cy, 0.5 * r, stroke=0, fill=1)
    for i in range(rays):
        a = 2 * pi * i / rays
        w = pi / rays * 0.45
        _poly(c, [(cx + 0.6 * r * cos(a - w), cy + 0.6 * r * sin(a - w)),
                  (cx + r * cos(a), cy + r * sin(a)),
                  (cx + 0.6 * r * cos(a + w), cy + 0.6 * r * sin(a + w))])


def moon(c, cx, cy, r):
    """A crescent: the outer circle less a same-size circle shifted right."""
    d = 0.62 * r
    y = sqrt(r * r - d * d / 4)
    t0 = degrees(atan2(y, d / 2))
    p = c.beginPath()
    p.arc(cx - r, cy - r, cx + r, cy + r, t0, 360 - 2 * t0)
    p.arcTo(cx + d - r, cy - r, cx + d + r, cy + r, 180 + t0, -2 * t0)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


def shield(c, cx, cy, r):
    p = c.beginPath()
    p.moveTo(cx, cy + 0.9 * r)
    p.curveTo(cx + 0.35 * r, cy + 0.75 * r, cx + 0.6 * r, cy + 0.75 * r, cx + 0.75 * r, cy + 0.8 * r)
    p.curveTo(cx + 0.8 * r, cy - 0.1 * r, cx + 0.5 * r, cy - 0.6 * r, cx, cy - 0.95 * r)
    p.curveTo(cx - 0.5 * r, cy - 0.6 * r, cx - 0.8 * r, cy - 0.1 * r, cx - 0.75 * r, cy + 0.8 * r)
    p.curveTo(cx - 0.6 * r, cy + 0.75 * r, cx - 0.35 * r, cy + 0.75 * r, cx, cy + 0.9 * r)
    p.close()
    c.drawPath(p, fill=1, stroke=0)


def anvil(c, cx, cy, r):
    _poly(c, [(cx - r, cy + 0.45 * r), (cx + 0.95 * r, cy + 0.45 * r), (cx + 0.95 * r, cy + 0.2 * r),
              (cx + 0.35 * r, cy + 0.0 * r), (cx + 0.3 * r, cy - 0.35 * r), (cx + 0.6 * r, cy - 0.6 * r),
              (cx - 0.6 * r, cy - 0.6 * r), (cx - 0.3 * r, cy - 0.35 * r), (cx - 0.35 * r, cy + 0.0 * r),
              (cx - 0.7 * r, cy + 0.1 * r)])


def book(c, cx, cy, r):
    """An open book: two pages meeting at the spine."""
    for side in (-1, 1):
        _poly(c, [(cx + side * 0.06 * r, cy - 0.55 * r), (cx + side * 0.06 * r, cy + 0.6 * r),
                  (cx + side * 0.5 * r, cy + 0.72 * r), (cx + side * 0.95 * r, cy + 0.6 * r),
                  (cx + side * 0.95 * r, cy - 0.55 * r), (cx + side * 0.5 * r, cy - 0.45 * r)])


def sword(c, cx, cy, r):
    _poly(c, [(cx, cy + r), (cx + 0.2 * r, cy + 0.75 * r), (cx + 0.2 * r, cy - 0.35 * r),
              (cx - 0.2 * r, cy - 0.35 * r), (cx - 0.2 * r, cy + 0.75 * r)])
    c.rect(cx - 0.55 * r, cy - 0.5 * r, 1.1 * r, 0.18 * r, stroke=0, fill=1)
    c.rect(cx - 0.1 * r, cy - 0.9 * r, 0.2 * r, 0.45 * r, stroke=0, fill=1)
    c.circle(cx, cy - 0.95 * r, 0.1 * r, stroke=0, fill=1)


def mask(c, cx, cy, r):
    """A domino mask, the two eye holes left open (even-odd fill)."""
    p = c.beginPath()
    p.moveTo(cx - r, cy + 0.3 * r)
    p.curveTo(cx - 0.6 * r, cy + 0.55 * r, cx - 0.2 * r, cy + 0.4 * r, cx, cy + 0.25 * r)
    p.curveTo(cx + 0.2 * r, cy + 0.4 * r, cx + 0.6 * r, cy + 0.55 * r, cx + r, cy + 0.3 * r)
    p.curveTo(cx + 0.95 * r, cy - 0.3 * r, cx + 0.45 * r, cy - 0.55 * r, cx + 0.1 * r, cy - 0.2 * r)
    p.lineTo(cx - 0.1 * r, cy - 0.2 * r)
    p.curveTo(cx - 0.45 * r, cy - 0.55 * r, cx - 0.95 * r, cy - 0.3 * r, cx - r, cy + 0.3 * r)
    p.close()
    for ex in (-0.45, 0.45):
        p.ellipse(cx + ex * r - 0.2 * r, cy - 0.08 * r, 0.4 * r, 0.26 * r)
    c.drawPath(p, fill=1, stroke=0, fillMode=0)


def tent(c, cx, cy, r):
    _poly(c, [(cx, cy + 0.85 * r), (cx + r, cy - 0.7 * r), (cx + 0.25 * r, cy - 0.7 * r), (cx, cy - 0.1 * r),
              (cx - 0.25 * r, cy - 0.7 * r), (cx - r, cy - 0.7 * r)])


def circle(c, cx, cy, r):
    c.circle(cx, cy, 0.8 * r, stroke=0, fill=1)


def square(c, cx, cy, r):
    c.rect(cx - 0.72 * r, cy - 0.72 * r, 1.44 * r, 1.44 * r, stroke=0, fill=1)


def triangle(c, cx, cy, r):
    _poly(c, [(cx, cy + 0.9 * r), (cx + 0.9 * r, cy - 0.65 * r), (cx - 0.9 * r, cy - 0.65 * r)])


def hexagon(c, cx, cy, r):
    _poly(c, [(cx + 0.85 * r * cos(pi / 3 * i + pi / 6), cy + 0.85 * r * sin(pi / 3 * i + pi / 6))
              for i in range(6)])


def cross(c, cx, cy, r):
    k = 0.3 * r
    _poly(c, [(cx - k, cy + 0.85 * r), (cx + k, cy + 0.85 * r), (cx + k, cy + k), (cx + 0.85 * r, cy + k),
              (cx + 0.85 * r, cy - k), (cx + k, cy - k), (cx + k, cy - 0.85 * r), (cx - k, cy - 0.85 * r),
              (cx - k, cy - k), (cx - 0.85 * r, cy - k), (cx - 0.85 * r, cy + k), (cx - k, cy + k)])


def coin(c, cx, cy, r):
    """A coin: a disc with a ring cut into it (even-odd)."""
    p = c.beginPath()
    p.circle(cx, cy, 0.85 * r)
    p.circle(cx, cy, 0.68 * r)
    p.circle(cx, cy, 0.55 * r)
    c.drawPath(p, fill=1, stroke=0, fillMode=0)


def target(c, cx, cy, r):
    """A bounty's crosshair."""
    p = c.beginPath()
    p.circle(cx, cy, 0.8 * r)
    p.circle(cx, cy, 0.62 * r)
    p.circle(cx, cy, 0.3 * r)
    p.circle(cx, cy, 0.14 * r)
    c.drawPath(p, fill=1, stroke=0, fillMode=0)
    for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        x0, y0 = cx + dx * 0.45 * r, cy + dy * 0.45 * r
        x1, y1 = cx + dx * r, cy + dy * r
        w = 0.07 * r
        c.rect(min(x0, x1) - (w if dx == 0 else 0), min(y0, y1) - (w if dy == 0 else 0),
               abs(x1 - x0) + (2 * w if dx == 0 else 0), abs(y1 - y0) + (2 * w if dy == 0 else 0),
               stroke=0, fill=1)


def crystal(c, cx, cy, r):
    """A cluster of three crystal points."""
    for dx, top, half in ((-0.45, 0.35, 0.22), (0.45, 0.45, 0.22), (0.0, 0.95, 0.3)):
        _poly(c, [(cx + (dx - half) * r, cy - 0.8 * r), (cx + (dx - half) * r, cy + (top - 0.35) * r),
                  (cx + dx * r, cy + top * r), (cx + (dx + half) * r, cy + (top - 0.35) * r),
                  (cx + (dx + half) * r, cy - 0.8 * r)])


def flask(c, cx, cy, r):
    """A round-bellied potion flask with its neck and stopper."""
    c.circle(cx, cy - 0.3 * r, 0.62 * r, stroke=0, fill=1)
    c.rect(cx - 0.18 * r, cy + 0.1 * r, 0.36 * r, 0.6 * r, stroke=0, fill=1)
    c.rect(cx - 0.28 * r, cy + 0.68 * r, 0.56 * r, 0.22 * r, stroke=0, fill=1)


def gate(c, cx, cy, r):
    """An arched gateway, its opening left empty (even-odd)."""
    p = c.beginPath()
    p.moveTo(cx - 0.85 * r, cy - 0.9 * r)
    p.lineTo(cx - 0.85 * r, cy + 0.15 * r)
    p.arcTo(cx - 0.85 * r, cy - 0.7 * r, cx + 0.85 * r, cy + r, 180, -180)
    p.lineTo(cx + 0.85 * r, cy - 0.9 * r)
    p.close()
    p.moveTo(cx - 0.45 * r, cy - 0.9 * r)
    p.lineTo(cx - 0.45 * r, cy + 0.1 * r)
    p.arcTo(cx - 0.45 * r, cy - 0.35 * r, cx + 0.45 * r, cy + 0.55 * r, 180, -180)
    p.lineTo(cx + 0.45 * r, cy - 0.9 * r)
    p.close()
    c.drawPath(p, fill=1, stroke=0, fillMode=0)


def chain(c, cx, cy, r):
    """Two interlocked links, each a ring (even-odd)."""
    for dx, dy in ((-0.3, 0.25), (0.3, -0.25)):
        x, y = cx + dx * r, cy + dy * r
        p = c.beginPath()
        p.roundRect(x - 0.55 * r, y - 0.36 * r, 1.1 * r, 0.72 * r, 0.36 * r)
        p.roundRect(x - 0.35 * r, y - 0.16 * r, 0.7 * r, 0.32 * r, 0.16 * r)
        c.drawPath(p, fill=1, stroke=0, fillMode=0)


def horns(c, cx, cy, r):
    """A demon's head: a round face with two curved horns."""
    c.circle(cx, cy - 0.25 * r, 0.55 * r, stroke=0, fill=1)
    for side in (-1, 1):
        p = c.beginPath()
        p.moveTo(cx + side * 0.2 * r, cy + 0.2 * r)
        p.curveTo(cx + side * 0.55 * r, cy + 0.5 * r, cx + side * 0.75 * r, cy + 0.7 * r,
                  cx + side * 0.7 * r, cy + r)
        p.curveTo(cx + side * 0.95 * r, cy + 0.7 * r, cx + side * 0.85 * r, cy + 0.2 * r,
                  cx + side * 0.5 * r, cy - 0.05 * r)
        p.close()
        c.drawPath(p, fill=1, stroke=0)


SYMBOLS = {"flame": flame, "star": star, "leaf": leaf, "drop": drop, "gem": gem,
           "sun": sun, "moon": moon, "shield": shield, "anvil": anvil, "book": book,
           "sword": sword, "mask": mask, "tent": tent, "circle": circle, "square": square,
           "triangle": triangle, "hexagon": hexagon, "cross": cross, "coin": coin, "target": target,
           "crystal": crystal, "flask": flask, "gate": gate, "chain": chain, "horns": horns}


# A designer's own icons (companion.draw.icons), by name, while a face is drawn: they
# take the place of a built-in symbol of the same name.
_icons: ContextVar[dict] = ContextVar("icons", default={})


def using(icons: dict) -> Scoped:
    """Draws with a game's own icons as symbols, within the block."""
    return Scoped(_icons, icons)


def known(name: str) -> bool:
    return name in _icons.get() or name in SYMBOLS


def names() -> list[str]:
    """Every symbol a face may name: the built-in ones, then the game's own icons."""
    return list(SYMBOLS) + [n for n in _icons.get() if n not in SYMBOLS]


def named(f, key: str) -> str:
    """A symbol name read from a data table (companion.files.data.Fields), checked."""
    name = f.get(key, str)
    if not known(name):
        raise f.error(key, f"unknown symbol {shown(name)} (have {', '.join(names())})")
    return name


def draw(c, name: str, cx: float, cy: float, r: float) -> None:
    """`name` centred on (cx, cy) in a circle of radius r, in the canvas's fill colour."""
    icon = _icons.get().get(name)
    if icon is not None:
        icon.draw(c, cx, cy, r)
    else:
        SYMBOLS[name](c, cx, cy, r)
