"""Vengeance's turn resolver from a phone: `companion vengeance resolve`'s options as
JSON, answered as its --json answers (companion.rules.vengeance)."""

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.errors import shown
from companion.web.errors import WebError
from companion.web.games import Web, scored

TYPES = ("herb", "mineral", "potion")
FIELDS = (*TYPES, "artifacts", "incantations")


def whole(n, field: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise WebError(400, field, f"{shown(n, 20)} is not a whole number")
    return n


def resolve(body) -> dict:
    from companion.rules import vengeance as rules

    if not isinstance(body, dict):
        raise WebError(400, "body", "must be a JSON object: herb, mineral, potion, "
                                    "artifacts, incantations")
    for key in body:
        if key not in FIELDS:
            raise WebError(400, "body", f"unknown field {shown(key, 40)} (use "
                                        f"{', '.join(FIELDS)})")
    counts = {t: whole(body.get(t, 0), t) for t in TYPES}
    artifacts, incantations = body.get("artifacts", []), body.get("incantations", [])
    if not isinstance(artifacts, list) or len(artifacts) > 13:
        raise WebError(400, "artifacts", 'a list of up to 13 "NUMBER:TYPE" (e.g. "12:potion")')
    if not isinstance(incantations, list) or len(incantations) > 13:
        raise WebError(400, "incantations", "a list of up to 13 numbers")
    played = []
    for i, a in enumerate(artifacts):
        if not isinstance(a, str):
            raise WebError(400, f"artifacts[{i}]", f"{shown(a, 20)} is not \"NUMBER:TYPE\"")
        played.append(scored(rules.artifact, a, f"artifacts[{i}]"))
    spells = [whole(n, f"incantations[{i}]") for i, n in enumerate(incantations)]
    r = scored(rules.resolve, counts, played, spells)
    return {"order": [s.as_dict() for s in r.order], "removed": r.removed,
            "counts": r.counts, "winner": r.winner}


class Resolver:
    """Vengeance's turn resolver at one table, a named method: the streams."""

    def __init__(self, web: Web):
        self.web = web

    async def post_resolve(self, request: Request):
        self.web.table(request)
        body = await self.web.body(request)
        answer = resolve(body)
        # Every phone at the table sees the turn resolved (and what it was asked).
        self.web.publish("vengeance", {"asked": {k: body.get(k, [] if k in FIELDS[3:] else 0)
                                                 for k in FIELDS}, "answer": answer})
        return JSONResponse(answer)


def routes(web: Web) -> list:
    return [Route("/t/{token}/api/vengeance/resolve", Resolver(web).post_resolve,
                  methods=["POST"])]
