"""Card lists kept in a spreadsheet. In a data file, any list of cards may be written
`{ sheet = "FILE", tab = "NAME" }` (FILE relative to the data file): CSV, XLSX or ODS.
XLSX and ODS are read with python-calamine; CSV (which calamine does not read) with the
standard library. The header row names the fields; a dotted header fills a nested field
(`name.en`), a number in it an item of a list (`costs.1.gold`); a `qty` column repeats
its row. Whole numbers read as integers. Each row remembers where it came from, so an
error names the file, the tab, the row and the column."""

import csv
import io
import re
from pathlib import Path
from typing import Any

from companion import art, inputs
from companion.errors import CompanionError, shown

QTY = "qty"
ART = art.KEYS  # any card entry may take a picture
MAX_ROWS = 10_000
_NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")


class Row(dict):
    """A row's fields, with where it was read: `where` ("cards.xlsx, tab Clans, row 3")
    and `columns` (field -> column letter, nested fields in their own Row)."""

    where: str = ""
    columns: dict

    def column(self, key: str) -> str:
        return self.columns.get(key, "?")


def is_reference(value: Any) -> bool:
    return isinstance(value, dict) and "sheet" in value and set(value) <= {"sheet", "tab"}


def read(ref: dict, base: Path, source: str, field: str,
         known: set[str] | None = None, required: set[str] = frozenset()) -> list[Row]:
    """The rows of the spreadsheet that `ref` names, as tables. `known`: the dotted field
    names a row may have (None: any); `required`: the fields every row must have a column
    for."""
    sheet, tab = ref.get("sheet"), ref.get("tab")
    if not isinstance(sheet, str) or not sheet.strip():
        raise CompanionError("must name a file, e.g. sheet = \"cards.xlsx\"", source=source,
                             field=f"{field}.sheet")
    if tab is not None and not isinstance(tab, str):
        raise CompanionError(f"must be a tab's name, not {shown(tab)}", source=source,
                             field=f"{field}.tab")
    path = (base / sheet) if not Path(sheet).is_absolute() else Path(sheet)
    cells = _cells(path, tab)
    name = f"{path}" + (f", tab {tab}" if tab else "")
    if not cells:
        raise CompanionError("is empty: the first row names the fields", source=name)
    header = [str(h).strip() for h in cells[0]]
    for i, h in enumerate(header):
        if not h:
            if any(i < len(r) and _blank(r[i]) is not None for r in cells[1:]):
                raise CompanionError("has values but no name in the header row",
                                     source=name, field=f"column {_letter(i)}")
            continue
        if h != QTY and h not in ART and known is not None and h not in known:
            choices = ", ".join(sorted(k for k in known if not k.endswith("[]"))) or "none"
            raise CompanionError(f"unknown header {shown(h)} (fields here: {choices}, qty, "
                                 f"art, art_fit, art_anchor)",
                                 source=name, field=f"column {_letter(i)}")
        if header.count(h) > 1:
            raise CompanionError(f"header {shown(h)} is given twice", source=name,
                                 field=f"column {_letter(i)}")
    tops = {h.split(".")[0] for h in header if h}
    missing = sorted(required - tops)
    if missing:
        raise CompanionError(f"no column for {', '.join(missing)}", source=name)
    rows: list[Row] = []
    ids: set = set()
    for n, raw in enumerate(cells[1:], start=2):
        if all(_blank(v) is None for v in raw):
            continue  # a blank line
        row = _row(header, raw, f"{name}, row {n}")
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


def _cells(path: Path, tab: str | None) -> list[list]:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        from companion.data import read_text

        text, _ = read_text(path)
        return [[_csv_value(v) for v in row] for row in csv.reader(io.StringIO(text))]
    if suffix not in (".xlsx", ".xlsm", ".ods", ".xls"):
        raise CompanionError("is not a spreadsheet: use .csv, .xlsx or .ods", source=str(path))
    from python_calamine import CalamineWorkbook

    inputs.note(path)
    try:
        book = CalamineWorkbook.from_path(str(path))
    except FileNotFoundError:
        raise CompanionError("no such file", source=str(path)) from None
    except Exception as e:  # calamine's own errors: damaged, password, not a workbook
        raise CompanionError(f"cannot read ({type(e).__name__}: {str(e)[:80]})",
                             source=str(path)) from None
    names = book.sheet_names
    if tab is None:
        tab = names[0] if names else None
    if tab not in names:
        raise CompanionError(f"no tab {shown(tab)} (tabs: {', '.join(names)})",
                             source=str(path), field="tab")
    return book.get_sheet_by_name(tab).to_python()


def _row(header: list[str], raw: list, where: str) -> Row:
    for i in range(len(header), len(raw)):  # right of the header: read by nothing
        if _blank(raw[i]) is not None:
            raise CompanionError("has values but no name in the header row",
                                 source=where, field=f"column {_letter(i)}")
    row = _new(where)
    for i, h in enumerate(header):
        if not h:
            continue
        row.columns.setdefault(h.split(".")[0], _letter(i))  # a field's first column, even blank
        value = _blank(raw[i]) if i < len(raw) else None
        if value is None:
            continue
        _put(row, h.split("."), _typed(value), _letter(i), where)
    return row


def _new(where: str) -> Row:
    r = Row()
    r.where, r.columns = where, {}
    return r


def _put(row: Row, parts: list[str], value, letter: str, where: str) -> None:
    """Sets a dotted field: a.b -> nested table, a.2.b -> item 2 (from 1) of list a."""
    node: Any = row
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, list):
            index = int(part) - 1
            while len(node) <= index:
                node.append(_new(where))
            if last:
                node[index] = value
                return
            node = node[index]
            continue
        node.columns.setdefault(part, letter)  # a nested field is named by its first column
        if last:
            node[part] = value
        elif parts[i + 1].isdigit():
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


def _csv_value(text: str):
    """CSV has no types: what reads as a number is one, except with a leading zero ("007"
    is an id, not 7). A spreadsheet's text cell stays text ("2024" as a name)."""
    if _NUMBER.match(text.strip()) and not re.match(r"-?0[0-9]", text.strip()):
        return float(text)
    return text


def _typed(value):
    """Calamine reads every number as a float: whole numbers -> int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _letter(i: int) -> str:
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
    """Writes tabs {name: rows} as one XLSX file (a tab each) or, for .csv, the one tab."""
    from companion.atomic import replaced

    with replaced(path) as tmp:
        if path.suffix == ".csv":
            (rows,) = tabs.values()
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows([["" if v is None else v for v in r] for r in rows])
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
