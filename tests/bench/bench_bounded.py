"""Benchmark: what the bound on a designer's decoders costs (issue 30). Every SVG icon,
font, picture and spreadsheet is decoded in a worker process (companion.files.bounded); what a
worker works out is kept in the cache, so a warm build should start none.

Run: python tests/bench/bench_bounded.py
The game: `companion new` (its two SVG icons, its CSV) with a font of its own for its
titles. Each figure is a fresh `companion build` process, medians of runs in turns:
- warm: the cache filled by an earlier build; bounded (as shipped) against the same build
  with bounded.run calling the decoder in-process (the code before the bound), same run;
- cold: an empty cache before each build, bounded against in-process: the bound's cost.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The code before the bound: each decoder called in this process, no worker.
INLINE = ("import companion.files.bounded as b; b.run = lambda f, *a, **k: f(*a); "
          "from companion.cli import main; main(sys.argv[1:])")


def game(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "companion", "new", "bench"], cwd=folder,
                   check=True, stdout=subprocess.DEVNULL)
    path = folder / "bench" / "bench.toml"
    (path.parent / "fonts").mkdir()
    shutil.copy(ROOT / "companion" / "fontfiles" / "DejaVuSans-Bold.ttf",
                path.parent / "fonts" / "title.ttf")
    text = path.read_text(encoding="utf-8")
    path.write_text(text + '\n[fonts]\nbold = "fonts/title.ttf"\n', encoding="utf-8")
    return path


def timed(cmd: list[str], cache: Path, empty: bool) -> float:
    if empty:
        shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, TABLE_COMPANION_CACHE=str(cache))
    t = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "9"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        path = game(tmp)
        args = ["build", str(path), "--out", str(tmp / "kit"), "--only", "cards"]
        bounded = [sys.executable, "-m", "companion", *args]
        inline = [sys.executable, "-c", "import sys; " + INLINE, *args]
        rows = {}
        for label, empty in (("warm", False), ("cold", True)):
            caches = (tmp / f"cache-{label}-b", tmp / f"cache-{label}-i")
            if not empty:
                timed(bounded, caches[0], True)
                timed(inline, caches[1], True)
            pairs = [(timed(bounded, caches[0], empty), timed(inline, caches[1], empty))
                     for _ in range(runs)]
            rows[label] = (statistics.median(b for b, _ in pairs),
                           statistics.median(i for _, i in pairs),
                           statistics.median(b / i for b, i in pairs))
    print(f"runs per figure (median, in turns): {runs}")
    print(f"{'build':<8}{'bounded':>10}{'in-process':>12}{'ratio':>8}{'cost':>9}")
    for label, (b, i, ratio) in rows.items():
        print(f"{label:<8}{b * 1000:7.0f} ms{i * 1000:9.0f} ms{ratio:7.2f}x"
              f"{(b - i) * 1000:+6.0f} ms")
    print("target: warm ratio ~1.00x (a warm build starts no worker)")


if __name__ == "__main__":
    main()
