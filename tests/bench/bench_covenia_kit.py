"""Benchmark: the whole Covenia kit against a minimal reportlab floor, in the same run.

Run: python tests/bench/bench_covenia_kit.py          (BENCH_RUNS=7 by default)
The floor draws the same number of poker cards 9-up on A4 with crop marks and a back
drawn once as a form: the least any kit builder must do. The kit is timed cold as every
build after the first runs (a new process, the cache folder warm: the fonts' tables and
the faces' drawings read from it), its very first build apart (nothing cached), and warm
(built again in one process, as `build --watch` does). Each kit figure runs in turns with
the floor, and the ratio is the median of the pairs': the machine is shared.
Targets (issue 36): cold within 2.5x the floor, warm within 1.2x; the kit in under 0.6 s
wall and cards.pdf under 300 KB (issue 2). `covenia_lines(tmp)` gives the lines (for
bench_scale.py); run alone, this prints them with the sizes.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR = r'''
import sys
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
mm = 72 / 25.4
pdfmetrics.registerFont(TTFont("F", sys.argv[2]))
W, H, cw, ch = 595.28, 841.89, 63.5 * mm, 88.9 * mm
x0, y0 = (W - 3 * cw) / 2, (H - 3 * ch) / 2
c = Canvas(sys.argv[1], pagesize=(W, H), initialFontName="F", pageCompression=1)
c.beginForm("back"); c.setFillGray(0.2); c.rect(0, 0, cw, ch, fill=1, stroke=0); c.endForm()
n = int(sys.argv[3])
for s in range(-(-n // 9)):
    for i in range(3 + 1):
        c.line(x0 + i * cw, y0 - 12, x0 + i * cw, y0 - 2)
        c.line(x0 - 12, y0 + i * ch, x0 - 2, y0 + i * ch)
    for k in range(min(9, n - 9 * s)):
        x, y = x0 + (k % 3) * cw, y0 + (2 - k // 3) * ch
        c.setFillGray(0.9); c.rect(x + 3, y + 3, cw - 6, ch - 6, fill=1, stroke=0)
        c.setFillGray(0); c.setFont("F", 20); c.drawString(x + 8, y + ch - 28, str(k + 1))
        c.setFont("F", 8); c.drawCentredString(x + cw / 2, y + 20, "card %d" % (9 * s + k))
    c.showPage()
    for k in range(min(9, n - 9 * s)):
        x, y = W - (x0 + (k % 3) * cw) - cw, y0 + (2 - k // 3) * ch
        c.saveState(); c.translate(x, y); c.doForm("back"); c.restoreState()
    c.showPage()
c.save()
'''

COLD_TARGET, WARM_TARGET = 2.5, 1.2  # the kit against its floor (issue 36)

# Builds the kit in one process as `build --watch` does (its drawings kept in memory): once,
# then again at each line read, printing each build's seconds (the floor runs in between,
# from the bench's own process, as in the cold pairs).
WARM = r'''
import sys, time
from pathlib import Path
from companion.files import kept
from companion.kit import Options, build
out = Path(sys.argv[1])
kept.in_process = {}
build("covenia", Options(out=out))  # the watch's first build
print("ready", flush=True)
for _ in sys.stdin:
    t = time.perf_counter(); build("covenia", Options(out=out))
    print(time.perf_counter() - t, flush=True)
'''


def wall(cmd: list[str], runs: int, cache=None) -> float:
    """The median wall time of `cmd`; `cache(run)`: the user's cache folder for each run (as
    platformdirs finds it: a build pays for looking it up, as a user's does)."""
    times = []
    for run in range(runs):
        env = None if cache is None else _env(cache(run))
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _env(cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "TABLE_COMPANION_CACHE"}
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def compile_ours(root: Path) -> None:
    """Our modules' bytecode, as an installed package has it (pip compiles at install; a
    checkout under PYTHONDONTWRITEBYTECODE=1 would compile them again at every start)."""
    import compileall

    for folder in ("companion",):
        compileall.compile_dir(str(root / folder), quiet=1)


def _spread(ratios: list[float]) -> str:
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    return f"median {statistics.median(ratios):.2f}x ({len(ratios)} pairs, quartiles " \
           f"{q[0]:.2f}-{q[2]:.2f}x)"


def _verdict(ratio: float, target: float) -> str:
    return f"target <= {target}x: {'met' if ratio <= target else 'MISSED'}"


def covenia_lines(tmp: Path, pairs: int | None = None) -> list[str]:
    """The Covenia kit's lines, cold, first and warm, each against the floor in turns
    (`pairs` pairs, default BENCH_RUNS * 2), built in the folder `tmp`."""
    root = Path(__file__).resolve().parents[2]
    pairs = pairs or int(os.environ.get("BENCH_RUNS", "7")) * 2
    compile_ours(root)
    tmp = Path(tmp)
    font = str(root / "companion" / "fontfiles" / "DejaVuSans.ttf")
    floor_py = tmp / "covenia-floor.py"
    floor_py.write_text(FLOOR)
    floor = [sys.executable, str(floor_py), str(tmp / "covenia-floor.pdf"), font, "109"]
    kit = [sys.executable, "-m", "companion", "build", "covenia", "--out", str(tmp / "kit")]
    cache = tmp / "covenia-cache"

    def turns(kit_cmd, cache_of) -> tuple[list[float], list[float]]:
        k, f = [], []
        for n in range(pairs):
            k.append(wall(kit_cmd, 1, cache=lambda _: cache_of(n)))
            f.append(wall(floor, 1))
        return k, f

    # The very first build, nothing cached: a new cache folder each run.
    first, first_floor = turns(kit, lambda n: tmp / f"covenia-first-{n}")
    wall(kit, 1, cache=lambda _: cache)  # fills the cache that every later build reads
    cold, cold_floor = turns(kit, lambda n: cache)
    watch = subprocess.Popen([sys.executable, "-c", WARM, str(tmp / "warm")], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_env(cache))
    assert watch.stdout.readline().strip() == "ready"
    warm_pairs = []
    for _ in range(pairs):
        watch.stdin.write("\n")
        watch.stdin.flush()
        warm_pairs.append((float(watch.stdout.readline()), wall(floor, 1)))
    watch.stdin.close()
    watch.wait()
    cold_r = [k / f for k, f in zip(cold, cold_floor)]
    first_r = [k / f for k, f in zip(first, first_floor)]
    warm_r = [k / f for k, f in warm_pairs]
    ms = lambda xs: f"{statistics.median(xs) * 1000:.0f} ms"  # noqa: E731
    return [
        f"Covenia kit, cold (a new process, the cache warm): {ms(cold)} against the floor's "
        f"{ms(cold_floor)}: {_spread(cold_r)}   "
        f"{_verdict(statistics.median(cold_r), COLD_TARGET)}",
        f"  its very first build (nothing cached): {ms(first)}: {_spread(first_r)}",
        f"Covenia kit, warm (built again in one process, as --watch): "
        f"{ms([k for k, _ in warm_pairs])} against the floor's {ms([f for _, f in warm_pairs])}: "
        f"{_spread(warm_r)}   {_verdict(statistics.median(warm_r), WARM_TARGET)}",
    ]


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "7"))
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        lines = covenia_lines(tmp, runs * 2)
        python = wall([sys.executable, "-c", "pass"], runs)
        sizes = {p.name: p.stat().st_size for p in (tmp / "kit").glob("*.pdf")}
        floor_size = (tmp / "covenia-floor.pdf").stat().st_size
        kit = wall([sys.executable, "-m", "companion", "build", "covenia", "--out",
                    str(tmp / "kit")], runs, cache=lambda _: tmp / "covenia-cache")
    print(f"runs per figure: {runs}, pairs in turns: {runs * 2}; machine load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {root}")
    print(f"python -c pass {python * 1000:.0f} ms; floor PDF {floor_size / 1024:.0f} KB; "
          "kit: " + ", ".join(f"{k} {v / 1024:.0f} KB" for k, v in sorted(sizes.items())))
    for line in lines:
        print(line)
    print(f"target: kit < 600 ms wall ({kit * 1000:.0f} ms): {'met' if kit < 0.6 else 'MISSED'}; "
          f"cards.pdf < 300 KB: {'met' if sizes['cards.pdf'] < 300 * 1024 else 'MISSED'}")


if __name__ == "__main__":
    main()
