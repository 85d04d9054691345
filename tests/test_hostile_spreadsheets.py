"""A designer's spreadsheets made by a careless or hostile designer (issue 20): zip bombs,
a row repeated a million times, a cell at XFD1048576, a FIFO, a 10 MB cell, old-Mac line
ends, damaged sheets, headers no row can be read by. Each build runs in a process of its
own, capped at 30 s of CPU and 2 GB of address space (tests/capped.py),
and must end with exit 2 and one line naming the file, no traceback, the kit built before
it left byte for byte as it was. A hypothesis run over random sheets (CSV and XLSX) asks
the same of every build: exit 0, or 2 with one line."""

import base64
import csv
import io
import os
import random
import shutil
import sys
import tomllib
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.files import paths, spreadsheet
from tests.capped import Run, refused_in_one_line, run, snapshot

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="setrlimit and FIFOs: POSIX")


def build(folder: Path, data: Path, out: Path, *args: str) -> Run:
    return run(folder, "build", "covenia", "--only", "cards", "--data", str(data), "--out",
               str(out), *args)


# ---- a Covenia data file whose clans (or a list of our own) live in a sheet ----------------

def bundled() -> dict:
    return tomllib.loads(paths.layout("covenia.toml").read_text(encoding="utf-8"))


CLANS = spreadsheet.rows_of(bundled()["clans"])


def data_file(folder: Path, sheet: str, key: str = "clans", tab: str | None = None) -> Path:
    """covenia.toml in folder, its list `key` read from `sheet` (a list not in the game,
    such as "extra", is read by any headers and then left alone by the build)."""
    data = bundled()
    data[key] = {"spreadsheet": sheet} | ({"tab": tab} if tab else {})
    path = folder / "covenia.toml"
    path.write_text(tomlkit.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def good_kit(tmp_path_factory):
    """A kit built from a good clans sheet: every hostile build goes to a copy of it."""
    folder = tmp_path_factory.mktemp("good")
    write_csv(folder / "clans.csv", CLANS)
    r = build(folder, data_file(folder, "clans.csv"), folder / "kit")
    assert r.code == 0, r
    return folder / "kit", snapshot(folder / "kit")


def hostile(tmp_path, good_kit, sheet: str, key: str = "clans", tab: str | None = None):
    """Builds over a copy of the good kit; the kit must come out as it went in."""
    kit, before = good_kit
    out = tmp_path / "kit"
    shutil.copytree(kit, out)
    r = build(tmp_path, data_file(tmp_path, sheet, key, tab), out)
    assert snapshot(out) == before, ("the kit changed", r)
    return r


def write_csv(path: Path, rows: list[list], newline: str = "\n") -> Path:
    buf = io.StringIO()
    csv.writer(buf, lineterminator=newline).writerows(
        [["" if v is None else v for v in r] for r in rows])
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    return path


# ---- XLSX and ODS written by hand (a zip of XML), so that they can lie -------------------

_CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
       'package/2006/content-types"><Default Extension="rels" ContentType="application/'
       'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
       'ContentType="application/xml"/></Types>')
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
         f'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{_R}/'
         'officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WORKBOOK = ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.'
             f'openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{_R}"><sheets><sheet '
             'name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>')
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats'
    f'.org/package/2006/relationships"><Relationship Id="rId1" Type="{_R}/worksheet" '
    f'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{_R}/sharedStrings" '
    'Target="sharedStrings.xml"/></Relationships>')
SHEET_HEAD = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.'
              'openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
SHEET_TAIL = "</sheetData></worksheet>"


def col(i: int) -> str:
    return spreadsheet.letter(i)


def cell(ref: str, value) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'


def rows_xml(rows: list[list], first: int = 1) -> str:
    return "".join(f'<row r="{n}">' + "".join(cell(f"{col(i)}{n}", v) for i, v in enumerate(r))
                   + "</row>" for n, r in enumerate(rows, first))


def xlsx(path: Path, sheet, strings: str | None = None) -> Path:
    """An XLSX of one tab, Cards: `sheet` is its XML, or a function writing it into an
    open zip member (for sheets too large to hold)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        if strings is not None:
            z.writestr("xl/sharedStrings.xml", strings)
        if callable(sheet):
            with z.open("xl/worksheets/sheet1.xml", "w") as f:
                sheet(f)
        else:
            z.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def shared(*texts: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.'
            'org/spreadsheetml/2006/main">'
            + "".join(f"<si><t>{escape(t)}</t></si>" for t in texts) + "</sst>")


def ods(path: Path, table: str) -> Path:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:'
        'oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:'
        'opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:'
        'text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table '
        f'table:name="Cards">{table}</table:table></office:spreadsheet></office:body>'
        "</office:document-content>")
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:'
        'names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry'
        ' manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
        'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
        'manifest:media-type="text/xml"/></manifest:manifest>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
    return path


def ods_cell(value, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return (f'<table:table-cell office:value-type="string"{rep}><text:p>{escape(str(value))}'
            "</text:p></table:table-cell>")


def ods_row(cells: str, repeat: int = 1) -> str:
    rep = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{rep}>{cells}</table:table-row>"


# ---- the hostile files -------------------------------------------------------------------

def _padded(size: int):
    """The clans, good, then `size` bytes of blanks in the sheet: a spreadsheet program
    never writes them, and they pack a thousand times."""
    def write(f):
        f.write((SHEET_HEAD + rows_xml(CLANS)).encode())
        chunk = b" " * (1 << 20)
        for _ in range(size >> 20):
            f.write(chunk)
        f.write(SHEET_TAIL.encode())
    return write


def _strings_bomb(path: Path) -> Path:
    """One 100,000-character shared string shown by 20,000 cells: 200 KB of XLSX that
    calamine would make 2 billion characters of."""
    rows = "".join(f'<row r="{n}"><c r="A{n}" t="s"><v>0</v></c></row>'
                   for n in range(2, 20_002))
    return xlsx(path, f'{SHEET_HEAD}<row r="1">{cell("A1", "name")}</row>{rows}{SHEET_TAIL}',
                shared("x" * 100_000))


def _ods_rows_bomb(path: Path) -> Path:
    """A 2 KB ODS: a row of 20 cells repeated 1,000,000 times."""
    return ods(path, ods_row(ods_cell("name", 20)) + ods_row(ods_cell("x", 20), 1_000_000))


def _xfd(path: Path) -> Path:
    return xlsx(path, f'{SHEET_HEAD}<row r="1">{cell("A1", "id")}</row><row r="1048576">'
                      f'{cell("XFD1048576", "x")}</row>{SHEET_TAIL}')


def _big_cell(path: Path) -> Path:
    rows = [r[:] for r in CLANS]
    # 10 MB of text that does not pack (a packed one is refused as a zip bomb)
    rows[1][rows[0].index("ritual.en")] = base64.b64encode(random.Random(1).randbytes(
        7_500_000)).decode()
    return xlsx(path, SHEET_HEAD + rows_xml(rows) + SHEET_TAIL)


def _damaged(path: Path) -> Path:
    good = rows_xml(CLANS)
    return xlsx(path, SHEET_HEAD + good[:len(good) // 2] + '<c r="B9"' + SHEET_TAIL)


def _csv_long_field(path: Path) -> Path:
    rows = [r[:] for r in CLANS]
    rows[2][rows[0].index("name.en")] = "x" * 140_000
    return write_csv(path, rows)


def _spaces(path: Path) -> Path:
    """A cell of two billion spaces, written in 60 bytes (ODF's text:s text:c)."""
    return ods(path, ods_row(ods_cell("name")) + ods_row(
        '<table:table-cell office:value-type="string"><text:p>a<text:s text:c="2000000000"/>'
        "</text:p></table:table-cell>"))


HOSTILE = {
    # name: (file, how it is made, list key, words the one line holds)
    "xlsx zip bomb (a part over 50 MB)": (
        "clans.xlsx", lambda p: xlsx(p, _padded(60 << 20)), "clans",
        ["clans.xlsx", "unpacks to", "over the 50,000,000"]),
    "xlsx zip bomb (packed 1000 times)": (
        "clans.xlsx", lambda p: xlsx(p, _padded(30 << 20)), "clans",
        ["clans.xlsx", "times its packed size", "over the 200 times"]),
    "xlsx shared string shown 20,000 times": (
        "clans.xlsx", _strings_bomb, "extra",
        ["clans.xlsx", "cell A2", "100000 characters: over the 2000"]),
    "xlsx cell at XFD1048576": (
        "clans.xlsx", _xfd, "clans",
        ["clans.xlsx", "tab Cards is 16384 columns wide", "over the 200"]),
    "xlsx 10 MB text cell": (
        "clans.xlsx", _big_cell, "clans", ["clans.xlsx", "cell J2", "over the 2000"]),
    "xlsx damaged sheet": (
        "clans.xlsx", _damaged, "clans", ["clans.xlsx", "damaged XML"]),
    "ods row repeated 1,000,000 times": (
        "clans.ods", _ods_rows_bomb, "extra",
        ["clans.ods", "1000001 rows long", "over the 10001 rows"]),
    "ods two billion spaces": (
        "clans.ods", _spaces, "extra", ["clans.ods", "cell A2", "over the 2000"]),
    "csv field over 131,072 characters": (
        "clans.csv", _csv_long_field, "clans",
        ["clans.csv", "row 3", "over the 2000 characters"]),
    "header a.99999999": (
        "extra.csv", lambda p: write_csv(p, [["a.99999999"], ["x"]]), "extra",
        ["extra.csv", "column A", "item 99999999 of a: over the 100"]),
    "header a.0": (
        "extra.csv", lambda p: write_csv(p, [["a.0"], ["x"]]), "extra",
        ["extra.csv", "column A", "item 0 of a: items count from 1"]),
    "headers a.1 and a.x": (
        "extra.csv", lambda p: write_csv(p, [["a.1", "a.x"], ["x", "y"]]), "extra",
        ["extra.csv, row 2", "column B", "list of items"]),
    "headers a and a.b": (
        "extra.csv", lambda p: write_csv(p, [["a", "a.b"], ["x", "y"]]), "extra",
        ["extra.csv, row 2", "column B", "single value"]),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_spreadsheet_is_one_line_naming_it(tmp_path, good_kit, case):
    name, make, key, words = HOSTILE[case]
    make(tmp_path / name)
    r = hostile(tmp_path, good_kit, name, key)
    refused_in_one_line(r, *words)


@pytest.mark.parametrize("name", ["clans.xlsx", "clans.ods", "clans.csv"])
def test_a_fifo_as_a_spreadsheet_is_refused_not_read_for_ever(tmp_path, good_kit, name):
    os.mkfifo(tmp_path / name)
    r = hostile(tmp_path, good_kit, name)
    refused_in_one_line(r, name, "is a pipe (FIFO), not a spreadsheet")


def test_old_mac_line_ends_read_as_lines(tmp_path, good_kit):
    """A CSV saved with \\r alone (classic Mac OS, some exports) builds the very kit its
    \\n and \\r\\n twins build."""
    for end in ("\r", "\r\n"):
        write_csv(tmp_path / "clans.csv", CLANS, end)
        out = tmp_path / f"kit{len(end)}"
        r = build(tmp_path, data_file(tmp_path, "clans.csv"), out)
        assert r.code == 0, r
        assert snapshot(out)["cards.pdf"] == good_kit[1]["cards.pdf"]


def test_a_field_two_headers_read_differently_is_fine_while_one_is_blank(tmp_path, good_kit):
    """Vengeance's witches have name and name.placeholder.en: a row fills one of them."""
    write_csv(tmp_path / "extra.csv", [["a", "a.b", "c.1", "c.x"], ["x", "", "1", ""],
                                       ["", "y", "", "z"]])
    r = build(tmp_path, data_file(tmp_path, "extra.csv", "extra"), tmp_path / "kit")
    assert r.code == 0, r


# ---- random sheets: exit 0 or 2 in one line, never a traceback, the kit kept -------------

ODD = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff", "\r", "\n", '"',
       ",", ".", "é", "🎲", "²", "٣", " ", "{", "}", "=", "#", "'"]
TEXT = st.text(st.one_of(st.sampled_from(ODD), st.characters(exclude_categories=("Cs",))),
               max_size=20)
LONG = st.integers(1, 4).map(lambda n: "lorem ipsum " * (n * 50))  # 600 to 2,400 characters
VALUE = st.one_of(TEXT, TEXT, st.integers(-10**20, 10**20), st.floats(), st.sampled_from(
    [None, "", 0, 1, 7, 1e308, -0.5, "007", "1.5", "inf", "nan", "#FFF", "flame", "red", "A",
     "AB", "Red", "#C0392B"]), LONG)
HEADER = st.one_of(
    st.sampled_from(CLANS[0] + ["qty", "art", "a", "a.b", "a.1", "a.1.x", "a.2.x", "a.0",
                                "a.101", "a.x", "a..b", ".a", "a.", "a.01", "a.1.2",
                                "name.fr.x"]),
    st.lists(st.one_of(st.sampled_from(["a", "b", "1", "2", "0", "99", ""]), TEXT),
             min_size=1, max_size=4).map(".".join))


@st.composite
def sheets(draw):
    """(rows, list key): the clans, changed here and there, or a sheet of random headers
    for a list of our own."""
    if draw(st.booleans()):
        rows = [r[:] for r in CLANS]
        for _ in range(draw(st.integers(0, 3))):
            i, j = draw(st.integers(0, len(rows) - 1)), draw(st.integers(0, len(rows[0])))
            value = draw(HEADER if i == 0 else VALUE)
            if j < len(rows[i]):
                rows[i][j] = value
            else:
                rows[i].append(value)
        if draw(st.booleans()):
            rows += [[draw(VALUE) for _ in range(draw(st.integers(0, 18)))]
                     for _ in range(draw(st.integers(0, 3)))]
        return rows, "clans"
    width = draw(st.integers(1, 8))
    header = draw(st.lists(HEADER, min_size=width, max_size=width, unique=True))
    rows = [header] + draw(st.lists(st.lists(VALUE, max_size=width + 1), max_size=12))
    return rows, "extra"


def write_xlsx(path: Path, rows: list[list]) -> Path:
    """An XLSX as XlsxWriter writes it; what XML cannot hold (most control characters)
    is written as XlsxWriter escapes it (_x0000_)."""
    return spreadsheet.write(path, {"Cards": rows}) or path


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sheet=sheets(), kind=st.sampled_from(["csv", "xlsx"]),
       newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_sheet_builds_or_is_refused_in_one_line_and_the_kit_is_kept(
        tmp_path_factory, good_kit, sheet, kind, newline):
    rows, key = sheet
    folder = tmp_path_factory.mktemp("random")
    name = f"{key}.{kind}"
    try:
        if kind == "csv":
            write_csv(folder / name, rows, newline)
        else:
            write_xlsx(folder / name, rows)
    except (UnicodeEncodeError, ValueError, TypeError):
        return  # a sheet XlsxWriter cannot write
    kit, before = good_kit
    out = folder / "kit"
    shutil.copytree(kit, out)
    r = build(folder, data_file(folder, name, key, "Cards" if kind == "xlsx" else None), out)
    assert r.code in (0, 2), r
    assert "Traceback" not in r.err, r
    if r.code == 2:
        assert len(r.err.strip().splitlines()) == 1, r
        assert snapshot(out) == before, ("a failed build changed the kit", r)
    shutil.rmtree(folder)
