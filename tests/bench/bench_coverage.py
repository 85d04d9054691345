"""Benchmark: what the coverage check (companion/engine/coverage.py) costs a warm build at
a card size a hair under poker (63 x 88 mm), against the same warm build at poker (never
checked), in turns, in one run (issue 49).

Run: python tests/bench/bench_coverage.py      (BENCH_PAIRS=5 pairs by default)
(Before/after: PYTHONPATH=ANOTHER_CHECKOUT, run from outside this one.)

The game is bench_scale.py's: the starter grown to 2,000 cards. Nothing in it reads the
card's size, so the check is skipped; were it not, each poker face's measures would be
kept under its digest. Printed: the median CPU ratio (the child's user + system time) of
the 63 x 88 mm build to the poker build; 1.0x is a check that costs nothing."""

import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.bench_scale import game, timed  # noqa: E402


def main() -> None:
    pairs = int(os.environ.get("BENCH_PAIRS", "5"))
    folder = Path(tempfile.mkdtemp())
    data = game(folder / "big", 2000)
    env = {**os.environ, "TABLE_COMPANION_CACHE": str(folder / "cache")}
    run = [sys.executable, "-m", "companion", "build", str(data), "--only", "cards"]
    sizes = {"poker": [*run, "--out", str(folder / "poker")],
             "63x88mm": [*run, "--card-size", "63x88mm", "--out", str(folder / "hair")]}
    for cmd in sizes.values():  # warm: the drawings kept
        timed(cmd, env)
    got = {name: [] for name in sizes}
    for _ in range(pairs):
        for name, cmd in sizes.items():
            got[name].append(timed(cmd, env))
    ratios = [h[1] / p[1] for h, p in zip(got["63x88mm"], got["poker"])]
    for name, runs in got.items():
        print(f"warm build, 2,000 cards at {name}: median {statistics.median(w for w, _ in runs):.2f} s "
              f"wall, {statistics.median(c for _, c in runs):.2f} s CPU")
    print(f"63 x 88 mm against poker, CPU: {statistics.median(ratios):.2f}x "
          f"(pairs: {', '.join(f'{r:.2f}' for r in ratios)})")


if __name__ == "__main__":
    main()
