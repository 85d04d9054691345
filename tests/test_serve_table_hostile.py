"""The phone table's file under a careless or hostile machine: a second server reaching the
same file by a hard link, a full disk, names the fonts cannot draw, a damaged row. Against
a real `companion serve` on 127.0.0.1."""

import io
import os
import sqlite3
import subprocess
import sys
import threading

import httpx
import pytest

from tests import needs
from tests.web import ROOT, Server, serve_once


def test_a_second_server_on_a_hard_link_to_the_table_is_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = Server(tmp_path / "a" / "table.sqlite3").start()
    try:
        link = tmp_path / "b" / "same.sqlite3"
        os.link(first.data, link)
        second = serve_once("--data", link, "--host", "127.0.0.1")
        assert second.returncode == 2, second.stderr
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in second.stderr
        assert str(link) in lines[0] and "another process is serving this table" in lines[0]
        # The first server's table is whole: every acknowledged draw is there.
        made = [first.draw(key=f"k{i}").json()["id"] for i in range(4)]
        assert [d["id"] for d in first.state()["draws"]] == made
    finally:
        first.stop()
    assert not any(p.name.endswith(".lock") for p in (tmp_path / "a").iterdir())


def _tiny_disk(tmp_path):
    """A server whose table lives on a 512 KB filesystem of its own (a tmpfs in a mount
    namespace of its own, made without being root); the test fills it through
    /proc/PID/root."""
    unshare = needs.tool("unshare")
    probe = subprocess.run([unshare, "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("this system allows no user namespace (unshare -rm)")
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = f"mount -t tmpfs -o size=512k tmpfs {disk} && exec \"$@\""
    return Server(disk / "table.sqlite3", wrap=[unshare, "-rm", "sh", "-c", mount, "sh"])


def test_a_full_disk_is_a_503_saying_so_and_loses_nothing_acknowledged(tmp_path):
    server = _tiny_disk(tmp_path).start()
    try:
        ok = [server.draw(key=f"before-{i}").json()["id"] for i in range(2)]
        filler = f"/proc/{server.proc.pid}/root{server.data.parent}/filler"
        with open(filler, "wb") as f:  # fill the table's disk to the last byte
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        for call in (lambda: server.draw(key="full"),
                     lambda: httpx.post(server.api("undo"), json={}),
                     lambda: httpx.post(server.api("coverta/rounds"), json={
                         "hands": {"Ana": 0, "Bo": 2}}, headers={"Idempotency-Key": "r"})):
            r = call()
            assert r.status_code == 503, r.text
            assert r.json()["why"]["code"] == "web.disk_full"
            assert "disk" in r.json()["error"]
        os.unlink(filler)
        again = server.draw(key="after").json()["id"]
        assert [d["id"] for d in server.state()["draws"] if not d["undone"]] == [*ok, again]
    finally:
        server.stop()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "table.sqlite3").start()
    yield s
    s.stop()


def test_the_score_book_prints_names_the_font_cannot_draw_as_boxes_and_says_so(server):
    from pypdf import PdfReader

    for name, red in (("李", 1), ("👨‍👩‍👧", 2), ("🇫🇷 Zoé", 3)):
        httpx.put(server.api(f"covenia/players/{name}"),
                  json={"area": {"red": [red]}}).raise_for_status()
    r = httpx.get(server.api("covenia/scorebook.pdf"), timeout=30)
    assert r.status_code == 200 and r.content.startswith(b"%PDF-")
    text = PdfReader(io.BytesIO(r.content)).pages[0].extract_text()
    assert "\x00" not in text  # no empty glyph
    assert "□□□" in text and "□□ Zoé" in text
    assert "a character of a name that the bundled font cannot print" in text


def test_a_damaged_kept_answer_is_a_503_never_a_500(server):
    httpx.post(server.api("coverta/rounds"), json={"hands": {"Ana": 0, "Bo": 2}},
               headers={"Idempotency-Key": "r1"}).raise_for_status()
    with sqlite3.connect(server.data) as conn:  # someone edits the file meanwhile
        conn.execute("UPDATE answered SET result = '{not json' WHERE idem_key = 'coverta:r1'")
    r = httpx.post(server.api("coverta/rounds"), json={"hands": {"Ana": 0, "Bo": 2}},
                   headers={"Idempotency-Key": "r1"})
    assert r.status_code == 503 and r.json()["why"]["code"] == "web.damaged_answer"
    assert len(httpx.get(server.api("coverta")).json()["rounds"]) == 1


def test_a_table_file_with_a_damaged_kept_answer_is_refused_at_start_in_one_line(tmp_path):
    s = Server(tmp_path / "table.sqlite3").start()
    httpx.post(s.api("coverta/rounds"), json={"hands": {"Ana": 0, "Bo": 2}},
               headers={"Idempotency-Key": "r1"}).raise_for_status()
    s.stop()
    with sqlite3.connect(s.data) as conn:
        conn.execute("UPDATE answered SET result = 'x' WHERE idem_key = 'coverta:r1'")
    again = serve_once("--data", s.data, "--host", "127.0.0.1")
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and str(s.data) in again.stderr
