"""A real `companion serve` process on 127.0.0.1 for the web tests and the benchmark."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
BAG = {"red": 3, "blue": 2, "green": 2, "yellow": 1}


def _fd_limit(n: int | None):
    """A preexec_fn giving the child n file descriptors (soft and hard), as on a small
    system (macOS allows 256 by default)."""
    if n is None:
        return None

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    return limit


class Server:
    def __init__(self, data: Path, *args: str, host: str = "127.0.0.1",
                 env: dict | None = None, fd_limit: int | None = None,
                 wrap: list[str] | None = None):
        """`wrap`: a command the server runs under (it ends with the server's argv)."""
        self.data = Path(data)
        self.args = ["--data", str(self.data), *args] + (["--host", host] if host else [])
        self.env, self.fd_limit, self.wrap = env or {}, fd_limit, wrap or []
        self.proc: subprocess.Popen | None = None
        self.link = ""
        self.out: list[str] = []

    def start(self, timeout: float = 20) -> "Server":
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.proc = subprocess.Popen([*self.wrap, sys.executable, "-m", "companion", "serve",
                                      *self.args],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     errors="replace", preexec_fn=_fd_limit(self.fd_limit))
        deadline = time.monotonic() + timeout
        for line in self.proc.stdout:
            self.out.append(line)
            if line.startswith("Table link: "):
                self.link = line.split(" ", 2)[2].strip()
            if line.startswith("Table data: "):
                break
            if time.monotonic() > deadline:
                break
        if not self.link:
            self.kill()
            raise RuntimeError("serve did not start:\n" + "".join(self.out))
        # Keep reading its output so a full pipe never blocks it.
        self.reader = threading.Thread(
            target=lambda: [self.out.append(x) for x in self.proc.stdout], daemon=True)
        self.reader.start()
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        for _ in range(200):
            try:
                httpx.get(self.api("state"), timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("serve does not answer")

    @property
    def origin(self) -> str:
        return self.link.split("/t/")[0]

    @property
    def token(self) -> str:
        return self.link.rsplit("/", 1)[1]

    @property
    def port(self) -> int:
        return int(self.origin.rsplit(":", 1)[1])

    def api(self, path: str) -> str:
        return f"{self.link}/api/{path}"

    def state(self) -> dict:
        r = httpx.get(self.api("state"), timeout=10)
        r.raise_for_status()
        return r.json()

    def draw(self, guild: str = "forge", bag: dict | None = None, key: str | None = None,
             client: httpx.Client | None = None) -> httpx.Response:
        headers = {"Idempotency-Key": key or os.urandom(8).hex()}
        return (client or httpx).post(self.api("draw"), json={"guild": guild,
                                                              "bag": bag or BAG},
                                      headers=headers, timeout=30)

    def log_size(self) -> int:
        """Bytes the server has written (its output and its log) so far."""
        return sum(len(line.encode()) for line in list(self.out))

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Ctrl+C (or `sig`, e.g. SIGTERM); the exit code."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                code = self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
                return -9
            self.reader.join(5)
            return code
        return self.proc.returncode if self.proc else 0


def read_events(url: str, want: int, into: list, ready: threading.Event,
                timeout: float = 30) -> None:
    """Collect `want` draw/undo events from the stream at `url` (run it in a thread)."""
    with httpx.stream("GET", url, timeout=timeout) as r:
        event = None
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
                if event == "hello":
                    ready.set()
            elif line.startswith("data: ") and event in ("draw", "undo"):
                into.append((event, json.loads(line[6:])))
                if len(into) >= want:
                    return


def serve_once(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    """`companion serve ARGS` expected to refuse and exit: killed if still serving after
    `timeout` seconds (then its returncode is -9)."""
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", *map(str, args)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


async def slow_sockets(port: int, n: int, stop, opened: list | None = None) -> None:
    """`n` clients on 127.0.0.1:`port`, each sending a request head one byte a second
    that never ends (a slowloris); one the server closes is opened again 0.1 s later.
    Runs until the asyncio.Event `stop` is set."""
    import asyncio

    async def one() -> None:
        head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"z" * 100_000
        while not stop.is_set():
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                if opened is not None:
                    opened.append(time.monotonic())
                for byte in head:
                    if stop.is_set() or reader.at_eof():  # closed by the server
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(1)
            except (OSError, asyncio.TimeoutError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(0.1)

    await asyncio.gather(*(one() for _ in range(n)))
