"""The table's players by name, the same in every game: the named --players, then those
a phone added. `POST players {"name": ...}` adds one: the name as `player_name` makes it
(NFC, trimmed, inner spaces made one, no control or format character); a name equal to a
player's but for case, spaces and Unicode form is that player (answered, not added
again), so a repeated tap adds one player.

The players are listed in seat order, the first player first (GET players: {"players":
[...], "seats": {name: n}}, 1 = the first player); `PUT players/seats {"seats": [name,
...]}` sets it: every one of the table's players once, in the order they play (a name
in another case or Unicode form is that player). A closed game records each player's
seat among its players in this order (companion/web/store.py).

A player a phone added by mistake (a typo) is renamed with `PUT players/{name} {"name":
new}` or removed with `DELETE players/{name}`, while she has no entry in an open game: the
table, its link and its QR code stay as they are. The players named when the table was
started (Lugvanion's colours) stay."""

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

    def named() -> dict:
        """listed(), with the players named when the table was started ("named": they
        cannot be renamed or removed)."""
        return {**listed(), "named": [n for n in store.table_players()
                                      if n not in store.added_players]}

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

    def change(name: str, body) -> tuple[dict, bool]:
        """Rename (body {"name": new}) or remove (body None) a player a phone added."""
        known = store.table_players()
        name = player_name(name, "name")
        found = next((n for n in known if same_name(n, name)), None)
        if found is None:
            raise WebError(404, "name", f"{shown(name, 40)} is not one of the table's players",
                           coded("seat_unknown", player=name))
        if found not in store.added_players:
            raise WebError(409, "name", f"{shown(found, 40)} was named when the table was "
                                        "started: she stays", coded("player_named", player=found))
        games = store.entered_in(found)
        if games:
            raise WebError(409, "name", f"{shown(found, 40)} has an entry in an open game "
                                        f"({games[0]}): delete it first, or end the game",
                           coded("player_entered", player=found, game=games[0]))
        new = None
        if body is not None:
            if not isinstance(body, dict) or set(body) != {"name"}:
                raise WebError(400, "body", 'send {"name": "..."}')
            new = player_name(body["name"])
            other = next((n for n in known if same_name(n, new) and n != found), None)
            if other is not None:
                raise WebError(409, "name", f"{shown(other, 40)} is already a player",
                               coded("player_taken", player=other))
            if new == found:
                return {"player": found, **named()}, False
        store.replace_player(found, new)
        return {"player": new, **named()}, True

    async def put_player(request: Request):
        web.table(request)
        answer, made = await web.run(change, request.path_params["name"],
                                     await web.body(request))
        if made:
            web.publish("players", {k: answer[k] for k in ("players", "seats", "named")})
        return JSONResponse(answer)

    async def delete_player(request: Request):
        web.table(request)
        answer, made = await web.run(change, request.path_params["name"], None)
        if made:
            web.publish("players", {k: answer[k] for k in ("players", "seats", "named")})
        return JSONResponse(answer)

    async def get_players(request: Request):
        web.table(request)
        return JSONResponse(await web.run(named))

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
            Route("/t/{token}/api/players/seats", put_seats, methods=["PUT"]),
            Route("/t/{token}/api/players/{name}", put_player, methods=["PUT"]),
            Route("/t/{token}/api/players/{name}", delete_player, methods=["DELETE"])]
