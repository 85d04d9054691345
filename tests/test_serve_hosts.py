"""Which hosts and pages the table answers: IPv6 addresses, every address (0.0.0.0, ::),
the --name check, a foreign page's Origin and a body that is not exactly JSON."""

import os
import socket

import httpx
import pytest

from companion.web import network
from tests.web import BAG, Server, serve_once


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("hosts") / "t.sqlite3", "--name", "table.lan").start()
    yield s
    s.stop()


def require_ipv6() -> None:
    """Skip where the system has no IPv6 loopback; in CI (every test must run) fail."""
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return
    except OSError:
        pass
    if os.environ.get("CI") == "true":
        pytest.fail("this machine has no IPv6 loopback (::1), and CI must run every test")
    pytest.skip("this machine has no IPv6 loopback (::1)")


def test_an_ipv6_host_prints_a_link_that_answers(tmp_path):
    require_ipv6()
    s = Server(tmp_path / "t.sqlite3", host="::1").start()
    try:
        assert s.link.startswith("http://[::1]:")
        r = httpx.get(s.api("state"))  # Host: [::1]:PORT
        assert r.status_code == 200 and r.json()["draws"] == []
        assert httpx.get(s.link).status_code == 200
        d = s.draw("forge")
        assert d.status_code == 200
        # The phone page posts with its Origin: the same [::1]:PORT.
        r = httpx.post(s.api("undo"), json={}, headers={"Origin": s.origin})
        assert r.status_code == 200 and r.json()["undone"] == d.json()["id"]
        assert "Note: ::1 is this machine only" in "".join(s.out)
    finally:
        s.stop()


@pytest.mark.parametrize("everywhere", ["0.0.0.0", "::"])
def test_every_address_prints_a_link_phones_can_use_and_says_so(tmp_path, everywhere):
    if everywhere == "::":
        require_ipv6()
    found = network.candidates()
    s = Server(tmp_path / "t.sqlite3", host=everywhere).start()
    try:
        text = "".join(s.out)
        host = found[0] if found else "127.0.0.1"
        assert s.link.startswith(f"http://{host}:"), s.link
        assert f"Listening on every address of this machine ({everywhere}); the link uses " \
               f"{host}." in text
        if not found:
            assert "Note: 127.0.0.1 is this machine only" in text
        # The link's host is served; asked over loopback (traffic stays on this machine).
        r = httpx.get(f"http://127.0.0.1:{s.port}/t/{s.token}/api/state",
                      headers={"Host": f"{host}:{s.port}"})
        assert r.status_code == 200
    finally:
        s.stop()


@pytest.mark.parametrize("name", ["*", "", "evil.example:80", "a b", "table.lan/x", "-x.lan",
                                  "1.2.3"])
def test_a_name_that_is_not_a_host_name_is_refused_in_one_line(tmp_path, name):
    r = serve_once("--host", "127.0.0.1", "--data", tmp_path / "t.sqlite3", "--name", name,
                   timeout=15)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: --name: ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("host,status", [
    ("{name}:{port}", 200), ("[::1]:{port}", 200), ("TABLE.LAN.:{port}", 200),
    ("table.lan.evil.example:{port}", 400), ("[:{port}", 400), ("", 400),
    ("127.0.0.1:{port}@evil.example", 400), ("[::2]:{port}", 400),
])
def test_the_host_header_is_read_as_a_host(server, host, status):
    r = httpx.get(server.api("state"), headers={
        "Host": host.format(name="table.lan", port=server.port)})
    assert r.status_code == status
    if status == 400:
        assert r.json()["error"].startswith("Host:")


def post_undo_after_a_draw(server, **kwargs) -> tuple[httpx.Response, int]:
    d = server.draw("forge").json()
    r = httpx.post(server.api("undo"), **kwargs)
    return r, d["id"]


@pytest.mark.parametrize("origin", [
    "http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:{port}",
    "http://table.lan.evil.example:{port}", "http://127.0.0.1:{port}.evil.example",
])
def test_a_post_from_a_foreign_page_is_refused(server, origin):
    headers = {"Origin": origin.format(port=server.port)}
    r, draw_id = post_undo_after_a_draw(server, json={}, headers=headers)
    assert r.status_code == 403 and r.json()["error"].startswith("Origin:")
    state = server.state()
    assert not state["draws"][-1]["undone"]  # nothing was taken back
    r = httpx.post(server.api("draw"), json={"guild": "academy", "bag": BAG},
                   headers={**headers, "Idempotency-Key": "foreign"})
    assert r.status_code == 403 and len(server.state()["draws"]) == len(state["draws"])
    httpx.post(server.api("undo"), json={})


@pytest.mark.parametrize("origin", ["http://127.0.0.1:{port}", "http://table.lan:{port}",
                                    "http://localhost:{port}", None])
def test_a_post_from_the_tables_own_page_or_no_page_is_taken(server, origin):
    headers = {"Origin": origin.format(port=server.port)} if origin else {}
    r, draw_id = post_undo_after_a_draw(server, json={}, headers=headers)
    assert r.status_code == 200 and r.json()["undone"] == draw_id


@pytest.mark.parametrize("content_type", [
    "text/plain; charset=application/json", "text/plain", "application/jsonp",
    "application/json; charset=latin-1", "multipart/form-data; boundary=application/json",
    "application/x-www-form-urlencoded; x=application/json",
])
def test_a_body_that_is_not_exactly_json_is_refused(server, content_type):
    """What a foreign page may send with no preflight (a simple request) never counts."""
    r, draw_id = post_undo_after_a_draw(server, content=b"{}",
                                        headers={"Content-Type": content_type})
    assert r.status_code == 400 and r.json()["error"].startswith("Content-Type:")
    assert not server.state()["draws"][-1]["undone"]
    httpx.post(server.api("undo"), json={})


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON;charset=\"UTF-8\""])
def test_json_with_or_without_its_charset_is_taken(server, content_type):
    r, draw_id = post_undo_after_a_draw(server, content=b"{}",
                                        headers={"Content-Type": content_type})
    assert r.status_code == 200 and r.json()["undone"] == draw_id
