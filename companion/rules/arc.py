"""The arc of a game (issue 53): what the running totals after each round say of the
plays of a game scored in rounds: lead changes, the round from which the winner led for
good, how often the leader after each round wins, comebacks (how often a lead of so
many points after a round was still lost, with 95% Wilson intervals), the final spread
and the game's length by player count. Plain data in and out; companion.rules.playtest
puts it in a summary under "arc" and its check in the report's Holm family.

Choices, stated once:
- A play counts when each of its players kept two rounds or more and its winners' final
  totals are the highest (or all the lowest: a game won by the lowest total, where a
  "lead" is the lowest total); a play won by another measure (Lugvanion's Governor) is
  left out. Its rounds are the fewest any of its players kept.
- The leader after a round is the player alone with the best running total; a round
  whose best total is shared has no leader. A lead change: a round whose leader is not
  the last leader before it.
- The winner led for good from the first round after which she led (alone or shared)
  in every round to the end; plays with several winners are left out of it.
- A comeback: after round r, the leader's lead over the second (points, "behind_by": a
  band of BANDS equal widths, the last open) was lost: the leader did not win. Its even
  rate is what the leader would lose were the lead worth nothing: 1 - winners/players.
- The check (a runaway leader): the leader after round 1 wins more often than even plus
  RUNAWAY (one-sided; the leader after round 1 does win more than even in most games,
  a lead being worth something: the check asks whether it is worth too much)."""

import math

from companion.rules import stats
from companion.rules.stats import quartiles, wilson

BANDS = 4  # comeback bands of the lead after a round
RUNAWAY = 0.2  # the check: the leader after round 1 wins more than even + this


def wins_by(play) -> int | None:
    """+1 when the play's winners hold the highest final total, -1 the lowest, None
    when neither (or no winner, or a total missing)."""
    totals = [r.score for r in play.rows]
    won = [r.score for r in play.rows if r.won]
    if not won or any(t is None for t in totals) or len(totals) < 2:
        return None
    if all(w == max(totals) for w in won):
        return 1
    if all(w == min(totals) for w in won):
        return -1
    return None


def _rounds(play) -> tuple[int, list] | None:
    """(sign, [each player's running totals, signed so that more is better]) of a play
    the arc counts; None otherwise."""
    sign = wins_by(play)
    n = min((len(r.rounds) for r in play.rows), default=0)
    if sign is None or n < 2:
        return None
    return sign, [[sign * v for v in r.rounds[:n]] for r in play.rows]


def _leader(totals: list[float]) -> int | None:
    best = max(totals)
    at = [i for i, t in enumerate(totals) if t == best]
    return at[0] if len(at) == 1 else None


def _lead(totals: list[float]) -> float:
    """The best total minus the second best."""
    a, b = sorted(totals, reverse=True)[:2]
    return a - b


def lead_changes(running: list[list]) -> int:
    changes, last = 0, None
    for k in range(len(running[0])):
        now = _leader([r[k] for r in running])
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now
    return changes


def led_for_good(running: list[list], winner: int) -> int | None:
    """The first round (1 = the first) from which `winner` led, alone or shared, to the
    end; None when she did not lead after the last round."""
    first = None
    for k in range(len(running[0]) - 1, -1, -1):
        at = [r[k] for r in running]
        if at[winner] != max(at):
            break
        first = k + 1
    return first


def _band_width(leads: list[float]) -> float:
    """Equal bands of `BANDS`, the last open: a width of 1, 2 or 5 times a power of ten
    over which about 3 leads in 4 fall within the first BANDS - 1."""
    xs = sorted(v for v in leads if v > 0)
    if not xs:
        return 1.0
    top = xs[min(len(xs) - 1, math.floor(0.75 * len(xs)))]
    return stats.nice_step(top, BANDS - 1)


def arc(plays: list) -> dict | None:
    """The arc of the plays with rounds (see the module's note); None when none has."""
    counted = [(p, got) for p in plays if (got := _rounds(p))]
    if not counted:
        return None
    changes: dict[int, int] = {}
    good: dict[int, int] = {}
    leads = []  # (round, lead, leader lost, even)
    spread = {"last": [], "second": [], "last_share": [], "second_share": []}
    for play, (sign, running) in counted:
        n = len(running[0])
        c = lead_changes(running)
        changes[c] = changes.get(c, 0) + 1
        winners = [i for i, r in enumerate(play.rows) if r.won]
        if len(winners) == 1:
            r = led_for_good(running, winners[0])
            if r is not None:
                good[r] = good.get(r, 0) + 1
        share = 1 - len(winners) / len(play.rows)
        for k in range(n):
            at = [r[k] for r in running]
            who = _leader(at)
            if who is not None:
                leads.append((k + 1, _lead(at), who not in winners, share))
        finals = sorted((sign * r.score for r in play.rows), reverse=True)
        best = finals[0]
        for key, other in (("last", finals[-1]), ("second", finals[1])):
            gap = best - other
            spread[key].append(gap)
            if best != 0:
                spread[key + "_share"].append(gap / abs(best))
    total = sum(changes.values())
    return {
        "games": total,
        "lead_changes": {"mean": math.fsum(k * v for k, v in changes.items()) / total,
                         "games": {str(k): changes[k] for k in sorted(changes)}},
        "led_for_good": {str(k): good[k] for k in sorted(good)},
        "leader_wins": _leader_wins(leads),
        "comeback": _comebacks(leads),
        "spread": {k: quartiles(v) for k, v in spread.items()},
        "minutes": _minutes([p for p, _ in counted]),
    }


def _leader_wins(leads: list) -> list[dict]:
    """For each round: the plays with a leader after it, how many she won, with its
    95% interval and the even rate (winners / players)."""
    out = []
    for k in sorted({r for r, *_ in leads}):
        here = [(lost, share) for r, _, lost, share in leads if r == k]
        games = len(here)
        won = sum(not lost for lost, _ in here)
        low, high = wilson(won, games)
        out.append({"round": k, "games": games, "won": won, "rate": won / games,
                    "low": low, "high": high,
                    "even": math.fsum(1 - s for _, s in here) / games})
    return out


def _comebacks(leads: list) -> list[dict]:
    """For each round but the last one kept by every play, and each band of the lead:
    the plays, how many the leader still lost (a comeback), with its 95% interval."""
    if not leads:  # no round had a leader alone
        return []
    last = max(r for r, *_ in leads)
    width = _band_width([lead for r, lead, _, _ in leads if r < last])
    out = []
    for k in range(1, last):
        for b in range(BANDS):
            lo, hi = b * width, (b + 1) * width if b < BANDS - 1 else None
            here = [(lost, share) for r, lead, lost, share in leads if r == k
                    and lo < lead and (hi is None or lead <= hi)]
            if not here:
                continue
            won = sum(lost for lost, _ in here)
            low, high = wilson(won, len(here))
            out.append({"round": k, "behind_by": [lo, hi], "games": len(here), "won": won,
                        "rate": won / len(here), "low": low, "high": high,
                        "even": math.fsum(s for _, s in here) / len(here)})
    return out


def _minutes(plays: list) -> dict:
    by: dict[int, list] = {}
    for p in plays:
        if p.minutes is not None:
            by.setdefault(len(p.rows), []).append(p.minutes)
    return {str(k): quartiles(by[k]) for k in sorted(by)}


def check(summary_arc: dict | None, version: str) -> list[dict]:
    """The arc's check, for the report's Holm family: the leader after round 1 wins
    more than even + RUNAWAY (one-sided); none without plays led after round 1."""
    first = next((r for r in (summary_arc or {}).get("leader_wins", []) if r["round"] == 1),
                 None)
    if first is None:
        return []
    bound = min(0.99, first["even"] + RUNAWAY)
    return [dict(first, kind="arc_runaway", version=version, bound=bound,
                 plays=first["games"], p=stats.rate_p_above(first["won"], first["games"],
                                                            bound))]
