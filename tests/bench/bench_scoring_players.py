"""Benchmark: a designer's game scored for many players (issue 43). Every kind of
category (tests/bench/bench_scoring.py's), one round, 1,000 then 2,000 players, CPU time
(median of runs); the ratio of the two is the figure: about 2 when scoring grows with the
players (it was 3.7 before issue 43, the square). The players' bound (sheet.MOST_PLAYERS,
100) is lifted here to measure; `companion score` refuses more.

Run: python tests/bench/bench_scoring_players.py
Baseline, in the same run: the 1,000 players' time. What stays past 2 is the sort's log
and Python's garbage collector walking a larger heap (the last line: with it off)."""

import gc
import random
import statistics
import time

from companion.rules import scoring
from tests.bench.bench_scoring import KINDS, LISTS

RUNS = 5


def players(n: int, ids: list[str], spread: int) -> list[dict]:
    """n players, each figure from 0 to `spread` (7: a real game's many ties)."""
    rnd = random.Random(n)

    def figure(cid):
        return [rnd.randint(1, 10) for _ in range(3)] if cid in LISTS else \
            rnd.randint(0, spread)
    return [{"name": f"P{i}", **{c: figure(c) for c in ids}} for i in range(n)]


def cpu(rules, entries) -> float:
    times = []
    for _ in range(RUNS):
        t = time.process_time()
        scoring.score(rules, entries)
        times.append(time.process_time() - t)
    return statistics.median(times)


def main() -> None:
    scoring.MOST_PLAYERS = 10 ** 6
    rules = scoring.rules(KINDS, tiebreak=("gems",))
    written = [k["id"] for k in KINDS if "of" not in k]
    for label, spread, collect in (("figures 0 to 4n (few ties)", None, True),
                                   ("figures 0 to 6 (ties)", 6, True),
                                   ("figures 0 to 4n, garbage collector off", None, False)):
        gc.enable() if collect else gc.disable()
        one = cpu(rules, players(1000, written, spread or 4000))
        two = cpu(rules, players(2000, written, spread or 8000))
        print(f"{label}: 1,000 players {one * 1000:.0f} ms, 2,000 players {two * 1000:.0f} ms"
              f"   ratio {two / one:.2f} (linear: 2; before issue 43: 3.7)")
    gc.enable()


if __name__ == "__main__":
    main()
