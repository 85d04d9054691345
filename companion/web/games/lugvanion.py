"""Lugvanion's game closed into the table's history: the guilds won and the Governor.
(The draw itself is companion/web/app.py's /api/draw and /api/undo.) After a close the
next game starts with no guild held; the closed game's draws stay in the file."""

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.web.errors import WebError, coded
from companion.web.games import Web, idempotency_key

GAME = "lugvanion"


def routes(web: Web) -> list:
    store = web.store

    def who(colour: str | None) -> str | None:
        for p in store.players:
            if p["colour"] == colour:
                return p["name"] or colour
        return colour

    def close(key: str | None) -> tuple[dict, dict, bool]:
        from companion.web.games.history import ours

        done = store.replayed(key and f"{GAME}:{key}", "close", "close")
        if done is not None:  # a resend after a lost answer: closed the first time
            return done, store.summary(), False
        holders = store.holders()
        if not any(holders.values()):
            raise WebError(409, "game", "no guild is held yet: nothing to close",
                           coded("no_guild"))
        governor = store.summary()["governor"]
        players = [p["name"] or p["colour"] for p in store.players]
        scores = {name: 0 for name in players}
        for colour in holders.values():
            if colour is not None:
                scores[who(colour)] += 1
        entry = store.close_game(GAME, {
            "players": players, "scores": scores,
            "winners": [who(governor)] if governor else [],
            "guilds": {g: who(c) for g, c in holders.items()}, "governor": who(governor),
            "version": ours(),
            "figures": {name: {g: int(who(c) == name) for g, c in holders.items()}
                        for name in players}},
            key and (f"{GAME}:{key}", "close"))
        return entry, store.summary(), True

    async def post_close(request: Request):
        web.table(request)
        key = idempotency_key(request, "close", required=False)
        await web.body(request)
        entry, summary, made = await web.run(close, key)
        if made:
            web.publish("closed", {"closed": entry, **summary})
            web.publish("history", {"closed": entry})
        return JSONResponse(entry)

    return [Route("/t/{token}/api/lugvanion/close", post_close, methods=["POST"])]
