"""`companion serve` at the command line: the link, the QR codes, the LAN address and
bad options (one line, exit 2, nothing written)."""

import io
import socket
import sqlite3
import subprocess
from types import SimpleNamespace

import pytest

from companion.web import network, qr
from tests import needs
from tests.web import Server

LINK = "http://192.168.1.23:8765/t/abcDEF123_-xyz"


def decode(png) -> str:
    out = subprocess.run([needs.tool("zbarimg"), "--quiet", "--raw", str(png)], capture_output=True,
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


class Terminal(io.TextIOWrapper):
    """An output stream in `encoding` that says whether it is a terminal."""

    def __init__(self, encoding: str, tty: bool):
        super().__init__(io.BytesIO(), encoding=encoding)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def text(self) -> str:
        self.flush()
        return self.buffer.getvalue().decode(self.encoding)


def render(text: str, png) -> None:
    """Draw terminal output as a dark-theme terminal shows it (light glyphs on a dark
    background unless colour codes say otherwise), each character cell 1 x 2 pixels."""
    import re

    from PIL import Image

    glyph = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0), "#": (1, 1)}
    rows = []
    for line in text.splitlines():
        fg, bg, cells = 1, 0, []
        for code, ch in re.findall(r"\x1b\[([0-9;]*)m|(.)", line):
            if code:
                for c in code.split(";"):
                    fg = {"97": 1, "0": 1}.get(c, fg)
                    bg = {"40": 0, "107": 1, "0": 0}.get(c, bg)
            else:
                cells.append(tuple(fg if on else bg for on in glyph[ch]))
        rows += [[top for top, _ in cells], [bottom for _, bottom in cells]]
    img = Image.new("L", (max(map(len, rows)), len(rows)), 0)
    for y, row in enumerate(rows):
        for x, light in enumerate(row):
            img.putpixel((x, y), 255 * light)
    img.resize((img.width * 8, img.height * 8), Image.NEAREST).save(png)


@pytest.mark.parametrize("encoding,tty,env,colour", [
    ("utf-8", False, {}, False),
    ("utf-8", True, {"TERM": "xterm-256color"}, True),
    ("utf-8", True, {"TERM": "dumb"}, False),
    ("utf-8", True, {"TERM": "xterm", "NO_COLOR": "1"}, False),
    ("cp437", False, {}, False),
    ("cp1252", True, {"TERM": "xterm"}, True),
    ("cp1252", False, {}, False),
    ("ascii", True, {"TERM": "dumb"}, False),
], ids=["utf8-file", "utf8-colour", "utf8-dumb", "utf8-no-color", "cp437", "cp1252-colour",
        "cp1252-file", "ascii-dumb"])
def test_the_terminal_qr_code_scans(tmp_path, encoding, tty, env, colour):
    out = Terminal(encoding, tty)
    qr.print_terminal(LINK, out, env)
    text = out.text()
    assert ("\x1b[" in text) == colour
    if encoding in ("cp1252", "ascii"):
        assert text.isascii()
    render(text, tmp_path / "terminal.png")
    assert decode(tmp_path / "terminal.png") == LINK


def test_a_windows_console_without_a_modern_terminal_gets_no_colour_codes(monkeypatch):
    monkeypatch.setattr(qr, "os", SimpleNamespace(name="nt", environ={}))
    out = Terminal("utf-8", True)
    qr.print_terminal(LINK, out, {})
    assert "\x1b" not in out.text()
    out = Terminal("utf-8", True)
    qr.print_terminal(LINK, out, {"WT_SESSION": "1"})  # Windows Terminal takes them
    assert "\x1b[" in out.text()


def test_serve_prints_a_qr_code_that_scans_on_an_output_that_is_not_utf8(tmp_path):
    s = Server(tmp_path / "t.sqlite3", env={"PYTHONIOENCODING": "ascii"}).start()
    try:
        out = "".join(s.out)
        code = out.split("\n", 1)[1].split("Note: ", 1)[0]
        assert code.strip() and set(code) <= {"#", " ", "\n"}
        render(code, tmp_path / "serve.png")
        assert decode(tmp_path / "serve.png") == s.link
    finally:
        s.stop()


def test_the_printed_qr_card_scans_to_the_link(tmp_path):
    from companion.press.presets import paper_size
    from companion.web import look

    the_look = look.load()
    words = {k: v["fr"] for k, v in the_look.texts.items()}
    qr.write_card(tmp_path / "qr.pdf", LINK, words, the_look.all_credits("fr"),
                  paper_size("letter"))
    subprocess.run([needs.tool("pdftoppm"), "-r", "100", "-png", tmp_path / "qr.pdf",
                    tmp_path / "page"], check=True)
    assert decode(tmp_path / "page-1.png") == LINK
    text = subprocess.run([needs.tool("pdftotext"), tmp_path / "qr.pdf", "-"], capture_output=True,
                          text=True).stdout
    assert LINK in text and "Scannez" in text
    for authors in ("Nicolas Valle", "Carlos Martin", "Pierre Vasseur", "Sergio Matsumoto"):
        assert authors in text  # the table plays all four games: each one credited


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
        subprocess.run([needs.tool("pdftoppm"), "-r", "100", "-png", tmp_path / "card.pdf",
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


class Spy(socket.socket):
    """A real socket that records its options and can fail to bind as told."""

    options: list = []
    bind_error: OSError | None = None

    def setsockopt(self, level, option, value):
        Spy.options.append((level, option))
        super().setsockopt(level, option, value)

    def bind(self, address):
        if Spy.bind_error:
            raise Spy.bind_error
        super().bind(address)


@pytest.mark.parametrize("in_use", [48, 10048], ids=["macOS", "Windows"])
def test_a_port_in_use_is_named_by_the_systems_own_error_number(monkeypatch, in_use):
    """EADDRINUSE is 98 on Linux only (48 on macOS, 10048 on Windows)."""
    import errno

    from companion.errors import CompanionError

    monkeypatch.setattr(errno, "EADDRINUSE", in_use)
    monkeypatch.setattr(Spy, "bind_error", OSError(in_use, "Address already in use"))
    monkeypatch.setattr(socket, "socket", Spy)
    with pytest.raises(CompanionError) as e:
        network.listening_socket("127.0.0.1", 8765)
    assert e.value.field == "--port" and "Address already in use" in e.value.message


def test_windows_never_lets_a_second_server_share_the_port(monkeypatch):
    monkeypatch.setattr(Spy, "options", [])
    monkeypatch.setattr(socket, "socket", Spy)
    network.listening_socket("127.0.0.1", 0).close()
    assert (socket.SOL_SOCKET, socket.SO_REUSEADDR) in Spy.options  # a quick restart binds
    monkeypatch.setattr(Spy, "options", [])
    monkeypatch.setattr(network, "os", SimpleNamespace(name="nt"))
    network.listening_socket("127.0.0.1", 0).close()
    assert (socket.SOL_SOCKET, socket.SO_REUSEADDR) not in Spy.options


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
    from companion.files import paths
    from companion.errors import CompanionError
    from companion.web import look

    (tmp_path / "lugvanion.toml").write_text((paths.LAYOUTS / "lugvanion.toml").read_text()
                                             .replace('"#B83227"', '"red; x: url(y)"', 1))
    (tmp_path / "phone.toml").write_text((paths.LAYOUTS / "phone.toml").read_text())
    monkeypatch.setattr(look, "LAYOUTS", tmp_path)
    with pytest.raises(CompanionError) as e:
        look.load()
    assert e.value.field == "teams[0].colour" and "not a colour" in e.value.message
