"""Benchmark: what the tuck boxes cost a build, in the same run.

Run: python tests/bench/bench_boxes.py          (BENCH_RUNS=5 by default)
Builds the Covenia kit in one process (warm, as `build --watch` does) with its boxes and
without them (companion.kit.boxes.decks finding none), in turns; prints each's median
seconds and the ratio, and the time boxes.pdf alone takes. A kit whose game has no deck
does no box work at all (test_tuck_boxes: no boxes.pdf, no `boxes` in the manifest).
Target: boxes.pdf in under 20 ms (a kit builds in about 0.15 s warm, 0.5 s cold).
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion import kit
from companion.kit import boxes

RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def build(out: Path, with_boxes: bool) -> float:
    real = boxes.decks
    if not with_boxes:
        boxes.decks = lambda files: []
    try:
        t = time.perf_counter()
        kit.build("covenia", kit.Options(out=out))
        return time.perf_counter() - t
    finally:
        boxes.decks = real


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kit"
        build(out, True)  # fonts, caches: warm
        timed = {True: [], False: []}
        alone = []
        real_write = boxes.write

        def write(*a, **kw):
            t = time.perf_counter()
            try:
                return real_write(*a, **kw)
            finally:
                alone.append(time.perf_counter() - t)
        boxes.write = write
        for _ in range(RUNS):
            for with_boxes in (False, True):
                timed[with_boxes].append(build(out, with_boxes))
        boxes.write = real_write
    on, off = statistics.median(timed[True]), statistics.median(timed[False])
    print(f"covenia kit without boxes: {off:.3f} s (median of {RUNS})")
    print(f"covenia kit with boxes:    {on:.3f} s; boxes.pdf alone "
          f"{statistics.median(alone) * 1000:.1f} ms")
    print(f"ratio with/without: {on / off:.3f} (boxes.pdf target: under 20 ms)")


if __name__ == "__main__":
    main()
