"""A table's history.csv read into plays (companion.rules.playtest.Play), for
`companion playtest`. The file is read as every designer's file is
(companion.files.designer_files: a regular file, its size capped) and its columns
separated as companion.files.spreadsheet tells them (commas, or the semicolons a French
spreadsheet writes, or tabs). Its cells stay text until a column says what it holds:
the spreadsheet reader types cells as it reads them (a version "0.10" would read as 0.1,
the same as "0.1"), which a history cannot afford.

The columns (companion/web/games/history.py writes them): id, date, game, player, score,
won, guilds, governor, then version, seat, faction, minutes, then one score:ID column per
scoring category. One row per player per play; a play is the rows sharing an id. Only
id, game and won are required (a history from before the seats were recorded has no
seat column: its seats are unknown). A cell led by a quote before = + - @ (how the table
keeps a spreadsheet from running it) is read without the quote. Rows of other games are
skipped. Anything else amiss is one line naming the file, the row and the column."""

import csv
import io
import math
from pathlib import Path

from companion.errors import CompanionError, shown
from companion.files import designer_files, inputs
from companion.files.spreadsheet import letter, separator
from companion.rules.playtest import Play, Seat

MAX_FILE = 20_000_000  # bytes: a year of nightly 6-player plays is under 1 MB
MAX_ROWS = 500_000
REQUIRED = ("id", "game", "won")
SCORE = "score:"


def _unquoted(cell: str) -> str:
    """A cell as the table meant it: the quote before = + - @ taken off."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") \
        else cell


def read(path: Path | str, game: str) -> list[Play]:
    """The plays of `game` in the history.csv at `path`, in the file's order."""
    name = str(path)
    inputs.note(path)
    try:
        raw = designer_files.read_bytes(path, MAX_FILE, "history")
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror or e})", source=name) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CompanionError(f"not UTF-8 text (byte {e.start}): save it as CSV UTF-8",
                             source=name) from None
    text, sep = separator(text)
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    try:
        header = [h.strip() for h in next(rows, [])]
    except csv.Error as e:
        raise CompanionError(f"cannot read ({e})", source=f"{name}, row 1") from None
    if not any(header):
        raise CompanionError("is empty: a history.csv starts with its header row "
                             "(id, date, game, player, score, won, ...)", source=name)
    col = {}
    for i, h in enumerate(header):
        if h in col:
            raise CompanionError(f"header {shown(h)} is given twice", source=f"{name}, row 1",
                                 field=f"column {letter(i)}")
        if h == SCORE:
            raise CompanionError("a score: column names its category (score:ID)",
                                 source=f"{name}, row 1", field=f"column {letter(i)}")
        if h:
            col[h] = i
    missing = [h for h in REQUIRED if h not in col]
    if missing:
        raise CompanionError(f"no column {', '.join(missing)}: is this a table's "
                             "history.csv (companion serve, History, CSV)?",
                             source=f"{name}, row 1")
    cats = {h[len(SCORE):]: i for h, i in col.items() if h.startswith(SCORE)}
    plays: dict[str, dict] = {}
    n = 1
    try:
        for n, cells in enumerate(rows, start=2):
            if n > MAX_ROWS:
                raise CompanionError(f"over {MAX_ROWS:,} rows: more than a history holds",
                                     source=name)
            if not any(c.strip() for c in cells):
                continue
            _read_row(cells, n, name, header, col, cats, game, plays)
    except csv.Error as e:
        raise CompanionError(f"cannot read ({e})", source=f"{name}, row {n}") from None
    return [Play(pid, tuple(p["rows"]), p["version"], p["minutes"])
            for pid, p in plays.items()]


def _read_row(cells: list[str], n: int, name: str, header: list[str], col: dict,
              cats: dict, game: str, plays: dict) -> None:
    where = f"{name}, row {n}"
    if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
        i = len(header) + next(j for j, c in enumerate(cells[len(header):]) if c.strip())
        raise CompanionError("has a value but no name in the header row", source=where,
                             field=f"column {letter(i)}")

    def cell(key: str) -> str:
        i = col.get(key)
        return _unquoted(cells[i]).strip() if i is not None and i < len(cells) else ""

    def fail(key: str, message: str) -> CompanionError:
        return CompanionError(message, source=where,
                              field=f"column {letter(col[key])} ({key})")

    if cell("game") != game:
        return
    pid = cell("id")
    if not pid:
        raise fail("id", "empty: each row names its play's id")

    def number(key: str, whole: bool = False, least: float | None = None) -> float | None:
        text = cell(key)
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or (whole and not value.is_integer()) or (
                least is not None and value < least):
            what = "a whole number" if whole else "a number"
            if least is not None:
                what += f" of {least:g} or more"
            raise fail(key, f"{shown(text)} is not {what}")
        return int(value) if whole else value

    won_text = cell("won").lower()
    if won_text not in ("1", "0", "true", "false"):
        raise fail("won", f"{shown(cell('won'))} is not 1 (won) or 0")
    seat = number("seat", whole=True, least=1) if "seat" in col else None
    figures = {cat: number(f"{SCORE}{cat}") for cat in cats}
    row = Seat(seat=seat, faction=cell("faction") or None,
               score=number("score") if "score" in col else None,
               won=won_text in ("1", "true"),
               figures={k: v for k, v in figures.items() if v is not None})
    play = plays.setdefault(pid, {"rows": [], "version": cell("version"),
                                  "minutes": number("minutes", least=0), "row": n})
    if seat is not None and any(r.seat == seat for r in play["rows"]):
        raise fail("seat", f"seat {seat} is taken twice in play {shown(pid)} (row "
                           f"{play['row']} starts it)")
    play["rows"].append(row)
