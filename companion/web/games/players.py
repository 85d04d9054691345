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


def seat_order(known: list[str], seats) -> list[str]:
    """The table's players in the order sent: each once, a name in another case or
    Unicode form taken as that player."""
    order: list[str] = []
    for i, raw in enumerate(seats[:MAX_PLAYERS + 1]):
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
    return order


def new_name(body, known: list[str], found: str) -> str:
    """The name a rename gives her (body {"name": new}), no other player's."""
    if not isinstance(body, dict) or set(body) != {"name"}:
        raise WebError(400, "body", 'send {"name": "..."}')
    new = player_name(body["name"])
    other = next((n for n in known if same_name(n, new) and n != found), None)
    if other is not None:
        raise WebError(409, "name", f"{shown(other, 40)} is already a player",
                       coded("player_taken", player=other))
    return new


class Players:
    """The table's players, each route a named method: the store and the streams."""

    def __init__(self, web: Web):
        self.web, self.store = web, web.store

    def add(self, body) -> tuple[dict, bool]:
        if not isinstance(body, dict) or set(body) != {"name"}:
            raise WebError(400, "body", 'send {"name": "..."}')
        name = player_name(body["name"])  # NFC, trimmed, inner spaces made one
        known = self.store.table_players()
        same = next((n for n in known if same_name(n, name)), None)
        if same is not None:  # a repeated tap, or her name in another case or spelling
            return {"player": same, "added": False, "players": known}, False
        if len(known) >= MAX_PLAYERS:
            raise WebError(409, "players", f"a table keeps at most {MAX_PLAYERS} players, "
                                           f"not {shown(name, 40)} too",
                           coded("table_full", most=MAX_PLAYERS))
        kept, made = self.store.add_player(name)
        return {"player": kept, "added": made, "players": self.store.table_players()}, made

    def listed(self) -> dict:
        names = self.store.table_players()
        return {"players": names, "seats": {n: i for i, n in enumerate(names, 1)}}

    def named(self) -> dict:
        """listed(), with the players named when the table was started ("named": they
        cannot be renamed or removed)."""
        return {**self.listed(), "named": [n for n in self.store.table_players()
                                           if n not in self.store.added_players]}

    def seat(self, body) -> tuple[dict, bool]:
        if not isinstance(body, dict) or set(body) != {"seats"} \
                or not isinstance(body["seats"], list):
            raise WebError(400, "body", 'send {"seats": ["first player", "second", ...]}')
        known = self.store.table_players()
        order = seat_order(known, body["seats"])
        made = order != known
        if made:
            self.store.set_seats(order)
        return self.listed(), made

    def changeable(self, name: str, known: list[str]) -> str:
        """The player of that name, if a phone added her and she has no entry in an open
        game."""
        name = player_name(name, "name")
        found = next((n for n in known if same_name(n, name)), None)
        if found is None:
            raise WebError(404, "name", f"{shown(name, 40)} is not one of the table's players",
                           coded("seat_unknown", player=name))
        if found not in self.store.added_players:
            raise WebError(409, "name", f"{shown(found, 40)} was named when the table was "
                                        "started: she stays", coded("player_named", player=found))
        games = self.store.entered_in(found)
        if games:
            raise WebError(409, "name", f"{shown(found, 40)} has an entry in an open game "
                                        f"({games[0]}): delete it first, or end the game",
                           coded("player_entered", player=found, game=games[0]))
        return found

    def change(self, name: str, body) -> tuple[dict, bool]:
        """Rename (body {"name": new}) or remove (body None) a player a phone added."""
        known = self.store.table_players()
        found = self.changeable(name, known)
        new = None if body is None else new_name(body, known, found)
        if new == found:
            return {"player": found, **self.named()}, False
        self.store.replace_player(found, new)
        return {"player": new, **self.named()}, True

    async def changed(self, name: str, body) -> JSONResponse:
        answer, made = await self.web.run(self.change, name, body)
        if made:
            self.web.publish("players", {k: answer[k] for k in ("players", "seats", "named")})
        return JSONResponse(answer)

    async def put_player(self, request: Request):
        self.web.table(request)
        return await self.changed(request.path_params["name"], await self.web.body(request))

    async def delete_player(self, request: Request):
        self.web.table(request)
        return await self.changed(request.path_params["name"], None)

    async def get_players(self, request: Request):
        self.web.table(request)
        return JSONResponse(await self.web.run(self.named))

    async def put_seats(self, request: Request):
        self.web.table(request)
        answer, made = await self.web.run(self.seat, await self.web.body(request))
        if made:
            self.web.publish("players", answer)
        return JSONResponse(answer)

    async def post_player(self, request: Request):
        self.web.table(request)
        answer, made = await self.web.run(self.add, await self.web.body(request))
        if made:
            self.web.publish("players", {"players": answer["players"]})
        return JSONResponse(answer)


def routes(web: Web) -> list:
    players = Players(web)
    return [Route("/t/{token}/api/players", players.get_players),
            Route("/t/{token}/api/players", players.post_player, methods=["POST"]),
            Route("/t/{token}/api/players/seats", players.put_seats, methods=["PUT"]),
            Route("/t/{token}/api/players/{name}", players.put_player, methods=["PUT"]),
            Route("/t/{token}/api/players/{name}", players.delete_player,
                  methods=["DELETE"])]
