"""The few pieces of statistics the playtest figures rest on (companion.rules.playtest,
companion.rules.arc): Wilson's interval of a rate and a rate's p-value against an even
rate (the score test, which Wilson's interval inverts), or above a bound (one-sided),
Holm's correction over a report's checks, Student's t (a mean's interval, a mean
difference's p-value, two means' difference by Welch), quartiles, a chart's nice step and
the plays a gap needs to show. Pure arithmetic; no dependency beyond the standard
library."""

import math
from statistics import NormalDist

Z = 1.959964  # the 97.5% point of the normal distribution: a 95% interval
ALPHA = 0.05  # a report's chance of one false finding or more, all its checks together
POWER = 0.8  # the plays a gap needs: enough to show it 4 times in 5 when it is real
_NORMAL = NormalDist()


def rate_p(won: int, played: int, even: float) -> float:
    """The chance of a rate at least this far from `even` over `played` plays if winning
    were even (two-sided score test: the test Wilson's interval inverts, with Yates'
    continuity correction, half a win, which brings it to the exact binomial test in the
    tails, where Holm's thresholds lie: without it, even plays made a false finding
    somewhat more often than the 1 report in 20 said)."""
    if played <= 0 or not 0.0 < even < 1.0:
        return 1.0
    z = max(0.0, abs(won - played * even) - 0.5) / math.sqrt(even * (1 - even) * played)
    return math.erfc(abs(z) / math.sqrt(2))


def wilson(won: int, played: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a rate of `won` in `played` (no plays: 0 to 1)."""
    if played <= 0:
        return 0.0, 1.0
    p = won / played
    z2 = z * z
    denom = 1 + z2 / played
    centre = (p + z2 / (2 * played)) / denom
    half = z * math.sqrt(p * (1 - p) / played + z2 / (4 * played * played)) / denom
    # within [0, 1] and around the rate itself, whatever the last bit of rounding says
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def quartiles(values: list) -> dict | None:
    """min, q1, median, q3, max (linear between the nearest values) and n; None if empty."""
    xs = sorted(values)
    if not xs:
        return None

    def at(p: float) -> float:
        pos = (len(xs) - 1) * p
        lo = math.floor(pos)
        hi = min(lo + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)

    return {"min": xs[0], "q1": at(0.25), "median": at(0.5), "q3": at(0.75), "max": xs[-1],
            "n": len(xs)}


def rate_p_above(won: int, played: int, bound: float) -> float:
    """The chance of a rate this high or higher over `played` plays were the true rate
    `bound` (one-sided score test, Yates' correction as rate_p's)."""
    if played <= 0 or not 0.0 < bound < 1.0:
        return 1.0
    z = (won - played * bound - 0.5) / math.sqrt(bound * (1 - bound) * played)
    return 0.5 * math.erfc(z / math.sqrt(2))


def nice_step(span: float, ticks: int = 5) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about `ticks` ticks over `span`."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def holm(ps: list[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: a check is a finding when its
    adjusted p is under ALPHA, which holds the chance of any false finding among all
    the checks under ALPHA, whatever depends on what (Holm 1979)."""
    m = len(ps)
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: ps[i])):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def _ibeta(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1 - x) / b


def t_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with `df` degrees of freedom."""
    if math.isnan(t) or df <= 0:
        return 1.0
    if math.isinf(t):
        return 0.0
    return _ibeta(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, level: float = 0.95) -> float:
    """The t a two-sided `level` interval spans on each side, to 1e-9 (by bisection)."""
    if df > 1e6:
        return _NORMAL.inv_cdf(0.5 + level / 2)
    lo, hi = 0.0, 1.0
    while t_p(hi, df) > 1 - level:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_p(mid, df) > 1 - level else (lo, mid)
        if hi - lo < 1e-9:
            break
    return (lo + hi) / 2


def mean_interval(values: list[float]) -> dict | None:
    """{mean, low, high, n}: the mean and its 95% interval (Student's t); None if empty,
    the interval None with one value."""
    n = len(values)
    if not n:
        return None
    mean = math.fsum(values) / n
    if n < 2:
        return {"mean": mean, "low": None, "high": None, "n": n}
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n - 1) * sd / math.sqrt(n)
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": n}


def welch(a: list[float], b: list[float]) -> dict | None:
    """The difference of two means (a's minus b's) with its 95% interval and two-sided
    p-value (Welch's t); None when either has fewer than two values."""
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = math.fsum(a) / len(a), math.fsum(b) / len(b)
    va = math.fsum((v - ma) ** 2 for v in a) / (len(a) - 1) / len(a)
    vb = math.fsum((v - mb) ** 2 for v in b) / (len(b) - 1) / len(b)
    diff, se = ma - mb, math.sqrt(va + vb)
    if se == 0.0:
        return {"difference": diff, "low": diff, "high": diff, "p": 1.0 if diff == 0 else 0.0}
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    half = t_quantile(df) * se
    return {"difference": diff, "low": diff - half, "high": diff + half,
            "p": t_p(diff / se, df)}


def mean_test(values: list[float]) -> dict | None:
    """The mean of `values` with its 95% interval and the two-sided p-value of its being
    0 (Student's t, one value per play: the t-test of paired differences); None under two
    values."""
    n = len(values)
    if n < 2:
        return None
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    if sd == 0.0:
        return {"difference": mean, "low": mean, "high": mean, "n": n,
                "p": 1.0 if mean == 0 else 0.0}
    se = sd / math.sqrt(n)
    half = t_quantile(n - 1) * se
    return {"difference": mean, "low": mean - half, "high": mean + half, "n": n,
            "p": t_p(mean / se, n - 1)}


def plays_to_show(rate: float, even: float, checks: int) -> float:
    """About how many plays a rate of `rate` (where `even` is even) needs to be a finding
    of a report making `checks` checks, 4 times in 5 (the normal approximation, each
    check held at ALPHA / checks, as Holm's strictest step); inf when rate is even."""
    gap = abs(rate - even)
    if gap == 0.0 or not 0.0 < even < 1.0:
        return math.inf
    za = _NORMAL.inv_cdf(1 - ALPHA / (2 * max(1, checks)))
    zb = _NORMAL.inv_cdf(POWER)
    spread = za * math.sqrt(even * (1 - even)) + zb * math.sqrt(rate * (1 - rate))
    return (spread / gap) ** 2
