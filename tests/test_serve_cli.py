"""`companion serve` at the command line: the link, the QR codes, the LAN address and
bad options (one line, exit 2, nothing written)."""

import io
import socket
import sqlite3
import subprocess

import pytest

from companion.web import network, qr
from tests.web import Server

LINK = "http://192.168.1.23:8765/t/abcDEF123_-xyz"


def decode(png) -> str:
    out = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


def test_the_terminal_qr_code_holds_exactly_the_link_modules():
    out = io.StringIO()
    qr.print_terminal(LINK, out)
    lines = out.getvalue().splitlines()
    light = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    rows = []
    for line in lines:
        cells = [light[ch] for ch in line]
        rows += [[not top for top, _ in cells], [not bottom for _, bottom in cells]]
    want = qr.matrix(LINK)
    assert rows[:len(want)] == want
    assert all(not dark for dark in rows[0])  # a light quiet zone all round


def test_the_terminal_qr_code_scans(tmp_path):
    from PIL import Image

    out = io.StringIO()
    qr.print_terminal(LINK, out)
    light = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    lines = out.getvalue().splitlines()
    img = Image.new("L", (len(lines[0]), 2 * len(lines)))
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            top, bottom = light[ch]
            img.putpixel((x, 2 * y), 255 * top)
            img.putpixel((x, 2 * y + 1), 255 * bottom)
    img = img.resize((img.width * 8, img.height * 8), Image.NEAREST)
    img.save(tmp_path / "terminal.png")
    assert decode(tmp_path / "terminal.png") == LINK


def test_the_printed_qr_card_scans_to_the_link(tmp_path):
    from companion.presets import paper_size
    from companion.web import look

    the_look = look.load()
    words = {k: v["fr"] for k, v in the_look.texts.items()}
    qr.write_card(tmp_path / "qr.pdf", LINK, words, the_look.credits["fr"], paper_size("letter"))
    subprocess.run(["pdftoppm", "-r", "100", "-png", tmp_path / "qr.pdf", tmp_path / "page"],
                   check=True)
    assert decode(tmp_path / "page-1.png") == LINK
    text = subprocess.run(["pdftotext", tmp_path / "qr.pdf", "-"], capture_output=True,
                          text=True).stdout
    assert LINK in text and "Scannez" in text and "Vasseur" in text


def test_the_lan_address_list_never_holds_loopback(monkeypatch):
    monkeypatch.setattr(network, "_routed_address", lambda probe: "127.0.0.1")
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [
        (socket.AF_INET, 1, 6, "", ("127.0.1.1", 0)), (socket.AF_INET, 1, 6, "", ("10.0.0.7", 0))])
    assert network.candidates() == ["10.0.0.7"]


def test_by_default_the_link_uses_this_machines_lan_address(tmp_path):
    found = network.candidates()
    s = Server(tmp_path / "t.sqlite3", host="")
    if not found:  # a machine with no network: the one-line error names --host
        with pytest.raises(RuntimeError, match="--host"):
            s.start()
        return
    s.start()
    try:
        assert s.link.startswith(f"http://{found[0]}:")
        assert "127.0.0.1" not in s.link and "localhost" not in s.link
        text = "".join(s.out)
        assert text.count("Table link: ") == 1
    finally:
        s.stop()


def test_the_qr_pdf_option_writes_the_card_with_the_link(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--qr-pdf", str(tmp_path / "card.pdf"), "--lang", "fr")
    s.start()
    try:
        subprocess.run(["pdftoppm", "-r", "100", "-png", tmp_path / "card.pdf",
                        tmp_path / "card"], check=True)
        assert decode(tmp_path / "card-1.png") == s.link
    finally:
        s.stop()


def test_an_unknown_player_colour_is_one_line_exit_2_and_writes_nothing(cli, tmp_path):
    data = tmp_path / "t.sqlite3"
    r = cli("serve", "--host", "127.0.0.1", "--data", data, "--players", "red,purple")
    assert r.code == 2
    assert r.err.strip() == ("companion: --players: unknown colour 'purple' "
                             "(use red, blue, green, yellow)")
    assert not data.exists()


@pytest.mark.parametrize("players,message", [
    ("red", "played by 2 to 4, not 1"),
    ("red,blue,red", "colour red is given twice"),
])
def test_a_bad_player_list_is_refused(cli, tmp_path, players, message):
    r = cli("serve", "--host", "127.0.0.1", "--data", tmp_path / "t", "--players", players)
    assert r.code == 2 and message in r.err and "--players" in r.err


def test_a_data_file_that_is_not_a_table_is_refused_and_left_alone(cli, tmp_path):
    data = tmp_path / "notes.txt"
    data.write_text("shopping list: bread, milk\n" * 50)
    before = data.read_bytes()
    r = cli("serve", "--host", "127.0.0.1", "--data", data)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert str(data) in r.err and "not a table-companion table" in r.err
    assert data.read_bytes() == before


def test_restarting_a_table_with_other_players_or_rule_is_refused(cli, tmp_path):
    data = tmp_path / "t.sqlite3"
    s = Server(data, "--players", "red,blue").start()
    s.stop()
    r = cli("serve", "--host", "127.0.0.1", "--data", data, "--players", "red,green")
    assert r.code == 2 and "--players" in r.err and "red,blue" in r.err
    r = cli("serve", "--host", "127.0.0.1", "--data", data, "--tie-rule", "redraw")
    assert r.code == 2 and "--tie-rule" in r.err
    players = sqlite3.connect(data).execute(
        "SELECT value FROM meta WHERE key = 'players'").fetchone()[0]
    assert '"red"' in players and '"green"' not in players


def test_a_port_in_use_is_named(cli, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = cli("serve", "--host", "127.0.0.1", "--port", port, "--data", tmp_path / "t")
    assert r.code == 2 and r.err.startswith("companion: --port: cannot listen")


def test_ctrl_c_stops_the_server_cleanly_and_a_restart_keeps_the_link(tmp_path):
    s = Server(tmp_path / "t.sqlite3").start()
    link = s.link
    s.draw("forge")
    assert s.stop() == 0
    assert "Stopped. Every draw is kept in" in "".join(s.out)
    again = Server(tmp_path / "t.sqlite3").start()
    try:
        assert again.link == link and len(again.state()["draws"]) == 1
    finally:
        again.stop()


def test_answers_leave_without_waiting_for_nagle():
    """asyncio sets TCP_NODELAY only on sockets made with proto=IPPROTO_TCP; without it
    every keep-alive answer waited ~40 ms for the client's delayed ACK."""
    import asyncio

    async def accepted_nodelay() -> int:
        sock = network.listening_socket("127.0.0.1", 0)
        got = asyncio.get_running_loop().create_future()

        def connected(reader, writer):
            s = writer.get_extra_info("socket")
            got.set_result(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=sock)
        _, w = await asyncio.open_connection(*sock.getsockname())
        value = await asyncio.wait_for(got, 5)
        w.close()
        server.close()
        return value

    assert asyncio.run(accepted_nodelay()) == 1


@pytest.mark.parametrize("args,field", [
    (["--host", "table.lan"], "--host"),
    (["--host", "127.0.0.1", "--qr-pdf", "qr.pdf", "--paper", "a9"], "--paper"),
    (["--host", "127.0.0.1", "--lang", "de"], "--lang"),
])
def test_a_bad_option_is_named_before_anything_is_written(cli, tmp_path, args, field):
    r = cli("serve", "--data", tmp_path / "t.sqlite3", *args)
    assert r.code == 2 and field in r.err and len(r.err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_team_colour_the_page_cannot_show_is_named(monkeypatch, tmp_path):
    from companion import paths
    from companion.errors import CompanionError
    from companion.web import look

    (tmp_path / "lugvanion.toml").write_text((paths.LAYOUTS / "lugvanion.toml").read_text()
                                             .replace('"#B83227"', '"red; x: url(y)"', 1))
    (tmp_path / "phone.toml").write_text((paths.LAYOUTS / "phone.toml").read_text())
    monkeypatch.setattr(look, "LAYOUTS", tmp_path)
    with pytest.raises(CompanionError) as e:
        look.load()
    assert e.value.field == "teams[0].colour" and "not a colour" in e.value.message
