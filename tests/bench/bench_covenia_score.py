"""Benchmark: `companion score covenia FILE --json` start to finish, beside `python -c pass`.

Run: python tests/bench/bench_covenia_score.py
Target (issue 3): under 0.15 s wall on these 2-core machines.
"""

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def wall(cmd: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times), max(times)


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "15"))
    game = Path(__file__).resolve().parents[1] / "data" / "covenia-rulebook.toml"
    script = shutil.which("companion")
    base, base_max = wall([sys.executable, "-c", "pass"], runs)
    mod, mod_max = wall([sys.executable, "-m", "companion", "score", "covenia", str(game),
                         "--json"], runs)
    print(f"runs per figure: {runs} (median, max)")
    print(f"python -c pass                                   {base * 1000:6.0f} ms  {base_max * 1000:6.0f} ms")
    print(f"python -m companion score covenia FILE --json    {mod * 1000:6.0f} ms  {mod_max * 1000:6.0f} ms"
          f"   ratio {mod / base:.2f}x")
    if script:
        cs, cs_max = wall([script, "score", "covenia", str(game), "--json"], runs)
        print(f"companion score covenia FILE --json              {cs * 1000:6.0f} ms  {cs_max * 1000:6.0f} ms"
              f"   ratio {cs / base:.2f}x")
        mod = cs
    print(f"target < 150 ms wall: {'met' if mod < 0.15 else 'MISSED'}")


if __name__ == "__main__":
    main()
