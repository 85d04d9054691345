"""The table's history: every closed game (date, game, players, scores, winners, and
what a play records for a designer: the version played, each player's seat and faction,
the minutes it took, every category's figures), as JSON and as CSV, with each player's
games played and won, in all and per game (her win rate). A game ended by mistake is
taken out with `DELETE history/ID`.

The JSON history (GET history) gives every game these fields, empty for a game closed
before they were recorded: "version" (a string, or null), "seats" ({name: n}, 1 = the
first player; null for a name not among the table's players), "factions" ({name:
faction}), "minutes" (a whole number, or null), "figures" ({name: {category id: points}}), "rounds" ({name: [running total after round 1, 2, ...]}, a
game scored in rounds; {} otherwise).

history.csv has one row per player of each closed game, with these columns, in this
order (a column is only ever added at the end, so a spreadsheet built on it keeps
working):
- id: the game's number in the history; date: when it was closed (UTC, ISO 8601);
  game: covenia, coverta, lugvanion, or the id of a designer's game (serve --game);
- player: her name; score: her score (Covenia's total, Coverta's points, for Lugvanion
  the number of guilds she won, a designer's game's total); won: 1 if she is among the winners, else 0 (Lugvanion:
  the Governor);
- guilds: Lugvanion only, the guilds she won at the close (their ids, e.g.
  "forge jewellery", space-separated, in the table's guild order; empty if none);
  empty for the other games;
- governor: Lugvanion only, 1 if she is the Governor, else 0; empty for the other games;
- version: the version played: a designer's game, its game file's `[game] version`
  (empty if it names none); the bundled games, table-companion's version (their layouts
  files carry none);
- seat: her seat, 1 = the first player: her place among the game's players in the
  seat order the table set (else table order); empty for a name that is not one of the
  table's players (a name typed into a Coverta round, an unnamed Lugvanion colour);
- faction: her faction, in a designer's game whose file lists `[game] factions` (empty
  in the other games, or if she chose none);
- minutes: the whole minutes from the game's first entry (Lugvanion: its first draw) to
  its close, rounded;
- score:ID, one column per score category, in the order the history first meets them
  (so a column keeps its place as games are added at the end): her points in that
  category: Covenia's clans and bonus (score:red ... score:purple, score:bonus),
  Coverta's rounds (score:round1, score:round2, ...), Lugvanion's guilds (1 if she holds
  it at the close, else 0: score:forge, ...), a designer's game's [[scoring]] ids; empty
  where the game has no such category;
- round:1, round:2, ..., as many as the history's longest game has rounds (at most
  MAX_ROUNDS): a game scored in rounds (Coverta, a designer's game with `rounds`), her
  running total after each round; empty past her game's rounds and in other games.
A game closed before version, seat, faction, minutes and the figures were recorded has
those cells empty. A cell a spreadsheet would run as a formula (= + - @ first) is led by
a quote."""

import asyncio
import io
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from companion.files import csv_cells
from companion.files.csv_cells import safe
from companion.web.errors import WebError
from companion.web.games import Web, idempotency_key

CSV_FIELDS = ("id", "date", "game", "player", "score", "won", "guilds", "governor",
              "version", "seat", "faction", "minutes")  # then score:ID, then round:N
RECORDED = {"version": None, "seats": {}, "factions": {}, "minutes": None, "figures": {},
            "rounds": {}}
MAX_ROUNDS = 100  # round:N columns (companion.files.plays reads as many); a longer game
#                   keeps no running totals


def running(per_round: list[dict]) -> dict[str, list]:
    """Each player's running total after each round, from each round's points ({name:
    points}, one a round; a player missing from a round scores 0 in it); {} for a game
    of more than MAX_ROUNDS rounds, or with points that are not numbers."""
    if len(per_round) > MAX_ROUNDS or not all(isinstance(r, dict) for r in per_round):
        return {}
    names = list(dict.fromkeys(n for r in per_round for n in r))
    out: dict[str, list] = {}
    for name in names:
        total, kept = 0, []
        for r in per_round:
            v = r.get(name, 0)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return {}
            total += v
            kept.append(total)
        out[name] = kept
    return out


def _rounds_of(history: list[dict]) -> int:
    """The most rounds any game of the history kept: its round:N columns."""
    return max([len(v) for g in history for v in recorded(g)["rounds"].values()
                if isinstance(v, list)] + [0])


def recorded(game: dict) -> dict:
    """A history entry with every field a play records: those a game closed before they
    were recorded lacks (or holds in a shape this program never writes) given empty."""
    out = dict(game)
    for key, empty in RECORDED.items():
        value = game.get(key)
        ok = (isinstance(value, dict) if isinstance(empty, dict) else
              isinstance(value, str) if key == "version" else
              isinstance(value, int) and not isinstance(value, bool))
        out[key] = value if ok else (dict(empty) if isinstance(empty, dict) else None)
    return out


def categories(history: list[dict]) -> list[str]:
    """Every category id of the history's figures, in the order first met."""
    seen: dict[str, None] = {}
    for g in history:
        for figures in recorded(g)["figures"].values():
            if isinstance(figures, dict):
                seen.update(dict.fromkeys(str(k) for k in figures))
    return list(seen)


@lru_cache(maxsize=1)
def ours() -> str | None:
    """The version a bundled game is played at: table-companion's own (their layouts
    files name none); None when installed without its metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("table-companion")
    except PackageNotFoundError:
        return None


def players(history: list[dict]) -> dict[str, dict]:
    """Each player's games played and won: in all, and per game ("games": {game:
    {"played", "won"}}, in the order the table first played them)."""
    out: dict[str, dict] = {}
    for game in history:
        for name in game["players"]:
            p = out.setdefault(name, {"played": 0, "won": 0, "games": {}})
            won = name in game["winners"]
            per = p["games"].setdefault(str(game["game"]), {"played": 0, "won": 0})
            for count in (p, per):
                count["played"] += 1
                count["won"] += won
    return out


def cell(value) -> str:
    """A spreadsheet never runs a cell as a formula: = + - @ led by a quote."""
    return safe("" if value is None else str(value))


def _plain(n) -> str:
    """A whole number's cell; anything else (none, or hand-edited) empty."""
    return str(n) if isinstance(n, int) and not isinstance(n, bool) else ""


def _text(v) -> str:
    return v if isinstance(v, str) else ""


def as_csv(history: list[dict]) -> str:
    out = io.StringIO()
    w = csv_cells.writer(out)
    ids = categories(history)
    rounds = _rounds_of(history)
    w.writerow([*CSV_FIELDS, *(cell(f"score:{i}") for i in ids),
                *(f"round:{n}" for n in range(1, rounds + 1))])
    for g in history:
        guilds = g.get("guilds") if isinstance(g.get("guilds"), dict) else None
        more = recorded(g)
        for name in g["players"]:
            score = g["scores"].get(name) if isinstance(g["scores"], dict) else None
            row = [cell(g["id"]), cell(g["date"]), cell(g["game"]), cell(name),
                   "" if score is None else score, int(name in g["winners"])]
            if guilds is None:  # not a Lugvanion game
                row += ["", ""]
            else:
                row += [cell(" ".join(str(k) for k, held in guilds.items() if held == name)),
                        int(g.get("governor") == name)]
            figures = more["figures"].get(name)
            figures = {str(k): v for k, v in figures.items()} if isinstance(figures, dict) \
                else {}
            kept = more["rounds"].get(name)
            kept = kept if isinstance(kept, list) else []
            row += [cell(more["version"]), _plain(more["seats"].get(name)),
                    cell(_text(more["factions"].get(name))), _plain(more["minutes"]),
                    *(_plain(figures.get(i)) for i in ids),
                    *(_plain(kept[n]) if n < len(kept) else "" for n in range(rounds))]
            w.writerow(row)
    return out.getvalue()


JSON = {"ensure_ascii": False, "allow_nan": False, "separators": (",", ":")}  # as JSONResponse


class Reports:
    """What the history gives (its JSON, its CSV, a game's playtest figures), worked out
    once per state of the history, in a thread off the event loop (as the PDFs are): a
    flood of report requests costs one piece of work, and the other phones' requests
    are answered meanwhile. Every request for a state awaits the same work."""

    MOST = 64  # kinds of report kept for one state (a game and version each)

    def __init__(self, store):
        self.store = store
        self.state: int | None = None
        self.made: dict = {}

    async def get(self, key, work):
        """work(history) in a thread, once for `key` and the history as it is now."""
        state = self.store.history_changes  # read before the copy: at worst made again
        if state != self.state or len(self.made) >= self.MOST:
            self.made, self.state = {}, state
        made = self.made.get(key)
        if made is None:
            history = list(self.store.history)  # one step under the GIL: whole
            made = self.made[key] = asyncio.ensure_future(asyncio.to_thread(work, history))
            made.add_done_callback(lambda f: f.cancelled() or f.exception())
        return await asyncio.shield(made)


def _json(games: list[dict]) -> bytes:
    import json

    return json.dumps({"games": [recorded(g) for g in games], "players": players(games)},
                      **JSON).encode("utf-8")


def game_number(request: Request) -> int:
    """The history's game named in the path."""
    raw = request.path_params["id"]
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise WebError(400, "id", "must be a game's number in the history")
    return int(raw)


class History:
    """The table's history, each route a named method: its reports (JSON, CSV) worked
    out once per state, and a game's removal."""

    def __init__(self, web: Web):
        self.web, self.store, self.reports = web, web.store, Reports(web.store)

    def remove(self, game_id: int, key: str | None) -> tuple[dict, bool]:
        request = f"remove {game_id}"
        done = self.store.replayed(key and f"history:{key}", request, "removal")
        if done is not None:  # a resend after a lost answer: removed the first time
            return done, False
        self.store.remove_history(game_id, key and (f"history:{key}", request))
        return {"removed": game_id}, True

    async def get_history(self, request: Request):
        self.web.table(request)
        return Response(await self.reports.get("json", _json), media_type="application/json")

    async def get_csv(self, request: Request):
        self.web.table(request)
        return Response(await self.reports.get("csv", as_csv),
                        media_type="text/csv; charset=utf-8", headers={
                            "Content-Disposition": 'attachment; filename="table-history.csv"'})

    async def delete_game(self, request: Request):
        self.web.table(request)
        game_id = game_number(request)
        key = idempotency_key(request, "removal", required=False)
        answer, made = await self.web.run(self.remove, game_id, key)
        if made:
            self.web.publish("history", answer)
        return JSONResponse(answer)


def routes(web: Web) -> list:
    history = History(web)
    return [Route("/t/{token}/api/history", history.get_history),
            Route("/t/{token}/api/history.csv", history.get_csv),
            Route("/t/{token}/api/history/{id}", history.delete_game, methods=["DELETE"])]
