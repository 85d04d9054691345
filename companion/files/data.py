"""Reading data files (TOML) with errors that name the file and the field."""

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from companion.files import designer_files, inputs
from companion.errors import CompanionError, escape, shown
from companion.files.row import Row
from companion.text.typography import typeset

MAX_FILE = 1_000_000  # bytes: every data, score or ledger file is far smaller


def read_text(file: Path | str) -> tuple[str, str]:
    """(text, name for messages) of a data file, '-' meaning standard input. Refuses what
    is not UTF-8 text or is over MAX_FILE, before parsing can hang on it."""
    name = "<stdin>" if str(file) == "-" else str(file)
    inputs.note(file)
    try:
        if str(file) == "-":
            raw = sys.stdin.buffer.read(MAX_FILE + 1) if hasattr(sys.stdin, "buffer") \
                else sys.stdin.read(MAX_FILE + 1).encode("utf-8", "surrogatepass")
        else:
            raw = designer_files.read_bytes(file, MAX_FILE, "data file")
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror or e})", source=name) from None
    if len(raw) > MAX_FILE:
        raise CompanionError(f"over {MAX_FILE // 1_000_000} MB: not a data file", source=name)
    bom = 3 if raw[:3] == b"\xef\xbb\xbf" else 0  # a byte-order mark, dropped
    try:  # (the utf-8-sig codec would cost its module's import: 0.3 ms of a score's start)
        return raw[bom:].decode("utf-8"), name
    except UnicodeDecodeError as e:
        raise CompanionError(f"not UTF-8 text (byte {e.start + bom})", source=name) from None


MAX_DEPTH = 32  # tables and lists within each other: real data files use under 6


# A dotted key of MAX_DEPTH parts or more, anywhere but in strings and comments: tomllib's
# time and memory grow with the square of a key's parts (20,000 parts: 7 s; 100,000:
# 12 GB), so such a key is refused before the parser sees it.
# Tried only where a word starts, each word read once (possessive): linear in the text.
# Compiled (and cached by re) at its first use: a text of fewer dots than that holds none.
_DEEP_KEY = (r'(?<![A-Za-z0-9_-])(?:(?:[A-Za-z0-9_-]++|"")[ \t]*+\.[ \t]*+){%d,}'
             % MAX_DEPTH)
# A string or a comment, whole, as the parser reads them left to right: one match each, so
# a scan costs a step per string rather than a step per character.
_STRING_OR_COMMENT = (r'#[^\n]*|"""[\s\S]*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)'
                      r'|"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?')
# Read by the partial reads alone: compiled (and cached by re) at their first use.
_SKIPPED_OR_BRACKET = _STRING_OR_COMMENT + r"|[\[\]{}]"


def _keys_only(text: str) -> str:
    """The text with each string as "" and comments gone."""
    return re.sub(_STRING_OR_COMMENT, lambda m: "" if m[0][0] == "#" else '""', text)


def _deep_key(text: str) -> bool:
    """Whether the text holds a dotted key of MAX_DEPTH parts or more."""
    return text.count(".") >= MAX_DEPTH and re.search(_DEEP_KEY, _keys_only(text)) is not None


def _tables_only(text: str, names: frozenset[str]) -> str:
    """The text of the top-level tables in `names` alone (and what comes before the first
    [table]): a command that reads a few tables of a big file parses only those. A header is
    a "[" first on its line, outside strings, comments and brackets."""
    starts = _headers(text)
    kept = [text[:starts[0]] if starts else text]
    for start, end in zip(starts, [*starts[1:], len(text)]):
        name = _table_name(text, start)
        if name is None or name in names:
            kept.append(text[start:end])
    return "".join(kept)


def _table_name(text: str, start: int) -> str | None:
    """The first part of the name a header at `start` opens ("clans" for [clans] and
    [[clans.x]]); None where it names nothing readable (the table is kept, for the
    parser to word what is wrong)."""
    i, n = start + 1 + text.startswith("[", start + 1), len(text)
    while i < n and text[i] in " \t":
        i += 1
    if text[i:i + 1] in ('"', "'"):
        close, line_end = text.find(text[i], i + 1), text.find("\n", i + 1)
        return None if close < 0 or 0 <= line_end < close else text[i + 1:close]
    j = i
    while j < n and text[j] in _BARE:
        j += 1
    return text[i:j] or None


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _headers(text: str) -> list[int]:
    """Where each top-level header starts. Only lines holding a bracket are read, and of
    those only the ones holding a string or a comment are scanned: a string or comment
    ends on its line, so the depth of brackets a line starts at is the sum of what the
    lines before it opened. A text with a multi-line string (\"\"\" or ''') is scanned
    whole (_scanned_headers), as is one whose braces do not pair. On TOML both find the
    same headers (tests/test_partial_reads.py); on a text that is not TOML (an inline
    table left open over lines) they may cut it apart differently, and the parser words
    what is wrong in the tables it is given."""
    if '"""' in text or "'''" in text or text.count("{") != text.count("}"):
        return _scanned_headers(text)
    starts, depth, pos, n = [], 0, 0, len(text)
    while True:
        i, j = text.find("[", pos), text.find("]", pos)
        at = i if j < 0 or 0 <= i < j else j
        if at < 0:
            break
        line = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = n if end < 0 else end
        row = text[line:end]
        code = _code_of(row)
        if code is None:  # a literal string or an escape: read token by token
            for m in re.finditer(_SKIPPED_OR_BRACKET, row):
                sign = m[0][0]
                if sign in "]}":
                    depth -= 1
                elif sign in "[{":
                    if depth == 0 and sign == "[" and not row[:m.start()].strip():
                        starts.append(line + m.start())
                    depth += 1
                if depth < 0:
                    return _scanned_headers(text)
        else:
            if depth == 0 and row.lstrip()[:1] == "[":
                starts.append(line + len(row) - len(row.lstrip()))
            depth += code.count("[") + code.count("{") - code.count("]") - code.count("}")
            if depth < 0:  # more closed than opened: not TOML; as the whole scan reads it
                return _scanned_headers(text)
        pos = end
    return starts


def _code_of(row: str) -> str | None:
    """A line without its basic strings and its comment (what its brackets are counted
    in), or None for a line a split on quotes cannot read: a literal string ('...') or an
    escape (\\) before its comment, a string left open."""
    parts = row.split('"')
    code = []
    for i, part in enumerate(parts):
        if i % 2:  # inside a basic string: an escape could hide its end
            if "\\" in part:
                return None
            continue
        cut = part.find("#")
        outside = part if cut < 0 else part[:cut]
        if "'" in outside or "\\" in outside:
            return None
        code.append(outside)
        if cut >= 0:  # the rest is a comment, whatever it holds
            return "".join(code)
    return None if len(parts) % 2 == 0 else "".join(code)


def _scanned_headers(text: str) -> list[int]:
    """_headers, by reading every string, comment and bracket of the text in turn."""
    starts, depth = [], 0
    for m in re.finditer(_SKIPPED_OR_BRACKET, text):
        sign = m[0][0]
        if sign in "]}":
            depth = max(0, depth - 1)
        elif sign in "[{":
            if depth == 0 and sign == "[" and \
                    not text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip():
                starts.append(m.start())
            depth += 1
    return starts


# A text this long (a game's file, not a score sheet) is parsed once: its table is kept
# (companion.files.kept) by the text's digest and read back by later runs (covenia.toml: 5 ms to
# parse and check, 0.3 to read back). Shorter ones parse faster than the cache is found.
KEPT_FROM = 8192


def parse_toml(text: str, source: str, only: frozenset[str] | None = None) -> dict[str, Any]:
    """The checked table of a TOML text; with `only`, of those top-level tables alone."""
    if only is None and len(text) >= KEPT_FROM:
        import hashlib

        from companion.files import kept

        key = hashlib.sha256(f"{sys.version_info[:2]}\0{MAX_DEPTH}\0{text}".encode(
            "utf-8", "surrogatepass")).hexdigest()[:32]
        table = kept.read("data", key)
        if not isinstance(table, dict) or _depth(table) > MAX_DEPTH:  # as a parse checks
            table = _parsed(text, source, None)
            kept.keep("data", key, table)  # marshal takes no dates: such a file is parsed
        return table
    return _parsed(text, source, only)


def _parsed(text: str, source: str, only: frozenset[str] | None) -> dict[str, Any]:
    if only is not None:
        text = _tables_only(text, only)
    if _deep_key(text):
        raise CompanionError(f"nested over {MAX_DEPTH} levels deep (a dotted key of "
                             f"{MAX_DEPTH} parts or more)", source=source)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CompanionError(f"not valid TOML ({escape(str(e))})", source=source) from None
    except RecursionError:
        table = None
    except ValueError as e:  # a whole number of over 4,300 digits: Python will not read it
        raise CompanionError(f"not valid TOML ({escape(str(e).split(';')[0])})",
                             source=source) from None
    if table is None or _depth(table) > MAX_DEPTH:
        # Checked once here, so no code reading the data can recurse out of the stack
        # (a dotted key can nest 5,000 tables in one line).
        raise CompanionError(f"nested over {MAX_DEPTH} levels deep", source=source)
    return table if only is None else {k: v for k, v in table.items() if k in only}


def _depth(value) -> int:
    """How deeply tables and lists nest, counted without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        todo.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def load_toml(path: Path | str, template: dict | None = None,
              only: frozenset[str] | None = None) -> dict[str, Any]:
    """The one way data files are read: a path (or '-') to a checked TOML table, with
    every list written { spreadsheet = FILE, tab = NAME } read from that spreadsheet
    (beside the file), and the game file's old keys read as their new names
    (current_keys). `template`: the bundled data of the same kind, whose lists tell which
    headers a spreadsheet may and must have. `only`: the top-level tables to read."""
    text, name = read_text(path)
    table = parse_toml(text, name, only)
    base = Path(path).parent if str(path) != "-" else Path.cwd()
    current_keys(table, name)
    return _with_spreadsheets(table, template or {}, base, name, "")


def load_fields(path: Path | str, template: dict | None = None,
                english: bool = False) -> "Fields":
    return Fields(load_toml(path, template), str(path) if str(path) != "-" else "<stdin>",
                  english=english)


def current_keys(table: dict, source: str) -> dict:
    """`table` (a data file) with the keys it took before "sheet" was given one meaning
    (docs/map.md, Vocabulary) under their new names, in place: designers' files still say
    them. `[sheets.NAME]` is `[label_sheets.NAME]`, a component's `sheet = "avery-5160"`
    its `label_sheet`, and a list's `{ sheet = FILE }` (in _with_spreadsheets)
    `{ spreadsheet = FILE }`. A table holding both names of one key is an error."""
    _renamed(table, "sheets", "label_sheets", source, "")
    components = table.get("components")
    for name, spec in components.items() if isinstance(components, dict) else ():
        if isinstance(spec, dict):
            _renamed(spec, "sheet", "label_sheet", source, f"components.{name}")
    return table


def _renamed(table: dict, old: str, new: str, source: str, at: str) -> None:
    if old not in table:
        return
    where = f"{at}.{old}" if at else old
    if new in table:
        raise CompanionError(f"{old} is the old name of {new}: write {new} alone",
                             source=source, field=where)
    items = [(new if key == old else key, value) for key, value in table.items()]
    table.clear()
    table.update(items)


def _is_old_reference(value: Any) -> bool:
    return (isinstance(value, dict) and "sheet" in value
            and set(value) <= {"sheet", "spreadsheet", "tab"})


def _with_spreadsheets(table: dict, template: dict, base: Path, source: str,
                       at: str) -> dict:
    for key, value in table.items():
        where = f"{at}.{key}" if at else key
        if where == "kinds":  # card layouts: the layout engine's schema checks them
            continue
        like = template.get(key) if isinstance(template, dict) else None
        if _is_old_reference(value):  # { sheet = FILE }: { spreadsheet = FILE }
            _renamed(value, "sheet", "spreadsheet", source, where)
        # the spreadsheet reader is imported only for a file that names a spreadsheet:
        # the score commands start without it
        if (isinstance(value, dict) and "spreadsheet" in value
                and _spreadsheets().is_reference(value)):
            spreadsheet = _spreadsheets()
            known, required = (spreadsheet.fields_of(like) if isinstance(like, list)
                               else (None, set()))
            table[key] = spreadsheet.read(value, base, source, where, known, required)
        elif isinstance(value, list) and isinstance(like, list):
            _known_keys(value, like, source, where)
        elif isinstance(value, dict):
            _with_spreadsheets(value, like if isinstance(like, dict) else {}, base, source,
                               where)
    return table


def _spreadsheets():
    from companion.files import spreadsheet

    return spreadsheet


def _known_keys(entries: list, like: list, source: str, where: str) -> None:
    """An inline list's entries take the fields its bundled entries have (what a
    spreadsheet standing for it may have as headers), and art: a misspelt key such as
    `art_fitt` or `colr` is refused, not silently ignored."""
    import difflib

    from companion.files import picture_keys

    known = {k for e in like if isinstance(e, dict) for k in e} | set(picture_keys.KEYS)
    if not any(isinstance(e, dict) for e in like):
        return
    for i, entry in enumerate(entries):
        for key in entry if isinstance(entry, dict) else ():
            if key not in known:
                near = difflib.get_close_matches(key, known, 1)
                hint = f"did you mean {near[0]}? " if near else ""
                raise CompanionError(f"unknown field ({hint}fields here: "
                                     f"{', '.join(sorted(known))})", source=source,
                                     field=f"{where}[{i}].{key}")


NO_TRANSLATION: set[str] = set()


def english_for(lang: str) -> None:
    """Says once (a build: kit.prepare starts anew) that our own words have no `lang`
    translation and print in English."""
    if lang not in NO_TRANSLATION:
        NO_TRANSLATION.add(lang)
        print(f"Note: table-companion's own words (the sheets' labels, the print guide, the "
              f"score pad) have no {shown(lang)} translation: they print in English.",
              file=sys.stderr)


def english_where_missing(value, lang: str):
    """`value` (our own data) with each {en = ..., fr = ...} text lacking `lang` given its
    English (and the note said once)."""
    if isinstance(value, dict):
        texts = value and all(isinstance(v, str) and re.fullmatch(r"[a-z]{2,3}", k)
                              for k, v in value.items())
        if texts and lang not in value and "en" in value:
            english_for(lang)
            return {**value, lang: value["en"]}
        return {k: english_where_missing(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [english_where_missing(v, lang) for v in value]
    return value


class Fields:
    """A view of one table of a data file that reports missing or mistyped fields by path."""

    def __init__(self, table: Any, source: str, path: str = "", english: bool = False):
        """`english`: our own words (the files of companion/layouts/ that are no game): a text
        missing in the language asked for prints in English (`text`)."""
        if not isinstance(table, dict):
            raise CompanionError("must be a table", source=source, field=path or None)
        self.table, self.source, self.path, self.english = table, source, path, english
        if isinstance(table, Row):  # a spreadsheet row: errors name its file, row, column
            self.source = table.where

    def _name(self, key: str) -> str:
        if isinstance(self.table, Row):
            return f"column {self.table.column(key)} ({key})"
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str, message: str) -> CompanionError:
        return CompanionError(message, source=self.source, field=self._name(key))

    def get(self, key: str, kind: type | tuple = object, default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                raise self.error(key, "missing")
            return default
        value = self.table[key]
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.error(key, f"must be {names}, not {shown(value)}")
        return value

    def sub(self, key: str) -> "Fields":
        return Fields(self.get(key, dict), self.source, self._name(key), self.english)

    def items(self, key: str) -> list["Fields"]:
        return [Fields(t, self.source, f"{self._name(key)}[{i}]", self.english)
                for i, t in enumerate(self.get(key, list))]

    def text_list(self, key: str, lang: str) -> list[str]:
        """A list of printed strings, each {en = ..., fr = ...}."""
        return [Fields({"line": v}, self.source, f"{self._name(key)}[{i}]", self.english)
                .text("line", lang) for i, v in enumerate(self.get(key, list))]

    def text(self, key: str, lang: str) -> str:
        """A printed string given as {en = ..., fr = ...}, typeset for its language (the
        one place French punctuation spacing is applied). Our own words in a language we
        have no translation for are printed in English, and a note says so once; a game's
        texts (ours or a designer's) must be in the language asked for."""
        value = self.get(key, (str, dict))
        if isinstance(value, dict):
            if lang not in value and self.english and isinstance(value.get("en"), str):
                english_for(lang)
                value = {lang: value["en"]}
            if lang not in value or not isinstance(value[lang], str):
                raise self.error(key, f"has no {shown(lang)} text")
            value = value[lang]
        return typeset(value, lang)

    def geometry(self, key: str, shape: dict) -> dict:
        """A layout table checked against `shape`: name -> None for a number, or a tuple of
        the numbers a sub-table must hold, e.g. {"frame": None, "corner": ("x", "y", "size")}."""
        table = self.sub(key)
        out = {}
        for name, parts in shape.items():
            if parts is None:
                out[name] = float(table.get(name, (int, float)))
            else:
                sub = table.sub(name)
                out[name] = {p: float(sub.get(p, (int, float))) for p in parts}
        return out

