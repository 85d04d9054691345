"""Benchmark: `export pdfx` linear in cards (issue 51). Issue 36's game (bench_scale.game:
creature rows of qty 2, pictures, icons in the text) at 100 and 2,000 cards, exported as
cards-pdf (the same faces, RGB) and as pdfx, each in a process of its own, in turns, in the
same run; the ratio printed is pdfx's CPU seconds over cards-pdf's (target: at most 3 at
2,000 cards, where the pages were put in order one at a time before, and every repeated
page checked again).

Run: python tests/bench/bench_pdfx_scale.py      (BENCH_RUNS=1 by default; medians)"""

import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_export import run  # noqa: E402
from tests.bench.bench_scale import game  # noqa: E402

SIZES = (100, 2000)
TARGET = 3.0


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "1"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for cards in SIZES:
            folder = tmp / f"big-{cards}"
            data = game(folder, cards)
            cpu: dict[str, list[float]] = {"cards-pdf": [], "pdfx": []}
            for n in range(runs):
                for fmt in cpu:  # in turns: the two share the machine's moment
                    figures = run(["export", str(data), fmt, "--only", "cards", "--out",
                                   str(tmp / f"{cards}-{fmt}-{n}")], tmp)
                    cpu[fmt].append(figures["cpu"])
            a, b = statistics.median(cpu["cards-pdf"]), statistics.median(cpu["pdfx"])
            print(f"{cards:>5} cards: cards-pdf {a:.2f} s CPU, pdfx {b:.2f} s CPU "
                  f"(median of {runs}): pdfx / cards-pdf = {b / a:.2f}"
                  + (f" (target <= {TARGET:g})" if cards == SIZES[-1] else ""))


if __name__ == "__main__":
    main()
