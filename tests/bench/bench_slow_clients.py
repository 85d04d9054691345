"""Benchmark: draws while slow clients hold sockets open, against a real `companion serve`
on 127.0.0.1 (all traffic stays on loopback).

Run: python tests/bench/bench_slow_clients.py [--slow 300] [--draws 50] [--fds 256]
(--fds 0: the system's own limit)
Target (issue 11): with 300 slow sockets open (each sends one byte a second, and is
opened again when the server closes it), 50 draws posted one after another are each
answered under 1 s, and the server's log stays under 1 MB. The server runs with --fds file
descriptors (256: macOS's default), fewer than the slow sockets.
Baseline, same run: the same 50 draws with no slow socket.
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.web import BAG, Server, slow_sockets  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def post_draws(server: Server, n: int, tag: str) -> tuple[list[float], int]:
    """n draws one after another, each on a new connection (as a phone that slept);
    (latencies, how many failed). A draw not answered in 5 s counts as failed."""
    latencies, failed = [], 0
    fresh = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=5, limits=fresh) as client:
        for i in range(n):
            t = time.perf_counter()
            try:
                r = await client.post(server.api("draw"), json={"guild": "forge", "bag": BAG},
                                      headers={"Idempotency-Key": f"bench-{tag}-{i}"})
                failed += r.status_code != 200
            except httpx.HTTPError:
                failed += 1
            latencies.append(time.perf_counter() - t)
            await asyncio.sleep(0.05)
    return latencies, failed


async def under_attack(server: Server, slow: int, draws: int):
    stop, opened = asyncio.Event(), []
    crowd = asyncio.create_task(slow_sockets(server.port, slow, stop, opened))
    await asyncio.sleep(3)  # every slow socket has connected and is dripping
    try:
        latencies, failed = await post_draws(server, draws, "slow")
    finally:
        stop.set()
        await asyncio.wait_for(crowd, 30)
    return latencies, failed, len(opened)


def line(name: str, xs: list[float]) -> str:
    ms = [x * 1000 for x in xs]
    return (f"{name:<34} p50 {pct(ms, 50):7.2f} ms   p99 {pct(ms, 99):7.2f} ms   "
            f"max {max(ms):7.2f} ms   (n={len(ms)})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--slow", type=int, default=300)
    ap.add_argument("--draws", type=int, default=50)
    ap.add_argument("--fds", type=int, default=256)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.sqlite3", fd_limit=args.fds or None).start()
        try:
            t0 = time.perf_counter()
            base, base_failed = asyncio.run(post_draws(server, args.draws, "base"))
            load, failed, opened = asyncio.run(under_attack(server, args.slow, args.draws))
            elapsed = time.perf_counter() - t0
            alive = server.proc.poll() is None
            log = server.log_size()
            said = "".join(server.out).split("Stop with Ctrl+C.\n", 1)[-1]
        finally:
            server.stop()
    fds = f"{args.fds} file descriptors" if args.fds else "the system's file descriptors"
    print(f"companion serve on 127.0.0.1 with {fds}; {args.slow} slow "
          f"sockets (a byte a second each); {args.draws} draws posted one by one "
          f"({elapsed:.0f} s in all)")
    print(line("baseline draw (no slow socket)", base))
    print(line(f"draw with {args.slow} slow sockets", load))
    print(f"ratio p50 under slow sockets / baseline: "
          f"{statistics.median(load) / statistics.median(base):.2f}x")
    print(f"draws not answered in 5 s: {failed} (baseline {base_failed})")
    print(f"slow connections opened (the server closes them; they come back): {opened}")
    print(f"server log and output: {log:,} bytes; server still running: {alive}")
    if said.strip():
        print("the server's log:\n  " + "\n  ".join(said.strip().splitlines()[:12]))
    worst = max(load) * 1000
    met = worst < 1000 and not failed
    print(f"target every draw < 1 s: {'met' if met else 'MISSED'} ({worst:.0f} ms); "
          f"log < 1 MB: {'met' if log < 1_000_000 else 'MISSED'}")
    return 0 if met and log < 1_000_000 else 1  # a missed target is a failing run


if __name__ == "__main__":
    raise SystemExit(main())
