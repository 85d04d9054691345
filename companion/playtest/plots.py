"""The report's plots, as reportlab.graphics drawings (vectors, our fonts): win rates
with their 95% intervals as whiskers and the even rate as a dashed line, one bar per
series (a version) in each group; and spreads (lowest, quartiles, median, highest) as
horizontal boxes. Each takes figures already worked out by companion.rules.playtest."""

import math

from reportlab.graphics.shapes import (Drawing, Group, Line, Rect, String, mmult, rotate,
                                       translate)
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from companion.press import fonts
from companion.rules.stats import nice_step

INK = colors.HexColor("#1F2A33")
MUTED = colors.HexColor("#6B747B")
GRID = colors.HexColor("#D9DDE0")
EVEN = colors.HexColor("#B5452B")
LABEL_UPRIGHT = 60.0  # the longest a label standing under its bar may be (points)
SERIES = ["#1D6F8C", "#8FB8C9", "#C9A227", "#5E8C4A", "#7A5C99", "#B0B7BD"]


def _font(bold: bool = False) -> str:
    return fonts.font("bold" if bold else "regular")


def _text(d: Drawing, x: float, y: float, s: str, size: float, colour=INK,
          anchor: str = "start", bold: bool = False, max_w: float | None = None) -> None:
    s = fonts.printable(s)
    name = _font(bold)
    if max_w is not None:
        w = stringWidth(s, name, size)
        if w > max_w:
            size = max(4.5, size * max_w / w)
    d.add(String(x, y, s, fontName=name, fontSize=size, fillColor=colour, textAnchor=anchor))


def rate_chart(groups: list[str], series: list[str], value, w: float, h: float,
               pct: str = "%") -> Drawing:
    """Grouped bars: for each group (a seat, a faction) one bar per series (a version,
    or one series), value(group, series) -> {rate, low, high, even} or None. The y axis
    is the win rate in percent."""
    d = Drawing(w, h)
    left, bottom, top_pad = 30.0, 16.0 + (10.0 if len(series) > 1 else 0.0), 6.0
    pw = w - left - 4
    slot = pw / max(1, len(groups))
    # Labels wider than their slot (many seats or factions) stand upright under the bars.
    widest = max([stringWidth(fonts.printable(g), _font(), 7) for g in groups] + [0.0])
    upright = widest > slot - 2
    if upright:
        bottom += min(LABEL_UPRIGHT, widest) - 6
    ph = h - bottom - top_pad
    cells = [value(g, s) for g in groups for s in series]
    highest = max([c["high"] for c in cells if c] + [c["even"] for c in cells if c] + [0.3])
    top = min(1.0, math.ceil((highest + 0.04) * 10) / 10)
    step = 0.1 if top <= 0.6 else 0.2

    def y(v: float) -> float:
        return bottom + ph * v / top

    tick = 0.0
    while tick <= top + 1e-9:
        d.add(Line(left, y(tick), left + pw, y(tick), strokeColor=GRID, strokeWidth=0.5))
        _text(d, left - 3, y(tick) - 2.5, f"{100 * tick:.0f}{pct}", 7, MUTED, "end")
        tick += step
    bar = min(26.0, slot * 0.7 / len(series))
    for gi, g in enumerate(groups):
        x0 = left + gi * slot + (slot - bar * len(series)) / 2
        for si, s in enumerate(series):
            c = value(g, s)
            x = x0 + si * bar
            if not c:
                continue
            fill = colors.HexColor(SERIES[si % len(SERIES)])
            d.add(Rect(x + 1, bottom, bar - 2, y(c["rate"]) - bottom, fillColor=fill,
                       strokeColor=None))
            mid = x + bar / 2
            d.add(Line(mid, y(c["low"]), mid, y(c["high"]), strokeColor=INK, strokeWidth=0.9))
            for v in (c["low"], c["high"]):
                d.add(Line(mid - bar * 0.2, y(v), mid + bar * 0.2, y(v), strokeColor=INK,
                           strokeWidth=0.9))
            d.add(Line(x, y(c["even"]), x + bar, y(c["even"]), strokeColor=EVEN,
                       strokeWidth=1.2, strokeDashArray=[3, 2]))
            if (len(series) == 1 and bar >= 10) or bar >= 14:
                above = c["high"] if c["rate"] >= c["even"] or c["high"] > c["even"] + 0.03 \
                    else c["even"]
                _text(d, mid, y(above) + 2.5, f"{100 * c['rate']:.0f}{pct}", 6.5, INK,
                      "middle")
        if upright:
            label = Group(transform=mmult(translate(left + gi * slot + slot / 2 + 2.5,
                                                    bottom - 4), rotate(90)))
            _text(label, 0, 0, g, 7, INK, "end", max_w=LABEL_UPRIGHT)
            d.add(label)
        else:
            _text(d, left + gi * slot + slot / 2, bottom - 10, g, 8, INK, "middle",
                  max_w=slot - 2)
    d.add(Line(left, bottom, left + pw, bottom, strokeColor=INK, strokeWidth=0.7))
    if len(series) > 1:
        x = left
        for si, s in enumerate(series):
            d.add(Rect(x, 2, 8, 6, fillColor=colors.HexColor(SERIES[si % len(SERIES)]),
                       strokeColor=None))
            _text(d, x + 11, 2, s, 7, INK)
            x += 16 + stringWidth(fonts.printable(s), _font(), 7)
    return d


def box_chart(rows: list[tuple[str, dict | None]], w: float, h: float,
              unit: str = "", lang: str = "en") -> Drawing:
    """A box per row (label, quartiles {min, q1, median, q3, max, n}): a line from the
    lowest to the highest, a box over the middle half, a bar at the median, its number
    beside it."""
    d = Drawing(w, h)
    shown = [q for _, q in rows if q]
    x, row_h, label_w, x0, pw, lo, hi = _rows_axis(
        d, w, h, len(rows), min([q["min"] for q in shown] + [0.0]),
        max([q["max"] for q in shown] + [1.0]), lang)
    for i, (label, q) in enumerate(rows):
        cy = h - row_h * (i + 0.5)
        _text(d, label_w - 6, cy - 3, label, 8, INK, "end", max_w=label_w - 8)
        if not q:
            continue
        bh = min(12.0, row_h * 0.6)
        d.add(Line(x(q["min"]), cy, x(q["max"]), cy, strokeColor=INK, strokeWidth=0.8))
        for v in (q["min"], q["max"]):
            d.add(Line(x(v), cy - bh * 0.3, x(v), cy + bh * 0.3, strokeColor=INK,
                       strokeWidth=0.8))
        d.add(Rect(x(q["q1"]), cy - bh / 2, max(1.0, x(q["q3"]) - x(q["q1"])), bh,
                   fillColor=colors.HexColor(SERIES[1]), strokeColor=INK, strokeWidth=0.6))
        d.add(Line(x(q["median"]), cy - bh / 2, x(q["median"]), cy + bh / 2,
                   strokeColor=colors.HexColor(SERIES[0]), strokeWidth=2.2))
        _text(d, x0 + pw + 4, cy - 3, f"{_num(q['median'], lang)}{unit}", 7.5, INK)
    return d


_FOOT = 14.0  # points under a rows chart's plot: its ticks' numbers


def _rows_axis(d: Drawing, w: float, h: float, n: int, lo: float, hi: float, lang: str):
    """A chart of a row a label over a value axis from `lo` to `hi` (widened to nice
    steps), its grid and ticks drawn: (x of a value, a row's height, the label column's
    width, the plot's left and width, the axis' ends)."""
    label_w, right_pad, bottom = min(120.0, w * 0.28), 46.0, _FOOT
    step = nice_step(hi - lo)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi <= lo:
        hi = lo + step
    x0, pw = label_w, w - label_w - right_pad
    row_h = (h - bottom) / max(1, n)

    def x(v: float) -> float:
        return x0 + pw * (v - lo) / (hi - lo)

    tick = lo
    while tick <= hi + 1e-9:
        d.add(Line(x(tick), bottom, x(tick), h, strokeColor=GRID, strokeWidth=0.5))
        _text(d, x(tick), bottom - 9, _num(tick, lang), 7, MUTED, "middle")
        tick += step
    return x, row_h, label_w, x0, pw, lo, hi


def _num(v: float, lang: str) -> str:
    s = f"{round(v, 1):g}"
    return s.replace(".", ",") if lang == "fr" else s


def interval_chart(rows: list[tuple[str, dict | None]], key: str, w: float, h: float,
                   lang: str = "en", zero: bool = False) -> Drawing:
    """A row per (label, {key, low, high}): a dot at the figure (a mean, a difference), a
    line over its 95% interval, its number beside it; with `zero`, a dashed line at 0 (a
    difference whose interval stays clear of it separates)."""
    d = Drawing(w, h)
    shown = [q for _, q in rows if q and q.get("low") is not None]
    x, row_h, label_w, x0, pw, lo, hi = _rows_axis(
        d, w, h, len(rows), min([q["low"] for q in shown] + [0.0]),
        max([q["high"] for q in shown] + [1.0]), lang)
    if zero and lo < 0 < hi:
        d.add(Line(x(0), _FOOT, x(0), h, strokeColor=EVEN, strokeWidth=1.0,
                   strokeDashArray=[3, 2]))
    for i, (label, q) in enumerate(rows):
        cy = h - row_h * (i + 0.5)
        _text(d, label_w - 6, cy - 3, label, 8, INK, "end", max_w=label_w - 8)
        if not q:
            continue
        if q.get("low") is not None:
            d.add(Line(x(q["low"]), cy, x(q["high"]), cy, strokeColor=INK, strokeWidth=0.9))
            for v in (q["low"], q["high"]):
                d.add(Line(x(v), cy - 3, x(v), cy + 3, strokeColor=INK, strokeWidth=0.9))
        d.add(Rect(x(q[key]) - 2.5, cy - 2.5, 5, 5, fillColor=colors.HexColor(SERIES[0]),
                   strokeColor=None))
        _text(d, x0 + pw + 4, cy - 3, _num(q[key], lang), 7.5, INK)
    return d
