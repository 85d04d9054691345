"""Slow and idle clients cannot take the table down: requests have a deadline, open
connections a bound (the longest-waiting one makes room), answers in progress (event
streams) are never cut, and the log stays small."""

import asyncio
import socket
import threading
import time

import httpx
import pytest

from tests.web import Server, read_events, slow_sockets

SLOW = 150  # slow sockets, more than the server's file descriptors below
FDS = 128  # as a small system allows (macOS: 256), soft and hard


def test_slow_sockets_beyond_the_descriptors_leave_draws_fast_and_the_log_small(tmp_path):
    s = Server(tmp_path / "t.sqlite3", fd_limit=FDS).start()
    events, ready = [], threading.Event()
    phone = threading.Thread(target=read_events, args=(s.api("events"), 8, events, ready, 40))
    phone.start()
    assert ready.wait(10)
    latencies, opened = [], []

    async def attack_and_draw() -> None:
        stop = asyncio.Event()
        crowd = asyncio.create_task(slow_sockets(s.port, SLOW, stop, opened))
        await asyncio.sleep(2)  # every slow socket is open and dripping
        async with httpx.AsyncClient(timeout=5) as phone_b:
            for i in range(8):
                t = time.perf_counter()
                r = await phone_b.post(s.api("draw"), json={"guild": "forge", "bag": {
                    "red": 8}}, headers={"Idempotency-Key": f"slow-{i}"})
                latencies.append(time.perf_counter() - t)
                assert r.status_code == 200
                await asyncio.sleep(0.4)
        stop.set()
        await asyncio.wait_for(crowd, 10)

    try:
        asyncio.run(attack_and_draw())
        phone.join(10)
        # their latency against no attack is bench_slow_clients.py's figure
        assert len(latencies) == 8, latencies
        assert [e["draw"]["id"] for _, e in events] == list(range(1, 9))  # the stream lived
        assert len(opened) > SLOW  # the server closed slow sockets to make room
        assert s.proc.poll() is None
        log = "".join(s.out)
        assert s.log_size() < 20_000, log[-3000:]
        assert "Traceback" not in log
    finally:
        s.stop()


# ---- the protocol itself, on an in-process uvicorn with short timings -----------------

@pytest.fixture
def uvicorn_with(request):
    """start(app, limit, timeout) -> port of a uvicorn serving `app` on 127.0.0.1 with the
    guarded protocol; stopped after the test."""
    import uvicorn

    from companion.web import limits, network

    servers = []

    def start(app, limit: int, timeout: float) -> int:
        sock = network.listening_socket("127.0.0.1", 0)
        server = uvicorn.Server(uvicorn.Config(app, http=limits.protocol(limit, timeout),
                                               ws="none", log_level="critical",
                                               lifespan="off"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        servers.append((server, thread))
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.05)
        return sock.getsockname()[1]

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


async def hello(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


async def stream(scope, receive, send):
    """An answer that takes 3 s, a part every 0.5 s (like an event stream)."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    for _ in range(6):
        await send({"type": "http.response.body", "body": b"tick\n", "more_body": True})
        await asyncio.sleep(0.5)
    await send({"type": "http.response.body", "body": b""})


def closed_after(sock: socket.socket, drip: bytes, limit: float) -> float | None:
    """Send `drip` a byte every 0.2 s; seconds until the server closed, None if not by
    `limit`."""
    t0 = time.monotonic()
    sock.settimeout(0.2)
    i = 0
    while time.monotonic() - t0 < limit:
        try:
            if i < len(drip):
                sock.send(drip[i:i + 1])
                i += 1
            if sock.recv(100) == b"":
                return time.monotonic() - t0
        except socket.timeout:
            continue
        except OSError:
            return time.monotonic() - t0
    return None


@pytest.mark.parametrize("drip", [b"", b"GET / HTTP/1.1\r\nHost: a\r\nX: " + b"y" * 50,
                                  b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99\r\n\r\n"
                                  + b"{" * 60],
                         ids=["silent", "head-a-byte-at-a-time", "body-a-byte-at-a-time"])
def test_a_request_not_whole_by_the_deadline_is_cut_off(uvicorn_with, drip):
    port = uvicorn_with(hello, limit=50, timeout=1.0)
    with socket.create_connection(("127.0.0.1", port)) as sock:
        took = closed_after(sock, drip, limit=60)  # a hang guard only
    assert took is not None and took > 0.8  # never before its deadline


def test_an_answer_in_progress_outlives_the_deadline(uvicorn_with):
    port = uvicorn_with(stream, limit=50, timeout=1.0)
    r = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
    assert r.text == "tick\n" * 6  # 3 s of answer, three times the deadline


def test_the_longest_waiting_connection_makes_room_for_a_new_one(uvicorn_with):
    port = uvicorn_with(hello, limit=5, timeout=30)
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
    time.sleep(0.3)
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).text == "hello"
        idle[0].settimeout(2)
        assert idle[0].recv(10) == b""  # the oldest silent one was closed
        idle[-1].settimeout(0.3)
        with pytest.raises(socket.timeout):
            idle[-1].recv(10)  # the newer ones wait on
    finally:
        for s in idle:
            s.close()


def test_a_phone_between_two_requests_is_not_the_one_that_makes_room(uvicorn_with):
    port = uvicorn_with(hello, limit=4, timeout=30)
    with httpx.Client(timeout=5) as phone:
        assert phone.get(f"http://127.0.0.1:{port}/").text == "hello"  # kept alive
        time.sleep(0.2)  # the phone's connection is now the longest waiting...
        crowd = [socket.create_connection(("127.0.0.1", port)) for _ in range(6)]
        try:
            time.sleep(0.3)
            # ...but the silent sockets that never had an answer made room, not it.
            assert phone.get(f"http://127.0.0.1:{port}/").text == "hello"
            assert phone.get(f"http://127.0.0.1:{port}/").text == "hello"
        finally:
            for s in crowd:
                s.close()


def test_when_every_connection_is_answering_a_new_one_is_refused(uvicorn_with):
    port = uvicorn_with(stream, limit=2, timeout=30)
    got = []
    readers = [threading.Thread(target=lambda: got.append(
        httpx.get(f"http://127.0.0.1:{port}/", timeout=10).text)) for _ in range(2)]
    for t in readers:
        t.start()
    time.sleep(0.5)
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/", timeout=3)
    for t in readers:
        t.join(10)
    assert got == ["tick\n" * 6] * 2  # the answers in progress were not cut


def test_the_guard_wraps_uvicorns_own_protocol_and_subclasses_none_of_its_classes():
    """uvicorn's protocol classes are not its public API: the guard wraps the one
    Config(http="h11") names, and reads the bytes with h11's public parser."""
    from companion.web import limits

    guarded = limits.protocol(5, 1.0)
    assert [c for c in guarded.__mro__ if c.__module__.startswith("uvicorn")] == []
    assert guarded.inner.__module__.startswith("uvicorn.protocols.http")


def test_after_a_head_and_a_pipelined_get_are_answered_the_idle_connection_is_cut(
        uvicorn_with):
    """The guard follows each answer to its end (a HEAD's has no body; two requests sent
    at once are answered in turn): then the connection waits for a request again, and
    is cut at the deadline, well before uvicorn's own keep-alive timeout (5 s)."""
    port = uvicorn_with(hello, limit=50, timeout=1.0)
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        sock.settimeout(3)
        got = b""
        while got.count(b"HTTP/1.1 200") < 2 or not got.endswith(b"0\r\n\r\n"):
            got += sock.recv(4096)
        took = closed_after(sock, b"", limit=4.5)
    assert got.count(b"hello") == 1
    # cut by the guard (1 s), never before it; uvicorn's own cut would come at 5 s
    assert took is not None and took > 0.8


def test_a_repeated_log_message_is_written_once_a_minute_without_traceback():
    import logging

    from companion.web.limits import OncePerMinute

    f = OncePerMinute()
    try:
        raise OSError(24, "Too many open files")
    except OSError:
        import sys

        info = sys.exc_info()
    records = [logging.LogRecord("asyncio", logging.ERROR, "", 0,
                                 "socket.accept() out of system resource", None, info)
               for _ in range(1000)]
    passed = [r for r in records if f.filter(r)]
    assert len(passed) == 1 and passed[0].exc_info is None
