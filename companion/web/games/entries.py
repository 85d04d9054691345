"""A player's entry in a game scored from the phones (Covenia's, a designer's game's):
found by name, tagged by its content, and guarded by HTTP's preconditions (RFC 9110), so
that two phones editing one entry never overwrite each other unseen.

Every entry has a strong ETag; a PUT or DELETE with If-Match is refused with 412 when
the entry changed since (or is gone: a game was ended), with If-None-Match: * when the
player already has one; nothing is written then, and the 412 carries the entry the table
holds. A request without them (a script) still works."""

import hashlib
import json
import re

from starlette.requests import Request
from starlette.responses import JSONResponse

from companion.errors import shown
from companion.web.errors import WebError, coded


def etag(state: dict, entry: dict) -> str:
    """The entry's strong ETag: its content in this game."""
    text = json.dumps([state.get("id", ""), entry], sort_keys=True, ensure_ascii=False)
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:24] + '"'


def entry_of(state: dict, name: str) -> dict | None:
    return next((p for p in state["players"] if p["name"] == name), None)


def no_entry(name: str) -> WebError:
    """A 404: the game holds no entry of that name."""
    return WebError(404, "name", f"{shown(name, 40)} has no entry in this game",
                    coded("no_entry", player=name))


def tagged_entry(state: dict, name: str) -> dict:
    """The entry as a phone reads it, with its ETag; a 404 when there is none."""
    entry = entry_of(state, name)
    if entry is None:
        raise no_entry(name)
    return {**entry, "etag": etag(state, entry)}


def precondition(request: Request) -> tuple[str | None, str | None]:
    """(If-Match, If-None-Match) as sent."""
    return request.headers.get("if-match"), request.headers.get("if-none-match")


def require(cond: tuple[str | None, str | None], state: dict, name: str) -> None:
    """A 412 when the entry is not as the phone last read it; nothing is written."""
    if_match, if_none = cond
    current = entry_of(state, name)
    tag = etag(state, current) if current else None
    if if_match is not None:
        tags = {t.strip() for t in if_match.split(",")}
        ok = current is not None and ("*" in tags or tag in tags)
    elif if_none is not None:
        tags = {t.strip() for t in if_none.split(",")}
        ok = current is None or not ("*" in tags or tag in tags)
    else:
        return
    if not ok:
        raise WebError(412, "If-Match" if if_match is not None else "If-None-Match",
                       f"{shown(name, 40)}'s entry changed since this phone read it "
                       "(saved or deleted elsewhere): nothing was written",
                       coded("entry_changed", player=name), {"entry": current, "etag": tag})


def phone_of(request: Request) -> str | None:
    """The phone that sends a change, as it names itself (X-Phone: a random id the page
    keeps, 8 to 32 hex digits); None for a script, or a header of any other shape."""
    said = request.headers.get("x-phone", "")
    return said if re.fullmatch(r"[0-9a-f]{8,32}", said) else None


def stamped(state: dict, name: str, phone: str | None, at: str | None) -> dict:
    """`state` with who changed `name`'s entry last ("changed": {name: {"phone", "at"}}:
    which phone, at what time), or without her stamp when `at` is None (her entry went)."""
    marks = {k: v for k, v in (state.get("changed") or {}).items() if k != name}
    if at is not None:
        marks[name] = {"phone": phone, "at": at}
    return {**state, "changed": marks}


def with_etag(answer: dict) -> JSONResponse:
    """The answer, the entry's ETag (if it has one) also in its header."""
    tag = answer.get("etag")
    return JSONResponse(answer, headers={"ETag": tag} if tag else None)
