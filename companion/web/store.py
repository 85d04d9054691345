"""The table, kept in SQLite: its token, players, tie rule, the sealed seed of the next
draw and every draw made (this is where a phone's draw happens), the games being scored
(one open game per kind: Covenia's entries, Coverta's rounds), the table's history of
closed games, the players a phone added (the same names in every game) and the table's
seat order (who plays first).

An open game's state holds the time of its first entry ("first_entry", UTC, ISO 8601),
stamped here when a game's first entry is saved and kept with the state on disk, so a
server restart does not lose it: a closed game records its minutes from that entry to its
close, and each player's seat (1 = the first player) among the game's players in the
table's seat order.

WAL mode with synchronous=FULL: a draw is answered only once it is on disk, so killing
the server loses nothing it has answered. The idempotency key is stored in the same
transaction as the draw, so a repeated request can never draw twice. Guild holders and
the Governor are not stored: they follow from the draws not undone, replayed in order.

One connection, used by one thread at a time (the app runs every call on one worker).

Our files are marked in the SQLite header (application_id, user_version) and the mark is
read from the file's bytes before SQLite opens it, so another program's database is
refused untouched. A new table is written whole beside its place, owner-only (it holds
the token and the next secret seed), then renamed in: only a missing file makes a new
table, never an empty or damaged one."""

import json
import os
import re
import secrets
import sqlite3
import unicodedata
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from companion.errors import CompanionError
from companion.web.errors import WebError, coded
from companion.rules import lugvanion as vote
from companion.rules.errors import ScoreError

SCHEMA_VERSION = "2"  # 2: games in progress, answered requests and the history
APPLICATION_ID = 0x54634C67  # "TcLg": a table-companion Lugvanion table (PRAGMA application_id)
FORMAT = 2  # PRAGMA user_version (1: draws only; opened, it is brought to 2)
MAGIC = b"SQLite format 3\x00"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS draws (
    id       INTEGER PRIMARY KEY,
    idem_key TEXT NOT NULL UNIQUE,
    request  TEXT NOT NULL,   -- guild and bag as sent, to spot a key reused for another draw
    result   TEXT NOT NULL,   -- the JSON answer, returned again for a repeated key
    undone   INTEGER NOT NULL DEFAULT 0,
    created  TEXT NOT NULL
);
"""
# Added by schema 2 (a schema-1 table gets them, its draws kept, when first opened).
SCHEMA_GAMES = """
CREATE TABLE IF NOT EXISTS games (      -- the open game of each kind, as its JSON state
    game    TEXT PRIMARY KEY,
    state   TEXT NOT NULL,
    started TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS answered (   -- a game change's Idempotency-Key and its answer
    idem_key TEXT PRIMARY KEY,
    request  TEXT NOT NULL,
    result   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history (    -- every closed game
    id     INTEGER PRIMARY KEY,
    closed TEXT NOT NULL,
    game   TEXT NOT NULL,
    record TEXT NOT NULL   -- JSON: players, scores, winners (and the game's own fields)
);
"""
HISTORY_FIELDS = ("players", "scores", "winners")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Store:
    def __init__(self, conn: sqlite3.Connection, source: str, guilds: list[str]):
        self.conn, self.source, self.guilds = conn, source, list(guilds)
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        self.schema: str | None = meta.get("schema")
        self.token: str = meta["token"]
        self.players: list[dict] = json.loads(meta["players"])
        self.tie_rule: str = meta["tie_rule"]
        self.port: int | None = int(meta["port"]) if meta.get("port") else None
        self._next_seed = bytes.fromhex(meta["next_seed"])
        self.draws: list[dict] = [
            {**json.loads(result), "undone": bool(undone)}
            for result, undone in conn.execute("SELECT result, undone FROM draws ORDER BY id")]
        # Draws up to this id belong to Lugvanion games closed into the history.
        self.closed_draws = int(meta.get("lugvanion_closed", "0"))
        # Players a phone added (meta "added_players", a JSON list; a key of schema 2 that
        # a table without it reads as none, as "lugvanion_closed" and "port").
        self.added_players: list[str] = json.loads(meta.get("added_players", "[]"))
        # The seat order the table set (meta "seats", a JSON list of names, first player
        # first); a table without it seats its players in table order.
        self.seats: list[str] = json.loads(meta.get("seats", "[]"))
        self.clock = _clock  # what time it is (a test gives its own)
        self.games: dict[str, dict] = {
            game: json.loads(state) for game, state in conn.execute(
                "SELECT game, state FROM games ORDER BY game")}
        self.history: list[dict] = [
            {"id": i, "date": closed, "game": game, **json.loads(record)}
            for i, closed, game, record in conn.execute(
                "SELECT id, closed, game, record FROM history ORDER BY id")]
        self.history_changes = 0  # bumped after each change of the history (reports' key)
        # A flipped byte must not pass for a table: each value has its one shape.
        if (not _TOKEN.fullmatch(self.token) or len(self._next_seed) != 32
                or self.tie_rule not in ("extra", "redraw")
                or not all(isinstance(p, dict) and isinstance(p.get("colour"), str)
                           and isinstance(p.get("name"), str) for p in self.players)
                or not all({"id", "guild", "winner"} <= d.keys() and _whole(d["id"])
                           and isinstance(d["guild"], str) for d in self.draws)
                or not all(isinstance(g, dict) for g in self.games.values())
                or not isinstance(self.added_players, list)
                or not all(isinstance(n, str) for n in self.added_players)
                or not isinstance(self.seats, list)
                or not all(isinstance(n, str) for n in self.seats)
                or not all(set(HISTORY_FIELDS) <= h.keys() for h in self.history)):
            raise ValueError("the table's settings are not as written")

    # ---- opening ---------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, guilds: list[str], players: list[dict] | None,
             tie_rule: str | None, default_players: list[dict]) -> "Store":
        """Open the table at `path`, or make it if no file is there. `players` and
        `tie_rule` None: as stored (or the defaults for a new table). Given and unlike the
        stored table: an error. Another program's file or a damaged one: an error."""
        path = Path(path)
        source = str(path)
        cls.ensure(path, players, tie_rule, default_players)
        try:
            legacy = _check_mark(path)
            if legacy:
                _check_legacy(path)
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.DatabaseError as e:
            raise CompanionError(f"not a table-companion table ({e})", source=source) from None
        except OSError as e:
            raise CompanionError(f"cannot open ({e.strerror or e})", source=source) from None
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            if conn.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
                raise sqlite3.DatabaseError("quick_check found damage")
            if legacy:  # a table made before files were marked: mark it now
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            _migrate(conn)
            table = cls(conn, source, guilds)
        except (sqlite3.DatabaseError, KeyError, ValueError, TypeError, AttributeError) as e:
            conn.close()
            raise _damaged(source, e) from None
        if table.schema != SCHEMA_VERSION:
            table.close()
            raise CompanionError(f"table format {table.schema!r} is not "
                                 f"{SCHEMA_VERSION!r}", source=source, field="schema")
        if players is not None and players != table.players:
            table.close()
            raise CompanionError(
                "this table was started with " + ",".join(_player_arg(p) for p in table.players)
                + "; leave --players out, or give another --data file for a new table",
                source=source, field="--players")
        if tie_rule is not None and tie_rule != table.tie_rule:
            table.close()
            raise CompanionError(f"this table plays the tie rule {table.tie_rule}; leave "
                                 "--tie-rule out, or give another --data file for a new table",
                                 source=source, field="--tie-rule")
        return table

    @staticmethod
    def ensure(path: Path, players: list[dict] | None, tie_rule: str | None,
               default_players: list[dict]) -> None:
        """A new table at `path` if no file is there (nothing else is touched)."""
        try:
            if not os.path.lexists(path):
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                _create(Path(path), _new_table(players or default_players, tie_rule))
            elif not os.path.isfile(path):  # a FIFO would hold its lock's open for ever
                raise CompanionError("not a table-companion table (not a regular file)",
                                     source=str(path))
        except sqlite3.DatabaseError as e:
            raise CompanionError(f"cannot make a new table ({e})", source=str(path)) from None
        except OSError as e:
            raise CompanionError(f"cannot open ({e.strerror or e})", source=str(path)) from None

    def remember_port(self, port: int) -> None:
        """The port goes with the token into the printed QR code: keep it for restarts."""
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('port', ?)", (str(port),))
        self.port = port

    def close(self) -> None:
        """Fold the write-ahead log into the file and close: nothing left beside it."""
        try:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # closing still checkpoints what it can
        self.conn.close()

    # ---- reading ---------------------------------------------------------------------

    def commitment(self) -> str:
        return vote.commitment(self._next_seed)

    def holders(self) -> dict[str, str | None]:
        held = dict.fromkeys(self.guilds)
        for d in self.draws:
            if not d["undone"] and d["id"] > self.closed_draws:
                held[d["guild"]] = d["winner"]
        return held

    def summary(self) -> dict:
        """Everything but the history: what an event carries after each change."""
        holders = self.holders()
        return {"guilds": {g: {"holder": h} for g, h in holders.items()},
                "governor": vote.governor(holders), "commitment": self.commitment()}

    def state(self) -> dict:
        return {"players": self.players, **self.summary(), "tie_rule": self.tie_rule,
                "draws": self.draws[self.closed_draws:],
                "game": self.closed_draws}  # which Lugvanion game: the draws closed before it

    def table_players(self) -> list[str]:
        """The table's players by name, in seat order (the first player first): the
        order the table set (PUT players/seats), else table order: the named --players
        (Lugvanion's colours), then those a phone added; a player added after the seats
        were set sits last. The same names in every game."""
        known = [p["name"] for p in self.players if p["name"]] + self.added_players
        seated = [n for n in self.seats if n in known]
        return seated + [n for n in known if n not in seated]

    def seats_of(self, names: list[str]) -> dict[str, int | None]:
        """Each of a game's players' seat, 1 = the first player: her place among the
        game's players in the table's seat order (a table of five playing a game of four
        seats those four 1 to 4). A name that is not one of the table's players (a name
        typed into a Coverta round, an unnamed Lugvanion colour) has no seat: None."""
        order = [_same(n) for n in self.table_players()]

        def place(name: str) -> int | None:
            return order.index(_same(name)) if _same(name) in order else None

        at = sorted((place(n), n) for n in names if place(n) is not None)
        seats: dict[str, int | None] = dict.fromkeys(names)
        for i, (_, name) in enumerate(at):
            seats[name] = i + 1
        return seats

    def now(self) -> str:
        """The time now as the table writes it (UTC, ISO 8601, to the second)."""
        return self.clock().astimezone(timezone.utc).isoformat(timespec="seconds")

    # ---- changing --------------------------------------------------------------------

    def add_player(self, name: str) -> tuple[str, bool]:
        """Add `name` (trimmed) to the table's players. A name equal to a player's but for
        case and spaces is that player: (her name as kept, False)."""
        name = " ".join(name.split())
        for known in self.table_players():
            if " ".join(known.split()).casefold() == name.casefold():
                return known, False
        added = [*self.added_players, name]
        with _transaction(self.conn):
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('added_players', ?)",
                              (json.dumps(added),))
        self.added_players = added
        return name, True

    def set_seats(self, order: list[str]) -> None:
        """Keep the table's seat order (the table's players' names, the first player
        first); the caller has checked it names each of them once."""
        with _transaction(self.conn):
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('seats', ?)",
                              (json.dumps(order),))
        self.seats = list(order)

    def entered_in(self, name: str) -> list[str]:
        """The open games holding an entry of `name` (a Covenia or designer's game entry,
        a name in a Coverta round)."""
        def named(p) -> str | None:
            return p.get("name") if isinstance(p, dict) else p

        return [g for g, state in self.games.items()
                if any(named(p) == name for p in state.get("players") or [])]

    def replace_player(self, name: str, new: str | None) -> None:
        """Rename a player a phone added (`new`), or remove her (`new` None), in the
        table's players and its seat order; the caller has checked that she has no entry
        in an open game and that `new` is no other player's."""
        def swap(names: list[str]) -> list[str]:
            return [new if n == name else n for n in names if n != name or new is not None]

        added, seats = swap(self.added_players), swap(self.seats)
        with _transaction(self.conn):
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('added_players', ?)",
                              (json.dumps(added),))
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('seats', ?)",
                              (json.dumps(seats),))
        self.added_players, self.seats = added, seats

    def draw(self, guild: str, bag: dict[str, int], key: str,
             commitment: str | None = None) -> tuple[dict, bool]:
        """Draw the vote for `guild` with the sealed seed. Returns (answer, made now);
        a key seen before returns the first answer and draws nothing. `commitment`: the
        sealed seed the phone showed; one already used (another phone drew on it first)
        is a 409 carrying that draw, so one vote never makes two draws."""
        request = json.dumps({"guild": guild, "bag": bag}, sort_keys=True)
        with _transaction(self.conn):
            row = self.conn.execute("SELECT request, result FROM draws WHERE idem_key = ?",
                                    (key,)).fetchone()
            if row:
                if row[0] != request:
                    raise WebError(409, "Idempotency-Key", "already used for another draw")
                return json.loads(row[1]), False
            if commitment is not None and commitment != self.commitment():
                raise self._used(commitment)
            governor = vote.governor(self.holders())
            if governor is not None:
                raise WebError(409, "guild", f"{governor} holds two guilds and is Governor: "
                                             "the game is over (undo a mistaken draw first)",
                               coded("governor", team=governor))
            try:
                d = vote.draw(bag, self._next_seed, self.tie_rule)
            except ScoreError as e:
                raise WebError(400, e.field, e.message) from None
            next_seed = secrets.token_bytes(32)
            answer = {"id": len(self.draws) + 1, "guild": guild, "bag": d.bag,
                      "tie_rule": d.tie_rule, "commitment": d.commitment, "seed": d.seed,
                      "redrawn": d.redrawn, "drawn": d.drawn, "winner": d.winner,
                      "next_commitment": vote.commitment(next_seed)}
            self.conn.execute(
                "INSERT INTO draws (id, idem_key, request, result, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (answer["id"], key, request, json.dumps(answer), self.now()))
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'next_seed'",
                              (next_seed.hex(),))
        self._next_seed = next_seed
        self.draws.append({**answer, "undone": False})
        return answer, True

    def _used(self, commitment: str) -> WebError:
        made = next((d for d in self.draws if d["commitment"] == commitment), None)
        if made is None:
            return WebError(409, "commitment", "not this table's sealed seed: reload the "
                                               "page", coded("commitment_stale"),
                            {"commitment": self.commitment()})
        return WebError(409, "commitment", f"already drawn on: draw {made['id']} "
                                           f"({made['guild']}) was made with this seal",
                        coded("commitment_used", id=made["id"], guild=made["guild"]),
                        {"draw": made})

    def undo(self, draw_id: int | None) -> tuple[dict, bool]:
        """Take back the last draw still in force (or check that `draw_id` is that draw or
        already undone). Returns (the undone draw, undone now)."""
        live = [d for d in self.draws if not d["undone"] and d["id"] > self.closed_draws]
        if draw_id is None:
            if not live:
                raise WebError(409, "id", "there is no draw to undo", coded("no_draw"))
            target = live[-1]
        else:
            if not 1 <= draw_id <= len(self.draws):
                raise WebError(400, "id", f"there is no draw {draw_id}")
            target = self.draws[draw_id - 1]
            if draw_id <= self.closed_draws:
                raise WebError(409, "id", f"draw {draw_id} belongs to a closed game",
                               coded("draw_closed", id=draw_id))
            if target["undone"]:
                return target, False
            if target is not live[-1]:
                raise WebError(409, "id", f"only the last draw ({live[-1]['id']}) can be "
                                          "undone", coded("draw_not_last", id=live[-1]["id"]))
        with _transaction(self.conn):
            self.conn.execute("UPDATE draws SET undone = 1 WHERE id = ?", (target["id"],))
        target["undone"] = True
        return target, True


    # ---- games being scored and the history ------------------------------------------

    def answered(self, key: str) -> tuple[str, dict] | None:
        """The request and answer of a game change made with this Idempotency-Key."""
        row = self.conn.execute("SELECT request, result FROM answered WHERE idem_key = ?",
                                (key,)).fetchone()
        if not row:
            return None
        try:
            answer = json.loads(row[1])
        except (TypeError, ValueError):
            answer = None
        if not isinstance(row[0], str) or not isinstance(answer, dict):
            raise WebError(503, "table", "the table file holds a damaged answer for this "
                                         "request's Idempotency-Key (edited by hand?): send "
                                         "it with a new key", coded("damaged_answer"))
        return row[0], answer

    def damaged_answers(self) -> int:
        """How many kept answers are not as this program writes them."""
        bad = 0
        for request, result in self.conn.execute("SELECT request, result FROM answered"):
            try:
                ok = isinstance(request, str) and isinstance(json.loads(result), dict)
            except (TypeError, ValueError):
                ok = False
            bad += not ok
        return bad

    def replayed(self, key: str | None, request: str, what: str) -> dict | None:
        """The answer already given to this request (same Idempotency-Key, same
        request), or None when it is new; the key reused for another request is a 409."""
        seen = self.answered(key) if key else None
        if seen and seen[0] != request:
            raise WebError(409, "Idempotency-Key", f"already used for another {what}")
        return seen[1] if seen else None

    def save_game(self, game: str, state: dict | None,
                  key: tuple[str, str, dict] | None = None, undone: str | None = None) -> None:
        """Keep `game`'s open state (None: no game open), and with it the answer to the
        request `key` = (Idempotency-Key, request, answer), in one transaction. `undone`:
        the Idempotency-Key of the change this one takes back; its kept answer is marked
        "undone": true, so a late copy of that request is told, never answered as if its
        change stood. The state's first entry is stamped ("first_entry": the time it was
        first saved with an entry, kept while the game has one)."""
        if state is not None:
            state = self._stamped(game, state)
        with _transaction(self.conn):
            if undone:
                row = self.conn.execute("SELECT result FROM answered WHERE idem_key = ?",
                                        (undone,)).fetchone()
                if row:
                    self.conn.execute("UPDATE answered SET result = ? WHERE idem_key = ?",
                                      (json.dumps({**json.loads(row[0]), "undone": True}),
                                       undone))
            if state is None:
                self.conn.execute("DELETE FROM games WHERE game = ?", (game,))
            else:
                self.conn.execute(
                    "INSERT INTO games VALUES (?, ?, ?) ON CONFLICT (game) "
                    "DO UPDATE SET state = excluded.state", (game, json.dumps(state), _now()))
            if key:
                self.conn.execute("INSERT INTO answered VALUES (?, ?, ?)",
                                  (key[0], key[1], json.dumps(key[2])))
        if state is None:
            self.games.pop(game, None)
        else:
            self.games[game] = state

    def _stamped(self, game: str, state: dict) -> dict:
        """`state` with its first entry's time: the one already kept, or now for a
        game's first entry; none while it has no entry (players or rounds)."""
        if not _entered(state):
            return {k: v for k, v in state.items() if k != "first_entry"}
        if isinstance(state.get("first_entry"), str):
            return state
        before = self.games.get(game) or {}
        first = before.get("first_entry") if _entered(before) else None
        return {**state, "first_entry": first if isinstance(first, str) else self.now()}

    def first_entry(self, game: str) -> str | None:
        """When the open `game`'s first entry was made: its state's stamp; Lugvanion's,
        its first draw since the last game closed (undone or not)."""
        if game == "lugvanion":
            row = self.conn.execute("SELECT MIN(created) FROM draws WHERE id > ?",
                                    (self.closed_draws,)).fetchone()
            return row[0] if row else None
        first = (self.games.get(game) or {}).get("first_entry")
        return first if isinstance(first, str) else None

    def close_game(self, game: str, record: dict,
                   key: tuple[str, str] | None = None) -> dict:
        """End the open `game` and keep `record` (players, scores, winners...) in the
        history, in one transaction, with the answer to `key` = (Idempotency-Key,
        request) when given. Returns the history entry. Lugvanion's game is the draws
        since the last one closed: they stay, the next game starts with none held.
        The record gains each player's seat ("seats": {name: n or null}), her running
        totals ("rounds", {} unless the game is scored in rounds), the game's
        first entry ("started") and its minutes from then to the close ("minutes",
        whole minutes, rounded; null when the first entry's time is not known). A record
        that already holds seats or minutes (a play brought in whole) keeps them."""
        closed = self.now()
        started = self.first_entry(game)
        record = {"version": None, "factions": {}, "figures": {}, "rounds": {},
                  "seats": self.seats_of(list(record["players"])),
                  "started": started, "minutes": _minutes(started, closed), **record}
        with _transaction(self.conn):
            self.conn.execute("DELETE FROM games WHERE game = ?", (game,))
            if game == "lugvanion":
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('lugvanion_closed', ?)",
                                  (str(len(self.draws)),))
            cursor = self.conn.execute(
                "INSERT INTO history (closed, game, record) VALUES (?, ?, ?)",
                (closed, game, json.dumps(record)))
            entry = {"id": cursor.lastrowid, "date": closed, "game": game, **record}
            if key:
                self.conn.execute("INSERT INTO answered VALUES (?, ?, ?)",
                                  (key[0], key[1], json.dumps(entry)))
        self.games.pop(game, None)
        if game == "lugvanion":
            self.closed_draws = len(self.draws)
        self.history.append(entry)
        self.history_changes += 1
        return entry

    def remove_history(self, game_id: int, key: tuple[str, str] | None = None) -> dict:
        """Take the closed game `game_id` out of the history (a game ended by mistake),
        with the answer to `key` when given. Returns the entry taken out. A Lugvanion
        game's draws stay in the file, as they do once closed."""
        entry = next((h for h in self.history if h["id"] == game_id), None)
        if entry is None:
            raise WebError(404, "id", f"there is no game {game_id} in the history",
                           coded("no_history_game", id=game_id))
        with _transaction(self.conn):
            self.conn.execute("DELETE FROM history WHERE id = ?", (game_id,))
            if key:
                self.conn.execute("INSERT INTO answered VALUES (?, ?, ?)",
                                  (key[0], key[1], json.dumps({"removed": game_id})))
        self.history.remove(entry)
        self.history_changes += 1
        return entry


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring a table of an earlier format to this one, its draws kept: one transaction."""
    schema = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if schema not in (("1",), (SCHEMA_VERSION,)):
        return  # not one we know: refused once read, and left as it was
    if conn.execute("PRAGMA user_version").fetchone()[0] == FORMAT and schema == (
            SCHEMA_VERSION,):
        return
    with _transaction(conn):
        for statement in filter(str.strip, SCHEMA_GAMES.split(";")):
            conn.execute(statement)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
        conn.execute(f"PRAGMA user_version = {FORMAT}")


@contextmanager
def _transaction(conn: sqlite3.Connection):
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a COMMIT that failed (a full disk) leaves it open
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        raise


def _check_mark(path: Path) -> bool:
    """Read the SQLite header's bytes (SQLite never opens a file that is not ours).
    True: an unmarked SQLite file, which may be a table made before the mark."""
    if not path.is_file():  # a device or a pipe would be read for ever
        raise CompanionError("not a table-companion table (not a regular file)",
                             source=str(path))
    if not os.access(path, os.R_OK | os.W_OK):
        raise CompanionError("cannot open (a table must be readable and writable: it "
                             "records every draw)", source=str(path))
    with open(path, "rb") as f:
        head = f.read(100)
    if not head:
        raise CompanionError("empty file (0 bytes), not a table: delete it to start a new "
                             "table, or give another --data file", source=str(path))
    if not (head.startswith(MAGIC) or MAGIC.startswith(head)):
        raise CompanionError("not a table-companion table (not an SQLite database)",
                             source=str(path))
    if len(head) < 100:
        raise _damaged(str(path), f"cut short at {len(head)} bytes")
    # Cut short: the header counts the pages. (Only with no log beside it: after a crash
    # the write-ahead log may still hold pages the file is waiting for.)
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages, size = int.from_bytes(head[28:32], "big"), os.path.getsize(path)
    wal = Path(f"{path}-wal")
    if (page and head[92:96] == head[24:28] and not (wal.exists() and wal.stat().st_size)
            and (size % page or size < pages * page)):
        raise _damaged(str(path), f"cut short at {size} bytes")
    user_version = int.from_bytes(head[60:64], "big")
    app_id = int.from_bytes(head[68:72], "big")
    if app_id == 0 and user_version == 0:
        return True
    if app_id != APPLICATION_ID:
        raise CompanionError(f"not a table-companion table (another program's SQLite "
                             f"database, application_id {app_id:#x})", source=str(path))
    if user_version > FORMAT:
        raise CompanionError(f"written by a newer table-companion (format {user_version}, "
                             f"this one reads {FORMAT}): upgrade it", source=str(path))
    return False


def _check_legacy(path: Path) -> None:
    """An unmarked file is ours only if it holds exactly our tables and our schema row.
    Read only, and as an unchanging file unless a log beside it holds pages: another
    program's database is left as it was, with nothing new beside it."""
    wal = Path(f"{path}-wal")
    how = "mode=ro" if wal.exists() and wal.stat().st_size else "immutable=1"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?{how}", uri=True)
    try:
        tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        row = (conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
               if tables == {"meta", "draws"} else None)
    finally:
        conn.close()
    if row is None:
        raise CompanionError("not a table-companion table (another program's SQLite "
                             "database)", source=str(path))


def _damaged(source: str, why) -> CompanionError:
    return CompanionError(f"damaged table file ({why}): restore it from a copy, or give "
                          "another --data file for a new table", source=source)


def _create(path: Path, meta: dict[str, str]) -> None:
    """Write a new table whole beside `path` (owner-only), then rename it in: a killed
    start leaves no half table where the table goes."""
    tmp = path.with_name(f".{path.name}.new-{os.getpid()}")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {FORMAT}")
            conn.executescript(SCHEMA + SCHEMA_GAMES)
            with _transaction(conn):
                conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        finally:
            conn.close()
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def _new_table(players: list[dict], tie_rule: str | None) -> dict[str, str]:
    return {"schema": SCHEMA_VERSION, "token": secrets.token_urlsafe(16),
            "players": json.dumps(players), "tie_rule": tie_rule or "extra",
            "next_seed": secrets.token_bytes(32).hex(), "created": _now()}


def _player_arg(p: dict) -> str:
    return p["colour"] if not p.get("name") else f"{p['colour']}={p['name']}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _entered(state: dict) -> bool:
    """Whether an open game's state holds an entry: a round (Coverta's state, whose
    players are named by its first round), else a player's entry."""
    return bool(state.get("rounds") if "rounds" in state else state.get("players"))


def _same(name: str) -> str:
    """A name as two spellings of one player share it (as web.games.same_name)."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


def _clock() -> datetime:
    return datetime.now(timezone.utc)


def _minutes(start: str | None, end: str) -> int | None:
    """Whole minutes from `start` to `end` (ISO 8601 times), rounded; None when `start`
    is not a time this program wrote."""
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None
    return max(0, round(seconds / 60))
