"""Benchmark: the table commands start to finish, beside `python -c pass`.

Run: python tests/bench/bench_cli_startup.py          (BENCH_RUNS=15 by default)
Targets: `companion score covenia FILE --json` (issue 3) and
`companion lugvanion odds ... --json` (issue 4) under 0.15 s of CPU time on these 2-core machines;
`companion score ...` within 1.3x of a process that only imports click (issues 21, 36:
the CLI imports a command's modules only when that command runs), the two in turns in
this run, the ratio the median of the pairs'. `startup_line()` gives that line (for
bench_scale.py).
"""

import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

GAME = Path(__file__).resolve().parents[1] / "data" / "covenia-rulebook.toml"
COMMANDS = {
    "score covenia FILE --json": ["score", "covenia", str(GAME), "--json"],
    "lugvanion odds red=3 blue=2 green=2 yellow=1 --json":
        ["lugvanion", "odds", "red=3", "blue=2", "green=2", "yellow=1", "--json"],
    "lugvanion draw red=3 blue=2 green=2 yellow=1 --json":
        ["lugvanion", "draw", "red=3", "blue=2", "green=2", "yellow=1", "--json"],
}


def cpu(cmd: list[str], runs: int) -> tuple[float, float]:
    """The command's CPU seconds (user and system, its children's included), median and
    most of `runs`: a loaded machine stretches the wall clock, not the work done."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times), max(times)


def compile_ours(root: Path) -> None:
    """Our modules' bytecode, as an installed package has it (pip compiles at install; a
    checkout under PYTHONDONTWRITEBYTECODE=1 would compile them again at every start)."""
    import compileall

    for folder in ("companion",):
        compileall.compile_dir(str(root / folder), quiet=1)


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "15"))
    compile_ours(Path(__file__).resolve().parents[2])
    script = _script()
    base, base_max = cpu([sys.executable, "-c", "pass"], runs)
    print(f"runs per figure: {runs} (CPU time: median, max); companion = {script}; machine load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'python -c pass':<64}{base * 1000:6.0f} ms {base_max * 1000:6.0f} ms")
    clicked, clicked_max = cpu([sys.executable, "-c", "import click"], runs)
    label = "python -c 'import click'"
    print(f"{label:<64}{clicked * 1000:6.0f} ms "
          f"{clicked_max * 1000:6.0f} ms")
    for name, args in COMMANDS.items():
        t, t_max = cpu(script.split() + args, runs)
        verdict = "met" if t < 0.15 else "MISSED"
        ratio = t / clicked
        line = (f"{'companion ' + name:<64}{t * 1000:6.0f} ms {t_max * 1000:6.0f} ms"
                f"   {t / base:.2f}x python   target < 150 ms CPU: {verdict}")
        if name.startswith("score"):
            line += f"   {ratio:.2f}x import click, target <= 1.3x: " + (
                "met" if ratio <= 1.3 else "MISSED")
        print(line)
    print(startup_line(runs * 2, script))


TARGET = 1.3  # score / import click (issues 21, 36)


def _script() -> str:
    """The command as installed: the console script beside this interpreter (pip writes
    it), else the one on PATH, else the module."""
    beside = Path(sys.executable).with_name("companion")
    return str(beside) if beside.is_file() else (
        shutil.which("companion") or f"{sys.executable} -m companion")


def startup_line(pairs: int | None = None, script: str | None = None) -> str:
    """`companion score covenia FILE --json` against `python -c "import click"`, in turns
    (`pairs` pairs, default BENCH_RUNS * 2): its line, the median ratio and quartiles."""
    pairs = pairs or int(os.environ.get("BENCH_RUNS", "15")) * 2
    compile_ours(Path(__file__).resolve().parents[2])
    score = (script or _script()).split() + COMMANDS["score covenia FILE --json"]
    # On a shared machine whose speed drifts from second to second: the two processes
    # run in turns, and the ratio is the median of each pair's.
    clicks, scores = [], []
    for _ in range(pairs):
        clicks.append(cpu([sys.executable, "-c", "import click"], 1)[0])
        scores.append(cpu(score, 1)[0])
    ratios = [s / c for s, c in zip(scores, clicks)]
    q = statistics.quantiles(ratios, n=4)
    paired = statistics.median(ratios)
    return (f"companion score covenia FILE --json: {statistics.median(scores) * 1000:.0f} ms "
            f"against python -c 'import click' {statistics.median(clicks) * 1000:.0f} ms: "
            f"median {paired:.2f}x ({len(ratios)} pairs in turns, quartiles {q[0]:.2f}-"
            f"{q[2]:.2f}x)   target <= {TARGET}x: {'met' if paired <= TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
