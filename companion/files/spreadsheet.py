"""Card lists kept in a spreadsheet. In a data file, any list of cards may be written
`{ spreadsheet = "FILE", tab = "NAME" }` (FILE relative to the data file): CSV, XLSX or ODS.
XLSX and ODS are read with python-calamine; CSV (which calamine does not read) with the
standard library. The header row names the fields; a dotted header fills a nested field
(`name.en`), a number in it an item of a list (`costs.1.gold`); a `qty` column repeats
its row. Whole numbers read as integers. Each row remembers where it came from, so an
error names the file, the tab, the row and the column.

A spreadsheet is untrusted input (shared between designers, downloaded with art packs):
it is read through companion.files.designer_files (a regular file only, its size capped), and
everything it holds is measured against the limits below before a reader allocates for
it. A workbook is a zip: each part read (a sheet's XML, its shared strings) is checked by
its declared size and packing ratio, then read with its size capped; the sheet is
streamed once with expat, counting the rows, columns, cells and characters it spans the
way calamine will place them (a cell at XFD1048576, a row repeated a million times, a
string shared by every cell), and only the parts so checked reach calamine, repacked as a
workbook of their own. Each limit is one line naming the file, what it holds and the
limit (exit 2). A workbook's checks and calamine's read run in a worker process bounded in
time and memory (companion.files.bounded), which sends back the cells alone.

A CSV list is read without a workbook's readers (zipfile, expat, array): they are imported
when a workbook is read, before its worker starts (a fork inherits them)."""

from __future__ import annotations

import csv
import io
import math
import posixpath
import re
import struct
import zlib
from pathlib import Path
from typing import Any

from companion.files import designer_files, inputs, picture_keys
from companion.files.csv_cells import unquoted
from companion.errors import CompanionError, shown
from companion.files.row import Row

QTY = "qty"
ART = picture_keys.KEYS  # any card entry may take a picture
_NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
_DECIMAL_COMMA = re.compile(r"^-?[0-9]+,[0-9]+$")
_LEADING_ZERO = re.compile(r"-?0[0-9]")

# ---- limits: what a real card list needs, many times over ------------------------------
# The four games' own lists, for scale: at most 40 entries, 18 columns, 271 characters in
# one text, fields 4 deep (Lugvanion's costs.1.gold), lists of 3 items.
MAX_ROWS = 10_000  # cards one list makes (qty counted): a large game prints a few hundred
MAX_SHEET_ROWS = MAX_ROWS + 1  # rows a sheet may span: a card a row, and the header row
MAX_COLUMNS = 200  # columns a sheet may span: a card's fields; the widest list here has 18
MAX_CELLS = MAX_SHEET_ROWS * 50  # cells (rows x columns spanned) a file's sheets hold
#                                  together: 10,000 cards of 50 fields and the header;
#                                  calamine and Python hold about 150 bytes a cell
MAX_CELL = 2_000  # characters in one cell: the longest text on a card here is 271, a
#                   poker card holds about 1,000 legibly; fitting a 20,000-character text
#                   on a card takes 1.6 s, a 10 MB one over 90 s
MAX_TEXT = 5_000_000  # characters in all cells together (a shared string counted at each
#                       cell showing it): 10,000 cards of 500 characters
MAX_HEADER_PARTS = 8  # parts of a dotted header (name.en, costs.1.gold): 4 here at most
MAX_ITEM = 100  # an item number in a header (costs.12.gold): the lists here have 3 items;
#                 a.99999999 would make 99,999,999 empty items in every row
MAX_FILE = 50_000_000  # bytes of an XLSX or ODS file: a card list is kilobytes, pictures
#                        pasted beside it make a workbook megabytes
MAX_CSV = 10_000_000  # bytes of a CSV file: text only; 10,000 cards of 1,000 characters
MAX_PART = 50_000_000  # bytes one part of a workbook read (a sheet, its strings) unpacks
#                        to: a sheet of MAX_CELLS cells is about 20 MB of XML
MAX_UNPACKED = 100_000_000  # bytes all the parts read unpack to together
MAX_RATIO = 200  # times its packed size a part over RATIO_FROM bytes may unpack to: sheet
#                  XML packs 3 to 70 times, a zip bomb 300 to 1,000 times
RATIO_FROM = 1_000_000
MAX_PARTS = 10_000  # files in a workbook's zip: Excel writes about 10, a few hundred with
#                     pictures; each costs the zip reader an object before anything is read
MAX_DIRECTORY = 4_000_000  # bytes of a zip's table of contents (MAX_PARTS entries with
#                            long names)


def is_reference(value: Any) -> bool:
    return (isinstance(value, dict) and "spreadsheet" in value
            and set(value) <= {"spreadsheet", "tab"})


def read(ref: dict, base: Path, source: str, field: str,
         known: set[str] | None = None, required: set[str] = frozenset()) -> list[Row]:
    """The rows of the spreadsheet that `ref` names, as tables. `known`: the dotted field
    names a row may have (None: any); `required`: the fields every row must have a column
    for."""
    sheet, tab = ref.get("spreadsheet"), ref.get("tab")
    if not isinstance(sheet, str) or not sheet.strip():
        raise CompanionError("must name a file, e.g. spreadsheet = \"cards.xlsx\"",
                             source=source, field=f"{field}.spreadsheet")
    if "\x00" in sheet:
        raise CompanionError(f"{shown(sheet)} holds a NUL character: no file is named so",
                             source=source, field=f"{field}.spreadsheet")
    if tab is not None and not isinstance(tab, str):
        raise CompanionError(f"must be a tab's name, not {shown(tab)}", source=source,
                             field=f"{field}.tab")
    from companion.files import web_spreadsheet

    if web_spreadsheet.is_url(sheet):  # a Google Sheet or a CSV on the web (its tab in its address)
        if tab is not None:
            raise CompanionError("a sheet on the web names its tab in its address (#gid=N): "
                                 "no tab here", source=source, field=f"{field}.tab")
        raw, name = web_spreadsheet.read(sheet, MAX_CSV, source, f"{field}.spreadsheet")
        cells = _csv_text(raw, name)
    else:
        path = (base / sheet) if not Path(sheet).is_absolute() else Path(sheet)
        if not designer_files.inside(path, base):  # as a font, an icon outside it is
            raise CompanionError(f"{sheet} is outside the data file's folder: keep card "
                                 "lists beside it (a copy of the folder would lack it)",
                                 source=source, field=f"{field}.spreadsheet")
        cells = _cells(path, tab)
        name = f"{path}" + (f", tab {tab}" if tab else "")
    if not cells:
        raise CompanionError("is empty: the first row names the fields", source=name)
    header = [_header(h) for h in cells[0]]
    for i, h in enumerate(header):
        if not h:
            if any(i < len(r) and _blank(r[i]) is not None for r in cells[1:]):
                raise CompanionError("has values but no name in the header row",
                                     source=name, field=f"column {letter(i)}")
            continue
        if h != QTY and h not in ART and known is not None and h not in known:
            choices = ", ".join(sorted(k for k in known if not k.endswith("[]"))) or "none"
            raise CompanionError(f"unknown header {shown(h)} (fields here: {choices}, qty, "
                                 f"art, art_fit, art_anchor)",
                                 source=name, field=f"column {letter(i)}")
        if header.count(h) > 1:
            raise CompanionError(f"header {shown(h)} is given twice", source=name,
                                 field=f"column {letter(i)}")
    paths, clash = _paths(header, name)
    tops = {p[0] for p in paths if p}
    missing = sorted(required - tops)
    if missing:
        raise CompanionError(f"no column for {', '.join(missing)}", source=name)
    rows: list[Row] = []
    ids: set = set()
    letters = [letter(i) for i in range(len(paths))]
    for n, raw in enumerate(cells[1:], start=2):
        if all(_blank(v) is None for v in raw):
            continue  # a blank line
        row = _row(paths, raw, f"{name}, row {n}", header, clash, letters)
        for k in known or ():
            if k.endswith("[]") and "." not in k:
                row.setdefault(k[:-2], [])  # a list with no column filled: empty
        copies = row.pop(QTY, 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or not 0 <= copies <= 999:
            raise CompanionError(f"qty must be a whole number 0 to 999, not {shown(copies)}",
                                 source=row.where, field=f"column {row.column(QTY)}")
        if "id" in row and (copies > 1 or row["id"] in ids):  # a card family is one row
            again = f"qty {copies}" if copies > 1 else f"id {shown(row['id'])} again"
            raise CompanionError(f"{again}: each entry of this list has its own id, so it "
                                 f"cannot repeat (qty repeats rows without an id)",
                                 source=row.where, field=f"column "
                                 f"{row.column(QTY if copies > 1 else 'id')}")
        ids.add(row.get("id"))
        rows.extend([row] * copies)
        if len(rows) > MAX_ROWS:
            raise CompanionError(f"over {MAX_ROWS} cards", source=name)
    return rows


def _header(value) -> str:
    return str(value).strip() if value is not None else ""


# ---- headers: dotted names, checked once for the whole sheet -----------------------------

_KIND_WORDS = {"value": "a single value", "table": "a table of fields", "list": "a list of items"}


def _paths(header: list[str], name: str) -> tuple[list[tuple | None], bool]:
    """Each header as the path it fills: field names (str) and list items (int, from 0),
    None for a blank header; and whether two headers may clash in a row (a, a.b: a field
    that is a value in some rows, a table in others, as Vengeance's name and
    name.placeholder.en). Refuses a header no row could be read by: an empty part, an item
    0 or over MAX_ITEM, an item numbered inside an item (a.1.2), or two headers for the
    same field (a.1, a.01)."""
    paths: list[tuple | None] = []
    kinds: dict[tuple, tuple[str, int]] = {}  # path prefix -> (kind, first column)
    clash = False
    for i, h in enumerate(header):
        if not h:
            paths.append(None)
            continue
        at = {"source": name, "field": f"column {letter(i)}"}
        parts = h.split(".")
        if len(parts) > MAX_HEADER_PARTS:
            raise CompanionError(f"header {shown(h)} has {len(parts)} parts: over the "
                                 f"{MAX_HEADER_PARTS} a field name may have", **at)
        path: list = []
        for j, part in enumerate(parts):
            if not part:
                raise CompanionError(f"header {shown(h)} has an empty part (a dot at an end, "
                                     "or two together)", **at)
            if j and part.isascii() and part.isdigit():
                first = ".".join(parts[:j])
                if isinstance(path[-1], int):
                    raise CompanionError(f"header {shown(h)}: item {parts[j - 1]} of "
                                         f"{'.'.join(parts[:j - 1])} is a table of fields, "
                                         f"named by words ({first}.name), not by numbers",
                                         **at)
                if len(part) > len(str(MAX_ITEM)) or not 1 <= int(part) <= MAX_ITEM:
                    why = ("items count from 1" if part.strip("0") == "" else
                           f"over the {MAX_ITEM} items a list may have")
                    raise CompanionError(f"header {shown(h)} names item {part} of {first}: "
                                         f"{why}", **at)
                path.append(int(part) - 1)
            else:
                path.append(part)
        for prefix, kind in _steps(path):
            had = kinds.setdefault(prefix, (kind, i))
            if had[0] != kind:
                clash = True
            elif kind == "value" and had[1] != i:
                raise CompanionError(f"header {shown(h)} names the same field as column "
                                     f"{letter(had[1])} ({shown(header[had[1]])})", **at)
        paths.append(tuple(path))
    return paths, clash


def _steps(path) -> list[tuple[tuple, str]]:
    """(prefix, what the path makes of it) for each prefix of a path: ("a", 0, "b") ->
    a is a list, its item 1 a table, and a.1.b a value."""
    return [(tuple(path[:k]), "value" if k == len(path) else
             "list" if isinstance(path[k], int) else "table") for k in range(1, len(path) + 1)]


def _dotted(prefix: tuple) -> str:
    return ".".join(str(p + 1) if isinstance(p, int) else p for p in prefix)


# ---- reading a file's cells ------------------------------------------------------------

# A workbook is checked and read in a worker process bounded in time and memory
# (companion.files.bounded): expat, zipfile and calamine are libraries a crafted file could make
# loop or allocate without end, whatever the checks foresee. The largest honest workbook
# (MAX_CELLS cells, 4 million characters, every text its own) takes 2 to 12 s on a busy
# 2-core machine (the checks most of it, calamine 1 s) and adds 180 MB to the worker (up
# to 500 MB for parts unpacking to MAX_UNPACKED): 5 times the time, twice that memory.
SECONDS = 60.0
MEMORY = 1_000_000_000


def _cells(path: Path, tab: str | None) -> list[list]:
    suffix = path.suffix.lower()
    name = str(path)
    if suffix == ".xls":
        raise CompanionError("is an old Excel workbook (.xls), which cannot be checked before "
                             "it is read: save it as .xlsx (or .ods, .csv)", source=name)
    if suffix not in (".csv", ".xlsx", ".xlsm", ".ods"):
        raise CompanionError("is not a spreadsheet: use .csv, .xlsx or .ods", source=name)
    inputs.note(path)
    if suffix == ".csv":
        return _csv_cells(path, name)
    from companion.files import bounded

    _workbook_readers()
    data = designer_files.read_bytes(path, MAX_FILE, "spreadsheet")
    out = bounded.run(_book_cells, data, suffix, tab, name, source=name,
                      what="spreadsheet", seconds=SECONDS, memory=MEMORY)
    if out[0] == "refused":
        raise CompanionError(out[1], source=out[2], field=out[3])
    return out[1]


def _workbook_readers() -> None:
    """The modules reading a workbook's parts, imported before its worker starts."""
    import array  # noqa: F401
    import zipfile  # noqa: F401
    from xml.parsers import expat  # noqa: F401


def _book_cells(data: bytes, suffix: str, tab: str | None, name: str) -> tuple:
    """In the worker: ("ok", the tab's cells) or ("refused", message, source, field), our
    words for what is wrong kept whole."""
    try:
        return ("ok", _calamine_cells(data, suffix, tab, name))
    except CompanionError as e:
        return ("refused", e.message, e.source, e.field)


def _calamine_cells(data: bytes, suffix: str, tab: str | None, name: str) -> list[list]:
    """The workbook's parts checked against the limits, then only those read by calamine."""
    book = _Zip(data, name)
    packed, tab = (_ods(book, tab) if suffix == ".ods" else _xlsx(book, tab))
    del data, book
    from python_calamine import CalamineWorkbook

    from companion.interrupt import Interrupted

    try:
        return CalamineWorkbook.from_filelike(io.BytesIO(packed)).get_sheet_by_name(
            tab).to_python()
    except (KeyboardInterrupt, Interrupted, SystemExit, MemoryError):
        raise  # over the worker's memory: companion.files.bounded names its limit
    except BaseException as e:  # calamine's own errors (and a Rust panic, a BaseException)
        raise CompanionError(f"cannot read ({type(e).__name__}: {str(e)[:80]})",
                             source=name) from None


def _too_long(chars: int) -> str:
    return f"a text of {chars} characters: over the {MAX_CELL} a cell may hold"


def _too_much_text(shared: bool = True) -> str:
    how = " (a text shown in many cells counted in each)" if shared else ""
    return f"over {MAX_TEXT:,} characters of text in all{how}: more than a card list holds"


def _csv_cells(path: Path, name: str) -> list[list]:
    return _csv_text(designer_files.read_bytes(path, MAX_CSV, "spreadsheet"), name)


def _csv_text(raw: bytes, name: str) -> list[list]:
    """CSV's rows, read with every line end (\\n, \\r\\n and old Macs' \\r), each field
    and the whole measured against the limits as it is read. The columns are separated as
    the header row shows (see separator): commas, or the semicolons that spreadsheet
    programs write where a comma is the decimal mark (French, German), or tabs."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CompanionError(f"not UTF-8 text (byte {e.start}): save it as CSV UTF-8",
                             source=name) from None
    del raw
    text, sep = separator(text)
    said = "" if sep == "," else \
        f" (columns read as separated by {_SEPARATORS.get(sep, shown(sep))})"
    decimal_comma = sep == ";"  # a program that writes ";" writes 2,5 for 2.5
    rows: list[list] = []
    chars = cells = 0
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    n = 0
    last: tuple = (0, [])
    try:
        for row in reader:
            n += 1
            width = len(row)
            while width and not row[width - 1].strip():
                width -= 1
            if not width:
                if len(rows) < MAX_SHEET_ROWS:
                    rows.append([])  # a blank line keeps the numbers of the rows after it
                continue
            if n > MAX_SHEET_ROWS:
                raise CompanionError(f"has a row {n}: over the {MAX_SHEET_ROWS} rows a card "
                                     f"list may have ({MAX_ROWS} cards and the header)",
                                     source=name)
            if width > MAX_COLUMNS:
                raise CompanionError(f"row {n} is {width} columns wide{said}: over the "
                                     f"{MAX_COLUMNS} a card list may have", source=name)
            del row[width:]
            for i, v in enumerate(row):
                if len(v) > MAX_CELL:
                    raise CompanionError(_too_long(len(v)), source=f"{name}, row {n}",
                                         field=f"column {letter(i)}")
                chars += len(v)
            cells += width
            if chars > MAX_TEXT:
                raise CompanionError(_too_much_text(shared=False), source=name)
            if cells > MAX_CELLS:
                raise CompanionError(f"over {MAX_CELLS:,} cells: more than a card list "
                                     "holds", source=name)
            rows.append([_csv_value(v, decimal_comma) for v in row])
            last = (n, row)
    except csv.Error as e:
        if "field larger than field limit" in str(e):
            raise CompanionError(f"a text over the {MAX_CELL} characters a cell may hold",
                                 source=f"{name}, row {n + 1}") from None
        raise CompanionError(f"cannot read ({e}){said}",
                             source=f"{name}, row {n + 1}") from None
    if rows:
        _unclosed_quote(text, *last, name)
    return rows


def _unclosed_quote(text: str, n: int, row: list, name: str) -> None:
    """A quote that opens a text and never closes takes every line after it into one cell
    (Python's reader, as spreadsheet programs, reads on to the end): an odd count of
    quotes with the last row running over several lines is that mistake, named at its row."""
    if text.count('"') % 2 and any("\n" in v or "\r" in v for v in row):
        raise CompanionError('a quote (") opens a text here that never closes, so every line '
                             'after it is read into one cell: close it, or write a quote '
                             'inside a text as two ("")', source=f"{name}, row {n}")


_SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}
_SEP_LINE = re.compile(r"sep=([^\r\n\"])(\r\n|\r|\n|$)")


def separator(text: str) -> tuple[str, str]:
    """(the text, the character separating its columns). Excel's own first line `sep=;`
    says it, and is not a row; else it is whichever of comma, semicolon and tab the
    header row holds most of outside quoted cells (a header "name, en";text is
    semicolon-separated); none of them (one column), or as many of two: a comma. Other
    separators (|) are read only when a sep= line names them."""
    first = _SEP_LINE.match(text)
    if first:
        return text[first.end():], first.group(1)
    counts = dict.fromkeys(_SEPARATORS, 0)
    quoted, start, i = False, True, 0
    end = min(len(text), MAX_COLUMNS * (MAX_CELL + 3))  # a header row within the limits
    while i < end:
        ch = text[i]
        if quoted:
            if ch == '"':  # "" is a quote inside the cell; one alone ends it
                quoted = text[i + 1:i + 2] == '"'
                i += 1 if quoted else 0
        elif ch == '"' and start:  # a quote opens a cell only at its start (5" stays text)
            quoted = True
        elif ch in "\r\n":
            break
        elif ch in counts:
            counts[ch] += 1
        start = ch in counts and not quoted
        i += 1
    return text, max(counts, key=lambda c: counts[c])  # ties: the first, a comma


# ---- workbooks: zips whose parts are checked before they are read ------------------------

_EOCD = b"PK\x05\x06"


class _Zip:
    """A workbook's zip, opened from its bytes once its table of contents is known to be
    small; parts are read by name (as a zip reader finds them: exact, else ignoring case)
    within MAX_PART each and MAX_UNPACKED together."""

    def __init__(self, data: bytes, name: str):
        import zipfile

        self.name, self.unpacked = name, 0
        if data[:4] == b"\xd0\xcf\x11\xe0":
            raise CompanionError("cannot read: it is password-protected, or an old .xls "
                                 "workbook renamed (save it as .xlsx without a password)",
                                 source=name)
        end = data.rfind(_EOCD, max(0, len(data) - 65_557))
        if end < 0 or len(data) < end + 22:
            raise CompanionError("cannot read (not a zip: no workbook inside)", source=name)
        _, _, _, _, entries, directory, _, _ = struct.unpack("<4sHHHHIIH", data[end:end + 22])
        if entries == 0xFFFF or directory == 0xFFFFFFFF:
            raise CompanionError("cannot read (a zip64 archive: no spreadsheet program writes "
                                 "one for a card list)", source=name)
        if entries > MAX_PARTS:
            raise CompanionError(f"is a zip of {entries} files: over the {MAX_PARTS} a "
                                 "workbook may hold", source=name)
        if directory > MAX_DIRECTORY:
            raise CompanionError(f"has a zip table of contents of {directory:,} bytes: over "
                                 f"the {MAX_DIRECTORY:,} a workbook's may be", source=name)
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError,
                OSError, struct.error) as e:
            raise CompanionError(f"cannot read (damaged zip: {str(e)[:80]})",
                                 source=name) from None
        self.by_name: dict[str, zipfile.ZipInfo] = {}
        self.by_lower: dict[str, list[zipfile.ZipInfo]] = {}
        for info in self.zip.infolist():
            self.by_name.setdefault(info.filename, info)
            self.by_lower.setdefault(info.filename.lower(), []).append(info)

    def find(self, part: str) -> zipfile.ZipInfo | None:
        part = part.lstrip("/")
        if part in self.by_name:
            return self.by_name[part]
        found = self.by_lower.get(part.lower(), [])
        return found[0] if len(found) == 1 else None

    def read(self, part: str, what: str) -> bytes | None:
        """The unpacked bytes of `part` (None when there is none), `what` naming it in
        messages ("the strings of tab Cards")."""
        import zipfile

        info = self.find(part)
        if info is None:
            return None
        size, packed = info.file_size, info.compress_size
        if size > MAX_PART:
            raise CompanionError(f"{what} unpacks to {size:,} bytes: over the {MAX_PART:,} "
                                 "a part of a workbook may (a zip bomb?)", source=self.name)
        if size > RATIO_FROM and size > MAX_RATIO * max(packed, 1):
            raise CompanionError(f"{what} unpacks to {size // max(packed, 1):,} times its "
                                 f"packed size: over the {MAX_RATIO} times a spreadsheet's "
                                 "XML packs (a zip bomb?)", source=self.name)
        if self.unpacked + size > MAX_UNPACKED:
            raise CompanionError(f"its parts unpack to over {MAX_UNPACKED:,} bytes: more than "
                                 "a card list's workbook holds (a zip bomb?)", source=self.name)
        chunks, total = [], 0
        try:
            with self.zip.open(info) as f:
                while chunk := f.read(1 << 20):  # zipfile stops at the declared size
                    total += len(chunk)
                    if total > size:
                        raise zipfile.BadZipFile("more data than declared")
                    chunks.append(chunk)
        except RuntimeError:  # zipfile: "File ... is encrypted"
            raise CompanionError("cannot read: it is password-protected (save it without a "
                                 "password)", source=self.name) from None
        except (zipfile.BadZipFile, NotImplementedError, ValueError, EOFError, OSError,
                zlib.error) as e:
            raise CompanionError(f"cannot read {what} (damaged: {str(e)[:80]})",
                                 source=self.name) from None
        self.unpacked += total
        return b"".join(chunks)


class _Refused(Exception):
    """Raised from inside an expat handler: what is refused, carried out of the parser."""


def _parser(what: str, start=None, end=None, text=None) -> "expat.XMLParserType":
    """An expat parser (no namespaces: names as written, the local name after any prefix)
    that refuses a DTD (no spreadsheet needs one, and entities are how XML bombs expand)
    and reads UTF-8 only, whatever the file declares (Excel and LibreOffice write UTF-8):
    what it counts is what calamine reads."""
    from xml.parsers import expat

    p = expat.ParserCreate(encoding="utf-8")
    p.buffer_text = True
    p.buffer_size = 1 << 16

    def no_dtd(*_):
        raise _Refused(f"{what} holds an XML DTD, which no spreadsheet has")
    p.StartDoctypeDeclHandler = no_dtd
    p.EntityDeclHandler = no_dtd
    if start:
        p.StartElementHandler = start
    if end:
        p.EndElementHandler = end
    if text:
        p.CharacterDataHandler = text
    return p


def _parse(p, data: bytes, name: str, what: str) -> None:
    from xml.parsers import expat

    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:4]:  # UTF-16, UTF-32
        raise CompanionError(f"cannot read {what}: XML not in UTF-8, which no spreadsheet "
                             "program writes", source=name)
    try:
        p.Parse(data, True)
    except _Refused as r:
        raise CompanionError(str(r), source=name) from None
    except expat.ExpatError as e:
        raise CompanionError(f"cannot read {what}: damaged XML ({expat.ErrorString(e.code)}, "
                             f"line {e.lineno})", source=name) from None
    except RecursionError:
        raise CompanionError(f"cannot read {what}: nested too deeply", source=name) from None


def _local(name: str) -> str:
    return name.rpartition(":")[2]


def _attr(attrs: dict, local: str):
    """An attribute by its local name, whatever its prefix (the first found)."""
    for k, v in attrs.items():
        if k == local or k.endswith(":" + local):
            return v
    return None


# ---- XLSX -------------------------------------------------------------------------------

_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def _rels(book: _Zip, part: str) -> dict[str, tuple[str, str]]:
    """A relationships part: Id -> (type, target resolved against the part's folder)."""
    folder, base = posixpath.split(part)
    data = book.read(posixpath.join(folder, "_rels", base + ".rels"), "its relationships")
    rels: dict[str, tuple[str, str]] = {}
    if data is None:
        return rels

    def start(tag, attrs):
        if _local(tag) == "Relationship" and attrs.get("TargetMode") != "External":
            target = attrs.get("Target", "")
            target = target[1:] if target.startswith("/") else posixpath.normpath(
                posixpath.join(folder, target))
            rels.setdefault(attrs.get("Id", ""), (attrs.get("Type", ""), target))
    _parse(_parser("its relationships", start), data, book.name, "its relationships")
    return rels


def _xlsx(book: _Zip, tab: str | None) -> tuple[bytes, str]:
    """Checks the tab's sheet and its strings; returns them repacked as a workbook of
    their own (calamine reads nothing else) and the tab's name."""
    import array

    name = book.name
    root = next((t for typ, t in _rels(book, "").values() if typ.endswith("/officeDocument")),
                "xl/workbook.xml")
    workbook = book.read(root, "its workbook")
    if workbook is None:
        raise CompanionError("cannot read (no workbook inside: not an XLSX file)", source=name)
    sheets: list[tuple[str, str]] = []  # (tab, relationship id)
    date1904 = [False]

    def start(tag, attrs):
        local = _local(tag)
        if local == "sheet":
            sheets.append((attrs.get("name", ""), _attr(attrs, "id") or ""))
        elif local == "workbookPr":
            date1904[0] = attrs.get("date1904", "") in ("1", "true")
    _parse(_parser("its workbook", start), workbook, name, "its workbook")
    names = [s for s, _ in sheets]
    if tab is None:
        tab = names[0] if names else None
    if tab not in names:
        raise CompanionError(f"no tab {shown(tab)} (tabs: {', '.join(names)})",
                             source=name, field="tab")
    rels = _rels(book, root)
    folder = posixpath.dirname(root)

    def part(kind: str, default: str) -> str:
        return next((t for typ, t in rels.values() if typ.endswith("/" + kind)),
                    posixpath.join(folder, default))
    rid = next(r for s, r in sheets if s == tab)
    target = rels.get(rid, ("", ""))[1]
    sheet = book.read(target, f"tab {tab}") if target else None
    if sheet is None:
        raise CompanionError(f"cannot read (tab {shown(tab)} has no sheet inside)",
                             source=name)
    strings_xml = book.read(part("sharedStrings", "sharedStrings.xml"),
                            f"the shared strings of tab {tab}")
    styles = book.read(part("styles", "styles.xml"), "its styles")
    lengths = _string_lengths(strings_xml, name) if strings_xml else array.array("I")
    _check_sheet(sheet, lengths, name, tab)
    del lengths
    return _repack([
        ("[Content_Types].xml", _CONTENT_TYPES.encode()),
        ("_rels/.rels", (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}">'
                         f'<Relationship Id="rId1" Type="{_REL}/officeDocument" '
                         'Target="xl/workbook.xml"/></Relationships>').encode()),
        ("xl/workbook.xml", (f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{_MAIN}"'
                             f' xmlns:r="{_REL}"><workbookPr date1904="'
                             f'{int(date1904[0])}"/><sheets><sheet name="{_xml_attr(tab)}" '
                             'sheetId="1" r:id="rId1"/></sheets></workbook>').encode()),
        ("xl/_rels/workbook.xml.rels", (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}">'
            f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
            + (f'<Relationship Id="rId2" Type="{_REL}/sharedStrings" '
               'Target="sharedStrings.xml"/>' if strings_xml else "")
            + (f'<Relationship Id="rId3" Type="{_REL}/styles" Target="styles.xml"/>'
               if styles else "") + "</Relationships>").encode()),
        ("xl/worksheets/sheet1.xml", sheet),
        ("xl/sharedStrings.xml", strings_xml),
        ("xl/styles.xml", styles)]), tab


_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/'
    'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
    'ContentType="application/xml"/></Types>')


_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                       "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _xml_attr(text: str) -> str:
    """A tab's name as an XML attribute (xml.sax.saxutils would import urllib, 30 ms, in
    every workbook's worker)."""
    return text.translate(_ATTR)


def _repack(parts: list[tuple[str, bytes | None]]) -> bytes:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for part, data in parts:
            if data is not None:
                z.writestr(zipfile.ZipInfo(part, (1980, 1, 1, 0, 0, 0)), data)
    return out.getvalue()


def _string_lengths(xml: bytes, name: str) -> array.array:
    """The length in characters of each shared string (what a cell showing it holds)."""
    import array

    lengths = array.array("I")
    state = [0, 0]  # [inside <t>, characters of the current <si>]

    def start(tag, attrs):
        local = _local(tag)
        if local == "t":
            state[0] += 1
        elif local == "si":
            state[0], state[1] = 0, 0

    def end(tag):
        local = _local(tag)
        if local == "t":
            state[0] -= 1
        elif local == "si":
            lengths.append(min(state[1], 0xFFFFFFFF))

    def text(data):
        if state[0]:
            state[1] += len(data)
    _parse(_parser("its shared strings", start, end, text), xml, name,
           "its shared strings")
    return lengths


_DIGITS = "0123456789"
_COLUMN_OF: dict[str, int] = {}  # "XFD" -> 16383, as letters are met


def _ref(ref: str, where: str) -> tuple[int, int]:
    """(row, column), from 0, of a cell reference such as XFD1048576 ("7" for a row, its
    column -1); a reference calamine would misread (row 0, a sign, a $) is refused."""
    letters = ref.rstrip(_DIGITS)
    digits = ref[len(letters):]
    col = _COLUMN_OF.get(letters)
    if col is None:
        if len(letters) > 4 or not (letters.isascii() and (letters.isalpha() or not letters)):
            raise _Refused(f"{where} names {shown(ref)}, not a cell (A1, B2, ...)")
        col = -1
        for ch in letters.upper():
            col = (col + 1) * 26 + ord(ch) - 65
        if len(_COLUMN_OF) < 1000:
            _COLUMN_OF[letters] = col
    if not digits or len(digits) > 9 or not digits.isascii() or digits.strip("0") == "":
        raise _Refused(f"{where} names {shown(ref)}, not a cell (A1, B2, ...)")
    return int(digits) - 1, col


def _check_sheet(xml: bytes, strings: array.array, name: str, tab: str) -> None:
    """Streams a sheet's XML, placing each cell as calamine does (by its r="B7", else
    after the cell before it in its row), and refuses a sheet whose cells with a value
    span over MAX_SHEET_ROWS rows or MAX_COLUMNS columns (counted from A1) or MAX_CELLS
    cells, a cell over MAX_CELL characters (a shared string counted as shown), or over
    MAX_TEXT characters in all. Stops at the first cell over a limit."""
    next_row = next_col = 0  # where calamine places a cell without r
    row = col = -1  # the cell being read (-1: none)
    rows = cols = total = 0
    value = in_v = False
    formula = chars = 0
    shared: list[str] | None = None  # a shared string's index, as read in <v>
    count = len(strings)

    def refuse(message: str) -> None:
        raise _Refused(message)

    def start(tag, attrs):
        nonlocal next_row, next_col, row, col, value, in_v, formula, chars, shared
        if row >= 0:  # inside a cell: any element in it gives it a value
            value = True
            if tag == "v" or tag.endswith(":v"):
                in_v = True
            elif tag == "f" or tag.endswith(":f"):
                formula += 1
        elif tag == "c" or tag.endswith(":c"):
            r = attrs.get("r")
            if r is None:
                row, col = next_row, next_col
            else:
                row, col = _ref(r, f"tab {tab}: a cell")
                next_col = col
            value, chars = False, 0
            shared = [] if attrs.get("t") == "s" else None
        elif tag == "row" or tag.endswith(":row"):
            r = attrs.get("r")
            if r is not None:
                next_row = _ref(r, f"tab {tab}: a row")[0]

    def end(tag):
        nonlocal next_row, next_col, row, rows, cols, total, in_v, formula
        if row < 0:
            if tag == "row" or tag.endswith(":row"):
                next_row += 1
                next_col = 0
        elif tag == "c" or tag.endswith(":c"):
            r, c, row = row, col, -1
            next_col += 1
            if not value:  # calamine keeps no empty cell
                return
            n = chars
            if shared is not None:
                index = "".join(shared).strip()
                if index.isascii() and index.isdigit() and len(index) < 10 \
                        and int(index) < count:
                    n = strings[int(index)]
            if c >= MAX_COLUMNS:
                refuse(f"tab {tab} is {c + 1} columns wide (a value in cell "
                       f"{letter(c)}{r + 1}): over the {MAX_COLUMNS} a card list may have")
            if r >= MAX_SHEET_ROWS:
                refuse(f"tab {tab} has a value in row {r + 1} (cell {letter(c)}{r + 1}): "
                       f"over the {MAX_SHEET_ROWS} rows a card list may have ({MAX_ROWS} "
                       "cards and the header)")
            if n > MAX_CELL:
                refuse(f"tab {tab}, cell {letter(c)}{r + 1}: {_too_long(n)}")
            total += n
            if total > MAX_TEXT:
                refuse(f"tab {tab}: {_too_much_text()}")
            if r >= rows or c >= cols:
                rows, cols = max(rows, r + 1), max(cols, c + 1)
                if rows * cols > MAX_CELLS:
                    refuse(f"tab {tab} spans {rows} rows of {cols} columns: over the "
                           f"{MAX_CELLS:,} cells a card list may have")
        elif tag == "v" or tag.endswith(":v"):
            in_v = False
        elif tag == "f" or tag.endswith(":f"):
            formula -= 1

    def text(data):
        nonlocal chars
        if row >= 0 and not formula:
            chars += len(data)
            if in_v and shared is not None and len(shared) < 12:
                shared.append(data)
    _parse(_parser(f"tab {tab}", start, end, text), xml, name, f"tab {tab}")


# ---- ODS --------------------------------------------------------------------------------

_ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"
_ODS_MANIFEST = (
    b'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:'
    b'names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry '
    b'manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
    b'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
    b'manifest:media-type="text/xml"/></manifest:manifest>')
_ODS_VALUES = ("value", "string-value", "date-value", "time-value", "boolean-value",
               "value-type", "formula")


def _repeats(attrs: dict, local: str, where: str) -> int:
    v = _attr(attrs, local)
    if v is None:
        return 1
    v = v.strip()
    if not (v.isascii() and v.isdigit()) or len(v) > 12:
        raise _Refused(f"{where} is repeated {shown(v)} times: not a number")
    return max(int(v), 1)


def _ods(book: _Zip, tab: str | None) -> tuple[bytes, str]:
    """Checks every table of content.xml (calamine reads them all when it opens the file)
    with rows and cells repeated (number-rows-repeated, number-columns-repeated) counted
    as calamine expands them; returns content.xml repacked on its own, and the tab."""
    name = book.name
    manifest = book.read("META-INF/manifest.xml", "its manifest") or b""
    if b"encryption-data" in manifest:
        raise CompanionError("cannot read: it is password-protected (save it without a "
                             "password)", source=name)
    content = book.read("content.xml", "its content")
    if content is None:
        raise CompanionError("cannot read (no content.xml inside: not an ODS file)",
                             source=name)
    names: list[str] = []
    s = {"depth": 0, "table": None, "row": None, "cell": None, "cells": 0, "text": 0}
    t: dict = {}  # the table being read
    r: dict = {}  # its row being read
    c: dict = {}  # the row's cell being read

    def refuse(message: str) -> None:
        raise _Refused(message)

    def start(tag, attrs):
        s["depth"] += 1
        local = _local(tag)
        if s["cell"] is not None:
            if local == "s":  # text:s text:c="N": N spaces
                c["chars"] += _repeats(attrs, "c", f"table {t['name']}: a space")
            elif local in ("tab", "line-break"):
                c["chars"] += 1
            return
        if local == "table" and s["table"] is None:
            s["table"] = s["depth"]
            t.clear()
            t.update(name=_attr(attrs, "name") or "", row=0, rows=0, cols=0)
            names.append(t["name"])
        elif s["table"] is None:
            return
        elif local == "table-row" and s["row"] is None:
            s["row"] = s["depth"]
            r.clear()
            r.update(repeat=_repeats(attrs, "number-rows-repeated", f"table {t['name']}: a row"),
                     col=0, cols=0, weight=0)
        elif local in ("table-cell", "covered-table-cell") and s["row"] is not None:
            s["cell"] = s["depth"]
            c.clear()
            values = {_local(k): v for k, v in attrs.items() if _local(k) in _ODS_VALUES}
            formula = len(values.pop("formula", ""))
            kind = values.pop("value-type", None)
            c.update(repeat=_repeats(attrs, "number-columns-repeated",
                                     f"table {t['name']}: a cell"),
                     value=bool(values or formula or kind),  # calamine reads these alone
                     chars=sum(map(len, values.values())), formula=formula)

    def end(tag):
        depth = s["depth"]
        s["depth"] -= 1
        if depth == s["cell"]:
            s["cell"] = None
            col = r["col"]
            r["col"] += c["repeat"]
            if not c["value"]:
                return  # empty cells calamine drops, or expands only before a value
            at = f"table {t['name']}, cell {letter(col)}{t['row'] + 1}"
            if r["col"] > MAX_COLUMNS:
                how = (f"a value in row {t['row'] + 1} repeated to column "
                       f"{letter(r['col'] - 1)}" if c["repeat"] > 1 else
                       f"a value in cell {letter(col)}{t['row'] + 1}")
                refuse(f"table {t['name']} is {r['col']} columns wide ({how}): over the "
                       f"{MAX_COLUMNS} a card list may have")
            if c["chars"] > MAX_CELL:
                refuse(f"{at}: {_too_long(c['chars'])}")
            r["cols"] = r["col"]
            r["weight"] += (c["chars"] + c["formula"]) * c["repeat"]
        elif depth == s["row"]:
            s["row"] = None
            top = t["row"]
            t["row"] += r["repeat"]
            if not r["cols"]:
                return
            if t["row"] > MAX_SHEET_ROWS:
                how = (f"row {top + 1} repeated {r['repeat']} times" if r["repeat"] > 1 else
                       f"a value in row {top + 1}")
                refuse(f"table {t['name']} is {t['row']} rows long ({how}): over the "
                       f"{MAX_SHEET_ROWS} rows a card list may have ({MAX_ROWS} cards and the "
                       "header)")
            t["rows"], t["cols"] = t["row"], max(t["cols"], r["cols"])
            s["text"] += r["weight"] * r["repeat"]
            if s["text"] > MAX_TEXT:
                refuse(_too_much_text())
            if s["cells"] + t["rows"] * t["cols"] > MAX_CELLS:
                refuse(f"its tables span over {MAX_CELLS:,} cells (table {t['name']}: "
                       f"{t['rows']} rows of {t['cols']} columns), more than a card list "
                       "holds; calamine reads every table of an ODS file")
        elif depth == s["table"]:
            s["table"] = None
            s["cells"] += t["rows"] * t["cols"]

    def text(data):
        if s["cell"] is not None:
            c["chars"] += len(data)
    _parse(_parser("its content", start, end, text), content, name, "its content")
    if tab is None:
        tab = names[0] if names else None
    if tab not in names:
        raise CompanionError(f"no tab {shown(tab)} (tabs: {', '.join(names)})",
                             source=name, field="tab")
    return _repack([("mimetype", _ODS_MIME), ("META-INF/manifest.xml", _ODS_MANIFEST),
                    ("content.xml", content)]), tab


# ---- rows -------------------------------------------------------------------------------

def _row(paths: list[tuple | None], raw: list, where: str, header: list[str],
         clash: bool, letters: list[str] | None = None) -> Row:
    """`letters`: each column's letter (letter(i)), worked out once a sheet."""
    for i in range(len(paths), len(raw)):  # right of the header: read by nothing
        if _blank(raw[i]) is not None:
            raise CompanionError("has values but no name in the header row",
                                 source=where, field=f"column {letter(i)}")
    letters = letters or [letter(i) for i in range(len(paths))]
    row = _new(where)
    columns = row.columns
    kinds: dict[tuple, tuple[str, int]] = {}
    for i, path in enumerate(paths):
        if not path:
            continue
        columns.setdefault(path[0], letters[i])  # a field's first column, even blank
        value = _blank(raw[i]) if i < len(raw) else None
        if value is None:
            continue
        if isinstance(value, str) and len(value) > MAX_CELL:
            raise CompanionError(_too_long(len(value)), source=where,
                                 field=f"column {letter(i)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise CompanionError(f"{shown(str(value))} is not a number a card can show",
                                 source=where, field=f"column {letter(i)}")
        if clash:  # a field two headers read differently: only one may be filled
            for prefix, kind in _steps(path):
                had = kinds.setdefault(prefix, (kind, i))
                if had[0] != kind:
                    raise CompanionError(
                        f"{shown(header[i])} fills {_dotted(prefix)} as {_KIND_WORDS[kind]}, "
                        f"but column {letter(had[1])} ({shown(header[had[1]])}) fills it as "
                        f"{_KIND_WORDS[had[0]]}: leave one of them blank", source=where,
                        field=f"column {letter(i)}")
        if len(path) == 1:  # a field of its own, its column noted above
            row[path[0]] = _typed(value)
        else:
            _put(row, path, _typed(value), letters[i], where)
    return row


def _new(where: str) -> Row:
    r = Row()
    r.where, r.columns = where, {}
    return r


def _put(row: Row, path: tuple, value, letter: str, where: str) -> None:
    """Sets a field by its checked path: ("a", "b") -> nested table, ("a", 1, "b") -> item
    2 of list a (the header a.2.b)."""
    node: Any = row
    for i, part in enumerate(path):
        last = i == len(path) - 1
        if isinstance(part, int):
            while len(node) <= part:
                node.append(_new(where))
            if last:
                node[part] = value
                return
            node = node[part]
            continue
        node.columns.setdefault(part, letter)  # a nested field is named by its first column
        if last:
            node[part] = value
        elif isinstance(path[i + 1], int):
            node = node.setdefault(part, [])
        else:
            node = node.setdefault(part, _new(where))


def _blank(value):
    if value is None:
        return None
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


def _csv_value(text: str, decimal_comma: bool = False):
    """CSV has no types: what reads as a number is one, except with a leading zero ("007"
    is an id, not 7). A spreadsheet's text cell stays text ("2024" as a name). With
    `decimal_comma` (a semicolon-separated file), 2,5 is 2.5 as its program meant."""
    text = unquoted(text)  # a text cell kept from running as a formula (csv_cells)
    number = text.strip()
    if decimal_comma and _DECIMAL_COMMA.match(number):
        number = number.replace(",", ".")
    if _NUMBER.match(number) and not _LEADING_ZERO.match(number):
        return float(number)
    return text


def _typed(value):
    """Calamine reads every number as a float: whole numbers -> int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def letter(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def fields_of(entries: list) -> tuple[set[str], set[str]]:
    """(every dotted field name, the top-level fields all of them have) of the entries of
    a bundled list of tables: what a spreadsheet standing for it may and must give. A
    field that holds a list stands as "name[]" too, so a row without it reads as empty."""
    names: set[str] = set()

    def walk(value, prefix):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{prefix}.{k}" if prefix else k)
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            names.add(f"{prefix}[]")
            for i, v in enumerate(value, 1):
                walk(v, f"{prefix}.{i}")
        else:
            names.add(prefix)
    tables = [e for e in entries if isinstance(e, dict)]
    for e in tables:
        walk(e, "")
    everywhere = set.intersection(*(set(e) for e in tables)) if tables else set()
    lists = {n[:-2] for n in names if n.endswith("[]") and "." not in n}
    return names, everywhere - lists


# ---- writing (companion init --sheets) -----------------------------------------------

def flatten(entry: dict, prefix: str = "") -> dict:
    """{"name": {"en": "Red"}, "costs": [{"gold": 1}]} -> {"name.en": "Red", "costs.1.gold": 1}:
    a row as read() reads it back."""
    out = {}
    for k, v in entry.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, key))
        elif isinstance(v, list) and all(isinstance(x, dict) for x in v):
            for i, x in enumerate(v, 1):  # an empty list: no column
                out.update(flatten(x, f"{key}.{i}"))
        else:
            out[key] = v
    return out


def rows_of(entries: list[dict]) -> list[list] | None:
    """The header and rows that stand for a list of tables, or None when a field is
    something a cell cannot hold (a list of plain values)."""
    flat = [flatten(e) for e in entries]
    if any(isinstance(v, (list, dict)) for r in flat for v in r.values()):
        return None
    header = list(dict.fromkeys(k for r in flat for k in r))
    return [header] + [[r.get(h) for h in header] for r in flat]


def write(path: Path, tabs: dict[str, list[list]]) -> None:
    """Writes tabs {name: rows} as one XLSX file (a tab each) or, for .csv, the one tab
    (its formula-like text cells led by a quote: companion.files.csv_cells)."""
    from companion.files import csv_cells
    from companion.files.atomic import replaced

    with replaced(path) as tmp:
        if path.suffix == ".csv":
            (rows,) = tabs.values()
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                csv_cells.writer(f).writerows([["" if v is None else v for v in r]
                                               for r in rows])
            return
        import xlsxwriter

        book = xlsxwriter.Workbook(str(tmp))
        bold = book.add_format({"bold": True})
        for name, rows in tabs.items():
            sheet = book.add_worksheet(name[:31])
            sheet.freeze_panes(1, 0)
            for i, row in enumerate(rows):
                for j, v in enumerate(row):
                    if v is not None:
                        sheet.write(i, j, v, bold if i == 0 else None)
        book.close()
