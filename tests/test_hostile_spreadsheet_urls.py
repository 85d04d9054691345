"""Hostile addresses and servers for a card list read from the web (companion/files/web_spreadsheet.py),
each through `companion build GAMEFILE`: one line naming the game file and its field, exit
2, never a traceback, within the download's one deadline (a server dripping a byte at a
time cannot hold a build); a body cut short is never cached; a password in an address is
never shown nor kept. Each server is a raw socket on 127.0.0.1 run by a thread of the
test: it answers a bounded number of connections and stops by itself."""

import socket
import threading
import time
from pathlib import Path

import pytest

from companion.files import web_spreadsheet

CSV = (b"kind,title,text,qty,points,icon,art\n"
       b"creature,Web Crab,Read from the web.,1,3,shell,\n")
SECRET = "hunter2"


class Raw:
    """A thread answering at most `most` connections on 127.0.0.1, each with
    `answer(conn, stop)` once the request's head is read. It stops by itself after
    `most` answers or 15 s, or when `stop` is set; `served` is set when it has stopped."""

    def __init__(self, answer, most: int = 1):
        self.answer, self.most = answer, most
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)  # so the loop sees `stop` and its own deadline
        self.port = self.sock.getsockname()[1]
        self.asked: list[bytes] = []
        self.stop, self.served = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        ends = time.monotonic() + 15
        try:
            while len(self.asked) < self.most and not self.stop.is_set() \
                    and time.monotonic() < ends:
                try:
                    conn, _ = self.sock.accept()
                except (socket.timeout, OSError):
                    continue
                with conn:
                    self._one(conn)
        finally:
            self.sock.close()
            self.served.set()

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        head = b""
        try:
            while b"\r\n\r\n" not in head and len(head) < 65536:
                part = conn.recv(4096)
                if not part:
                    break
                head += part
            self.asked.append(head.split(b"\r\n", 1)[0])
            self.answer(conn, self.stop)
        except OSError:
            pass  # the client went away: its worker killed at the deadline

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)


@pytest.fixture
def serve(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    servers: list[Raw] = []

    def start(answer, most: int = 1) -> Raw:
        servers.append(Raw(answer, most))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def _use(starter: Path, address: str) -> None:
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('cards = { spreadsheet = "cards.csv" }',
                                    f'cards = {{ spreadsheet = "{address}" }}', 1), encoding="utf-8")


def _head(*lines: str) -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _good(conn, stop):
    conn.sendall(_head("HTTP/1.1 200 OK", f"Content-Length: {len(CSV)}",
                       "Connection: close") + CSV)


def _refused_in_one_line(r, starter: Path, kit: Path) -> str:
    assert r.code == 2, r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err, r.err
    assert r.err.startswith(f"companion: {starter}: cards.spreadsheet: "), r.err
    assert not kit.exists()
    return r.err


def _cached(tmp_path: Path) -> list[Path]:
    """The card lists kept in the cache (its other folders keep icons, fonts, pictures)."""
    folder = tmp_path / "cache" / "sheets"
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_a_server_dripping_a_byte_at_a_time_fails_at_the_one_deadline(
        serve, starter, cli, tmp_path, monkeypatch):
    def drip(conn, stop):
        conn.sendall(_head("HTTP/1.1 200 OK", "Content-Length: 100000") + CSV[:20])
        for _ in range(600):  # at most 60 s of drip, a byte each 0.1 s
            if stop.wait(0.1):
                return
            conn.sendall(b"x")

    monkeypatch.setattr(web_spreadsheet, "TIMEOUT", 2)
    server = serve(drip)
    _use(starter, f"http://127.0.0.1:{server.port}/cards.csv")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    err = _refused_in_one_line(r, starter, tmp_path / "kit")
    assert "no whole answer within 2 s" in err and "no copy of it was read before" in err
    assert not _cached(tmp_path)


def _short(conn, stop):
    conn.sendall(_head("HTTP/1.1 200 OK", f"Content-Length: {len(CSV) * 5}") + CSV)


def test_a_body_short_of_its_content_length_is_an_error_never_cached(
        serve, starter, cli, tmp_path):
    server = serve(_short)
    _use(starter, f"http://127.0.0.1:{server.port}/cards.csv")
    err = _refused_in_one_line(cli("build", str(starter), "--out", str(tmp_path / "kit")),
                               starter, tmp_path / "kit")
    assert f"stopped after {len(CSV)} of the {len(CSV) * 5} bytes it announced" in err
    assert not _cached(tmp_path)


def test_a_body_cut_short_leaves_the_good_copy_read_before_and_uses_it(
        serve, starter, cli, tmp_path):
    from tests.pdfs import page_texts

    server = serve(lambda conn, stop: (_good if len(server.asked) == 1 else _short)(conn, stop),
                   most=2)  # the first build reads the whole list, the second a part
    _use(starter, f"http://127.0.0.1:{server.port}/cards.csv")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    copy = next(p for p in _cached(tmp_path) if p.suffix == ".csv")
    r = cli("build", str(starter), "--out", str(tmp_path / "again"))
    assert r.code == 0, r.err
    assert r.err.count("Note:") == 1 and "stopped after" in r.err and "using the copy" in r.err
    assert copy.read_bytes() == CSV
    assert "Web Crab" in " ".join(page_texts(tmp_path / "again" / "cards.pdf"))


@pytest.mark.parametrize("answer, says", [
    (_head("HTTP/1.1 200 OK", *(f"X-Many-{i}: y" for i in range(150))) + CSV,
     "over 100 headers"),
    (_head("HTTP/1.1 200 OK", "X-Big: " + "a" * 70_000) + CSV,
     "a line of its answer is over 65,536 bytes"),
    (b"GARBAGE 200 OK\r\nContent-Length: 3\r\n\r\nabc", "first line is not HTTP"),
    (_head("HTTP/1.1 200 OK", "Transfer-Encoding: chunked") + b"400\r\n" + CSV,
     "stopped before its last chunk"),
], ids=["over-100-headers", "64KB-header-line", "bad-status-line", "chunked-cut-short"])
def test_a_broken_answer_is_one_line_and_never_cached(serve, starter, cli, tmp_path,
                                                      answer, says):
    server = serve(lambda conn, stop: conn.sendall(answer))
    _use(starter, f"http://127.0.0.1:{server.port}/cards.csv")
    err = _refused_in_one_line(cli("build", str(starter), "--out", str(tmp_path / "kit")),
                               starter, tmp_path / "kit")
    assert says in err
    assert not _cached(tmp_path)


def test_an_address_with_a_password_is_refused_and_the_password_never_shown(
        serve, starter, cli, tmp_path):
    server = serve(_good)
    _use(starter, f"http://reader:{SECRET}@127.0.0.1:{server.port}/cards.csv")
    err = _refused_in_one_line(cli("build", str(starter), "--out", str(tmp_path / "kit")),
                               starter, tmp_path / "kit")
    assert SECRET not in err and "reader" not in err
    assert "user name or password" in err and f"http://127.0.0.1:{server.port}/cards.csv" in err
    assert server.asked == []  # refused before anything is sent
    assert not any(SECRET.encode() in p.read_bytes() for p in _cached(tmp_path))


def test_a_redirect_to_an_address_with_a_password_never_shows_it(serve, starter, cli,
                                                                  tmp_path):
    def redirect(conn, stop):
        conn.sendall(_head("HTTP/1.1 302 Found", "Content-Length: 0",
                           f"Location: http://reader:{SECRET}@127.0.0.1:{server.port}/x"))

    server = serve(redirect, most=2)
    _use(starter, f"http://127.0.0.1:{server.port}/cards.csv")
    err = _refused_in_one_line(cli("build", str(starter), "--out", str(tmp_path / "kit")),
                               starter, tmp_path / "kit")
    assert SECRET not in err and "user name or password" in err
    assert len(server.asked) == 1
    assert not any(SECRET.encode() in p.read_bytes() for p in _cached(tmp_path))


@pytest.mark.parametrize("address, says", [
    ("http://127.0.0.1:abc/cards.csv", "port"),
    ("http://127.0.0.1:99999/cards.csv", "port"),
    ("http://[127.0.0.1/x", "not an address"),
], ids=["non-numeric-port", "port-out-of-range", "open-bracket"])
def test_a_malformed_address_is_one_line(starter, cli, tmp_path, monkeypatch, address, says):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    _use(starter, address)
    err = _refused_in_one_line(cli("build", str(starter), "--out", str(tmp_path / "kit")),
                               starter, tmp_path / "kit")
    assert says in err
