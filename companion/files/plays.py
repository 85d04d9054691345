"""A table's history.csv read into plays (companion.rules.playtest.Play), for
`companion playtest`. The file is read as every designer's file is
(companion.files.designer_files: a regular file, its size capped) and its columns
separated as companion.files.spreadsheet tells them (commas, or the semicolons a French
spreadsheet writes, or tabs). Its cells stay text until a column says what it holds:
the spreadsheet reader types cells as it reads them (a version "0.10" would read as 0.1,
the same as "0.1"), which a history cannot afford.

The columns (companion/web/games/history.py writes them): id, date, game, player, score,
won, guilds, governor, then version, seat, faction, minutes, then one score:ID column per
scoring category, then round:1, round:2, ... (a game scored in rounds: her running total
after each; at most MAX_ROUNDS, none missing between, a row's empty past its game's end). One row per player per play; a play is the rows sharing an id. Only
id, game and won are required (a history from before the seats were recorded has no
seat column: its seats are unknown). A cell led by a quote before = + - @ (how the table
keeps a spreadsheet from running it) is read without the quote. Rows of other games are
skipped. Anything else amiss is one line naming the file, the row and the column.

What a history may hold is bounded (a table seats at most 30 players; the figures a
report draws stay readable and quick): MAX_PLAYERS a play, MAX_FACTIONS, MAX_CATEGORIES,
MAX_VERSIONS and versions of MAX_VERSION characters, numbers within MAX_NUMBER, minutes
within MAX_MINUTES. A history whose plays have different player counts but no seats is
refused: it is most often two histories pasted together, their plays sharing ids (a
play of 4 and one of 4 read as one of 8); one player named twice in a play is refused
for the same reason, and so is a second header row anywhere in the file, whatever its
columns."""

import csv
import io
import math
from pathlib import Path

from companion.errors import CompanionError, shown
from companion.files import designer_files, inputs
from companion.files.csv_cells import unquoted
from companion.files.spreadsheet import letter, separator
from companion.rules.playtest import Play, Seat

MAX_FILE = 20_000_000  # bytes: a year of nightly 6-player plays is under 1 MB
MAX_ROWS = 500_000
MAX_PLAYERS = 30  # a play's rows (a table keeps at most 30 players)
MAX_FACTIONS = 50
MAX_CATEGORIES = 100  # score:ID columns
MAX_VERSIONS = 100
MAX_VERSION = 64  # characters
MAX_NUMBER = 1_000_000_000  # a score or a category's figure, either way
MAX_MINUTES = 10_000  # about a week
MAX_ROUNDS = 100  # round:N columns (companion.web.games.history writes as many)
REQUIRED = ("id", "game", "won")
SCORE = "score:"
ROUND = "round:"


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
    return read_text(text, name, game)


def read_text(text: str, name: str, game: str) -> list[Play]:
    """The plays of `game` in a history's text; `name` names it in an error."""
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
    rounds = _round_columns(col, name)
    if len(cats) > MAX_CATEGORIES:
        raise CompanionError(f"{len(cats):,} score: columns, over the {MAX_CATEGORIES} a "
                             "history may hold", source=f"{name}, row 1")
    plays: dict[str, dict] = {}
    seen = {"factions": set(), "versions": set()}
    n = 1
    try:
        for n, cells in enumerate(rows, start=2):
            if n > MAX_ROWS:
                raise CompanionError(f"over {MAX_ROWS:,} rows: more than a history holds",
                                     source=name)
            if not any(c.strip() for c in cells):
                continue
            if _a_header(cells):
                raise CompanionError(
                    "is a second header row (id, game, won, ...): two histories pasted "
                    "together? Keep each table's history apart, or remove the row and "
                    "check the plays after it", source=f"{name}, row {n}")
            _read_row(cells, n, name, header, col, cats, rounds, game, plays, seen)
    except csv.Error as e:
        raise CompanionError(f"cannot read ({e})", source=f"{name}, row {n}") from None
    _one_count_without_seats(plays, name)
    return [Play(pid, tuple(p["rows"]), p["version"], p["minutes"])
            for pid, p in plays.items()]


def _round_columns(col: dict, name: str) -> list[str]:
    """The round:1, round:2, ... columns, in order: numbered 1 to MAX_ROUNDS, none
    missing between."""
    numbers = []
    for h, i in col.items():
        if not h.startswith(ROUND):
            continue
        n = h[len(ROUND):]
        if not (n.isascii() and n.isdigit() and len(n) <= 3 and 1 <= int(n) <= MAX_ROUNDS):
            raise CompanionError(f"{shown(h[:40])}: a round column is round:1 to "
                                 f"round:{MAX_ROUNDS}", source=f"{name}, row 1",
                                 field=f"column {letter(i)}")
        numbers.append(int(n))
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        gap = next(k for k in range(1, len(numbers) + 2) if k not in numbers)
        raise CompanionError(f"round:{gap} is missing between the round columns",
                             source=f"{name}, row 1")
    return [f"{ROUND}{k}" for k in range(1, len(numbers) + 1)]


def _a_header(cells: list[str]) -> bool:
    """A row naming the required columns, in any order: another history's header."""
    names = {c.strip().casefold() for c in cells}
    return all(h in names for h in REQUIRED)


def _one_count_without_seats(plays: dict, name: str) -> None:
    """Plays of different player counts without seats: refused (see the module's note)."""
    unseated = [(pid, p) for pid, p in plays.items()
                if any(r.seat is None for r in p["rows"])]
    counts = {len(p["rows"]) for _, p in unseated}
    if len(counts) > 1:
        (a, pa), (b, pb) = (next(x for x in unseated if len(x[1]["rows"]) == c)
                            for c in sorted(counts)[:1] + sorted(counts)[-1:])
        raise CompanionError(
            f"play {shown(a)} (row {pa['row']}) has {len(pa['rows'])} players and play "
            f"{shown(b)} (row {pb['row']}) {len(pb['rows'])}, with no seat column to tell "
            "them apart: two histories pasted together? Keep each table's history apart "
            "(or give each row its seat)", source=name)


def _read_row(cells: list[str], n: int, name: str, header: list[str], col: dict,
              cats: dict, rounds: list[str], game: str, plays: dict, seen: dict) -> None:
    where = f"{name}, row {n}"
    if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
        i = len(header) + next(j for j, c in enumerate(cells[len(header):]) if c.strip())
        raise CompanionError("has a value but no name in the header row", source=where,
                             field=f"column {letter(i)}")

    def cell(key: str) -> str:
        i = col.get(key)
        return unquoted(cells[i]).strip() if i is not None and i < len(cells) else ""

    def fail(key: str, message: str) -> CompanionError:
        return CompanionError(message, source=where,
                              field=f"column {letter(col[key])} ({key})")

    if cell("game") != game:
        return
    pid = cell("id")
    if not pid:
        raise fail("id", "empty: each row names its play's id")

    def number(key: str, whole: bool = False, least: float | None = None,
               most: float = MAX_NUMBER) -> float | None:
        text = cell(key)
        if not text:
            return None
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        low = -most if least is None else least
        if not math.isfinite(value) or (whole and not value.is_integer()) or \
                not low <= value <= most:
            what = "a whole number" if whole else "a number"
            what += f" from {int(low):,} to {int(most):,}"
            raise fail(key, f"{shown(text[:40])} is not {what}")
        return int(value) if whole else value

    won_text = cell("won").lower()
    if won_text not in ("1", "0", "true", "false"):
        raise fail("won", f"{shown(cell('won'))} is not 1 (won) or 0")
    seat = number("seat", whole=True, least=1, most=MAX_PLAYERS) if "seat" in col else None
    figures = {cat: number(f"{SCORE}{cat}") for cat in cats}
    faction = cell("faction") or None
    running = [number(k) for k in rounds]  # her running total after each round
    kept = running[:next((i for i, v in enumerate(running) if v is None), len(running))]
    if len(kept) < len(running) and any(v is not None for v in running[len(kept):]):
        raise fail(rounds[len(kept)], "empty before a later round's total")
    row = Seat(seat=seat, faction=faction, rounds=tuple(kept),
               player=cell("player") or None,
               score=number("score") if "score" in col else None,
               won=won_text in ("1", "true"),
               figures={k: v for k, v in figures.items() if v is not None})
    version = cell("version")
    for kind, value, most in (("faction", faction, MAX_FACTIONS),
                              ("version", version, MAX_VERSIONS)):
        if value is None:
            continue
        if kind == "version" and len(value) > MAX_VERSION:
            raise fail("version", f"{len(value):,} characters, over the {MAX_VERSION} a "
                                  "version may have")
        known = seen[kind + "s"]
        if value not in known and len(known) >= most:
            raise fail(kind, f"{shown(value[:40])} is one {kind} more than the {most} a "
                             "history may hold")
        known.add(value)
    minutes = number("minutes", least=0, most=MAX_MINUTES)  # each row's checked
    play = plays.get(pid)
    if play is None:
        play = plays[pid] = {"rows": [], "version": version, "seats": set(), "names": set(),
                             "minutes": minutes, "row": n}
    if len(play["rows"]) >= MAX_PLAYERS:
        raise fail("id", f"play {shown(pid)} (row {play['row']} starts it) has more than "
                         f"{MAX_PLAYERS} players, the most a table seats")
    if seat is not None:
        if seat in play["seats"]:
            raise fail("seat", f"seat {seat} is taken twice in play {shown(pid)} (row "
                               f"{play['row']} starts it)")
        play["seats"].add(seat)
    player = cell("player") if "player" in col else ""
    if player:
        if player.casefold() in play["names"]:
            raise fail("player", f"{shown(player)} plays twice in play {shown(pid)} (row "
                                 f"{play['row']} starts it): two histories pasted together?")
        play["names"].add(player.casefold())
    play["rows"].append(row)
