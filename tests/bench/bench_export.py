"""Benchmark: `companion export covenia png|tts|cards-pdf` against baselines measured in the
same run.

Run: python tests/bench/bench_export.py        (BENCH_RUNS=3 by default; figures are the
median and the slowest of the runs)

Each export runs as its own process (`python -m companion export ...`, start-up included),
wrapped to read its peak memory: the main process's, and the largest worker's
(getrusage RUSAGE_CHILDREN reports the largest waited-for child, not a sum); the whole
tree's peak is at most main + workers x largest worker. CPU / wall above 1 means more
than one core was busy.

Baselines, on the same machine in the same run:
- build: `companion build covenia` (the whole print kit, sheets drawn), wall;
- sheets at 300 dpi: the kit's cards.pdf (26 A4 sheets, every card face on them, about
  twice the area the png export renders) rasterized by pypdfium2 at 300 dpi and encoded as
  PNG (pillow, compress_level=1) page by page in one process: the naive way to the pixels.

Targets (issue 14): png at 300 dpi < 15 s wall, both cores, peak < 500 MB; tts < 10 s;
cards-pdf < 1 s. Each run of these exports into a folder of its own: a whole export.

Exported again (issue 36), png and tts: a whole export of a copy of Covenia's game file
into a new folder, then the same again into that folder (every face unchanged: nothing
drawn), then with one entry of the file changed (one clan's ritual: its Temple card, one
face, drawn again); each against the whole export of the same run.
"""

import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WRAP = r'''
import json, resource, sys, time
t0 = time.perf_counter(); c0 = resource.getrusage(resource.RUSAGE_SELF)
from companion.cli import main
try:
    main(sys.argv[2:])
    code = 0
except SystemExit as e:
    code = e.code or 0
wall = time.perf_counter() - t0
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
json.dump({"code": code, "wall": wall, "cpu": cpu, "main_mb": me.ru_maxrss / 1024,
           "worker_mb": kids.ru_maxrss / 1024}, open(sys.argv[1], "w"))
'''


def run(args: list[str], tmp: Path) -> dict:
    result = tmp / "result.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
        TABLE_COMPANION_CACHE=str(tmp / "cache"))  # a cache of the run's own, kept warm
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", WRAP, str(result), *args], check=True,
                          env=env, stdout=subprocess.PIPE, text=True)
    outer = time.perf_counter() - started
    figures = json.loads(result.read_text())
    assert figures["code"] == 0, figures
    figures["process_wall"] = outer  # with the interpreter's start-up
    figures["said"] = done.stdout
    return figures


def repeat(args: list[str], tmp: Path, runs: int) -> list[dict]:
    """An export runs into a folder of its own each time (--out FOLDER-N): a whole
    export, nothing taken from an earlier one."""
    if args[0] != "export":
        return [run(args, tmp) for _ in range(runs)]
    at = args.index("--out") + 1
    return [run(args[:at] + [f"{args[at]}-{n}"] + args[at + 1:], tmp) for n in range(runs)]


def drawn(figures: dict) -> str:
    """"N faces drawn, M kept", as the export said it."""
    return figures["said"].strip().splitlines()[-1].split(": ")[-1]


def again(fmt: str, tmp: Path, runs: int) -> tuple[list, list, list]:
    """Whole exports of a copy of Covenia's game file, each into a new folder; each then
    exported again into its folder, unchanged, then with one entry changed."""
    text = (ROOT / "companion" / "layouts" / "covenia.toml").read_text(encoding="utf-8")
    changed = text.replace("whatever their clans. Each card",
                           "whatever their clans. Each such card")
    assert changed != text
    (tmp / "same").mkdir(exist_ok=True)
    (tmp / "changed").mkdir(exist_ok=True)
    (tmp / "same" / "covenia.toml").write_text(text, encoding="utf-8")
    (tmp / "changed" / "covenia.toml").write_text(changed, encoding="utf-8")
    whole, same, one = [], [], []
    for n in range(runs):
        out = str(tmp / f"again-{fmt}-{n}")
        args = ["export", "covenia", fmt, "--out", out, "--data"]
        whole.append(run(args + [str(tmp / "same" / "covenia.toml")], tmp))
        same.append(run(args + [str(tmp / "same" / "covenia.toml")], tmp))
        one.append(run(args + [str(tmp / "changed" / "covenia.toml")], tmp))
    return whole, same, one


def sheets_baseline(pdf: Path, dpi: int) -> float:
    import pypdfium2 as pdfium

    started = time.perf_counter()
    doc = pdfium.PdfDocument(str(pdf))
    for page in doc:
        image = page.render(scale=dpi / 72).to_pil()
        image.save(io.BytesIO(), "PNG", compress_level=1)
    return time.perf_counter() - started


def line(name: str, figures: list[dict], target: float | None = None, memory: bool = False):
    walls = [f["process_wall"] for f in figures]
    med, worst = statistics.median(walls), max(walls)
    cores = statistics.median(f["cpu"] / f["wall"] for f in figures)
    text = f"{name:<34} {med:6.2f} s median, {worst:6.2f} s slowest; cpu/wall {cores:4.2f}"
    if memory:
        main_mb = max(f["main_mb"] for f in figures)
        worker_mb = max(f["worker_mb"] for f in figures)
        text += f"; peak main {main_mb:.0f} MB, largest worker {worker_mb:.0f} MB"
    if target is not None:
        text += f"   [target < {target:g} s: {'met' if worst < target else 'MISSED'}]"
    print(text)
    return med


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from companion.export import raster

    runs = int(os.environ.get("BENCH_RUNS", "3"))
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        build = repeat(["build", "covenia", "--out", str(tmp / "kit")], tmp, runs)
        sheets = statistics.median(sheets_baseline(tmp / "kit" / "cards.pdf", 300)
                                   for _ in range(runs))
        png = repeat(["export", "covenia", "png", "--out", str(tmp / "png")], tmp, runs)
        tts = repeat(["export", "covenia", "tts", "--out", str(tmp / "tts")], tmp, runs)
        pdf = repeat(["export", "covenia", "cards-pdf", "--out", str(tmp / "pdf")], tmp, runs)
        manifest = json.loads((tmp / "png-0" / "manifest.json").read_text())
        png_bytes = sum(p.stat().st_size for p in (tmp / "png-0").rglob("*.png"))
        tts_sheets = sorted(((p.stat().st_size, p.name) for p in (tmp / "tts-0").rglob("*.jpg")),
                            reverse=True)
        again_png = again("png", tmp, runs)
        again_tts = again("tts", tmp, runs)

    workers = raster.workers()
    print(f"runs per figure: {runs}; cores for rendering: {workers}; load average "
          f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after (above 0.5: other work "
          "shared the cores, and cpu/wall understates the parallelism)")
    print(f"png: {manifest['faces']} faces, {len(manifest['files'])} files, "
          f"{png_bytes / 1e6:.1f} MB; largest TTS sheet {tts_sheets[0][0] / 1e6:.2f} MB")
    base_build = line("baseline: companion build covenia", build)
    print(f"{'baseline: cards.pdf sheets -> PNG':<34} {sheets:6.2f} s (one process, 300 dpi, "
          f"render + encode)")
    png_wall = line("export covenia png (300 dpi)", png, 15, memory=True)
    tts_wall = line("export covenia tts", tts, 10, memory=True)
    pdf_wall = line("export covenia cards-pdf", pdf, 1)
    peak = max(f["main_mb"] for f in png) + workers * max(f["worker_mb"] for f in png)
    print(f"png peak memory, whole tree at most {peak:.0f} MB   "
          f"[target < 500 MB: {'met' if peak < 500 else 'MISSED'}]")
    print(f"ratios: png / sheets baseline {png_wall / sheets:5.2f}x; against the build: "
          f"png {png_wall / base_build:5.2f}x, tts {tts_wall / base_build:5.2f}x, "
          f"cards-pdf {pdf_wall / base_build:5.2f}x")
    for fmt, (whole, same, one) in (("png", again_png), ("tts", again_tts)):
        full = line(f"again: {fmt}, a whole export", whole)
        for name, figures in (("unchanged", same), ("one entry changed", one)):
            wall = line(f"again: {fmt}, {name}", figures)
            print(f"{'':<34} {drawn(figures[-1])}; {wall / full:5.2f}x the whole export")


if __name__ == "__main__":
    main()
