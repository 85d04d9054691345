"""Covenia end scores from the table's phones: each player's entry (her area and hand,
as in the score file), scored by companion.rules.covenia as `companion score covenia` scores it.

The open game's state: {"id", "decks": "A" | "B" | "AB" | None, "players": [entry, ...]},
each entry {"name", "area", "hand"} as sent, in the order the players first entered them;
"id" is drawn when the game opens, so an entry of an ended game never passes for one of
the next.

Two phones editing one entry are told apart with HTTP's preconditions (entries.py): every
entry has an ETag (GET players/NAME, and "etags" in the game's view).

The decks in play are the chosen ones, or else those of the number of players at the
table (the table's players, or the entries if more): a 3-player table scores with both
decks while its entries are still coming in."""

import asyncio
import json
import secrets
import tempfile
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from companion.errors import shown
from companion.web.errors import WebError, coded, why_of
from companion.web.games import Web, idempotency_key, player_name, scored
from companion.web.games.entries import (etag, no_entry, phone_of, precondition, require,
                                         stamped, tagged_entry, with_etag)
from companion.rules import covenia as scorer
from companion.rules.errors import ScoreError

GAME = "covenia"
EMPTY = {"decks": None, "players": []}
LANGS = ("en", "fr")  # the phone page's languages: an update carries its figures in each
FOLLOWS = "follows"  # an update's figures, when the update on the stream brings them


def decks_in_play(state: dict, at_table: int = 0) -> str:
    return state.get("decks") or scorer.default_decks(max(len(state["players"]), at_table))


@lru_cache(maxsize=1)
def rules():
    """Covenia's [[scoring]] (companion/layouts/covenia.toml), read once per table."""
    from companion.score.covenia import rules as read

    return read()


def score_file(state: dict, at_table: int = 0) -> dict:
    """The score file holding these entries (what the CLI would read)."""
    return {"decks": decks_in_play(state, at_table),
            "players": [dict(p) for p in state["players"]]}


def result(state: dict, at_table: int = 0) -> scorer.Result:
    """The score, or a 409 in the CLI's words when these entries do not score yet."""
    try:
        return scorer.score(score_file(state, at_table), rules(), at_table)
    except ScoreError as e:
        raise WebError(409, e.field or "players", e.message, why_of(e)) from None


def view(state: dict, at_table: int = 0, scored: scorer.Result | None = None) -> dict:
    """What the phones show: the entries with their ETags, the decks in play, and the
    score or why there is none yet: the CLI's line ("problem", English) and "why", the
    scorer's code and params that the page words in its own language
    (companion/layouts/phone.toml, "why_" + the code). `scored`: these entries' score,
    if already worked out."""
    from companion.score.covenia import as_json

    out = {"game": GAME, "id": state.get("id"), "open": bool(state["players"]),
           "decks": state.get("decks"),
           "in_play": decks_in_play(state, at_table), "entries": state["players"],
           "etags": {p["name"]: etag(state, p) for p in state["players"]},
           "changed": state.get("changed") or {},  # which phone changed each entry, when
           "score": None, "problem": None, "why": None}
    try:
        out["score"] = as_json(scored or scorer.score(score_file(state, at_table), rules(),
                                                      at_table))
    except ScoreError as e:
        out["problem"] = f"{e.field}: {e.message}" if e.field else e.message
        out["why"] = why_of(e)
    return out


def check(state: dict) -> None:
    """Each entry and the copies in play, with the CLI's checks and words; the decks not
    yet chosen, the most copies the game allows (both decks)."""
    scored(scorer.check_players, [dict(p) for p in state["players"]],
           state.get("decks") or "AB")


@lru_cache(maxsize=1)
def _words():
    from companion.score.covenia import words

    return words()


class Table:
    """Covenia's routes at one table, each a named method: the store, the streams, and the
    answers kept per state."""

    def __init__(self, web: Web):
        self.web, self.store = web, web.store
        # The explained answer of one state in one language, computed once however many
        # phones ask (a phone asks only when its update carried no figures: after a
        # reconnect, or a save while no phone listened): keyed by the state object itself
        # (a change saves a new one), off the store's worker so it never queues behind edits.
        self.answers: dict[str, tuple[object, asyncio.Future, int]] = {}
        self.said: dict[tuple, str] = {}  # one figure's words: an edit changes one player's

    def at_table(self) -> int:
        return len(self.store.table_players())

    def state(self) -> dict:
        return self.store.games.get(GAME) or {**EMPTY, "players": []}

    def shown_now(self, now: dict | None = None) -> dict:
        return view(self.state() if now is None else now, self.at_table())

    def updated(self, now: dict) -> dict:
        """What a change answers and publishes: the view of the new state, and while a
        phone listens, "explained": FOLLOWS: the update on the stream brings them
        (`whole`). The saving phone waits for it too."""
        table = self.at_table()
        try:
            res = scorer.score(score_file(now, table), rules(), table)
        except ScoreError:
            res = None  # the view says why
        out = view(now, table, res)
        if res is not None and (self.web.listening is None or self.web.listening()):
            out["explained"] = FOLLOWS
        return out

    def whole(self, update: dict) -> dict:
        """An update with its figures explained in both languages (the explained route's
        words), worked out once for every phone, and only for the last update of a write
        to the streams (the earlier ones go without: FOLLOWS). Compact: each player's
        texts by row, in the order of the update's score, whose points they explain."""
        from companion.score import covenia as sc

        try:
            res = scorer.score({"decks": update["in_play"],
                                "players": [dict(p) for p in update["entries"]]}, rules(),
                               self.at_table())
            return {**update, "explained": {
                lang: {"texts": [{row: self.words_for(p.reasons[row][0], row, lang)
                                  for row in sc.ROWS} for p in res.players],
                       "verdict": sc.verdict(res, _words(), lang)} for lang in LANGS}}
        except Exception:  # noqa: BLE001 - never the stream's write: the phones ask instead
            return {k: v for k, v in update.items() if k != "explained"}

    def put(self, name: str, body, cond, key: str | None, phone: str | None = None
            ) -> tuple[dict, bool]:
        request = json.dumps({"put": name, "body": body}, sort_keys=True)
        done = self.store.replayed(key and f"{GAME}:{key}", request, "entry")
        if done is not None:  # a resend after a lost answer: saved the first time
            return {**self.shown_now(), "etag": done["etag"]}, False
        if not isinstance(body, dict):
            raise WebError(400, "body", "must be a JSON object with area and hand")
        if "name" in body and (not isinstance(body["name"], str)
                               or player_name(body["name"]) != name):
            raise WebError(400, "name", "the name is the one in the path")
        for part in ("area", "hand"):  # null is no table of clans (a TOML file has none)
            if part in body and not isinstance(body[part], dict):
                raise WebError(400, part, f"must be a table of clan = [values], not "
                                          f"{shown(body[part], 20)}")
        entry = {"name": name, **{k: v for k, v in body.items() if k != "name"}}
        entry.setdefault("area", {})
        entry.setdefault("hand", {})
        now = self.store.games.get(GAME) or \
            {**EMPTY, "players": [], "id": secrets.token_hex(8)}
        require(cond, now, name)
        players = list(now["players"])
        at = next((i for i, p in enumerate(players) if p["name"] == name), None)
        if at is None:
            if len(players) >= 4:
                raise WebError(409, "players", "Covenia is for 2 to 4 players: this game "
                                               "has 4 (delete one first)", coded("covenia_full"))
            players.append(entry)
        else:
            players[at] = entry
        new = stamped({**now, "players": players}, name, phone, self.store.now())
        check(new)
        tag = etag(new, entry)
        self.store.save_game(GAME, new, key and (f"{GAME}:{key}", request, {"etag": tag}))
        return {**self.updated(new), "etag": tag}, True

    def delete(self, name: str, cond, key: str | None) -> tuple[dict, bool]:
        request = json.dumps({"delete": name})
        if self.store.replayed(key and f"{GAME}:{key}", request, "entry") is not None:
            return self.shown_now(), False
        now = self.state()
        require(cond, now, name)
        players = [p for p in now["players"] if p["name"] != name]
        if len(players) == len(now["players"]):
            raise no_entry(name)
        new = stamped({**now, "players": players}, name, None, None)
        self.store.save_game(GAME, new if players or new.get("decks") else None,
                        key and (f"{GAME}:{key}", request, {}))
        return self.updated(new), True

    def set_decks(self, body) -> dict:
        if not isinstance(body, dict) or set(body) != {"decks"}:
            raise WebError(400, "body", 'send {"decks": "A"}, "B", "AB" or null')
        decks = body["decks"]
        if decks is not None:
            if not isinstance(decks, str) or decks.upper() not in scorer.DECKS:
                raise WebError(400, "decks", f"{shown(decks, 20)} is not a deck choice (use "
                                             '"A", "B" or "AB")')
            decks = decks.upper()
        now = self.store.games.get(GAME) or \
            {**EMPTY, "players": [], "id": secrets.token_hex(8)}
        new = {**now, "decks": decks}
        check(new)
        self.store.save_game(GAME, new if new["players"] or decks else None)
        return self.updated(new)

    def close(self, key: str | None) -> tuple[dict, dict, bool]:
        from companion.score.covenia import ROWS, as_json
        from companion.web.games.history import ours

        done = self.store.replayed(key and f"{GAME}:{key}", "close", "close")
        if done is not None:
            return done, self.shown_now(), False
        now = self.store.games.get(GAME)
        if not now or not now["players"]:
            raise WebError(409, "game", "no Covenia game is open", coded("no_game"))
        answer = as_json(result(now, self.at_table()))
        entry = self.store.close_game(GAME, {
            "players": [p["name"] for p in answer["players"]],
            "scores": {p["name"]: p["total"] for p in answer["players"]},
            "winners": answer["winners"], "result": answer, "entries": now["players"],
            "decks": now.get("decks"), "version": ours(),
            "figures": {p["name"]: {r: p[r] for r in ROWS} for p in answer["players"]}},
            key and (f"{GAME}:{key}", "close"))
        return entry, self.shown_now(), True

    def publish(self, answer: dict) -> None:
        """An update: with its figures (worked out when the write is made) if it is the
        last of its write to the phones, else brief (they follow it in the same write)."""
        update = {k: v for k, v in answer.items() if k != "etag"}
        if update.get("explained") != FOLLOWS:
            return self.web.publish(GAME, update)
        self.web.publish(GAME, lambda: self.whole(update), update)

    async def changed(self, fn, *args):
        answer, made = await self.web.run(fn, *args)
        if made:
            self.publish(answer)
        return with_etag(answer)

    async def get_state(self, request: Request):
        self.web.table(request)
        return JSONResponse(await self.web.run(self.shown_now))

    async def get_player(self, request: Request):
        self.web.table(request)
        name = player_name(request.path_params["name"])

        return with_etag(await self.web.run(lambda: tagged_entry(self.state(), name)))

    async def get_score(self, request: Request):
        from companion.score.covenia import as_json

        self.web.table(request)
        answer = await self.web.run(lambda: result(self.state(), self.at_table()))
        return JSONResponse(as_json(answer))

    async def put_player(self, request: Request):
        self.web.table(request)
        name = player_name(request.path_params["name"])
        key = idempotency_key(request, "save", required=False)
        body = await self.web.body(request)
        return await self.changed(self.put, name, body, precondition(request), key,
                                  phone_of(request))

    async def delete_player(self, request: Request):
        self.web.table(request)
        name = player_name(request.path_params["name"])
        key = idempotency_key(request, "delete", required=False)
        return await self.changed(self.delete, name, precondition(request), key)

    async def put_decks(self, request: Request):
        self.web.table(request)
        answer = await self.web.run(self.set_decks, await self.web.body(request))
        self.publish(answer)
        return JSONResponse(answer)

    async def post_close(self, request: Request):
        self.web.table(request)
        key = idempotency_key(request, "close", required=False)
        await self.web.body(request)
        entry, now, made = await self.web.run(self.close, key)
        if made:
            self.web.publish(GAME, now)
            self.web.publish("history", {"closed": entry})
        return JSONResponse(entry)

    def words_for(self, reason, row: str, lang: str) -> str:
        """A row's reason in words. Called from the store's worker (an update's figures)
        and the route's thread: one lookup, so that a clear() in the other thread cannot
        lose what it returns."""
        from companion.score import covenia as sc

        key = (row, lang, reason.key, json.dumps(reason.numbers, sort_keys=True, default=str))
        text = self.said.get(key)
        if text is None:
            if len(self.said) > 4096:
                self.said.clear()
            text = self.said[key] = sc.explain(reason, row, _words(), lang)
        return text

    def explain(self, now: dict, lang: str, table: int) -> bytes:
        from companion.score import covenia as sc

        res = result(now, table)
        return json.dumps({
            "players": [{"name": p.name, "total": p.total, "rank": p.rank,
                         "rows": {row: {"points": p.points[row],
                                        "text": self.words_for(p.reasons[row][0], row, lang)}
                                  for row in sc.ROWS}} for p in res.players],
            "verdict": sc.verdict(res, _words(), lang)}).encode()

    async def explained(self, request: Request):
        """Every figure in the CLI's words, in the phone's language, and the verdict."""
        self.web.table(request)
        lang = request.query_params.get("lang", "en")
        if lang not in ("en", "fr"):
            raise WebError(400, "lang", f"unknown language {shown(lang, 10)} (use en, fr)")
        now, table = self.store.games.get(GAME), self.at_table()
        seen = self.answers.get(lang)
        if seen is None or seen[0] is not now or seen[2] != table:
            seen = (now, asyncio.ensure_future(
                asyncio.to_thread(self.explain, now or {**EMPTY, "players": []}, lang, table)),
                table)
            seen[1].add_done_callback(lambda f: f.cancelled() or f.exception())
            self.answers[lang] = seen
        body = await asyncio.shield(seen[1])
        return Response(body, media_type="application/json")

    async def scorebook(self, request: Request):
        from companion.score import covenia as sc

        self.web.table(request)
        lang = request.query_params.get("lang", "en")
        paper = request.query_params.get("paper", "a4")
        if lang not in ("en", "fr"):
            raise WebError(400, "lang", f"unknown language {shown(lang, 10)} (use en, fr)")
        if paper not in ("a4", "letter"):
            raise WebError(400, "paper", f"unknown paper {shown(paper, 10)} (use a4, letter)")
        res = await self.web.run(lambda: result(self.state(), self.at_table()))

        def draw() -> bytes:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "scorebook.pdf"
                sc.write_pdf(path, res, sc.words(layouts=True), lang, paper)
                return path.read_bytes()

        pdf = await asyncio.to_thread(draw)
        return Response(pdf, media_type="application/pdf", headers={
            "Content-Disposition": f'attachment; filename="covenia-score-{lang}.pdf"'})


def routes(web: Web) -> list:
    table = Table(web)
    base = "/t/{token}/api/covenia"
    return [
        Route(base, table.get_state),
        Route(f"{base}/score", table.get_score),
        Route(f"{base}/explained", table.explained),
        Route(f"{base}/scorebook.pdf", table.scorebook),
        Route(f"{base}/players/{{name:path}}", table.get_player, methods=["GET"]),
        Route(f"{base}/players/{{name:path}}", table.put_player, methods=["PUT"]),
        Route(f"{base}/players/{{name:path}}", table.delete_player, methods=["DELETE"]),
        Route(f"{base}/decks", table.put_decks, methods=["PUT"]),
        Route(f"{base}/close", table.post_close, methods=["POST"]),
    ]
