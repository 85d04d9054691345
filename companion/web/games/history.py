"""The table's history: every closed game (date, game, players, scores, winners), as
JSON and as CSV, with each player's games played and won, in all and per game (her win
rate). A game ended by mistake is taken out with `DELETE history/ID`.

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
- governor: Lugvanion only, 1 if she is the Governor, else 0; empty for the other games.
A cell a spreadsheet would run as a formula (= + - @ first) is led by a quote."""

import csv
import io

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from companion.web.errors import WebError
from companion.web.games import Web, idempotency_key

CSV_FIELDS = ("id", "date", "game", "player", "score", "won", "guilds", "governor")


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
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def as_csv(history: list[dict]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_FIELDS)
    for g in history:
        guilds = g.get("guilds") if isinstance(g.get("guilds"), dict) else None
        for name in g["players"]:
            score = g["scores"].get(name) if isinstance(g["scores"], dict) else None
            row = [g["id"], g["date"], g["game"], cell(name),
                   "" if score is None else score, int(name in g["winners"])]
            if guilds is None:  # not a Lugvanion game
                row += ["", ""]
            else:
                row += [cell(" ".join(str(k) for k, held in guilds.items() if held == name)),
                        int(g.get("governor") == name)]
            w.writerow(row)
    return out.getvalue()


def routes(web: Web) -> list:
    store = web.store

    async def get_history(request: Request):
        web.table(request)
        games = await web.run(lambda: list(store.history))
        return JSONResponse({"games": games, "players": players(games)})

    async def get_csv(request: Request):
        web.table(request)
        games = await web.run(lambda: list(store.history))
        return Response(as_csv(games), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": 'attachment; filename="table-history.csv"'})

    def remove(game_id: int, key: str | None) -> tuple[dict, bool]:
        request = f"remove {game_id}"
        done = store.replayed(key and f"history:{key}", request, "removal")
        if done is not None:  # a resend after a lost answer: removed the first time
            return done, False
        store.remove_history(game_id, key and (f"history:{key}", request))
        return {"removed": game_id}, True

    async def delete_game(request: Request):
        web.table(request)
        raw = request.path_params["id"]
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
            raise WebError(400, "id", "must be a game's number in the history")
        key = idempotency_key(request, "removal", required=False)
        answer, made = await web.run(remove, int(raw), key)
        if made:
            web.publish("history", answer)
        return JSONResponse(answer)

    return [Route("/t/{token}/api/history", get_history),
            Route("/t/{token}/api/history.csv", get_csv),
            Route("/t/{token}/api/history/{id}", delete_game, methods=["DELETE"])]
