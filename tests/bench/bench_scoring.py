"""Benchmark: a designer's game scored by the scoring language (issue 33): 10 players,
5 rounds, every kind of category, scored in this process (median of runs), against the
target of 50 ms. `companion score`'s start-up against `import click` is
tests/bench/bench_cli_startup.py.

Run: python tests/bench/bench_scoring.py
Baseline, in the same run: the same players scored with the plain kinds alone (points,
each, squared) in one round, as before the language."""

import random
import statistics
import time

from companion.rules import scoring

ROUNDS, PLAYERS, RUNS = 5, 10, 51
KINDS = [
    {"id": "gold", "score": "points"},
    {"id": "pairs", "score": "each", "points": 2},
    {"id": "sq", "score": "squared"},
    {"id": "tri", "score": "table", "table": [0, 1, 3, 6, 10]},
    {"id": "cards", "score": "sum"},
    {"id": "low", "score": "lowest"},
    {"id": "a", "score": "points", "total": False},
    {"id": "b", "score": "points", "total": False},
    {"id": "sets", "score": "sets", "of": ["a", "b"], "points": 10},
    {"id": "red", "score": "most", "most": 7, "others": 4},
    {"id": "gems", "score": "majority", "award": [6, 3, 1], "ties": "share"},
]
LISTS = {"cards", "low"}


def players(rounds: int, ids: list[str]) -> list[dict]:
    rnd = random.Random(7)

    def figure(cid):
        return [rnd.randint(1, 10) for _ in range(3)] if cid in LISTS else rnd.randint(0, 6)
    return [{"name": f"P{i}", **{c: ([figure(c) for _ in range(rounds)] if rounds > 1
                                     else figure(c)) for c in ids}}
            for i in range(PLAYERS)]


def timed(rules, entries) -> float:
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        scoring.score(rules, entries)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    full = scoring.rules(KINDS, rounds=ROUNDS, tiebreak=("gems",))
    written = [k["id"] for k in KINDS if "of" not in k]
    plain = scoring.rules(KINDS[:3])
    language = timed(full, players(ROUNDS, written))
    before = timed(plain, players(1, ["gold", "pairs", "sq"]))
    print(f"{PLAYERS} players, {ROUNDS} rounds, {len(KINDS)} categories of every kind: "
          f"{language * 1000:.2f} ms (median of {RUNS})   target < 50 ms: "
          f"{'met' if language < 0.05 else 'MISSED'}")
    print(f"{PLAYERS} players, 1 round, points/each/squared: {before * 1000:.2f} ms   "
          f"ratio {language / before:.1f}x")


if __name__ == "__main__":
    main()
