"""Benchmark: the largest Lugvanion bag `--allow-any-size` admits, its exact odds and a
draw, against the table's own bag of 8 partisans in the same run (issue 45: this figure
was a wall-clock assertion in tests/test_table_commands_vote.py).

Run: python tests/bench/bench_bag.py        (BENCH_RUNS=5 by default; medians)
Target: the largest bag's odds and draw within 2 s together, on a two-core machine.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from companion.rules import lugvanion  # noqa: E402

TABLE = {"red": 3, "blue": 3, "green": 2}
LARGEST_DRAW = {"red": 33, "blue": 33, "green": 33}
LARGEST_ODDS = {"red": 25, "blue": 25, "green": 25, "yellow": 24}


def seconds(work) -> float:
    t = time.perf_counter()
    work()
    return time.perf_counter() - t


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    seed = bytes(32)

    def table():
        lugvanion.odds(TABLE)
        lugvanion.draw(TABLE, seed)

    def largest():
        lugvanion.odds(LARGEST_ODDS, allow_any_size=True)
        lugvanion.draw(LARGEST_DRAW, seed, allow_any_size=True)

    base, big = [], []
    for _ in range(runs):  # in turns, so both see the same load
        base.append(seconds(table))
        big.append(seconds(largest))
    b, g = statistics.median(base), statistics.median(big)
    print(f"runs: {runs}; load average {os.getloadavg()[0]:.1f}")
    print(f"the table's bag of 8, odds + draw   {b * 1000:8.1f} ms")
    print(f"the largest bags, odds + draw       {g * 1000:8.1f} ms  = {g / b:,.0f}x the table's "
          f"[target < 2 s: {'met' if g < 2 else 'MISSED'}]")


if __name__ == "__main__":
    main()
