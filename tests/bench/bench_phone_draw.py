"""Benchmark: the phone bag draw under load, against a real `companion serve` on loopback.

Run: python tests/bench/bench_phone_draw.py [--phones 50] [--draws 1000]
Target (issue 5): with 50 phones holding event streams, 1,000 draws posted one after
another; every phone receives every draw; draw latency p99 under 50 ms.
Baseline, same run: the same server answering draws with no phone connected.
"""

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.web import BAG, Server  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Phone:
    """One event stream on a raw socket (light, so that 50 of them leave the CPU to the
    server): records when each draw id arrives."""

    def __init__(self, server: Server):
        self.server, self.got, self.ready = server, {}, asyncio.Event()

    async def run(self, want: int) -> None:
        host, port = "127.0.0.1", self.server.port
        reader, writer = await asyncio.open_connection(host, port)
        path = self.server.api("events").split(f":{port}", 1)[1]
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        event = None
        while len(self.got) < want:
            line = (await reader.readline()).decode().rstrip("\r\n")
            if line.startswith("event: "):
                event = line[7:]
                if event == "hello":
                    self.ready.set()
            elif line.startswith("data: ") and event == "draw":
                # Chunked framing lines carry no "data: " prefix, so they are skipped.
                self.got[json.loads(line[6:])["draw"]["id"]] = time.perf_counter()
        writer.close()


async def post_draws(server: Server, n: int, first_id: int) -> tuple[list[float], dict]:
    latencies, sent = [], {}
    async with httpx.AsyncClient() as client:
        for i in range(n):
            t = time.perf_counter()
            r = await client.post(server.api("draw"), json={"guild": "forge", "bag": BAG},
                                  headers={"Idempotency-Key": f"bench-{first_id}-{i}"})
            latencies.append(time.perf_counter() - t)
            r.raise_for_status()
            sent[r.json()["id"]] = t
    return latencies, sent


async def measure(server: Server, phones: int, draws: int, first_id: int) -> dict:
    crowd = [Phone(server) for _ in range(phones)]
    tasks = [asyncio.create_task(p.run(draws)) for p in crowd]
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in crowd)), 30)
    t0 = time.perf_counter()
    latencies, sent = await post_draws(server, draws, first_id)
    elapsed = time.perf_counter() - t0
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    delays = [p.got[i] - sent[i] for p in crowd for i in sent]
    complete = all(set(p.got) == set(sent) for p in crowd)
    return {"latency": latencies, "delay": delays, "complete": complete,
            "rate": draws / elapsed}


def line(name: str, xs: list[float]) -> str:
    ms = [x * 1000 for x in xs]
    return (f"{name:<28} p50 {pct(ms, 50):6.2f} ms   p99 {pct(ms, 99):6.2f} ms   "
            f"max {max(ms):7.2f} ms   (n={len(ms)})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phones", type=int, default=50)
    ap.add_argument("--draws", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.sqlite3").start()
        try:
            base = asyncio.run(measure(server, 0, 200, 0))
            load = asyncio.run(measure(server, args.phones, args.draws, 1))
        finally:
            server.stop()
    print(f"companion serve on loopback, SQLite WAL synchronous=FULL; "
          f"{args.phones} phones on event streams, {args.draws} draws posted one by one")
    print(line("baseline draw (no phone)", base["latency"]))
    print(line(f"draw with {args.phones} phones", load["latency"]))
    print(line("event delivery delay", load["delay"]))
    print(f"every phone received every draw: {load['complete']}")
    print(f"draws per second: {load['rate']:.0f} (baseline {base['rate']:.0f})")
    ratio = statistics.median(load["latency"]) / statistics.median(base["latency"])
    print(f"ratio p50 with phones / baseline: {ratio:.2f}x")
    p99 = pct(load["latency"], 99) * 1000
    print(f"target p99 < 50 ms: {'met' if p99 < 50 else 'MISSED'} ({p99:.1f} ms)")


if __name__ == "__main__":
    main()
