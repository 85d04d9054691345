"""Lugvanion's game closed into the table's history: the guilds won and the Governor.
(The draw itself is companion/web/app.py's /api/draw and /api/undo.) After a close the
next game starts with no guild held; the closed game's draws stay in the file."""

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.web.errors import WebError, coded
from companion.web.games import Web, idempotency_key

GAME = "lugvanion"


class Table:
    """Lugvanion's close at one table, a named method: the store and the streams."""

    def __init__(self, web: Web):
        self.web, self.store = web, web.store

    def who(self, colour: str | None) -> str | None:
        """The player of a colour: her name, or the colour when she gave none."""
        for p in self.store.players:
            if p["colour"] == colour:
                return p["name"] or colour
        return colour

    def record(self, holders: dict) -> dict:
        """What the history keeps of the game: each guild's holder and the Governor."""
        from companion.web.games.history import ours

        who = self.who
        governor = self.store.summary()["governor"]
        players = [p["name"] or p["colour"] for p in self.store.players]
        scores = {name: 0 for name in players}
        for colour in holders.values():
            if colour is not None:
                scores[who(colour)] += 1
        return {
            "players": players, "scores": scores,
            "winners": [who(governor)] if governor else [],
            "guilds": {g: who(c) for g, c in holders.items()}, "governor": who(governor),
            "version": ours(),
            "figures": {name: {g: int(who(c) == name) for g, c in holders.items()}
                        for name in players}}

    def close(self, key: str | None) -> tuple[dict, dict, bool]:
        done = self.store.replayed(key and f"{GAME}:{key}", "close", "close")
        if done is not None:  # a resend after a lost answer: closed the first time
            return done, self.store.summary(), False
        holders = self.store.holders()
        if not any(holders.values()):
            raise WebError(409, "game", "no guild is held yet: nothing to close",
                           coded("no_guild"))
        entry = self.store.close_game(GAME, self.record(holders),
                                      key and (f"{GAME}:{key}", "close"))
        return entry, self.store.summary(), True

    async def post_close(self, request: Request):
        self.web.table(request)
        key = idempotency_key(request, "close", required=False)
        await self.web.body(request)
        entry, summary, made = await self.web.run(self.close, key)
        if made:
            self.web.publish("closed", {"closed": entry, **summary})
            self.web.publish("history", {"closed": entry})
        return JSONResponse(entry)


def routes(web: Web) -> list:
    return [Route("/t/{token}/api/lugvanion/close", Table(web).post_close, methods=["POST"])]
