"""Benchmark: Covenia end scores from the table's phones under load, against a real
`companion serve` on loopback.

Run: python tests/bench/bench_phone_scoring.py [--phones 50] [--players 10] [--edits 100]
Target (issue 15): 50 phones on event streams while 10 players make 100 area edits each
(concurrently; Covenia seats 4, so the 10 editing phones share the 4 entries): every phone
receives every update; p50 and p99 of an edit's answer, p99 under 50 ms on loopback.
Baseline, same run: the same edits with no phone connected.
"""

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.bench_phone_draw import line, pct  # noqa: E402
from tests.web import Server  # noqa: E402

CLANS = ("red", "yellow", "green", "blue", "purple")


class Phone:
    """One event stream on a raw socket: counts the Covenia updates it receives."""

    def __init__(self, server: Server):
        self.server, self.got, self.ready = server, 0, asyncio.Event()

    async def run(self, want: int) -> None:
        host, port = "127.0.0.1", self.server.port
        reader, writer = await asyncio.open_connection(host, port)
        path = self.server.api("events").split(f":{port}", 1)[1]
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        while self.got < want:
            text = (await reader.readline()).decode().rstrip("\r\n")
            if text == "event: hello":
                self.ready.set()
            elif text == "event: covenia":
                self.got += 1
        writer.close()


async def edits(server: Server, player: int, n: int) -> list[float]:
    seat = player % 4
    latencies = []
    async with httpx.AsyncClient() as client:
        for k in range(n):
            values = list(range(1, k % 10 + 2))
            t = time.perf_counter()
            r = await client.put(server.api(f"covenia/players/P{seat}"),
                                 json={"area": {CLANS[seat]: values}, "hand": {}})
            latencies.append(time.perf_counter() - t)
            r.raise_for_status()
    return latencies


async def measure(server: Server, phones: int, players: int, n: int) -> dict:
    crowd = [Phone(server) for _ in range(phones)]
    tasks = [asyncio.create_task(p.run(players * n)) for p in crowd]
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in crowd)), 30)
    t0 = time.perf_counter()
    per_player = await asyncio.gather(*(edits(server, i, n) for i in range(players)))
    elapsed = time.perf_counter() - t0
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    return {"latency": [x for xs in per_player for x in xs],
            "complete": all(p.got == players * n for p in crowd),
            "rate": players * n / elapsed}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phones", type=int, default=50)
    ap.add_argument("--players", type=int, default=10)
    ap.add_argument("--edits", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.sqlite3").start()
        try:
            base = asyncio.run(measure(server, 0, args.players, 20))
            load = asyncio.run(measure(server, args.phones, args.players, args.edits))
        finally:
            server.stop()
    print(f"companion serve on loopback, SQLite WAL synchronous=FULL; {args.phones} phones "
          f"on event streams, {args.players} players making {args.edits} Covenia area edits "
          "each, concurrently")
    print(line("baseline edit (no phone)", base["latency"]))
    print(line(f"edit with {args.phones} phones", load["latency"]))
    print(f"every phone received every update: {load['complete']}")
    print(f"edits per second: {load['rate']:.0f} (baseline {base['rate']:.0f})")
    p99 = pct(load["latency"], 99) * 1000
    print(f"target p99 < 50 ms: {'met' if p99 < 50 else 'MISSED'} ({p99:.1f} ms)")


if __name__ == "__main__":
    main()
