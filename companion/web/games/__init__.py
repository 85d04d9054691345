"""Each game's web part: its routes under /t/TOKEN/api/GAME/..., kept in the table's
store (companion/web/store.py) and announced on the event stream. A module per game;
`routes(web)` gathers them."""

from dataclasses import dataclass
from typing import Awaitable, Callable

from starlette.requests import Request

from companion.errors import shown
from companion.web.errors import WebError
from companion.web.store import Store
from scorers.errors import ScoreError, plain

MAX_NAME = 40
MAX_KEY = 100


@dataclass(frozen=True)
class Web:
    """What a game's routes use of the app: the store (changed only through `run`, on
    the store's one worker), the event hub, the token check and the body reader."""
    store: Store
    run: Callable[..., Awaitable]
    publish: Callable[[str, dict], None]
    table: Callable[[Request], None]
    body: Callable[[Request], Awaitable]


def player_name(raw: str, field: str = "name") -> str:
    """A player's name from a path or a body: 1 to 40 characters, no control characters."""
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(400, field, "missing: a player's name")
    if len(raw) > MAX_NAME or not plain(raw):
        raise WebError(400, field, f"{shown(raw, 40)}: a name is 1 to {MAX_NAME} characters, "
                                   "no control characters")
    return raw


def idempotency_key(request: Request, what: str) -> str:
    key = request.headers.get("idempotency-key", "")
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise WebError(400, "Idempotency-Key", f"send a header of 1 to {MAX_KEY} printable "
                                               f"characters, new for each {what}")
    return key


def scored(fn, *args):
    """A scorer's answer, its ScoreError as a 400 naming the field."""
    try:
        return fn(*args)
    except ScoreError as e:
        raise WebError(400, e.field or "body", e.message) from None


def routes(web: Web) -> list:
    from companion.web.games import covenia, coverta, history, lugvanion, players, vengeance

    return [*covenia.routes(web), *coverta.routes(web), *vengeance.routes(web),
            *lugvanion.routes(web), *history.routes(web), *players.routes(web)]
