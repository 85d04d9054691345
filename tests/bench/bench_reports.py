"""Benchmark: the table's reports off the event loop (issue 50), against a real
`companion serve` on 127.0.0.1 (all traffic stays on loopback).

Run: python tests/bench/bench_reports.py [--games 1500] [--reports 200] [--states 200]
A table holding --games closed games (4 players each); a phone asks /api/state
--states times, 10 at a time. Baseline, same run: the state requests alone. Then the same
while --reports requests for /api/playtest and /api/history.csv (half each) arrive at once,
the flood started again as each wave ends. Printed: p99 of /api/state under the flood over
p99 alone (target: <= 3x), and the CPU seconds the server spent in each phase.
"""

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.bench_slow_clients import pct  # noqa: E402
from tests.web import Server  # noqa: E402


def fill(data: Path, games: int) -> None:
    """A table file with `games` closed plays of a designer's game (seats, factions,
    figures), as the phones would have recorded them."""
    from companion.web import look
    from companion.web.store import Store

    store = Store.open(data, list(look.load().guilds), None, None,
                       [{"colour": "red", "name": ""}])
    try:
        for k in range(games):
            names = [f"P{s}" for s in range(1, 5)]
            store.close_game("tidepool", {
                "players": names, "scores": {n: 10 + (k * 7 + i) % 13 for i, n in
                                             enumerate(names)},
                "winners": [names[k % 4]], "version": f"0.{k % 3}",
                "seats": {n: i + 1 for i, n in enumerate(names)},
                "factions": {n: ("reef", "kelp", "dune", "moor")[(k + i) % 4]
                             for i, n in enumerate(names)},
                "minutes": 30 + k % 40,
                "figures": {n: {"creatures": (k + i) % 9, "pairs": i} for i, n in
                            enumerate(names)}})
    finally:
        store.close()


def cpu_of(pid: int) -> float:
    """The server's CPU seconds so far (user + system), from /proc."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def states(client: httpx.AsyncClient, server: Server, n: int) -> list[float]:
    out: list[float] = []

    async def one():
        t = time.perf_counter()
        r = await client.get(server.api("state"))
        r.raise_for_status()
        out.append(time.perf_counter() - t)

    for _ in range(0, n, 10):
        await asyncio.gather(*(one() for _ in range(10)))
    return out


async def _flood(link: str, n: int, stop, counted) -> None:
    paths = [f"{link}/api/playtest?game=tidepool&version=all", f"{link}/api/history.csv"]
    limits = httpx.Limits(max_connections=n + 20)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        while not stop.is_set():
            rs = await asyncio.gather(*(client.get(paths[i % 2]) for i in range(n)),
                                      return_exceptions=True)
            with counted.get_lock():
                counted.value += sum(getattr(r, "status_code", 0) == 200 for r in rs)


def flood(link: str, n: int, stop, counted) -> None:
    """In a process of its own: the flood's client (reading 100 CSVs a wave) never
    slows the phone's."""
    asyncio.run(_flood(link, n, stop, counted))


def during(server: Server, reports: int, n: int) -> tuple[list[float], int]:
    import multiprocessing as mp

    stop, counted = mp.Event(), mp.Value("i", 0)
    crowd = mp.Process(target=flood, args=(server.link, reports, stop, counted))
    crowd.start()
    try:
        while counted.value == 0 and crowd.is_alive():  # the first wave answered
            time.sleep(0.05)
        return asyncio.run(alone(server, n)), counted.value
    finally:
        stop.set()
        crowd.join(120)


async def alone(server: Server, n: int) -> list[float]:
    async with httpx.AsyncClient(timeout=120) as phone:
        return await states(phone, server, n)


def main() -> int:
    import statistics

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--reports", type=int, default=200)
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "bench.sqlite3"
        fill(data, args.games)
        server = Server(data).start()
        try:
            pid = server.proc.pid
            asyncio.run(alone(server, 20))  # warm
            for _ in range(args.rounds):  # alone, then flooded, again: a loaded machine's
                c0 = cpu_of(pid)          # noise shows in the spread of the ratios
                base = asyncio.run(alone(server, args.states))
                c1 = cpu_of(pid)
                load, answered = during(server, args.reports, args.states)
                c2 = cpu_of(pid)
                b99, l99 = pct(base, 99) * 1000, pct(load, 99) * 1000
                print(f"/api/state alone:          p50 {pct(base, 50) * 1000:7.2f} ms  "
                      f"p99 {b99:7.2f} ms  (server CPU {c1 - c0:.2f} s)")
                print(f"/api/state during reports: p50 {pct(load, 50) * 1000:7.2f} ms  "
                      f"p99 {l99:7.2f} ms  (server CPU {c2 - c1:.2f} s, {answered} "
                      "reports answered)")
                ratios.append(l99 / b99)
        finally:
            server.kill()
    ratio = statistics.median(ratios)
    print(f"ratio p99 during / alone: {ratio:.2f}x, the median of "
          f"{', '.join(f'{r:.2f}' for r in ratios)} (target <= 3x)")
    return 0 if ratio <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
