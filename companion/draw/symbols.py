"""Vector symbols by name. Data files name them (a clan's symbol, a deck mark); each draws
centred on (cx, cy) inside a circle of radius r, so it reads in greyscale and at any size."""

from math import atan2, cos, degrees, pi, sin, sqrt


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


SYMBOLS = {"flame": flame, "star": star, "leaf": leaf, "drop": drop, "gem": gem,
           "sun": sun, "moon": moon, "shield": shield}


def draw(c, name: str, cx: float, cy: float, r: float) -> None:
    SYMBOLS[name](c, cx, cy, r)


def rotated(c, cx, cy, angle_deg, fn):
    """Run fn() with the canvas turned by angle_deg about (cx, cy)."""
    c.saveState()
    c.translate(cx, cy)
    c.rotate(angle_deg)
    c.translate(-cx, -cy)
    fn()
    c.restoreState()


