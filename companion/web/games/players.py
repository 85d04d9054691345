"""The table's players by name, the same in every game: the named --players, then those
a phone added. `POST players {"name": ...}` adds one: the name as `player_name` makes it
(NFC, trimmed, inner spaces made one, no control or format character); a name equal to a
player's but for case, spaces and Unicode form is that player (answered, not added
again), so a repeated tap adds one player."""

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.errors import shown
from companion.web.errors import WebError, coded
from companion.web.games import Web, player_name, same_name

MAX_PLAYERS = 30


def routes(web: Web) -> list:
    store = web.store

    def add(body) -> tuple[dict, bool]:
        if not isinstance(body, dict) or set(body) != {"name"}:
            raise WebError(400, "body", 'send {"name": "..."}')
        name = player_name(body["name"])  # NFC, trimmed, inner spaces made one
        known = store.table_players()
        same = next((n for n in known if same_name(n, name)), None)
        if same is not None:  # a repeated tap, or her name in another case or spelling
            return {"player": same, "added": False, "players": known}, False
        if len(known) >= MAX_PLAYERS:
            raise WebError(409, "players", f"a table keeps at most {MAX_PLAYERS} players, "
                                           f"not {shown(name, 40)} too",
                           coded("table_full", most=MAX_PLAYERS))
        kept, made = store.add_player(name)
        return {"player": kept, "added": made, "players": store.table_players()}, made

    async def get_players(request: Request):
        web.table(request)
        return JSONResponse({"players": await web.run(store.table_players)})

    async def post_player(request: Request):
        web.table(request)
        answer, made = await web.run(add, await web.body(request))
        if made:
            web.publish("players", {"players": answer["players"]})
        return JSONResponse(answer)

    return [Route("/t/{token}/api/players", get_players),
            Route("/t/{token}/api/players", post_player, methods=["POST"])]
