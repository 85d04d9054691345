"""Benchmark: a designer's own game from a blank folder to every output, as she would run
it: `companion new`, `build`, then each export, each a fresh process (wall time, median).

Run: python tests/bench/bench_new_game.py
Baseline, in the same run: the same steps on Vengeance, a bundled kit of about as many
cards, so the ratios say what a game drawn from its file alone costs over ours.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXPORTS = (["png", "--shop", "tgc"], ["cards-pdf"], ["tts"], ["preview"])


def wall(cmd: list[str], cwd: Path, runs: int, before=None) -> float:
    times = []
    for _ in range(runs):
        if before:
            before()
        t = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=cwd, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def compile_ours(root: Path) -> None:
    """Our modules' bytecode, as an installed package has it."""
    import compileall

    for folder in ("companion",):
        compileall.compile_dir(str(root / folder), quiet=1)


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    compile_ours(Path(__file__).resolve().parents[2])
    me = [sys.executable, "-m", "companion"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        fresh = lambda: shutil.rmtree(tmp / "tidepool", ignore_errors=True)  # noqa: E731
        rows = [("new", wall(me + ["new", "tidepool"], tmp, runs, fresh), None)]
        game = "tidepool/tidepool.toml"
        rows.append(("build", wall(me + ["build", game], tmp, runs),
                     wall(me + ["build", "vengeance"], tmp, runs)))
        for args in EXPORTS:
            rows.append(("export " + " ".join(args), wall(me + ["export", game, *args], tmp, runs),
                         wall(me + ["export", "vengeance", *args], tmp, runs)))
    print(f"runs per figure (median): {runs}")
    print(f"{'step':<24}{'own game':>10}{'vengeance':>11}{'ratio':>8}")
    total = 0.0
    for name, own, base in rows:
        total += own
        ratio = f"{own / base:7.2f}x" if base else ""
        base_s = f"{base * 1000:8.0f} ms" if base else " " * 11
        print(f"{name:<24}{own * 1000:7.0f} ms{base_s}{ratio}")
    print(f"{'new to every output':<24}{total * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
