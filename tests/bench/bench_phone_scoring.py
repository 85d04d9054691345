"""Benchmark: Covenia end scores from the table's phones under load, against a real
`companion serve` on loopback.

Run: python tests/bench/bench_phone_scoring.py [--phones 50] [--players 10] [--edits 100]
                                                [--rounds 3]
Target (issue 15): 50 phones on event streams while 10 players make 100 area edits each
(concurrently; Covenia seats 4, so the 10 editing phones share the 4 entries): every phone
receives every update; p50 and p99 of an edit's answer, p99 under 50 ms on loopback.
Target (issue 34): the p99 with 50 phones within 1.3x the baseline p99 of the same run.
Each phone does what the page does on an update (games.js, explanations()): it shows the
figures explained that the update carries in its language (en and fr alternate between
phones), or waits for the next update when the update says they follow it (a burst's
updates in one write: only the last carries them); only an update without them makes it
ask for `covenia/explained`, one request at a time and at most one per GAP (an update
meanwhile asks again once it is answered).
The phones read their streams as the page gets them: several events may come in one write
(the server sends a burst of changes at most once per WINDOW, 50 ms), each one looked at.
Baseline, same run: the same edits with no phone connected, after a warm-up; `--rounds`
baselines and loads alternate (the machine's other work falls on both alike), their
latencies pooled.
Measured on a 2-core VM (server, phones and editors on the same two cores, other work on
the machine): baseline p50 10 ms, p99 19-20 ms; with 50 phones p50 12-14 ms, p99 29-34 ms
(before the server sent bursts once per window and the phones read in chunks: p99 28-37
ms on the same machine, 48-53 ms when it was busier; before the explained answer was
cached and the page's requests coalesced: p99 1.25 s). What remains over the baseline is
mostly the 50 explained requests all phones make at once on an update (~12 ms to answer).
Issue 34, same machine shared with other sessions (load 2.8-4.6), 8 runs of this benchmark
(3 rounds each) alternating main before (the phones asking: 1200-2850 explained answers a
run) and the figures in the updates (none asked): p99 ratio 1.29-2.15x, median 1.71x,
before; 1.06-1.48x, median 1.34x, after (3 of 8 runs within 1.3x); the server's CPU over
the baseline's, per 1000 edits, 0.25-0.79 s (mean 0.50) before, 0.17-0.39 s (mean 0.27)
after. A Covenia update: 1.1 KB before, 1.34-1.49 KB on average after (3.7 KB with the
figures of 4 players in both languages, on the last update of each write). What remains is
the streams' own writes (one a phone a 25 ms window): with WINDOW at 50 ms, 0.08-0.11 s.
WINDOW is now 50 ms (a phone sees a change at most 50 ms late): three runs on a quieter
machine (load 1-2): p99 ratio 1.19x, 1.26x, 1.09x, against 1.38x with 25 ms just before.
"""

import argparse
import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.bench_phone_draw import line, pct  # noqa: E402
from tests.web import Server  # noqa: E402

CLANS = ("red", "yellow", "green", "blue", "purple")
GAP = 0.25  # seconds between two of a page's requests for the figures (games.js)


class Phone:
    """One event stream on a raw socket: counts the Covenia updates it receives, and on
    each one that does not carry the figures explained in its language asks for them as
    the page does (one request pending at most)."""

    def __init__(self, link: str, lang: str):
        self.lang, self.got, self.ready = lang, 0, asyncio.Event()
        self.carried = f'"{lang}": {{"texts": '.encode()  # the update's own figures
        self.follows = b'"explained": "follows"'  # the next update in this write has them
        self.read = 0  # bytes of the stream
        self.sizes: list[int] = []  # each Covenia update's bytes
        origin, token = link.split("/t/", 1)
        self.port, self.path = int(origin.rsplit(":", 1)[1]), f"/t/{token}"
        self.conn = None
        self.last = 0.0
        self.asked = 0
        self.pending: asyncio.Task | None = None
        self.again = False

    async def get(self) -> None:
        """One GET of the figures explained on the phone's kept-alive connection (a raw
        socket, light, so that the phones leave the CPU to the server)."""
        if self.conn is None:
            self.conn = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.conn
        writer.write(f"GET {self.path}/api/covenia/explained?lang={self.lang} HTTP/1.1\r\n"
                     f"Host: 127.0.0.1:{self.port}\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"explained answered {status!r}")
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        await reader.readexactly(length)

    async def explain(self) -> None:
        while True:
            await asyncio.sleep(max(0.0, self.last + GAP - time.monotonic()))
            self.again = False
            self.last = time.monotonic()
            await self.get()
            self.asked += 1
            if not self.again:
                return

    def updated(self) -> None:
        if self.pending and not self.pending.done():
            self.again = True
        else:
            self.pending = asyncio.create_task(self.explain())

    async def run(self, want: int) -> None:
        host, port = "127.0.0.1", self.port
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET {self.path}/api/events HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        # The stream read as it comes (the server sends a burst of changes in one write),
        # cut into its events (a blank line ends one; an event cut between two reads
        # kept), each Covenia update looked at for its figures (found as bytes: the phones
        # must leave the CPU to the server).
        hello, update, end = b"event: hello\r\n", b"event: covenia\r\n", b"\r\n\r\n"
        tail = b""
        while self.got < want:
            data = await reader.read(1 << 16)
            if not data:
                raise RuntimeError("the event stream ended")
            self.read += len(data)
            *events, tail = (tail + data).split(end)
            for event in events:
                if not self.ready.is_set() and hello in event:
                    self.ready.set()
                if update in event:
                    self.got += 1
                    self.sizes.append(len(event) + len(end))
                    if self.carried not in event and self.follows not in event:
                        self.updated()
        if self.pending:
            await self.pending
        writer.close()
        if self.conn:
            self.conn[1].close()


async def edits(server: Server, player: int, n: int) -> list[float]:
    seat = player % 4
    latencies = []
    async with httpx.AsyncClient() as client:
        # The phone's connection is open before it edits (a page has loaded the game):
        # an edit's answer is timed, not the client's first connection (~250 ms here).
        (await client.get(server.api("covenia"))).raise_for_status()
        for k in range(n):
            values = list(range(1, k % 10 + 2))
            t = time.perf_counter()
            r = await client.put(server.api(f"covenia/players/P{seat}"),
                                 json={"area": {CLANS[seat]: values}, "hand": {}})
            latencies.append(time.perf_counter() - t)
            r.raise_for_status()
    return latencies


async def crowd(link: str, phones: int, want: int, pipe) -> None:
    """The phones, in a process of their own (real phones are other machines: their work
    must not delay the editors' clocks)."""
    crowd = [Phone(link, ("en", "fr")[i % 2]) for i in range(phones)]
    tasks = [asyncio.create_task(p.run(want)) for p in crowd]
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in crowd)), 30)
    pipe.send("ready")
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    sizes = [n for p in crowd for n in p.sizes]
    pipe.send({"complete": all(p.got == want for p in crowd),
               "asked": sum(p.asked for p in crowd),
               "event": sum(sizes) / len(sizes), "biggest": max(sizes),
               "read": sum(p.read for p in crowd) / phones})


def cpu(server: Server) -> float:
    """The seconds of CPU the server has used so far (Linux; 0 elsewhere): a measure the
    machine's other work does not change, as it changes latencies."""
    try:
        fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phones_main(link: str, phones: int, want: int, pipe) -> None:
    asyncio.run(crowd(link, phones, want, pipe))


async def measure(server: Server, phones: int, players: int, n: int) -> dict:
    here, there = multiprocessing.Pipe()
    child = None
    if phones:
        child = multiprocessing.get_context("spawn").Process(
            target=phones_main, args=(server.link, phones, players * n, there))
        child.start()
        if not here.poll(60) or here.recv() != "ready":
            raise RuntimeError("the phones did not connect")
    t0, cpu0 = time.perf_counter(), cpu(server)
    per_player = await asyncio.gather(*(edits(server, i, n) for i in range(players)))
    elapsed = time.perf_counter() - t0
    seen = {"complete": True, "asked": 0, "event": 0, "biggest": 0, "read": 0}
    if child:
        if not here.poll(120):
            raise RuntimeError("the phones did not receive every update")
        seen = here.recv()
        child.join(10)
    return {"latency": [x for xs in per_player for x in xs], **seen,
            "rate": players * n / elapsed, "cpu": cpu(server) - cpu0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phones", type=int, default=50)
    ap.add_argument("--players", type=int, default=10)
    ap.add_argument("--edits", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    bases, loads = [], []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.sqlite3").start()
        try:
            asyncio.run(measure(server, 0, args.players, 20))  # warm-up: imports, caches
            for _ in range(args.rounds):
                bases.append(asyncio.run(measure(server, 0, args.players, args.edits)))
                loads.append(asyncio.run(measure(server, args.phones, args.players,
                                                 args.edits)))
        finally:
            server.stop()
    base = [x for b in bases for x in b["latency"]]
    load = [x for b in loads for x in b["latency"]]
    updates = args.rounds * args.players * args.edits
    print(f"companion serve on loopback, SQLite WAL synchronous=FULL; {args.phones} phones "
          f"on event streams, {args.players} players making {args.edits} Covenia area edits "
          f"each, concurrently; {args.rounds} rounds of each, alternating")
    print(line("baseline edit (no phone)", base))
    print(line(f"edit with {args.phones} phones", load))
    print(f"every phone received every update: {all(b['complete'] for b in loads)}")
    print(f"covenia/explained answered to the phones: {sum(b['asked'] for b in loads)} "
          f"({updates} updates x {args.phones} phones)")
    print(f"a Covenia update on the stream: {sum(b['event'] for b in loads) / len(loads):.0f} "
          f"bytes on average, {max(b['biggest'] for b in loads)} at most; each phone read "
          f"{sum(b['read'] for b in loads) / len(loads) / 1e6:.1f} MB of stream per round")
    print(f"edits per second: {sum(b['rate'] for b in loads) / len(loads):.0f} "
          f"(baseline {sum(b['rate'] for b in bases) / len(bases):.0f})")
    print(f"server CPU per round: {sum(b['cpu'] for b in loads) / len(loads):.2f} s with "
          f"phones (baseline {sum(b['cpu'] for b in bases) / len(bases):.2f} s)")
    rounds = ", ".join(f"{pct(b['latency'], 99) * 1000:.1f}/{pct(a['latency'], 99) * 1000:.1f}"
                       for a, b in zip(bases, loads))
    print(f"p99 per round, phones/baseline (ms): {rounds}")
    ratio = pct(load, 99) / pct(base, 99)
    print(f"p99 with phones / baseline p99 (same run): {ratio:.2f}x "
          f"(target 1.3x: {'met' if ratio <= 1.3 else 'MISSED'})")
    p99 = pct(load, 99) * 1000
    print(f"target p99 < 50 ms: {'met' if p99 < 50 else 'MISSED'} ({p99:.1f} ms)")


if __name__ == "__main__":
    main()
