"""The table, kept in SQLite: its token, players, tie rule, the sealed seed of the next
draw and every draw made. This is where a phone's draw happens.

WAL mode with synchronous=FULL: a draw is answered only once it is on disk, so killing
the server loses nothing it has answered. The idempotency key is stored in the same
transaction as the draw, so a repeated request can never draw twice. Guild holders and
the Governor are not stored: they follow from the draws not undone, replayed in order.

One connection, used by one thread at a time (the app runs every call on one worker)."""

import json
import secrets
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from companion.errors import CompanionError
from companion.web.errors import WebError
from scorers import lugvanion as vote
from scorers.errors import ScoreError

SCHEMA_VERSION = "1"
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


class Store:
    def __init__(self, conn: sqlite3.Connection, source: str, guilds: list[str]):
        self.conn, self.source, self.guilds = conn, source, list(guilds)
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        self.token: str = meta["token"]
        self.players: list[dict] = json.loads(meta["players"])
        self.tie_rule: str = meta["tie_rule"]
        self.port: int | None = int(meta["port"]) if meta.get("port") else None
        self._next_seed = bytes.fromhex(meta["next_seed"])
        self.draws: list[dict] = [
            {**json.loads(result), "undone": bool(undone)}
            for result, undone in conn.execute("SELECT result, undone FROM draws ORDER BY id")]

    # ---- opening ---------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, guilds: list[str], players: list[dict] | None,
             tie_rule: str | None, default_players: list[dict]) -> "Store":
        """Open the table at `path`, or make it. `players` and `tie_rule` None: as stored
        (or the defaults for a new table). Given and unlike the stored table: an error."""
        path = Path(path)
        source = str(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.executescript(SCHEMA)
            with _transaction(conn):
                meta = dict(conn.execute("SELECT key, value FROM meta"))
                if not meta:
                    meta = _new_table(players or default_players, tie_rule)
                    conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        except sqlite3.DatabaseError as e:
            raise CompanionError(f"not a table-companion table ({e})", source=source) from None
        except OSError as e:
            raise CompanionError(f"cannot open ({e.strerror})", source=source) from None
        if meta.get("schema") != SCHEMA_VERSION:
            raise CompanionError(f"table format {meta.get('schema')!r} is not "
                                 f"{SCHEMA_VERSION!r}", source=source, field="schema")
        stored = json.loads(meta["players"])
        if players is not None and players != stored:
            raise CompanionError(
                "this table was started with " + ",".join(_player_arg(p) for p in stored)
                + "; leave --players out, or give another --data file for a new table",
                source=source, field="--players")
        if tie_rule is not None and tie_rule != meta["tie_rule"]:
            raise CompanionError(f"this table plays the tie rule {meta['tie_rule']}; leave "
                                 "--tie-rule out, or give another --data file for a new table",
                                 source=source, field="--tie-rule")
        return cls(conn, source, guilds)

    def remember_port(self, port: int) -> None:
        """The port goes with the token into the printed QR code: keep it for restarts."""
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('port', ?)", (str(port),))
        self.port = port

    def close(self) -> None:
        self.conn.close()

    # ---- reading ---------------------------------------------------------------------

    def commitment(self) -> str:
        return vote.commitment(self._next_seed)

    def holders(self) -> dict[str, str | None]:
        held = dict.fromkeys(self.guilds)
        for d in self.draws:
            if not d["undone"]:
                held[d["guild"]] = d["winner"]
        return held

    def summary(self) -> dict:
        """Everything but the history: what an event carries after each change."""
        holders = self.holders()
        return {"guilds": {g: {"holder": h} for g, h in holders.items()},
                "governor": vote.governor(holders), "commitment": self.commitment()}

    def state(self) -> dict:
        return {"players": self.players, **self.summary(), "tie_rule": self.tie_rule,
                "draws": self.draws}

    # ---- changing --------------------------------------------------------------------

    def draw(self, guild: str, bag: dict[str, int], key: str) -> tuple[dict, bool]:
        """Draw the vote for `guild` with the sealed seed. Returns (answer, made now);
        a key seen before returns the first answer and draws nothing."""
        request = json.dumps({"guild": guild, "bag": bag}, sort_keys=True)
        with _transaction(self.conn):
            row = self.conn.execute("SELECT request, result FROM draws WHERE idem_key = ?",
                                    (key,)).fetchone()
            if row:
                if row[0] != request:
                    raise WebError(409, "Idempotency-Key", "already used for another draw")
                return json.loads(row[1]), False
            governor = vote.governor(self.holders())
            if governor is not None:
                raise WebError(409, "guild", f"{governor} holds two guilds and is Governor: "
                                             "the game is over (undo a mistaken draw first)")
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
                (answer["id"], key, request, json.dumps(answer), _now()))
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'next_seed'",
                              (next_seed.hex(),))
        self._next_seed = next_seed
        self.draws.append({**answer, "undone": False})
        return answer, True

    def undo(self, draw_id: int | None) -> tuple[dict, bool]:
        """Take back the last draw still in force (or check that `draw_id` is that draw or
        already undone). Returns (the undone draw, undone now)."""
        live = [d for d in self.draws if not d["undone"]]
        if draw_id is None:
            if not live:
                raise WebError(409, "id", "there is no draw to undo")
            target = live[-1]
        else:
            if not 1 <= draw_id <= len(self.draws):
                raise WebError(400, "id", f"there is no draw {draw_id}")
            target = self.draws[draw_id - 1]
            if target["undone"]:
                return target, False
            if target is not live[-1]:
                raise WebError(409, "id", f"only the last draw ({live[-1]['id']}) can be "
                                          "undone")
        with _transaction(self.conn):
            self.conn.execute("UPDATE draws SET undone = 1 WHERE id = ?", (target["id"],))
        target["undone"] = True
        return target, True


@contextmanager
def _transaction(conn: sqlite3.Connection):
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _new_table(players: list[dict], tie_rule: str | None) -> dict[str, str]:
    return {"schema": SCHEMA_VERSION, "token": secrets.token_urlsafe(16),
            "players": json.dumps(players), "tie_rule": tie_rule or "extra",
            "next_seed": secrets.token_bytes(32).hex(), "created": _now()}


def _player_arg(p: dict) -> str:
    return p["colour"] if not p.get("name") else f"{p['colour']}={p['name']}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
