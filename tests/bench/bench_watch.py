"""How soon `companion build covenia --watch` has the new kit after a save: the time from
saving one changed value in the data file to the new cards.pdf in place, over several
saves; the baseline is the same build run in-process once, in the same run.
Target: under 1 s from save to PDF.

    python tests/bench/bench_watch.py
"""

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion import kit  # noqa: E402
from companion.files import paths

SAVES = 5


def main():
    folder = Path(tempfile.mkdtemp())
    data, out = folder / "covenia.toml", folder / "kit"
    text = paths.layout("covenia.toml").read_text(encoding="utf-8")
    data.write_text(text, encoding="utf-8")

    t = time.perf_counter()
    kit.build("covenia", kit.Options(data=data, out=folder / "baseline"))
    baseline = time.perf_counter() - t

    p = subprocess.Popen([sys.executable, "-m", "companion", "build", "covenia", "--data",
                          str(data), "--out", str(out), "--watch"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: [lines.append(x) for x in p.stdout], daemon=True).start()

    def watching(count):
        while sum("watching" in x for x in lines) < count:
            time.sleep(0.005)

    delays = []
    try:
        watching(1)
        for i in range(SAVES):
            before = (out / "cards.pdf").stat().st_mtime_ns
            data.write_text(text.replace('name = "Covenia"', f'name = "Covenia {i}"'),
                            encoding="utf-8")
            saved = time.perf_counter()
            while (out / "cards.pdf").stat().st_mtime_ns == before:
                time.sleep(0.002)
            delays.append(time.perf_counter() - saved)
            watching(i + 2)
    finally:
        p.terminate()
        p.wait(10)
    print(f"save -> new cards.pdf with --watch: median {statistics.median(delays):.3f} s, "
          f"max {max(delays):.3f} s over {SAVES} saves (target < 1 s)")
    print(f"baseline, the same build in-process once: {baseline:.3f} s")
    print(f"ratio: {statistics.median(delays) / baseline:.2f}x the plain build")


if __name__ == "__main__":
    main()
