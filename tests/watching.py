"""`companion build ... --watch` run as a user runs it, its lines read as they come: tests
wait on the build's own lines ("watching", "rebuilding"), never on a fixed time, with room
for a loaded machine."""

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager


class Watch:
    def __init__(self, proc: subprocess.Popen):
        self.proc, self.lines = proc, []
        threading.Thread(target=lambda: [self.lines.append(x) for x in proc.stdout],
                         daemon=True).start()

    def wait_for(self, text: str, after: int = 0, patience: float = 300) -> int:
        """The number of lines read once one after line `after` holds `text`."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline and self.proc.poll() is None:
            for i, line in enumerate(self.lines[after:], after):
                if text in line:
                    return i + 1
            time.sleep(0.05)
        raise AssertionError(f"no {text!r} in {self.lines}")


@contextmanager
def watching(*args: str, cache=None):
    """`companion build ARGS --watch`, stopped with Ctrl+C at the end (which exits 0); its
    cache folder `cache` if given."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if cache is not None:
        env["TABLE_COMPANION_CACHE"] = str(cache)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "build", *args, "--watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)
    try:
        yield Watch(proc)
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 0
