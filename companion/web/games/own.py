"""A designer's own games at the table (`companion serve --game FILE`): each player's
numbers, one per score category of the game file's [[scoring]], scored by companion.rules.scoring
as `companion score FILE` scores them; live totals and the winner on every phone, and
the game into the history when it ends.

A game's open state: {"id", "players": [entry, ...]}, each entry {"name", CATEGORY: n}
as sent, in the order the players first entered them; "id" is drawn when the game opens.
Two phones editing one entry are told apart as Covenia's are (entries.py: ETags,
If-Match); a resent save or close (the same Idempotency-Key) is answered as the first.

The score is `companion score FILE --json`'s, with every figure in the CLI's words in
each language of the page ("explained") and each majority's places a round ("places"):
rounds, tie-breaks and every kind of category as the game file writes them.

Routes: GET games (every game of the table, with its title); GET games/ID (the state,
with the score); GET, PUT, DELETE games/ID/players/NAME; POST games/ID/preview (the table
scored with one player's unsaved entry, checked as a PUT checks it, nothing saved);
POST games/ID/close."""

import asyncio
import functools
import json
import secrets

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.errors import shown
from companion.web.errors import WebError, coded, why_of
from companion.web.games import Web, idempotency_key, player_name, scored
from companion.web.games.entries import (etag, no_entry, phone_of, precondition, require,
                                         stamped, tagged_entry, with_etag)
from companion.rules import scoring as scorer
from companion.rules.errors import ScoreError

MAX_PLAYERS = 12
BUNDLED = ("lugvanion", "covenia", "coverta", "vengeance")
LANGS = ("en", "fr")
TABLE_KINDS = ("majority", "most")  # a figure's points depend on the other players'


class OwnGame(msgspec.Struct, frozen=True):
    """A designer's game as the table serves it: its rules and what a phone shows."""
    id: str
    rules: scorer.Rules
    page: dict  # {"id", "name", "credits": {lang: text}, "wins", "categories": [...]}
    version: str | None = None  # [game] version: the version each play records
    factions: tuple[str, ...] = ()  # [game] factions: each player's choice, recorded


def view(game: OwnGame, state: dict | None) -> dict:
    """What the phones show: the entries with their ETags, and the score or why there is
    none yet (the scorer's line, and its code for the page to word)."""
    state = state or {"players": []}
    out = {"game": game.id, "id": state.get("id"), "open": bool(state["players"]),
           "entries": state["players"],
           "etags": {p["name"]: etag(state, p) for p in state["players"]},
           "changed": state.get("changed") or {},  # which phone changed each entry, when
           "factions": _factions(game, state),
           "score": None, "problem": None, "why": None}
    if state["players"]:
        from companion.score.scoring_words import as_json

        try:
            result = scorer.score(game.rules, state["players"])
        except ScoreError as e:
            out["problem"] = f"{e.field}: {e.message}" if e.field else e.message
            out["why"] = why_of(e)
        else:
            out["score"] = as_json(result, game.rules)  # the CLI's --json, as it is
            out["explained"] = {lang: explained(game, result, lang) for lang in LANGS}
            out["places"] = places(game, result)
    return out


@functools.lru_cache(maxsize=1)
def _kinds():
    from companion.score.scoring_words import kinds

    return kinds()


def explained(game: OwnGame, result: scorer.Result, lang: str) -> dict:
    """The CLI's words for one language: each player's figures by category (in the order
    of the score's players), the lines of any tie a tie-break settled, and each round's
    words of the categories scored against the table (majorities, the most)."""
    from companion.score import scoring_words as said

    w = _kinds()
    labels = {c["id"]: c["name"][lang] for c in game.page["categories"]}
    live = [c for c in game.rules.categories if c.score in TABLE_KINDS]
    return {
        "players": [{c.id: said.explained(p, c, labels, lang, w, game.rules.rounds)
                     for c in game.rules.categories} for p in result.players],
        "tiebreak": said.tiebreaks(game.rules, result, labels, lang, w),
        "table": {c.id: [[said.say(p.reasons[c.id][k], c, labels, lang, w)
                          for p in result.players] for k in range(c.rounds)]
                  for c in live}}


def places(game: OwnGame, result: scorer.Result) -> dict:
    """Each majority's places, a round at a time: each player's figure, place (0: none),
    the players tied with her and her points, as the engine gave them."""
    out = {}
    for c in game.rules.categories:
        if c.score != "majority":
            continue
        out[c.id] = [[{"name": p.name, "figure": p.reasons[c.id][k].numbers["n"],
                       "place": p.reasons[c.id][k].numbers["place"],
                       "with": p.reasons[c.id][k].numbers["with"],
                       "points": p.reasons[c.id][k].numbers["points"]}
                      for p in result.players] for k in range(c.rounds)]
    return out


def _factions(game: OwnGame, state: dict) -> dict[str, str]:
    """Each entered player's faction (the game's [game] factions), as chosen."""
    chosen = state.get("factions")
    names = {p["name"] for p in state["players"]}
    return {n: f for n, f in chosen.items() if n in names} if isinstance(chosen, dict) else {}


def faction_of(game: OwnGame, body: dict) -> tuple[dict, str | None, bool]:
    """The entry's body without its faction, the faction (one of the game's [game]
    factions, as the file spells it; None: none chosen) and whether one was sent. A game
    without factions, or with a category named "faction", takes the key as a category."""
    if not game.factions or "faction" not in body or any(
            c.id == "faction" for c in game.rules.categories):
        return body, None, False
    rest = {k: v for k, v in body.items() if k != "faction"}
    raw = body["faction"]
    if raw is None or raw == "":
        return rest, None, True
    from companion.games.factions import matching

    match = matching(game.factions, raw)
    if match is None:
        raise WebError(400, "faction", f"{shown(raw, 40)} is not one of this game's factions "
                                       f"({', '.join(game.factions)})",
                       coded("own_faction", factions=", ".join(game.factions)))
    return rest, match, True


def running_totals(rules, result) -> dict:
    """Each player's running total after each round of a game scored in rounds (a
    category scored once counts in the last round); {} for a game of one round."""
    from companion.web.games.history import running

    if rules.rounds <= 1:
        return {}
    counted = [c for c in rules.categories if c.total]  # those the total adds up
    last = rules.rounds - 1
    per = [{p.name: sum(p.rounds[c.id][k] if c.rounds > 1 else
                        (p.points[c.id] if k == last else 0) for c in counted)
            for p in result.players} for k in range(rules.rounds)]
    return running(per)


def checked(game: OwnGame, body) -> None:
    """A 400 unless the body is a JSON object (the figures, named by category)."""
    if not isinstance(body, dict):
        rounds = game.rules.rounds
        raise WebError(400, "body", "must be a JSON object: a figure per category ("
                       + ", ".join(c.id for c in game.rules.categories if c.written)
                       + (f"), a list of {rounds}, one a round" if rounds > 1 else ")"))


def with_entry(players: list, entry: dict) -> list:
    """The players with her entry in her place (or added at the end)."""
    players = list(players)
    at = next((i for i, p in enumerate(players) if p["name"] == entry["name"]), None)
    if at is None:
        if len(players) >= MAX_PLAYERS:
            raise WebError(409, "players", f"a game holds up to {MAX_PLAYERS} players "
                                           "(delete one first)",
                           coded("own_full", most=MAX_PLAYERS))
        players.append(entry)
    else:
        players[at] = entry
    return players


def entry_of(name: str, body: dict) -> dict:
    """Her entry as the scorer reads it: the body's figures, under her name."""
    return {**{k: v for k, v in body.items() if k != "name"}, "name": name}


def preview(game: OwnGame, body, now: dict | None) -> dict:
    """The table scored with her entry as she is typing it; nothing is saved."""
    checked(game, body)
    name = player_name(body.get("name"))
    body, _, _ = faction_of(game, body)  # her faction is checked, not scored
    entry = entry_of(name, body)
    scored(scorer.entry, entry, game.rules)
    now = now or {"players": [], "id": None}
    players = with_entry(now["players"], entry)
    scored(scorer.entries, players, game.rules)
    answer = view(game, {**now, "players": players})
    return {**{k: v for k, v in answer.items() if k != "etags"}, "saved": False}


def sent_entry(game: OwnGame, name: str, body) -> tuple[dict, str | None, bool]:
    """A PUT's entry, checked in the CLI's words, with faction_of's faction and whether
    one was sent."""
    checked(game, body)
    if "name" in body and (not isinstance(body["name"], str)
                           or player_name(body["name"]) != name):
        raise WebError(400, "name", "the name is the one in the path")
    body, faction, sent = faction_of(game, body)
    entry = entry_of(name, body)
    scored(scorer.entry, entry, game.rules)  # its numbers, in the CLI's words
    return entry, faction, sent


def with_faction(game: OwnGame, now: dict, name: str, faction: str | None) -> dict:
    """The state with her faction beside her entry (the entry stays what the scorer
    reads); none chosen: hers removed."""
    chosen = {n: f for n, f in _factions(game, now).items() if n != name}
    return {**now, "factions": {**chosen, **({name: faction} if faction else {})}}


def closed_record(game: OwnGame, now: dict) -> dict:
    """What the history keeps of the open game, scored as the CLI scores it."""
    from companion.score.scoring_words import as_json

    try:
        result = scorer.score(game.rules, now["players"])
        answer = as_json(result)
    except ScoreError as e:
        raise WebError(409, e.field or "players", e.message, why_of(e)) from None
    return {
        "players": [p["name"] for p in answer["players"]],
        "scores": {p["name"]: p["total"] for p in answer["players"]},
        "winners": answer["winners"], "result": answer, "entries": now["players"],
        "version": game.version, "factions": _factions(game, now),
        "figures": {p["name"]: dict(p["points"]) for p in answer["players"]},
        "rounds": running_totals(game.rules, result)}


class Tables:
    """The designer's games served at one table (--game), each route a named method:
    the game named in the path, its state in the store, the streams."""

    def __init__(self, web: Web):
        self.web, self.store, self.own = web, web.store, web.own

    def game_of(self, request: Request) -> OwnGame:
        gid = request.path_params["game"]
        if gid not in self.own:
            raise WebError(404, "game", f"no game {shown(gid, 40)} at this table (the games "
                                        f"served with --game: {', '.join(self.own) or 'none'})")
        return self.own[gid]

    def state(self, game: OwnGame) -> dict | None:
        return self.store.games.get(game.id)

    def shown_now(self, game: OwnGame, now: dict | None = None) -> dict:
        return view(game, self.state(game) if now is None else now)

    def entry(self, game: OwnGame, name: str) -> dict:
        return tagged_entry(self.state(game) or {"players": []}, name)

    def put(self, game: OwnGame, name: str, body, cond, key: str | None,
            phone: str | None = None) -> tuple[dict, bool]:
        request = json.dumps({"put": name, "body": body}, sort_keys=True)
        done = self.store.replayed(key and f"{game.id}:{key}", request, "entry")
        if done is not None:  # a resend after a lost answer: saved the first time
            return {**self.shown_now(game), "etag": done["etag"]}, False
        entry, faction, sent = sent_entry(game, name, body)
        now = self.state(game) or {"players": [], "id": secrets.token_hex(8)}
        if sent:
            now = with_faction(game, now, name, faction)
        require(cond, now, name)
        players = with_entry(now["players"], entry)
        new = stamped({**now, "players": players}, name, phone, self.store.now())
        scored(scorer.entries, players, game.rules)  # one name once
        tag = etag(new, entry)
        self.store.save_game(game.id, new,
                             key and (f"{game.id}:{key}", request, {"etag": tag}))
        return {**self.shown_now(game, new), "etag": tag}, True

    def delete(self, game: OwnGame, name: str, cond, key: str | None) -> tuple[dict, bool]:
        request = json.dumps({"delete": name})
        if self.store.replayed(key and f"{game.id}:{key}", request, "entry") is not None:
            return self.shown_now(game), False
        now = self.state(game) or {"players": []}
        require(cond, now, name)
        players = [p for p in now["players"] if p["name"] != name]
        if len(players) == len(now["players"]):
            raise no_entry(name)
        new = stamped({**now, "players": players}, name, None, None)
        self.store.save_game(game.id, new if players else None,
                             key and (f"{game.id}:{key}", request, {}))
        return self.shown_now(game, new), True

    def close(self, game: OwnGame, key: str | None) -> tuple[dict, dict, bool]:
        done = self.store.replayed(key and f"{game.id}:{key}", "close", "close")
        if done is not None:
            return done, self.shown_now(game), False
        now = self.state(game)
        if not now or not now["players"]:
            raise WebError(409, "game", f"no {game.page['name']['en']} game is open",
                           coded("no_game"))
        entry = self.store.close_game(game.id, closed_record(game, now),
                                      key and (f"{game.id}:{key}", "close"))
        return entry, self.shown_now(game), True

    async def changed(self, game: OwnGame, fn, *args):
        answer, made = await self.web.run(fn, game, *args)
        if made:
            self.web.publish("own", {k: v for k, v in answer.items() if k != "etag"})
        return with_etag(answer)

    async def list_games(self, request: Request):
        self.web.table(request)
        return JSONResponse({"games": [
            *({"id": g, "own": False, "name": self.web.titles.get(g)} for g in BUNDLED),
            *({"id": g.id, "own": True, "name": g.page["name"]} for g in self.own.values())]})

    async def get_state(self, request: Request):
        self.web.table(request)
        return JSONResponse(await self.web.run(self.shown_now, self.game_of(request)))

    async def get_player(self, request: Request):
        self.web.table(request)
        game = self.game_of(request)
        name = player_name(request.path_params["name"])
        return with_etag(await self.web.run(self.entry, game, name))

    async def put_player(self, request: Request):
        self.web.table(request)
        game = self.game_of(request)
        name = player_name(request.path_params["name"])
        key = idempotency_key(request, "save", required=False)
        return await self.changed(game, self.put, name, await self.web.body(request),
                                  precondition(request), key, phone_of(request))

    async def delete_player(self, request: Request):
        self.web.table(request)
        game = self.game_of(request)
        name = player_name(request.path_params["name"])
        key = idempotency_key(request, "delete", required=False)
        return await self.changed(game, self.delete, name, precondition(request), key)

    async def post_preview(self, request: Request):
        self.web.table(request)
        game = self.game_of(request)
        body = await self.web.body(request)
        # Off the store's worker (nothing is written): a phone typing never queues saves.
        return JSONResponse(await asyncio.to_thread(preview, game, body, self.state(game)))

    async def post_close(self, request: Request):
        self.web.table(request)
        game = self.game_of(request)
        key = idempotency_key(request, "close", required=False)
        await self.web.body(request)
        entry, now, made = await self.web.run(self.close, game, key)
        if made:
            self.web.publish("own", now)
            self.web.publish("history", {"closed": entry})
        return JSONResponse(entry)


def routes(web: Web) -> list:
    tables = Tables(web)
    base = "/t/{token}/api/games/{game}"
    return [
        Route("/t/{token}/api/games", tables.list_games),
        Route(base, tables.get_state),
        Route(f"{base}/players/{{name:path}}", tables.get_player, methods=["GET"]),
        Route(f"{base}/players/{{name:path}}", tables.put_player, methods=["PUT"]),
        Route(f"{base}/players/{{name:path}}", tables.delete_player, methods=["DELETE"]),
        Route(f"{base}/preview", tables.post_preview, methods=["POST"]),
        Route(f"{base}/close", tables.post_close, methods=["POST"]),
    ]
