"""Each game's web part: its routes under /t/TOKEN/api/GAME/..., kept in the table's
store (companion/web/store.py) and announced on the event stream. A module per game;
`routes(web)` gathers them."""

import unicodedata
from typing import Awaitable, Callable

import msgspec
from starlette.requests import Request

from companion.errors import shown
from companion.web.errors import WebError, coded, why_of
from companion.web.store import Store
from companion.rules.errors import ScoreError, plain

MAX_NAME = 40
MAX_KEY = 100


class Web(msgspec.Struct, frozen=True):
    """What a game's routes use of the app: the store (changed only through `run`, on
    the store's one worker), the event hub, the token check and the body reader."""
    store: Store
    run: Callable[..., Awaitable]
    publish: Callable[..., None]  # (event, data[, brief]): see app.Hub.publish
    table: Callable[[Request], None]
    body: Callable[[Request], Awaitable]
    own: dict = msgspec.field(default_factory=dict)  # a designer's games served (own.OwnGame by id)
    titles: dict = msgspec.field(default_factory=dict)  # our games' names on the page, by id
    # Whether any phone is on the event stream now: what only the phones need (the
    # figures an update carries) is worked out only then. None: always.
    listening: Callable[[], bool] | None = None


def player_name(raw, field: str = "name") -> str:
    """A player's name from a path or a body, the one check every place that takes a name
    goes through, so a name is the same player however a phone's keyboard spells it:
    NFC (a precomposed "é" and "e" + U+0301 are one name), trimmed, inner runs of spaces
    made one; 1 to 40 characters once normalised. Refused with a 400 naming the field:
    any control or format character (Unicode Cc and Cf: zero-width spaces and joiners,
    bidi controls, a BOM...) and broken (surrogate) characters, which would make two
    names that look the same, or a name that reorders the page around it; an emoji's own
    joiners and tags are kept (`_invisible`)."""
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(400, field, "missing: a player's name")
    name = unicodedata.normalize("NFC", raw).strip()
    bad = _invisible(name)
    if bad is not None:  # the name itself not echoed: it may reorder the line around it
        raise WebError(400, field, f"a name cannot hold U+{ord(bad):04X} (an invisible "
                                   "control or format character)",
                       coded("name_invisible", char=f"U+{ord(bad):04X}"))
    name = " ".join(name.split())
    if len(name) > MAX_NAME or not plain(name):
        raise WebError(400, field, f"{shown(name, 40)}: a name is 1 to {MAX_NAME} characters, "
                                   "no control characters", coded("name_long", most=MAX_NAME))
    return name


def _invisible(name: str) -> str | None:
    """The first control or format character of a name, but for the two that build an
    emoji (a joiner between two symbols, as in a family; tag letters after a symbol, as
    in a regional flag): those show, and cannot hide inside a word."""
    def symbol(ch: str) -> bool:
        return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"

    for i, ch in enumerate(name):
        if unicodedata.category(ch) not in ("Cc", "Cf", "Cs"):
            continue
        before = name[i - 1] if i else ""
        after = name[i + 1] if i + 1 < len(name) else ""
        if ch == "\u200d" and before and after and symbol(before) and symbol(after):
            continue
        if "\U000e0020" <= ch <= "\U000e007f" and before and (
                symbol(before) or "\U000e0020" <= before <= "\U000e007f"):
            continue
        return ch
    return None


def same_name(a: str, b: str) -> bool:
    """Two names of one player at this table: equal once normalised, but for case."""
    def key(s: str) -> str:
        return unicodedata.normalize("NFC", unicodedata.normalize(
            "NFC", " ".join(s.split())).casefold())
    return key(a) == key(b)


def idempotency_key(request: Request, what: str, required: bool = True) -> str | None:
    """The request's Idempotency-Key (a phone sends one with every change, and the same
    one again when it resends after a lost answer); None when not `required` and not
    sent (a script)."""
    key = request.headers.get("idempotency-key")
    if key is None and not required:
        return None
    key = key or ""
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise WebError(400, "Idempotency-Key", f"send a header of 1 to {MAX_KEY} printable "
                                               f"characters, new for each {what}")
    return key


def scored(fn, *args):
    """A scorer's answer, its ScoreError as a 400 naming the field."""
    try:
        return fn(*args)
    except ScoreError as e:
        raise WebError(400, e.field or "body", e.message, why_of(e)) from None


def self_check(store: Store) -> None:
    """What a phone can ask for, worked out once before the table opens: a table file
    edited by hand into a shape this program never writes is refused here in one line,
    naming the file, rather than answered later with a 500."""
    import json

    from companion.errors import CompanionError
    from companion.web.games import covenia, coverta, history

    try:
        json.dumps(store.state())
        store.table_players()
        if store.games.get("covenia"):
            covenia.view(store.games["covenia"])
        if store.games.get("coverta"):
            coverta.view(store.games["coverta"])
            coverta.keys_of(store.games["coverta"])
        history.players(store.history)
        history.as_csv(store.history)
        if store.damaged_answers():
            raise ValueError("answered")
    except Exception as e:  # noqa: BLE001 - whatever fails, the file's content is at fault
        raise CompanionError(f"holds data in a shape this program never writes (edited by "
                             f"hand? {type(e).__name__}): serve a copy from before the edit, "
                             "or a new --data file", source=store.source) from None


def routes(web: Web) -> list:
    from companion.web.games import (covenia, coverta, history, lugvanion, own, players,
                                     vengeance)
    from companion.web.games import playtest

    return [*covenia.routes(web), *coverta.routes(web), *vengeance.routes(web),
            *lugvanion.routes(web), *history.routes(web), *players.routes(web),
            *own.routes(web), *playtest.routes(web)]
