"""Running the CLI as a careless or hostile designer would, in a process of its own capped
at 30 s of CPU and 2 GB of address space (a bomb must not take the test run down): what a
build of untrusted files must stay under. CPU time, not wall time, is the limit, so a
loaded machine does not fail the test; a hang (which takes no CPU) is caught by a far
longer wall-clock bound."""

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CPU_SECONDS = 30
HANG_SECONDS = 300  # wall clock: only a process that waits for ever gets near it
MEMORY = 2 * 1024 ** 3  # bytes of address space a build may take
# The child reports its own peak memory and CPU time when it exits (not when a signal
# kills it). Its peak is its own memory's high-water mark (Linux: VmHWM): ru_maxrss
# counts what the process held before exec, the forked copy of this test run, which
# grows as the suite runs.
CHILD = ("import atexit, os, resource, sys\n"
         "def _peak_kb():\n"
         "    try:\n"
         "        for line in open('/proc/self/status'):\n"
         "            if line.startswith('VmHWM:'):\n"
         "                return int(line.split()[1])\n"
         "    except OSError:\n"
         "        pass\n"
         "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
         "def _report():\n"
         "    u = resource.getrusage(resource.RUSAGE_SELF)\n"
         "    open(os.environ['PEAK_FILE'], 'w').write(f'{_peak_kb()} {u.ru_utime + u.ru_stime}')\n"
         "atexit.register(_report)\n"
         "from companion.cli import main\n"
         "main(sys.argv[1:])\n")


class Run:
    def __init__(self, code: int, err: str, seconds: float, peak_mb: float | None,
                 cpu: float | None):
        self.code, self.err, self.seconds, self.peak_mb, self.cpu = (code, err, seconds,
                                                                      peak_mb, cpu)

    def __repr__(self):
        return (f"exit {self.code} in {self.seconds:.1f} s ({self.cpu} s CPU), peak "
                f"{self.peak_mb} MB: {self.err[-2000:]!r}")


def _cap():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))


def run(folder: Path, *args: str, env: dict | None = None) -> Run:
    """`companion ARGS` run in `folder`, capped, with `env` added to the environment."""
    peak = folder / f".peak-{time.monotonic_ns()}"
    env = dict(os.environ, **(env or {}), PEAK_FILE=str(peak), PYTHONPATH=str(ROOT))
    start = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True,
                           text=True, timeout=HANG_SECONDS, cwd=folder, env=env,
                           preexec_fn=_cap, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"companion {' '.join(args)} hung over {HANG_SECONDS} s")
    seconds = time.monotonic() - start
    kb = cpu = None
    if peak.exists():
        kb_text, cpu_text = peak.read_text().split()
        kb, cpu = int(kb_text), round(float(cpu_text), 2)
    peak.unlink(missing_ok=True)
    return Run(p.returncode, p.stderr, seconds, None if kb is None else round(kb / 1024), cpu)


def refused_in_one_line(r: Run, *words: str) -> None:
    assert r.code == 2, r
    assert "Traceback" not in r.err, r
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: "), r
    for w in words:
        assert w in lines[0], (w, r)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}
