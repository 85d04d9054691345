"""Coverta's continuous play from the table's phones: one round at a time (every
player's hand count and the first steal, RULINGS V6), scored by companion.rules.coverta as
`companion score coverta` scores the same ledger.

The open game's state is the ledger's content, {"players": [...], "rounds": [...]}, and
"keys": the Idempotency-Key each round was entered with (None for a round kept before
keys were), so an undo knows which request it takes back. The first round names the
players (in its order); a game whose every round is undone has none yet. Every name in a
round (the hands' keys, first_steal) goes through `player_name`, as everywhere a name is
taken: "Chloé" typed precomposed or decomposed is one player.

A round sent by a phone carries its number (`"round": N`, the round it adds): a number
that is not the next one (another phone added that round first) is a 409 carrying the
round already there, so two phones adding one round record it once. A script may leave
the number out.

Undo (`DELETE rounds/last?round=N`) takes back the last round only: a round that is not
there (never entered, or already undone by an earlier copy of the same tap) is a 409
saying so, and nothing more is taken."""

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from companion.errors import shown
from companion.web.errors import WebError, coded
from companion.web.games import Web, idempotency_key, player_name, scored
from companion.rules import coverta as rules

GAME = "coverta"
MAX_ROUNDS = 500


def ledger(state: dict) -> dict:
    """The ledger's content of a state (what the CLI reads): its players and rounds."""
    return {"players": state["players"], "rounds": state["rounds"]}


def keys_of(state: dict) -> list:
    """Each round's Idempotency-Key, None for a round kept before keys were."""
    keys = list(state.get("keys") or [])[-len(state["rounds"]):] if state["rounds"] else []
    return [None] * (len(state["rounds"]) - len(keys)) + keys


def as_json(state: dict) -> dict:
    from companion.score.coverta import as_json as cli_json

    return cli_json(rules.standings(ledger(state)))


def named(entry: dict) -> dict:
    """A round's names as `player_name` makes them (NFC, trimmed): the same player however
    her name was typed; two keys that are one name once normalised are refused."""
    out = dict(entry)
    hands = entry.get("hands")
    if isinstance(hands, dict):
        out["hands"] = {}
        for raw, n in hands.items():
            name = player_name(raw, "hands")
            if name in out["hands"]:
                raise WebError(400, "hands", f"{shown(name, 40)} is given twice")
            out["hands"][name] = n
    if isinstance(entry.get("first_steal"), str):
        out["first_steal"] = player_name(entry["first_steal"], "first_steal")
    return out


def view(state: dict | None) -> dict:
    if not state:
        return {"game": GAME, "open": False, "players": [], "rounds": [], "score": None}
    return {"game": GAME, "open": True, "players": state["players"],
            "rounds": state["rounds"], "score": as_json(state)}


def ledger_toml(state: dict) -> str:
    """The ledger file `companion coverta round` would have written for these rounds."""
    import tomlkit

    from companion.score.ledger import Ledger, appended
    from companion.score.toml_out import checked_dump

    if not state["rounds"]:
        doc = tomlkit.document()
        doc["players"] = state["players"]
        return checked_dump(doc, {"players": state["players"]}, "the ledger")
    text, table = "", None
    for r in state["rounds"]:
        text, table = appended(Ledger(text, table, None) if table else None,
                               state["players"], r)
    return text


def replayed(seen: tuple[str, dict], request: str) -> dict:
    """The answer to a round sent again with its key (a resend after a lost answer)."""
    if seen[0] != request:
        raise WebError(409, "Idempotency-Key", "already used for another round")
    # A key whose round was undone since is not answered as if the round stood: an undo
    # is a person's decision at the table, and a late copy of the tap (a flaky Wi-Fi
    # resending, a retry after a lost answer) must not bring the round back on its own,
    # nor claim a round number that is now another's. The phone says so; a round meant
    # after all is entered again, with a new key.
    if seen[1].get("undone"):
        raise WebError(409, "Idempotency-Key", f"round {seen[1]['round']} sent with this "
                                               "key was undone since: enter it again if "
                                               "it counts",
                       coded("round_undone", round=seen[1]["round"]))
    return seen[1]


def sent_round(body) -> tuple[int | None, dict]:
    """The round's number as the phone sent it (None: a script left it out) and its
    entry, its names made one spelling."""
    if not isinstance(body, dict):
        raise WebError(400, "body", 'must be a JSON object: {"hands": {...}, '
                                    '"first_steal": NAME}')
    number = body.get("round")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                               or number < 1):
        raise WebError(400, "round", "must be the number of the round added, 1 or more")
    return number, named({k: v for k, v in body.items()
                          if k != "round" and not (k == "first_steal" and v is None)})


def players_of(now: dict, entry: dict) -> list:
    """The game's players: the first round's hands name them."""
    if now["players"]:
        return now["players"]
    hands = entry.get("hands")
    if not isinstance(hands, dict):
        raise WebError(400, "hands", "missing: give every player's hand count")
    return scored(rules.check_players, list(hands))


def taken(now: dict, number: int) -> WebError:
    """Round `number` is not the next one: the round there (if any) goes with the 409,
    for the phone to show what the table holds."""
    count = len(now["rounds"])
    there = {}
    if number <= count:
        there = {"there": now["rounds"][number - 1],
                 "points": as_json(now)["rounds"][number - 1]}
    return WebError(409, "round", f"round {number} is not the next one: the table has "
                                  f"{count} round{'s' if count != 1 else ''} (another "
                                  "phone added it)",
                    coded("round_taken", round=number, rounds=count),
                    {"rounds": count, **there})


def check_undo(rounds: list, number: int | None) -> None:
    """A 409 unless round `number` (None: whichever) is the last one there."""
    if number is not None and number > len(rounds):
        # Never entered, or undone already (an earlier copy of this tap): nothing to
        # take back, and no 200 that would say round N was just undone.
        last = f"the last round is {len(rounds)}" if rounds else "no round is left"
        raise WebError(409, "round", f"there is no round {number} (never entered, or "
                                     f"already undone): {last}",
                       coded("no_round", round=number, rounds=len(rounds)))
    if not rounds:
        raise WebError(409, "rounds", "there is no round to undo", coded("no_round_left"))
    if number is not None and number != len(rounds):
        raise WebError(409, "round", f"only the last round ({len(rounds)}) can be undone",
                       coded("round_not_last", rounds=len(rounds)))


def round_asked(request: Request) -> int | None:
    """The round an undo names (?round=N); None: none named (a script)."""
    raw = request.query_params.get("round")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and 0 < len(raw) <= 4 and int(raw) > 0):
        raise WebError(400, "round", "must be a round's number, 1 or more")
    return int(raw)


def closed_record(now: dict) -> dict:
    """What the history keeps of the open game: its standings as the CLI gives them."""
    from companion.web.games.history import ours, running

    answer = as_json(now)
    return {
        "players": answer["players"], "scores": answer["totals"],
        "winners": answer["winners"], "result": answer, "version": ours(),
        "figures": {p: {f"round{i}": r[p] for i, r in enumerate(answer["rounds"], 1)}
                    for p in answer["players"]},
        "rounds": running(answer["rounds"])}


class Table:
    """Coverta's routes at one table, each a named method: the store and the streams."""

    def __init__(self, web: Web):
        self.web, self.store = web, web.store

    def add(self, body, key: str) -> tuple[dict, bool, dict | None]:
        request = json.dumps(body, sort_keys=True)
        seen = self.store.answered(f"{GAME}:{key}")
        if seen:
            return replayed(seen, request), False, None
        number, entry = sent_round(body)
        now = self.store.games.get(GAME) or {"players": [], "rounds": []}
        if number is not None and number != len(now["rounds"]) + 1:
            raise taken(now, number)
        players = players_of(now, entry)
        if len(now["rounds"]) >= MAX_ROUNDS:
            raise WebError(409, "rounds", f"a game keeps at most {MAX_ROUNDS} rounds",
                           coded("rounds_full", most=MAX_ROUNDS))
        scored(rules.check_round, players, entry, f"rounds[{len(now['rounds'])}]")
        new = {"players": players, "rounds": [*now["rounds"], entry],
               "keys": [*keys_of(now), key]}
        standing = as_json(new)
        answer = {"round": len(new["rounds"]), "points": standing["rounds"][-1], **standing}
        self.store.save_game(GAME, new, (f"{GAME}:{key}", request, answer))
        return answer, True, view(new)

    def undo(self, number: int | None) -> tuple[dict, bool]:
        now = self.store.games.get(GAME)
        rounds = now["rounds"] if now else []
        check_undo(rounds, number)
        keys = keys_of(now)
        new = {**now, "rounds": rounds[:-1], "keys": keys[:-1]}
        self.store.save_game(GAME, new if new["rounds"] else None,
                             undone=f"{GAME}:{keys[-1]}" if keys[-1] else None)
        return {"undone": len(rounds), **view(new if new["rounds"] else None)}, True

    def close(self, key: str | None) -> tuple[dict, bool]:
        done = self.store.replayed(key and f"{GAME}:{key}", "close", "close")
        if done is not None:
            return done, False
        now = self.opened()
        return self.store.close_game(GAME, closed_record(now),
                                     key and (f"{GAME}:{key}", "close")), True

    def shown_now(self) -> dict:
        return view(self.store.games.get(GAME))

    def opened(self) -> dict:
        now = self.store.games.get(GAME)
        if not now or not now["rounds"]:
            raise WebError(409, "game", "no Coverta game is open (enter a round first)",
                           coded("no_game"))
        return now

    def score(self) -> dict:
        return as_json(self.opened())

    def ledger(self) -> str:
        return ledger_toml(self.opened())

    async def get_state(self, request: Request):
        self.web.table(request)
        return JSONResponse(await self.web.run(self.shown_now))

    async def get_score(self, request: Request):
        self.web.table(request)
        return JSONResponse(await self.web.run(self.score))

    async def get_ledger(self, request: Request):
        self.web.table(request)
        text = await self.web.run(self.ledger)
        return Response(text, media_type="application/toml", headers={
            "Content-Disposition": 'attachment; filename="ledger.toml"'})

    async def post_round(self, request: Request):
        self.web.table(request)
        key = idempotency_key(request, "round")
        answer, made, now = await self.web.run(self.add, await self.web.body(request), key)
        if made:
            self.web.publish(GAME, now)
        return JSONResponse(answer)

    async def delete_last(self, request: Request):
        self.web.table(request)
        answer, made = await self.web.run(self.undo, round_asked(request))
        if made:
            self.web.publish(GAME, {k: v for k, v in answer.items() if k != "undone"})
        return JSONResponse(answer)

    async def post_close(self, request: Request):
        self.web.table(request)
        key = idempotency_key(request, "close", required=False)
        await self.web.body(request)
        entry, made = await self.web.run(self.close, key)
        if made:
            self.web.publish(GAME, view(None))
            self.web.publish("history", {"closed": entry})
        return JSONResponse(entry)


def routes(web: Web) -> list:
    table = Table(web)
    base = "/t/{token}/api/coverta"
    return [
        Route(base, table.get_state),
        Route(f"{base}/score", table.get_score),
        Route(f"{base}/ledger.toml", table.get_ledger),
        Route(f"{base}/rounds", table.post_round, methods=["POST"]),
        Route(f"{base}/rounds/last", table.delete_last, methods=["DELETE"]),
        Route(f"{base}/close", table.post_close, methods=["POST"]),
    ]
