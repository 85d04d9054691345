"""How fast a designer's card list is read: 1,000 rows of 8 columns as XLSX (calamine,
through companion.files.spreadsheet, the path a build takes) against the same rows as CSV read
with the standard library (the baseline, same run). Target: the XLSX read under 100 ms.

    python tests/bench/bench_spreadsheet.py
"""

import csv
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.files import spreadsheet  # noqa: E402
from tests import sheetfiles  # noqa: E402

ROWS = 1000


def timed(fn, runs=7):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    folder = Path(tempfile.mkdtemp())
    header = ["id", "colour", "symbol", "name.en", "name.fr", "value", "deck", "qty"]
    rows = [header] + [[f"c{i}", "#C0392B", "flame", f"Card {i}", f"Carte {i}", i % 10 + 1,
                        "A", 1] for i in range(ROWS)]
    sheetfiles.write(folder / "cards.xlsx", rows)
    sheetfiles.write(folder / "cards.csv", rows)

    def ours():
        out = spreadsheet.read({"spreadsheet": "cards.xlsx"}, folder, "bench", "cards")
        assert len(out) == ROWS

    def baseline():
        with open(folder / "cards.csv", newline="", encoding="utf-8") as f:
            assert len(list(csv.reader(f))) == ROWS + 1

    t_ours, t_base = timed(ours), timed(baseline)
    print(f"{ROWS}-row XLSX card list through companion.files.spreadsheet: {t_ours * 1000:.1f} ms "
          f"(target < 100 ms)")
    print(f"baseline, the same rows as CSV with the csv module: {t_base * 1000:.1f} ms")
    print(f"ratio: {t_ours / t_base:.1f}x the CSV baseline")


if __name__ == "__main__":
    main()
