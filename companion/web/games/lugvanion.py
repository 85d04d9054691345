"""Lugvanion's game closed into the table's history: the guilds won and the Governor.
(The draw itself is companion/web/app.py's /api/draw and /api/undo.) After a close the
next game starts with no guild held; the closed game's draws stay in the file."""

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.web.errors import WebError
from companion.web.games import Web

GAME = "lugvanion"


def routes(web: Web) -> list:
    store = web.store

    def who(colour: str | None) -> str | None:
        for p in store.players:
            if p["colour"] == colour:
                return p["name"] or colour
        return colour

    def close() -> tuple[dict, dict]:
        holders = store.holders()
        if not any(holders.values()):
            raise WebError(409, "game", "no guild is held yet: nothing to close")
        governor = store.summary()["governor"]
        players = [p["name"] or p["colour"] for p in store.players]
        scores = {name: 0 for name in players}
        for colour in holders.values():
            if colour is not None:
                scores[who(colour)] += 1
        entry = store.close_game(GAME, {
            "players": players, "scores": scores,
            "winners": [who(governor)] if governor else [],
            "guilds": {g: who(c) for g, c in holders.items()}, "governor": who(governor)})
        return entry, store.summary()

    async def post_close(request: Request):
        web.table(request)
        await web.body(request)
        entry, summary = await web.run(close)
        web.publish("closed", {"closed": entry, **summary})
        web.publish("history", {"closed": entry})
        return JSONResponse(entry)

    return [Route("/t/{token}/api/lugvanion/close", post_close, methods=["POST"])]
