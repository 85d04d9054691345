"""What a designer's plays say (issue 34): win rates by seat and by faction with their
95% Wilson score intervals, each version's plays, the score spread per category, the
winning margin and the game's length, and the findings a designer can act on. Plain data
in and out; no files (companion/files/plays.py reads history.csv into Plays, the phone
table makes them from its own history).

Choices, stated once:
- A shared win (a tie) counts as a win for each winner. The even rate accounts for it:
  it is what a seat (or faction) would win if winning were blind to it, the mean over
  the plays it was in of winners / players (1/4 in 4-player games without ties; a bit
  more when some are shared).
- A seat's finding is per player count (seat 1 of 4-player games is compared with the
  4-player games only); a faction's pools the player counts, each play weighing its own
  even share.
- A seat or faction is a finding when its 95% interval excludes the even rate; else
  one plain line says none stands out. Seats share the wins, so when a seat wins more
  only it is named (the others winning less follows from it). Under MIN_PLAYS plays no seat or faction is
  judged: one line says the figures rest on too few plays.
- The winning margin is the winner's total minus the runner-up's (the best total among
  the others; 0 when all share the win), counted the way the game is won (a game won by
  the lowest total: the runner-up's total minus the winner's). A play whose winner's
  total is neither the highest nor the lowest (Lugvanion's Governor) has none."""

import math
import re
from dataclasses import dataclass, field

Z = 1.959964  # the 97.5% point of the normal distribution: a 95% interval
MIN_PLAYS = 10  # fewer plays: the figures are shown but nothing is judged on them


@dataclass(frozen=True)
class Seat:
    """One player's line of a play."""
    seat: int | None = None  # 1 = the first player; None: not recorded
    faction: str | None = None  # None: the game has none, or not recorded
    score: float | None = None  # her total
    won: bool = False
    figures: dict = field(default_factory=dict)  # category id -> her figure


@dataclass(frozen=True)
class Play:
    id: str
    rows: tuple  # of Seat, in the order given
    version: str = ""  # the game file's version; "" when not recorded
    minutes: float | None = None  # from the game's first entry to its close


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


def version_key(v: str) -> tuple:
    """Versions in their natural order: 0.9 before 0.10; "" (none recorded) first."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.findall(r"\d+|[^\d.]+", v))


def _share(play: Play) -> float:
    """A player's even share of the win in this play: winners / players."""
    return sum(r.won for r in play.rows) / len(play.rows) if play.rows else 0.0


def _count(plays: list[Play], key) -> dict:
    """{value: [played, won, sum of even shares]} for each row's key(row) not None."""
    out: dict = {}
    for play in plays:
        share = _share(play)
        for row in play.rows:
            k = key(row)
            if k is None:
                continue
            c = out.setdefault(k, [0, 0, 0.0])
            c[0] += 1
            c[1] += bool(row.won)
            c[2] += share
    return out


def _rate(played: int, won: int, even: float) -> dict:
    low, high = wilson(won, played)
    return {"played": played, "won": won, "rate": won / played if played else 0.0,
            "low": low, "high": high, "even": even}


def rates(plays: list[Play], key) -> dict:
    """{value: {played, won, rate, low, high, even}} by key(row), in sorted order."""
    counted = _count(plays, key)
    return {k: _rate(c[0], c[1], c[2] / c[0]) for k, c in sorted(
        counted.items(), key=lambda kv: (isinstance(kv[0], str), kv[0]))}


def margin(play: Play) -> float | None:
    """The winner's total minus the runner-up's (see the module's note); None when it
    cannot be told (no winner, fewer than two totals, a winner by another measure)."""
    scored = [r for r in play.rows if r.score is not None]
    winners = [r.score for r in scored if r.won]
    others = [r.score for r in scored if not r.won]
    if not winners or len(scored) < 2:
        return None
    if not others:
        return 0.0
    best = winners[0]
    if all(best >= s for s in others):
        return best - max(others)
    if all(best <= s for s in others):
        return min(others) - best
    return None


def _spread(plays: list[Play]) -> dict:
    cats: dict[str, list] = {}
    for play in plays:
        for row in play.rows:
            for cat, v in row.figures.items():
                if v is not None:
                    cats.setdefault(cat, []).append(v)
    return {cat: quartiles(vs) for cat, vs in cats.items()}


def _player_counts(plays: list[Play]) -> dict[int, list[Play]]:
    out: dict[int, list[Play]] = {}
    for play in plays:
        out.setdefault(len(play.rows), []).append(play)
    return dict(sorted(out.items()))


def _judged(r: dict) -> str | None:
    """"more" or "less" when the interval excludes the even rate; else None."""
    if r["low"] > r["even"]:
        return "more"
    if r["high"] < r["even"]:
        return "less"
    return None


def _seats_apart(seats: dict) -> dict:
    """{seat: "more" or "less"} of the seats apart from even. Seats share the wins, so a
    seat winning more leaves the others less: then only the seats winning more are
    named (the others' fall follows); a seat winning less is named when none wins more."""
    judged = {s: _judged(r) for s, r in seats.items() if _judged(r)}
    more = {s: d for s, d in judged.items() if d == "more"}
    return more or judged


def findings(plays: list[Play]) -> list[dict]:
    """What the plays say, as data (the words are the report's): each seat of each player
    count and each faction whose interval excludes the even rate, else a line that none
    stands out; under MIN_PLAYS plays only a line that they are too few. Each names the
    plays it rests on."""
    n = len(plays)
    if n < MIN_PLAYS:
        return [{"kind": "too_few", "plays": n, "least": MIN_PLAYS}]
    out: list[dict] = []
    for players, group in _player_counts(plays).items():
        if len(group) < MIN_PLAYS:
            out.append({"kind": "too_few", "players": players, "plays": len(group),
                        "least": MIN_PLAYS})
            continue
        seats = rates(group, lambda r: r.seat)
        flagged = [dict(seats[s], kind="seat", seat=s, players=players, plays=len(group),
                        direction=d) for s, d in _seats_apart(seats).items()]
        even = sum(map(_share, group)) / len(group)
        out.extend(flagged or ([{"kind": "no_seat", "players": players, "plays": len(group),
                                 "even": even}] if seats else []))
    factions = rates(plays, lambda r: r.faction)
    if factions:
        flagged = [dict(r, kind="faction", faction=f, plays=r["played"], direction=_judged(r))
                   for f, r in factions.items() if _judged(r)]
        out.extend(flagged or [{"kind": "no_faction", "plays": n}])
    return out


def _changes(plays: list[Play]) -> list[dict]:
    """The last version beside the one before it: each seat or faction judged apart from
    even in either, and how it stands in each (a fix shows as "was more, now even")."""
    by = versions_of(plays)
    if len(by) < 2:
        return []
    (before, old), (last, new) = list(by.items())[-2:]
    if len(old) < MIN_PLAYS or len(new) < MIN_PLAYS:
        return []
    out = []
    for kind, key in (("seat", lambda r: r.seat), ("faction", lambda r: r.faction)):
        was, now = rates(old, key), rates(new, key)
        if kind == "seat":
            named = _seats_apart(was).keys() | _seats_apart(now).keys()
        else:
            named = {k for k in was if _judged(was[k])} | {k for k in now if _judged(now[k])}
        for k in sorted(named & was.keys() & now.keys(), key=str):
            a, b = _judged(was[k]), _judged(now[k])
            if a or b:
                out.append({"kind": "version_" + kind, kind: k, "before": before,
                            "last": last, "was": dict(was[k], direction=a),
                            "now": dict(now[k], direction=b),
                            "plays": len(old) + len(new)})
    return sorted(out, key=lambda f: (f["kind"], str(f.get("seat") or f.get("faction"))))


def versions_of(plays: list[Play]) -> dict[str, list[Play]]:
    out: dict[str, list[Play]] = {}
    for play in plays:
        out.setdefault(play.version, []).append(play)
    return {v: out[v] for v in sorted(out, key=version_key)}


def _figures(plays: list[Play]) -> dict:
    seats = rates(plays, lambda r: r.seat)
    return {
        "plays": len(plays),
        "seats": {str(k): v for k, v in seats.items()},
        "factions": rates(plays, lambda r: r.faction),
        "margin": quartiles([m for m in map(margin, plays) if m is not None]),
        "minutes": quartiles([p.minutes for p in plays if p.minutes is not None]),
    }


def summary(plays: list[Play], version: str | None = None) -> dict:
    """Everything the report and the phone show. With `version`, the figures and the
    findings are those of that version's plays; the versions table lists every version."""
    chosen = plays if version is None else [p for p in plays if p.version == version]
    out = _figures(chosen)
    out["by_players"] = {str(k): {"plays": len(g), "seats": {
        str(s): r for s, r in rates(g, lambda r: r.seat).items()}}
        for k, g in _player_counts(chosen).items()}
    out["scores"] = _spread(chosen)
    out["totals"] = quartiles([r.score for p in chosen for r in p.rows if r.score is not None])
    out["versions"] = {v: _figures(g) for v, g in versions_of(plays).items()}
    out["findings"] = findings(chosen) + ([] if version is not None else _changes(plays))
    out["version"] = version
    return out


def rounded(value, places: int = 2):
    """Every float of a summary to `places` decimals (the JSON's 0.01)."""
    if isinstance(value, float):
        return round(value, places)
    if isinstance(value, dict):
        return {k: rounded(v, places) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v, places) for v in value]
    return value
