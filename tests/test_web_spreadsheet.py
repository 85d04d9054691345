"""A card list from the web (companion/files/web_spreadsheet.py): a Google-Sheets-shaped address
served by a real HTTP server on 127.0.0.1 is read as its tab's CSV export; once the
server is gone the build uses the copy read last and says how old it is; what the web
sends is held to a CSV file's limits; a redirect elsewhere than the web is refused."""

import http.server
import threading
from pathlib import Path

import pytest

from companion.files import spreadsheet


class Sheets(http.server.BaseHTTPRequestHandler):
    """Answers /spreadsheets/d/ID/export?format=csv&gid=N with the CSV of that tab."""
    tabs: dict[str, bytes] = {}
    asked: list[str] = []
    extra: dict[str, tuple[int, dict, bytes]] = {}

    def do_GET(self):  # noqa: N802 - http.server's name
        self.asked.append(self.path)
        if self.path in self.extra:
            code, headers, body = self.extra[self.path]
        elif self.path.startswith("/spreadsheets/d/TABLE1/export?format=csv&gid="):
            gid = self.path.rsplit("=", 1)[1]
            code, headers, body = (200, {"Content-Type": "text/csv"}, self.tabs[gid]) \
                if gid in self.tabs else (404, {}, b"no such tab")
        else:
            code, headers, body = 404, {}, b"not here"
        self.send_response(code)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    Sheets.tabs = {"0": b"kind,title,text,qty\n", "7": b"kind,title,text,qty,points,icon,art\n"
                   b"creature,Web Crab,Read from the web.,2,3,shell,\n"}
    Sheets.asked, Sheets.extra = [], {}
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sheets)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _address(httpd, gid=7) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}/spreadsheets/d/TABLE1/edit#gid={gid}"


def _use(starter: Path, address: str) -> None:
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('cards = { spreadsheet = "cards.csv" }',
                                 f'cards = {{ spreadsheet = "{address}" }}', 1), encoding="utf-8")


def test_a_google_sheet_is_read_as_its_tabs_csv_then_from_the_cache_offline(
        server, starter, cli, tmp_path):
    from tests.pdfs import page_texts

    _use(starter, _address(server))
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert Sheets.asked == ["/spreadsheets/d/TABLE1/export?format=csv&gid=7"]
    assert "Web Crab" in " ".join(page_texts(tmp_path / "kit" / "cards.pdf"))
    assert "Note:" not in r.err
    server.shutdown()
    server.server_close()
    r = cli("build", str(starter), "--out", str(tmp_path / "offline"))
    assert r.code == 0, r.err
    assert "using the copy read less than a minute ago" in r.err
    assert r.err.count("Note:") == 1  # said once
    assert "Web Crab" in " ".join(page_texts(tmp_path / "offline" / "cards.pdf"))


def test_offline_with_no_copy_is_one_line_naming_the_file_and_field(server, starter, cli,
                                                                     tmp_path):
    _use(starter, _address(server, gid=99))  # no such tab: 404, and nothing cached
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and not (tmp_path / "kit").exists()
    assert r.err.count("\n") == 1
    assert f"{starter.name}: cards.spreadsheet: cannot read http://127.0.0.1" in r.err
    assert "no copy of it was read before" in r.err


def test_a_web_sheet_is_held_to_a_csv_files_limits(server, starter, cli, tmp_path, monkeypatch):
    monkeypatch.setattr(spreadsheet, "MAX_CSV", 1000)
    Sheets.tabs["7"] = b"kind,title,text,qty\n" + b"creature,A,x,1\n" * 200
    _use(starter, _address(server))
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "over the 1,000 a CSV may be" in r.err and "cards.spreadsheet" in r.err


def test_a_redirect_to_a_file_is_refused(server, starter, cli, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("kind,title,text,qty\ncreature,Secret,x,1\n")
    Sheets.extra["/list.csv"] = (302, {"Location": secret.as_uri()}, b"")
    _use(starter, f"http://127.0.0.1:{server.server_address[1]}/list.csv")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "to url 'file:" in r.err and "cannot read" in r.err, r.err


@pytest.mark.parametrize("address, csv", [
    ("https://docs.google.com/spreadsheets/d/1AbC-d_9/edit#gid=123",
     "https://docs.google.com/spreadsheets/d/1AbC-d_9/export?format=csv&gid=123"),
    ("https://docs.google.com/spreadsheets/d/1AbC/edit?usp=sharing",
     "https://docs.google.com/spreadsheets/d/1AbC/export?format=csv&gid=0"),
    ("https://docs.google.com/spreadsheets/d/e/2PACX-1v/pubhtml?gid=7&single=true",
     "https://docs.google.com/spreadsheets/d/e/2PACX-1v/pub?output=csv&gid=7"),
    ("https://example.org/cards.csv", "https://example.org/cards.csv"),
])
def test_a_sheets_address_is_read_as_its_csv_export(address, csv):
    from companion.files.web_spreadsheet import csv_url

    assert csv_url(address) == csv
