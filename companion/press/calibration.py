"""Duplex calibration: where the calibration sheet's verniers are, how a reading is made,
and the least-squares fit of where a printer really puts a sheet's back. Arithmetic only:
no drawing, no files but the settings (layouts/calibration.toml).

Every length is in points and every point is seen from the front, (0, 0) the paper's
lower-left corner, x to the right and y up ("the front frame"). A duplex printer puts the
back page's point q at E(M(q)): M the flip (long: x -> W - x; short: y -> H - y, what
imposition.Grid.mirror does) and E the printer's error,

    E(p) = c + s R(theta) (p - c) + t,        c the paper's centre,

a shift t, a turn theta (anticlockwise) and a scale s. A vernier's 0 drawn on the back at
the front-frame point p lands at E(p): its reading is E(p) - p along its axis. Each
reading is one linear equation in (tx, ty, theta, s - 1) to first order (sin = theta, cos =
1): for a scale across at (x, y), dx = tx - theta (y - cy) + k (x - cx); for a scale up,
dy = ty + theta (x - cx) + k (y - cy); the fit then refines it against the exact model.
A back page drawn through C = M E^-1 M (`correction`) lands where it should: E M C = M.
"""

from functools import lru_cache
from math import cos, degrees, hypot, radians, sin, sqrt

import msgspec
from reportlab.graphics.transform import inverse, mmult, transformPoint

from companion.errors import CompanionError, shown
from companion.files import paths
from companion.files.data import load_fields
from companion.text.units import mm, parse_length, to_mm

AXES = ("x", "y")  # a scale across reads x, a scale up reads y


class Vernier(msgspec.Struct, frozen=True):
    main_pitch: float
    vernier_pitch: float
    divisions: int
    step: float
    reach: int
    tick: float
    long_tick: float
    line_width: float
    label_size: float


class Scale(msgspec.Struct, frozen=True):
    """One vernier: the place it belongs to, the axis it reads and its 0 (front frame)."""
    place: str
    axis: str
    x: float
    y: float


class Fit(msgspec.Struct, frozen=True):
    """A printer's back, fitted: shift (mm, at the paper's centre), turn (degrees,
    anticlockwise as seen from the front), scale; the readings' RMS residual (mm) and,
    with several prints, the farthest a print's back lies from the mean one over the
    paper's corners (mm)."""
    shift: tuple[float, float]
    rotation: float
    scale: float
    residual: float
    spread: float | None
    prints: int
    scale_measured: bool


class Profile(msgspec.Struct, frozen=True):
    """A named printer's correction, as kept in the user's configuration folder."""
    name: str
    paper: str
    flip: str
    shift: tuple[float, float]  # mm
    rotation: float = 0.0  # degrees
    scale: float = 1.0
    residual: float | None = None  # mm; None: given by hand
    spread: float | None = None  # mm
    prints: int = 0
    readings: list[list[float]] = []  # each print's readings, places A.. across then up


def _settings():
    return load_fields(paths.layout("calibration.toml"), english=True)


@lru_cache(maxsize=1)
def vernier() -> Vernier:
    v = _settings().sub("vernier")

    def length(key: str) -> float:
        return parse_length(v.get(key, str), field=f"vernier.{key}")

    return Vernier(length("main_pitch"), length("vernier_pitch"), v.get("divisions", int),
                   length("step"), v.get("reach", int), length("tick"), length("long_tick"),
                   length("line_width"), length("label_size"))


@lru_cache(maxsize=4)
def scales(page_w: float, page_h: float) -> tuple[Scale, ...]:
    """Every vernier of the sheet, place by place, across then up."""
    places = _settings().sub("places")
    apart = parse_length(places.get("apart", str), field="places.apart")
    out = []
    for name, (fx, fy) in zip(places.get("names", list), places.get("at", list)):
        px, py = fx * page_w, fy * page_h
        out.append(Scale(name, "x", px - apart / 2, py))  # its lines run up from here
        out.append(Scale(name, "y", px + apart, py - apart / 2))  # right of it
    return tuple(out)


def fit_settings() -> tuple[float, float]:
    """(scale_visible, tolerance) in points."""
    f = _settings().sub("fit")
    return (parse_length(f.get("scale_visible", str), field="fit.scale_visible"),
            parse_length(f.get("tolerance", str), field="fit.tolerance"))


def main_lines(v: Vernier) -> list[tuple[int, float]]:
    """(number, offset from the scale's 0) of every front line."""
    return [(i, i * v.main_pitch) for i in range(-v.reach - 1, v.reach + v.divisions + 2)]


def vernier_lines(v: Vernier) -> list[tuple[int, float]]:
    """(count, offset from the back's 0) of every back line."""
    return [(j, j * v.vernier_pitch) for j in range(v.divisions + 1)]


def reading(front: list[float], back: list[float], v: Vernier) -> float:
    """A reading as a person makes it (points): `front` the front lines' positions along
    the axis, the one at the scale's 0 among them at index reach + 1 (as main_lines
    lists them); `back` the back lines' from its 0. The whole mm: the front line at or
    before the back's 0; the rest: a step for each back line before the one that meets a
    front line best (0 to divisions - 1: the last line meeting is the 0 meeting one mm
    on), half a step more when two meet equally well. Worked out as the person's sum
    is: the front line met, less the back line's own distance from its 0."""
    def met(j: int) -> tuple[float, float]:
        """(how far back line j misses its nearest front line, that line's number)."""
        i = min(range(len(front)), key=lambda i: abs(back[j] - front[i]))
        return abs(back[j] - front[i]), (i - (v.reach + 1)) * v.main_pitch

    pairs = [met(j) for j in range(len(back))]
    best = min(range(len(back)), key=lambda j: pairs[j][0])
    values = [pairs[best][1] - best * v.vernier_pitch]
    for other in (best - 1, best + 1):
        if 0 <= other < len(back) and pairs[other][0] < 1.25 * pairs[best][0] + 1e-9:
            values.append(pairs[other][1] - other * v.vernier_pitch)
    half = v.step / 2
    return round(sum(values) / len(values) / half) * half


def parse_readings(text: str, count: int, field: str = "--read") -> list[float]:
    """One print's readings: "0.8,-1.2 0.6,-1.0 ..." (mm; place by place, across then
    up), in points."""
    pairs = text.replace(";", " ").split()
    if len(pairs) != count:
        raise CompanionError(f"{shown(text)} has {len(pairs)} places, not {count}: one "
                             "\"across,up\" pair a place, A to the last, space apart",
                             field=field)
    out = []
    for pair in pairs:
        parts = pair.split(",")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            values = []
        if len(values) != 2 or any(abs(x) > 50 for x in values):
            raise CompanionError(f"{shown(pair)} is not two readings in mm like 0.8,-1.2",
                                 field=field)
        out += [mm(x) for x in values]
    return out


def _solve(rows: list[list[float]], values: list[float]) -> list[float] | None:
    """Least squares: the x minimising |A x - b|, by the normal equations (4 unknowns at
    most); None when A's columns do not tell them apart."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)]
         + [sum(r[i] * b for r, b in zip(rows, values))] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-9 * max(1.0, max(abs(a[r][r]) for r in range(n))):
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                k = a[r][col] / a[col][col]
                a[r] = [x - k * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _rows(all_scales, centre, with_scale: bool) -> list[list[float]]:
    cx, cy = centre
    rows = []
    for s in all_scales:
        ux, uy = s.x - cx, s.y - cy
        row = [1.0, 0.0, -uy, ux] if s.axis == "x" else [0.0, 1.0, ux, uy]
        rows.append(row if with_scale else row[:3])
    return rows


def _fit_one(all_scales, readings: list[float], centre, with_scale: bool):
    """The first-order fit, refined: each round takes off the readings what the exact
    model (cos and sin, not 1 and theta) adds to the linear one at the last estimate, so
    that exact readings are fitted exactly (1 degree: 0.02 mm at the corners otherwise)."""
    rows = _rows(all_scales, centre, with_scale)
    values = list(readings)
    for _ in range(3):
        solved = _solve(rows, values)
        if solved is None:
            raise CompanionError("the readings do not tell shift and turn apart: read at "
                                 "least two places", field="--read")
        error = solved + ([] if with_scale else [0.0])
        values = [r - (_exact(error, s, centre) - _predict(error, s, centre))
                  for r, s in zip(readings, all_scales)]
    return error


def _exact(error, s: "Scale", centre) -> float:
    """What a scale reads under `error`, the exact model."""
    x, y = landing(error, centre, (s.x, s.y))
    return x - s.x if s.axis == "x" else y - s.y


def landing(error: tuple, centre, p) -> tuple[float, float]:
    """E(p): where a back point meant for p lands, `error` = (tx, ty, theta, k)."""
    tx, ty, theta, k = error
    cx, cy = centre
    ux, uy = p[0] - cx, p[1] - cy
    s = 1 + k
    return (cx + s * (cos(theta) * ux - sin(theta) * uy) + tx,
            cy + s * (sin(theta) * ux + cos(theta) * uy) + ty)


def fit(prints: list[list[float]], page_w: float, page_h: float) -> Fit:
    """The back's shift, turn and (if measurable) scale from every print's readings
    (points, as parse_readings gives them)."""
    all_scales = scales(page_w, page_h)
    if not prints:
        raise CompanionError("no readings: give --read once for each print", field="--read")
    centre = (page_w / 2, page_h / 2)
    rows_scales = list(all_scales) * len(prints)
    values = [r for one in prints for r in one]
    visible, _ = fit_settings()
    reach = max(hypot(s.x - centre[0], s.y - centre[1]) for s in all_scales)
    error = _fit_one(rows_scales, values, centre, True)
    measured = abs(error[3]) * reach >= visible
    if not measured:
        error = _fit_one(rows_scales, values, centre, False)
    predicted = [_exact(error, s, centre) for s in rows_scales]
    residual = sqrt(sum((p - v) ** 2 for p, v in zip(predicted, values)) / len(values))
    spread = None
    if len(prints) > 1:
        corners = [(0, 0), (page_w, 0), (0, page_h), (page_w, page_h)]
        mean = [landing(error, centre, p) for p in corners]
        spread = 0.0
        for one in prints:
            own = _fit_one(list(all_scales), one, centre, measured)
            for p, m in zip(corners, mean):
                q = landing(own, centre, p)
                spread = max(spread, hypot(q[0] - m[0], q[1] - m[1]))
        spread = to_mm(spread)
    tx, ty, theta, k = error
    return Fit((to_mm(tx), to_mm(ty)), degrees(theta), 1 + k, to_mm(residual), spread,
               len(prints), measured)


def _predict(error, s: Scale, centre) -> float:
    """What a scale reads under `error` (the model the fit inverts, to first order)."""
    tx, ty, theta, k = error
    ux, uy = s.x - centre[0], s.y - centre[1]
    return tx - theta * uy + k * ux if s.axis == "x" else ty + theta * ux + k * uy


def error_matrix(profile: Profile, page_w: float, page_h: float) -> tuple:
    """E as a PDF matrix, in the front frame."""
    cx, cy = page_w / 2, page_h / 2
    th, s = radians(profile.rotation), profile.scale
    a, b, c, d = s * cos(th), s * sin(th), -s * sin(th), s * cos(th)
    tx, ty = mm(profile.shift[0]), mm(profile.shift[1])
    return (a, b, c, d, cx + tx - a * cx - c * cy, cy + ty - b * cx - d * cy)


def flip_matrix(flip: str, page_w: float, page_h: float) -> tuple:
    """M: a back page's point to where it lies seen from the front."""
    if flip == "long":
        return (-1, 0, 0, 1, page_w, 0)
    if flip == "short":
        return (1, 0, 0, -1, 0, page_h)
    raise ValueError(f"no backs for flip {flip!r}")


def correction(profile: Profile, page_w: float, page_h: float, flip: str) -> tuple:
    """C = M E^-1 M: what a back page is drawn through so that the printer puts it where
    it should be."""
    m = flip_matrix(flip, page_w, page_h)
    return mmult(m, mmult(inverse(error_matrix(profile, page_w, page_h)), m))


def printed(profile: Profile, page_w: float, page_h: float, flip: str, q) -> tuple:
    """Where the back page's point q lands seen from the front, printed by a printer whose
    error `profile` describes (a simulated printer, for tests and the guide's figures)."""
    m = mmult(error_matrix(profile, page_w, page_h), flip_matrix(flip, page_w, page_h))
    return transformPoint(m, q)


def profile_from_fit(name: str, paper: str, flip: str, f: Fit,
                     prints: list[list[float]]) -> Profile:
    return Profile(name, paper, flip, f.shift, f.rotation, f.scale, f.residual, f.spread,
                   f.prints, [[round(to_mm(r), 3) for r in one] for one in prints])


def check_name(name: str) -> str:
    """A printer's name: letters, digits, - and _ (it names a file)."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", name or ""):
        raise CompanionError(f"{shown(name)} is not a printer name: letters, digits, - and _ "
                             "(up to 64)", field="--printer")
    return name
