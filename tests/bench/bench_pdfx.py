"""Benchmark: what PDF/X costs (issue 44). `companion export GAME pdfx` against
`companion export GAME cards-pdf` (the same faces, RGB, as one PDF per component) measured
in the same run, for Covenia (nothing transparent: the cost is the colour conversion and
the preflight) and the press tests' designer game (tests/pdfx_game.py: a veil over a flat
ground on every creature, a veil and a picture with alpha over a gradient on every tide:
the cost of flattening, each region rendered by pdfium at 300 dpi).

Run: python tests/bench/bench_pdfx.py      (BENCH_RUNS=3 by default; medians)
Each export runs as its own process into a folder of its own (bench_export.run)."""

import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import pdfx_game  # noqa: E402
from tests.bench.bench_export import repeat  # noqa: E402


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        designer = pdfx_game.make(tmp / "vocab")
        for name, game in (("covenia", "covenia"), ("designer", str(designer))):
            walls = {}
            for fmt in ("cards-pdf", "pdfx"):
                figures = repeat(["export", game, fmt, "--out", str(tmp / f"{name}-{fmt}")],
                                 tmp, runs)
                walls[fmt] = statistics.median(f["wall"] for f in figures)
            print(f"{name}: cards-pdf {walls['cards-pdf']:.2f} s, pdfx {walls['pdfx']:.2f} s "
                  f"wall (median of {runs}): pdfx / cards-pdf = "
                  f"{walls['pdfx'] / walls['cards-pdf']:.2f}")


if __name__ == "__main__":
    main()
