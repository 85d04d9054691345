"""`GET /t/TOKEN/api/playtest?game=ID`: what the table's own history says of one game,
the figures `companion playtest GAME history.csv --json` gives for the same plays (win
rates by seat and by faction with their 95% intervals, each version's plays, the findings
as data), worked out by companion.rules.playtest from the history list itself: those of
the latest version's plays, or of `&version=V` (`all`: every version pooled).

A history entry carries, besides players, scores and winners, what a play records
(companion/web/games/history.py): "version" (a string or null), "seats" ({name: n}),
"factions" ({name: faction}), "minutes" (a whole number or null) and "figures" ({name:
{category id: points}}). A game closed before they were recorded counts with its seats
and factions unknown."""

import json
import math
from functools import partial

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from companion.files import plays
from companion.rules import playtest as rules
from companion.web.errors import WebError
from companion.web.games import Web
from companion.web.games.history import JSON, Reports

MAX_GAME = 100


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v) -> bool:
    """A number the figures can use: finite, within what a history.csv may hold."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) \
        and abs(v) <= plays.MAX_NUMBER


def _table(entry: dict, key: str) -> dict:
    value = entry.get(key)
    return value if isinstance(value, dict) else {}


def play_of(entry: dict) -> rules.Play:
    """One closed game as a play: each player's seat, faction, total, win and figures."""
    seats, factions = _table(entry, "seats"), _table(entry, "factions")
    figures, scores = _table(entry, "figures"), _table(entry, "scores")
    kept = _table(entry, "rounds")
    winners = entry.get("winners") if isinstance(entry.get("winners"), list) else []
    rows = []
    for name in entry.get("players") or []:
        seat, faction = seats.get(name), factions.get(name)
        mine = figures.get(name) if isinstance(figures.get(name), dict) else {}
        score = scores.get(name)
        running = kept.get(name) if isinstance(kept.get(name), list) else []
        running = running if len(running) <= plays.MAX_ROUNDS and all(
            _number(v) for v in running) else []
        rows.append(rules.Seat(
            rounds=tuple(running), player=name if isinstance(name, str) else None,
            seat=seat if _whole(seat) and seat >= 1 else None,
            faction=faction if isinstance(faction, str) and faction else None,
            score=score if _number(score) else None, won=name in winners,
            figures={str(k): v for k, v in mine.items() if _number(v)}))
    version, minutes = entry.get("version"), entry.get("minutes")
    return rules.Play(str(entry.get("id")), tuple(rows),
                      version if isinstance(version, str) else "",
                      minutes if _number(minutes) and minutes >= 0 else None)


def summary(history: list[dict], game: str, version: str | None = None) -> dict:
    """The figures of the latest version's plays (of `version`'s; "all": pooled)."""
    plays = [play_of(e) for e in history if str(e.get("game")) == game]
    return rules.rounded(rules.summary(plays, version))


def _answer(history: list[dict], game: str, version: str | None) -> bytes:
    return json.dumps({"game": game, **summary(history, game, version)},
                      **JSON).encode("utf-8")


def asked(request: Request) -> tuple[str, str | None]:
    """The game (?game=ID) and the version (?version=V; None: the latest) asked for."""
    game = request.query_params.get("game", "")
    if not game or len(game) > MAX_GAME or not game.isprintable():
        raise WebError(400, "game", "name the game: ?game=ID (covenia, coverta, "
                                    "lugvanion, or a designer's game's id)")
    version = request.query_params.get("version")
    if version is not None and (len(version) > MAX_GAME or not version.isprintable()):
        raise WebError(400, "version", "a version as the game file writes it, or all")
    return game, version


class Playtest:
    """The playtest figures at one table, a named method: worked out once per state of
    the history (history.Reports)."""

    def __init__(self, web: Web):
        self.web, self.reports = web, Reports(web.store)

    async def get_playtest(self, request: Request):
        self.web.table(request)
        game, version = asked(request)
        return Response(await self.reports.get(("playtest", game, version), partial(
            _answer, game=game, version=version)), media_type="application/json")


def routes(web: Web) -> list:
    return [Route("/t/{token}/api/playtest", Playtest(web).get_playtest)]
