"""The Coverta ledger file, and a round added to it while other `companion coverta round`
processes may be adding theirs.

The round is typed first, with no lock held (typing takes minutes). Then, under the
ledger's OS lock, the file is read again as it stands, the round appended to it (tomlkit
keeps the user's comments and layout), the whole checked, and the file replaced in one
rename. A round that cannot be added (the players changed, the file became invalid or
vanished, the lock was not freed in time, the disk is full) is never lost: it is written
to a side file that the one-line error names."""

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from companion.files import lock
from companion.files.atomic import write_text
from companion.files.data import parse_toml, read_text
from companion.errors import CompanionError, shown
from companion.score.toml_out import checked_dump
from companion.rules import coverta as rules
from companion.rules.errors import ScoreError

LOCK_WAIT = 5  # seconds another process may hold the ledger while writing its round


@dataclass(frozen=True)
class Ledger:
    text: str
    table: dict
    standings: rules.Standings


def scored(table, source: str) -> rules.Standings:
    try:
        return rules.standings(table)
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field or None) from None


def read(path: Path) -> Ledger | None:
    """The ledger as it stands, checked; None if there is no file yet."""
    if not path.exists():
        return None
    text, source = read_text(path)
    table = parse_toml(text, source)
    return Ledger(text, table, scored(table, source))


def add_round(path: Path, seen: Ledger | None, players: list[str], entry: dict
              ) -> rules.Standings:
    """Append `entry` (typed for `players`, against the ledger `seen` when typing began)
    to the ledger as it is now; returns the new standings."""
    number = len(seen.standings.rounds) + 1 if seen else 1
    try:
        with lock.held(path, "adding a round to this ledger", wait=LOCK_WAIT):
            now = read(path)
            if now is None and seen is not None:
                raise CompanionError("the ledger was removed while the round was typed",
                                     source=str(path))
            if now is not None and now.standings.players != players:
                raise CompanionError(
                    f"its players changed while the round was typed (now "
                    f"{', '.join(now.standings.players)}), so this round cannot be added",
                    source=str(path), field="players")
            text, table = appended(now, players, entry)
            result = scored(table, str(path))
            write_text(path, text, update=True)  # the round added to the ledger read
            return result
    except CompanionError as e:
        side = keep_aside(path, players, entry, number, e.message)
        raise CompanionError(f"{e.message}; the round typed is kept in {side}",
                             source=e.source or str(path), field=e.field) from None


def appended(now: Ledger | None, players: list[str], entry: dict) -> tuple[str, dict]:
    """The ledger's new text and content: `now` with `entry` as its last round."""
    import tomlkit

    base = now.table if now else {"players": players}
    want = {**base, "rounds": [*base.get("rounds", []), entry]}
    if now is None:
        doc = tomlkit.document()
        doc["players"] = players
        now_text = ""
    else:
        now_text = now.text if now.text.endswith("\n") else now.text + "\n"
        doc = _parse(now_text)
    rounds = doc.get("rounds")
    if rounds is None:
        doc["rounds"] = tomlkit.aot()
        rounds = doc["rounds"]
    if isinstance(rounds, tomlkit.items.AoT):
        blank = now_text.endswith(("\n\n", "\n\r\n"))
        rounds.append(_round_table(entry, blank_line=not blank))
    else:  # rounds = [ ... ] written inline by hand
        rounds.append(_inline(entry))
    text = checked_dump(doc, want, "the ledger")
    if "\r\n" in now_text and text.startswith(now_text):  # the new lines end as the file's do
        text = now_text + text[len(now_text):].replace("\n", "\r\n")
        if tomllib.loads(text) != want:
            raise CompanionError("cannot add a round keeping this file's line endings")
    return text, want


def _parse(text: str):
    import tomlkit

    try:
        return tomlkit.parse(text)
    except Exception as e:  # a third-party parser on a file tomllib accepted: any failure
        raise CompanionError(f"cannot add a round keeping this file's layout "
                             f"({type(e).__name__})") from None


def _hands(hands: dict[str, int]):
    """{ Ana = 0, "Zoé🎲" = 3 }: the README's style, keys quoted by tomlkit as needed."""
    import tomlkit

    cells = ", ".join(f"{tomlkit.key(p).as_string()} = {int(n)}" for p, n in hands.items())
    return tomlkit.parse(f"hands = {{ {cells} }}\n")["hands"]


def _round_table(entry: dict, blank_line: bool):
    import tomlkit

    t = tomlkit.table()
    if blank_line:
        t.trivia.indent = "\n"
    t["hands"] = _hands(entry["hands"])
    if entry.get("first_steal"):
        t["first_steal"] = entry["first_steal"]
    return t


def _inline(entry: dict):
    import tomlkit

    t = tomlkit.inline_table()
    t["hands"] = _hands(entry["hands"])
    if entry.get("first_steal"):
        t["first_steal"] = entry["first_steal"]
    return t


def keep_aside(path: Path, players: list[str], entry: dict, number: int, why: str) -> Path:
    """Write the typed round, as a one-round ledger, to a new side file beside the ledger
    (LEDGER.round-N.toml, or -2, -3... if taken); never overwrites one."""
    import tomlkit

    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"A round typed for {path.name} that could not be added: "
                            f"{why}"))
    doc.add(tomlkit.comment("Copy its [[rounds]] table to the end of the ledger."))
    doc["players"] = players
    doc["rounds"] = tomlkit.aot()
    doc["rounds"].append(_round_table(entry, blank_line=True))
    text = checked_dump(doc, {"players": players, "rounds": [entry]}, "the round typed")
    try:
        for k in range(1, 1000):
            side = path.with_name(f"{path.stem}.round-{number}{'' if k == 1 else f'-{k}'}.toml")
            try:
                fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            return side
        raise OSError(0, "too many side files")
    except OSError as e:
        raise CompanionError(f"{why}; and the round typed could not be kept beside it "
                             f"({e.strerror}): {shown(entry['hands'])}",
                             source=str(path)) from None
