"""The table's players by name, the same in every game: the named --players, then those
a phone added. `POST players {"name": ...}` adds one: the name as `player_name` makes it
(NFC, trimmed, inner spaces made one, no control or format character); a name equal to a
player's but for case, spaces and Unicode form is that player (answered, not added
again), so a repeated tap adds one player.

The players are listed in seat order, the first player first (GET players: {"players":
[...], "seats": {name: n}}, 1 = the first player); `PUT players/seats {"seats": [name,
...]}` sets it: every one of the table's players once, in the order they play (a name
in another case or Unicode form is that player). A closed game records each player's
seat among its players in this order (companion/web/store.py)."""

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

    def listed() -> dict:
        names = store.table_players()
        return {"players": names, "seats": {n: i for i, n in enumerate(names, 1)}}

    def seat(body) -> tuple[dict, bool]:
        if not isinstance(body, dict) or set(body) != {"seats"} \
                or not isinstance(body["seats"], list):
            raise WebError(400, "body", 'send {"seats": ["first player", "second", ...]}')
        known = store.table_players()
        order: list[str] = []
        for i, raw in enumerate(body["seats"][:MAX_PLAYERS + 1]):
            name = player_name(raw, f"seats[{i}]")
            same = next((n for n in known if same_name(n, name)), None)
            if same is None:
                raise WebError(400, f"seats[{i}]", f"{shown(name, 40)} is not one of the "
                                                   "table's players (add her first)",
                               coded("seat_unknown", player=name))
            if same in order:
                raise WebError(400, f"seats[{i}]", f"{shown(same, 40)} is given twice",
                               coded("seat_twice", player=same))
            order.append(same)
        missing = [n for n in known if n not in order]
        if missing:
            raise WebError(400, "seats", f"every player of the table has a seat: "
                                         f"{shown(missing[0], 40)} is missing",
                           coded("seat_missing", player=missing[0]))
        made = order != known
        if made:
            store.set_seats(order)
        return listed(), made

    async def get_players(request: Request):
        web.table(request)
        return JSONResponse(await web.run(listed))

    async def put_seats(request: Request):
        web.table(request)
        answer, made = await web.run(seat, await web.body(request))
        if made:
            web.publish("players", answer)
        return JSONResponse(answer)

    async def post_player(request: Request):
        web.table(request)
        answer, made = await web.run(add, await web.body(request))
        if made:
            web.publish("players", {"players": answer["players"]})
        return JSONResponse(answer)

    return [Route("/t/{token}/api/players", get_players),
            Route("/t/{token}/api/players", post_player, methods=["POST"]),
            Route("/t/{token}/api/players/seats", put_seats, methods=["PUT"])]
