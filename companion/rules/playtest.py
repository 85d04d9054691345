"""What a designer's plays say (issues 34, 43): win rates by seat and by faction with
their 95% Wilson score intervals, each seat's mean score, the categories that separate
the winners from the others, each version's plays, the score spread per category, the
winning margin and the game's length, and the findings a designer can act on. Plain data
in and out; no files (companion/files/plays.py reads history.csv into Plays, the phone
table makes them from its own history). The statistics are companion.rules.stats.

Choices, stated once:
- A shared win (a tie) counts as a win for each winner. The even rate accounts for it:
  it is what a seat (or faction) would win if winning were blind to it, the mean over
  the plays it was in of winners / players (1/4 in 4-player games without ties; a bit
  more when some are shared).
- The findings are those of one version's plays: the latest by default (a fix is judged
  on the plays that have it), a version named, or every version pooled (ALL). Each
  finding says which.
- A seat's check is per player count (seat 1 of 4-player games is compared with the
  4-player games only); a faction's pools the player counts, each play weighing its own
  even share; a category's compares the winners' mean figure with the others'.
- A report makes many checks at once (each seat at each player count, each faction,
  each category, and the same seats and factions in the version before for the line
  that compares them). A check is a finding when it holds under Holm's correction over
  all of them: then a report of even plays shows a false finding at most 1 time in 20
  (stats.ALPHA). The intervals shown stay each check's own 95% interval; one may leave
  out the even rate without making a finding. Seats share the wins, so when a seat wins
  more only it is named (the others winning less follows from it). Under MIN_PLAYS
  plays nothing is judged: one line says the plays are too few.
- A gap that is not (yet) a finding gets the plays it would need to show, were it real
  (stats.plays_to_show), for the seat (or faction) furthest from even by its p-value.
- The winning margin is the winner's total minus the runner-up's (the best total among
  the others; 0 when all share the win), counted the way the game is won (a game won by
  the lowest total: the runner-up's total minus the winner's). A play whose winner's
  total is neither the highest nor the lowest (Lugvanion's Governor) has none."""

import math
import re
from dataclasses import dataclass, field

from companion.rules import arc as arcs
from companion.rules import stats, strength
from companion.rules.stats import quartiles, wilson  # noqa: F401  (callers name them here)

MIN_PLAYS = 10  # fewer plays: the figures are shown but nothing is judged on them
ALL = "all"  # summary(version=ALL): every version's plays pooled
MOST_MORE = 100_000  # plays a gap would need: past this, said as "over"


@dataclass(frozen=True)
class Seat:
    """One player's line of a play."""
    seat: int | None = None  # 1 = the first player; None: not recorded
    faction: str | None = None  # None: the game has none, or not recorded
    score: float | None = None  # her total
    won: bool = False
    figures: dict = field(default_factory=dict)  # category id -> her figure
    rounds: tuple = ()  # her running total after each round (a game scored in rounds)
    player: str | None = None  # her name, when recorded (player strength)


@dataclass(frozen=True)
class Play:
    id: str
    rows: tuple  # of Seat, in the order given
    version: str = ""  # the game file's version; "" when not recorded
    minutes: float | None = None  # from the game's first entry to its close


def version_key(v: str) -> tuple:
    """Versions in their natural order: 0.9 before 0.10; "" (none recorded) first. A run
    of digits compares by its value, told from its text (never int(): a version may be
    thousands of digits long)."""
    def part(p: str) -> tuple:
        if p.isdigit():
            digits = p.lstrip("0")
            return (0, len(digits), digits, "")
        return (1, 0, "", p)
    return tuple(part(p) for p in re.findall(r"\d+|[^\d.]+", v))


def _share(play: Play) -> float:
    """A player's even share of the win in this play: winners / players."""
    return sum(r.won for r in play.rows) / len(play.rows) if play.rows else 0.0


def _count(plays: list[Play], key) -> dict:
    """{value: [played, won, sum of even shares, scores]} for each row's key(row) not
    None."""
    out: dict = {}
    for play in plays:
        share = _share(play)
        for row in play.rows:
            k = key(row)
            if k is None:
                continue
            c = out.setdefault(k, [0, 0, 0.0, []])
            c[0] += 1
            c[1] += bool(row.won)
            c[2] += share
            if row.score is not None:
                c[3].append(row.score)
    return out


def _rate(played: int, won: int, even: float, scores: list | None = None) -> dict:
    low, high = wilson(won, played)
    return {"played": played, "won": won, "rate": won / played if played else 0.0,
            "low": low, "high": high, "even": even,
            "score": stats.mean_interval(scores or [])}


def rates(plays: list[Play], key) -> dict:
    """{value: {played, won, rate, low, high, even, score}} by key(row), in sorted order;
    score: the mean total and its 95% interval ({mean, low, high, n}; None if no totals)."""
    counted = _count(plays, key)
    return {k: _rate(c[0], c[1], c[2] / c[0], c[3]) for k, c in sorted(
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


def _seat(row: Seat):
    return row.seat


def _faction(row: Seat):
    return row.faction


def _check(kind: str, r: dict, version: str, **about) -> dict:
    return dict(r, kind=kind, version=version, p=stats.rate_p(r["won"], r["played"],
                                                              r["even"]), **about)


def differences(plays: list[Play], key) -> dict:
    """{value: [(her total minus the mean of the others' totals, her total), one a
    play]} by key(row),
    over the plays with two totals or more: what the score checks test (see
    _score_checks)."""
    out: dict = {}
    for play in plays:
        scored = [r for r in play.rows if r.score is not None]
        if len(scored) < 2:
            continue
        total = math.fsum(r.score for r in scored)
        for r in scored:
            k = key(r)
            if k is not None:
                out.setdefault(k, []).append(
                    (r.score - (total - r.score) / (len(scored) - 1), r.score))
    return out


def _score_checks(group: list[Play], key, kind: str, version: str, **about) -> list[dict]:
    """Each seat's (or faction's) totals beside her table-mates': per play, her total
    minus the mean of the others' in that play, and Student's t on those differences
    (paired: plays are independent, the rows of one play are not, and the play's own
    level, a long game raising every total, drops out). A permutation test would need
    some 10,000 shuffles a check to reach Holm's smallest thresholds, and a report must
    say the same each time it is made."""
    out = []
    for k, pairs in sorted(differences(group, key).items(),
                           key=lambda kv: (isinstance(kv[0], str), kv[0])):
        t = stats.mean_test([d for d, _ in pairs])
        if t is None:
            continue
        mean = math.fsum(s for _, s in pairs) / len(pairs)
        out.append(dict(t, kind=kind, version=version, mean=mean, others=mean - t["difference"],
                        **{kind.split("_")[0]: k}, **about))
    return out


def _seat_checks(plays: list[Play], version: str) -> tuple[list[dict], list[dict]]:
    """Each seat of each player count with MIN_PLAYS plays or more, as checks on its
    wins and on its totals; and a too_few line for each player count with fewer."""
    checks, few = [], []
    for players, group in _player_counts(plays).items():
        if len(group) < MIN_PLAYS:
            few.append({"kind": "too_few", "players": players, "plays": len(group),
                        "least": MIN_PLAYS, "version": version})
            continue
        for s, r in rates(group, _seat).items():
            checks.append(_check("seat", r, version, seat=s, players=players,
                                 plays=len(group)))
        checks += _score_checks(group, _seat, "seat_score", version, players=players,
                                plays=len(group))
    return checks, few


def _faction_checks(plays: list[Play], version: str) -> list[dict]:
    if len(plays) < MIN_PLAYS:
        return []
    wins = [_check("faction", r, version, faction=f, plays=r["played"])
            for f, r in rates(plays, _faction).items()]
    scores = _score_checks(plays, _faction, "faction_score", version)
    for c in scores:
        c["plays"] = c["n"]
    return wins + scores


def _decider_checks(plays: list[Play], version: str) -> list[dict]:
    """Each category: the winners' mean figure beside the others' (Welch), as checks."""
    if len(plays) < MIN_PLAYS:
        return []
    won: dict[str, list] = {}
    lost: dict[str, list] = {}
    for play in plays:
        for row in play.rows:
            for cat, v in row.figures.items():
                (won if row.won else lost).setdefault(cat, []).append(v)
    out = []
    for cat in sorted(won.keys() & lost.keys()):
        w = stats.welch(won[cat], lost[cat])
        if w is None:
            continue
        out.append(dict(w, kind="decider", category=cat, version=version, plays=len(plays),
                        winners=math.fsum(won[cat]) / len(won[cat]),
                        others=math.fsum(lost[cat]) / len(lost[cat])))
    return out


def _direction(c: dict) -> str | None:
    """"more" or "less" for a check that is a finding (its Holm-adjusted p under ALPHA);
    else None."""
    if c.get("p_adjusted", 1.0) >= stats.ALPHA:
        return None
    if "difference" in c:  # a category, or a seat's or faction's totals
        return "more" if c["difference"] > 0 else "less"
    return "more" if c["rate"] > c["even"] else "less"


def _corrected(checks: list[dict]) -> None:
    """Each check's Holm-adjusted p and direction, over all the report's checks."""
    for c, adjusted in zip(checks, stats.holm([c["p"] for c in checks])):
        c["p_adjusted"] = adjusted
        c["direction"] = _direction(c)


def _seats_apart(seats: list[dict]) -> list[dict]:
    """The seat checks that are findings. Seats share the wins, so a seat winning more
    leaves the others less: then only the seats winning more are named (the others' fall
    follows); a seat winning less is named when none wins more."""
    judged = [c for c in seats if c["direction"]]
    return [c for c in judged if c["direction"] == "more"] or judged


def _gap(checks: list[dict], total: int) -> list[dict]:
    """For a group with no finding: its check furthest from even (by p), with about how
    many more plays would show its gap were it real."""
    if not checks or any(c["direction"] for c in checks):
        return []
    c = min(checks, key=lambda c: c["p"])
    need = stats.plays_to_show(c["rate"], c["even"], total)
    if not math.isfinite(need):
        return []
    more = max(1, math.ceil(need * c["plays"] / c["played"]) - c["plays"])
    return [{k: c[k] for k in ("seat", "players", "faction", "version", "rate", "even",
                                "plays", "played") if k in c}
            | {"kind": "gap_" + c["kind"], "more": min(more, MOST_MORE),
               "over": more > MOST_MORE}]


def _judged_lines(checks: list[dict], few: list[dict], total: int, version: str,
                  plays: int) -> list[dict]:
    """The findings of one version's (or the pooled) checks, as the report says them."""
    out: list[dict] = []
    seats = [c for c in checks if c["kind"] == "seat"]
    counts = sorted({c["players"] for c in seats} | {f["players"] for f in few})
    for players in counts:
        out += [f for f in few if f["players"] == players]
        group = [c for c in seats if c["players"] == players]
        if not group:
            continue
        named = _seats_apart(group)
        scored = _seats_apart([c for c in checks if c["kind"] == "seat_score"
                               and c["players"] == players])
        out += named + scored or [{"kind": "no_seat", "players": players,
                                   "plays": group[0]["plays"], "even": group[0]["even"],
                                   "version": version}]
        out += _gap(group, total)
    factions = [c for c in checks if c["kind"] == "faction"]
    if factions:
        out += [c for c in checks if c["kind"] in ("faction", "faction_score")
                and c["direction"]] or [{"kind": "no_faction", "plays": plays,
                                         "version": version}]
        out += _gap(factions, total)
    runaway = [c for c in checks if c["kind"] == "arc_runaway"]
    out += [c if c["direction"] else dict(c, kind="no_runaway") for c in runaway]
    deciders = [c for c in checks if c["kind"] == "decider"]
    if deciders:
        apart = sorted((c for c in deciders if c["direction"]), key=lambda c: c["p"])
        out.append({"kind": "deciders" if apart else "no_decider", "version": version,
                    "plays": plays, "separating": [
                        {k: c[k] for k in ("category", "winners", "others", "difference",
                                           "low", "high", "p_adjusted")} for c in apart]})
    return out


def _changes(now: list[dict], was: list[dict], before: str, last: str,
             plays_now: int, plays_before: int) -> list[dict]:
    """The version `last` beside the one before: each seat (per player count) or faction
    that is a finding in either, and how it stands in each (a fix shows as "was more,
    now even")."""
    def keyed(checks):
        return {(c["kind"], c.get("players"), c.get("seat", c.get("faction"))): c
                for c in checks if c["kind"] in ("seat", "faction")}

    a, b = keyed(was), keyed(now)
    named = {k for checks in (was, now) for k in keyed(_seats_apart(
        [c for c in checks if c["kind"] == "seat"]) + [
        c for c in checks if c["kind"] == "faction" and c["direction"]])}
    out = []
    for k in sorted(named & a.keys() & b.keys(), key=lambda k: (k[0] != "seat", str(k))):
        kind, players, which = k
        out.append({"kind": "version_" + kind, kind: which, "players": players,
                    "before": before, "last": last, "version": last,
                    "was": a[k], "now": b[k],  # a seat: the plays of its player count
                    "plays": b[k]["plays"] if kind == "seat" else plays_now,
                    "plays_before": a[k]["plays"] if kind == "seat" else plays_before})
    return out


def _wins(checks: list[dict]) -> list[dict]:
    """The checks on wins (a seat's, a faction's): those the versions compare."""
    return [c for c in checks if c["kind"] in ("seat", "faction")]


def versions_of(plays: list[Play]) -> dict[str, list[Play]]:
    out: dict[str, list[Play]] = {}
    for play in plays:
        out.setdefault(play.version, []).append(play)
    return {v: out[v] for v in sorted(out, key=version_key)}


def _by_players(plays: list[Play]) -> dict:
    return {str(k): {"plays": len(g), "seats": {str(s): r for s, r in rates(g, _seat).items()}}
            for k, g in _player_counts(plays).items()}


def _figures(plays: list[Play]) -> dict:
    return {
        "plays": len(plays),
        "seats": {str(k): v for k, v in rates(plays, _seat).items()},
        "factions": rates(plays, _faction),
        "by_players": _by_players(plays),
        "margin": quartiles([m for m in map(margin, plays) if m is not None]),
        "minutes": quartiles([p.minutes for p in plays if p.minutes is not None]),
    }


def chosen_version(plays: list[Play], version: str | None) -> str:
    """The version a summary judges: the one named, else the latest recorded (ALL when
    there are no plays)."""
    if version is not None:
        return version
    by = versions_of(plays)
    return list(by)[-1] if by else ALL


def summary(plays: list[Play], version: str | None = None,
            counts: tuple[int, int] | None = None) -> dict:
    """Everything the report and the phone show. The figures and the findings are those
    of one version's plays: `version`, by default the latest, or ALL pooled; the versions
    table lists every version. Each finding carries the version its plays come from.
    `counts`: the least and the most players the game file says; plays of another
    player count are counted apart ("outside": {players: plays}) and not judged, a line
    says so."""
    plays, outside = _within(plays, counts)
    out = _summary(plays, version)
    if outside:
        out["outside"] = outside
        out["findings"].insert(0, {"kind": "outside", "line": "note", "least": counts[0],
                                   "most": counts[1], "counts": outside,
                                   "plays": sum(outside.values()),
                                   "version": ALL})
        out["findings"].sort(key=lambda f: LINES.index(f["line"]))  # after the findings
    return out


def _within(plays: list[Play], counts: tuple[int, int] | None) -> tuple[list, dict]:
    if counts is None:
        return plays, {}
    inside = [p for p in plays if counts[0] <= len(p.rows) <= counts[1]]
    apart: dict[str, int] = {}
    for p in plays:
        if not counts[0] <= len(p.rows) <= counts[1]:
            apart[str(len(p.rows))] = apart.get(str(len(p.rows)), 0) + 1
    return inside, dict(sorted(apart.items(), key=lambda kv: int(kv[0])))


def _summary(plays: list[Play], version: str | None) -> dict:
    by = versions_of(plays)
    version = chosen_version(plays, version)
    chosen = plays if version == ALL else by.get(version, [])
    out = _figures(chosen)
    out["scores"] = _spread(chosen)
    out["totals"] = quartiles([r.score for p in chosen for r in p.rows if r.score is not None])
    out["versions"] = {v: _figures(g) for v, g in by.items()}
    seats, few = _seat_checks(chosen, version)
    out["arc"] = arcs.arc(chosen)
    checks = seats + _faction_checks(chosen, version) + _decider_checks(chosen, version)
    if len(chosen) >= MIN_PLAYS:
        checks += arcs.check(out["arc"], version)
    # The version compared with the one before it: the chosen one, or the latest.
    names = list(by)
    last = names[-1] if version == ALL and names else version
    at = names.index(last) if last in by else -1
    compare = at >= 1 and len(by[names[at - 1]]) >= MIN_PLAYS and len(by[last]) >= MIN_PLAYS
    was = now = []
    if compare:
        before = names[at - 1]
        was = _wins(_seat_checks(by[before], before)[0] + _faction_checks(by[before], before))
        now = _wins(checks) if version != ALL else \
            _wins(_seat_checks(by[last], last)[0] + _faction_checks(by[last], last))
    family = checks + was + (now if version == ALL else [])
    _corrected(family)
    out["checks"] = len(family)
    out["deciders"] = sorted((c for c in checks if c["kind"] == "decider"),
                             key=lambda c: c["p"])
    if len(chosen) < MIN_PLAYS:
        out["findings"] = [{"kind": "too_few", "plays": len(chosen), "least": MIN_PLAYS,
                            "version": version}]
    else:
        out["findings"] = _judged_lines(checks, few, len(family), version, len(chosen))
    if compare:
        out["findings"] += _changes(now, was, names[at - 1], last, len(by[last]),
                                    len(by[names[at - 1]]))
    _skill_adjusted(out["findings"], chosen)
    out["findings"] = _sorted_lines(out["findings"])
    out["version"] = version
    return out


def _skill_adjusted(findings: list[dict], plays: list[Play]) -> None:
    """Each seat and faction finding's edge once player strength is counted
    (companion.rules.strength), where names repeat: "skill_adjusted"."""
    named = [f for f in findings if f["kind"] in ("seat", "seat_score", "faction",
                                                   "faction_score")]
    if not named:
        return
    model = strength.fit(plays)
    for f in named:
        term = ("seat", f["players"], f["seat"]) if f["kind"].startswith("seat") else \
            ("faction", f["faction"])
        said = strength.adjusted(model, term, f["direction"])
        if said is not None:
            f["skill_adjusted"] = dict(said, apart=strength.apart(plays, term))


FOUND = ("seat", "faction", "seat_score", "faction_score", "deciders", "arc_runaway")
LINES = ("finding", "note", "may_be_luck")  # the order the report and the console say them


def _sorted_lines(findings: list[dict]) -> list[dict]:
    """Each line marked as what it is ("line"): a finding (it holds under Holm's
    correction; "chance": its adjusted p, the largest of a line naming several), a gap
    that may be luck, or a note (nothing stands out, too few plays, a version beside the
    one before); findings first, then notes, then what may be luck."""
    for f in findings:
        if f["kind"] in FOUND:
            f["line"] = "finding"
            f["chance"] = f["p_adjusted"] if "p_adjusted" in f else max(
                d["p_adjusted"] for d in f["separating"])
        else:
            f["line"] = "may_be_luck" if f["kind"].startswith("gap_") else "note"
    return sorted(findings, key=lambda f: LINES.index(f["line"]))


def rounded(value, places: int = 2):
    """Every float of a summary to `places` decimals (the JSON's 0.01); a p-value to 4
    significant digits (a finding's p is often far under 0.01)."""
    if isinstance(value, float):
        return round(value, places)
    if isinstance(value, dict):
        return {k: (float(f"{v:.4g}") if k in ("p", "p_adjusted", "chance")
                    and isinstance(v, float)
                    else rounded(v, places)) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v, places) for v in value]
    return value
