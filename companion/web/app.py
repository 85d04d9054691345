"""The table's HTTP side: the phone page, the JSON API and the live event stream.

Every page and API call carries the table's token in its path (the token is the
capability; compared in constant time). Every request names a host this table is served
on (no DNS rebinding), and a change (POST, PUT, DELETE) comes from no page or from the
table's own: a foreign page's Origin is refused, as is any body not sent as
application/json (a foreign page can send text/plain without asking first). Each game's
scoring routes are in companion/web/games/. Store calls run one at a time on one worker
thread, so SQLite's fsync never stalls the event streams and draws never interleave."""

import asyncio
import hmac
import ipaddress
import json
import re
import sqlite3
from contextlib import asynccontextmanager
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache, partial
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from companion.errors import shown
from companion.web.assets import Asset, Assets
from companion.web.errors import WebError, unwritable
from companion.web.games import Web, routes as game_routes
from companion.web.look import GAMES, Look
from companion.web.store import Store
from companion.rules import lugvanion as vote
from companion.rules.errors import ScoreError

PAGE = Path(__file__).parent / "page"
MAX_BODY = 4096
MAX_STREAMS = 100
MAX_KEY = 100
QUEUE = 256  # bursts a slow phone may fall behind before its stream is closed (it resyncs)
WINDOW = 0.05  # seconds: in a burst of changes, a phone gets one write per window (50
# phones' writes are what an edit waits behind; a change reaches a phone at most this late)
HEADERS = {"Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "Cache-Control": "no-store"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Hub:
    """The live streams. Every change is encoded once; the changes of a burst go out
    together: the first at once, then at most one write per WINDOW, the same bytes to
    every phone (50 phones: one encoding, one wake-up of each stream per window, not per
    change). Every change still reaches every phone, in order. A change published with a
    `brief` (its data without what a later change of the same event replaces: a Covenia
    update's figures) goes out brief when such a change follows it in the same write, and
    whole only as the last of its event in the write: its data may then be a function,
    called only then (what only the last needs is worked out once a write, not once a
    change). It is encoded when the write is made, once (its dicts are new, never
    changed after)."""

    def __init__(self, limit: int = MAX_STREAMS, window: float = WINDOW):
        self.limit, self.window, self.queues, self.sequence = limit, window, set(), 0
        # Not yet handed to the streams: (sequence, event, message encoded, or the data
        # (or the function giving it) and the brief of a change with a brief)
        self.waiting: list[tuple[int, str, bytes | tuple]] = []
        self.flushing: asyncio.TimerHandle | asyncio.Handle | None = None
        self.last = float("-inf")  # when the streams were last handed a burst

    def join(self) -> asyncio.Queue:
        if len(self.queues) >= self.limit:
            raise WebError(503, "events", f"{self.limit} live streams already open")
        q: asyncio.Queue = asyncio.Queue(QUEUE)
        q.since = self.sequence  # a phone gets the changes made after it joined
        self.queues.add(q)
        return q

    def leave(self, q: asyncio.Queue) -> None:
        self.queues.discard(q)

    def listening(self) -> bool:
        """Whether any phone is on the live stream now."""
        return bool(self.queues)

    def publish(self, event: str, data: dict | Callable[[], dict],
                brief: dict | None = None) -> None:
        self.sequence += 1
        self.waiting.append((self.sequence, event, _encoded(self.sequence, event, data)
                             if brief is None else (data, brief)))
        if self.flushing is None:
            loop = asyncio.get_running_loop()
            wait = self.last + self.window - loop.time()
            # Right after this turn of the loop (the changes made in it go together), or
            # when the window since the last write ends.
            self.flushing = (loop.call_later(wait, self.flush) if wait > 0
                             else loop.call_soon(self.flush))

    def flush(self) -> None:
        self.flushing = None
        if not self.waiting:
            return
        pending, self.waiting = self.waiting, []
        last = {event: i for i, (_, event, _) in enumerate(pending)}
        waiting = []
        for i, (n, event, m) in enumerate(pending):
            if not isinstance(m, bytes):
                data, brief = m
                m = _encoded(n, event, brief if last[event] != i else
                             data() if callable(data) else data)
            waiting.append((n, m))
        chunk = b"".join(m for _, m in waiting)
        self.last = asyncio.get_running_loop().time()
        for q in list(self.queues):
            mine = chunk if q.since < waiting[0][0] else b"".join(
                m for n, m in waiting if n > q.since)
            if not mine:
                continue
            try:
                q.put_nowait(mine)
            except asyncio.QueueFull:  # too far behind: end its stream, it will resync
                self.leave(q)
                while not q.empty():
                    q.get_nowait()
                q.put_nowait(None)


def _encoded(n: int, event: str, data: dict) -> bytes:
    return ServerSentEvent(data=json.dumps(data), event=event, id=str(n)).encode()


def _check_draw(body, guilds: list[str],
                colours: list[str]) -> tuple[str, dict[str, int], str | None]:
    """The guild, the bag and the commitment (the sealed seed the phone showed; optional
    for scripts) of a draw request, the colours without partisans left out."""
    if not isinstance(body, dict):
        raise WebError(400, "body", "must be a JSON object with guild and bag")
    for key in body:
        if key not in ("guild", "bag", "commitment"):
            raise WebError(400, "body", f"unknown field {shown(key, 40)} (send guild, bag "
                                        "and commitment)")
    commitment = body.get("commitment")
    if commitment is not None and not (isinstance(commitment, str)
                                       and re.fullmatch(r"[0-9a-f]{64}", commitment)):
        raise WebError(400, "commitment", "must be the 64 hex digits of the sealed seed shown")
    guild = body.get("guild")
    if not isinstance(guild, str):
        raise WebError(400, "guild", "missing or not a string")
    if guild not in guilds:
        raise WebError(400, "guild", f"unknown guild {shown(guild, 40)} (use {', '.join(guilds)})")
    bag = body.get("bag")
    if not isinstance(bag, dict):
        raise WebError(400, "bag", "missing or not an object of colour: count")
    for colour, n in bag.items():
        if colour not in colours:
            raise WebError(400, "bag", f"unknown colour {shown(colour, 40)} (this table plays "
                                       f"{', '.join(colours)})")
        if isinstance(n, bool) or not isinstance(n, int):
            raise WebError(400, f"bag.{colour}", "must be a whole number")
        if not 0 <= n <= vote.VOTE_SIZE:
            raise WebError(400, f"bag.{colour}", f"must be 0 to {vote.VOTE_SIZE}, not {n}")
    total = sum(bag.values())
    if total != vote.VOTE_SIZE:
        raise WebError(400, "bag", f"a vote holds exactly {vote.VOTE_SIZE} partisans, "
                                   f"not {total}")
    # The bag as it stands on the guild: the colours with partisans, in table order. A
    # colour with none is left out, so that the check line a phone shows is what a player
    # types from the guild, and verifies as typed.
    return guild, {c: bag[c] for c in colours if bag.get(c)}, commitment


@lru_cache(maxsize=512)
def _odds(items: tuple[tuple[str, int], ...], tie_rule: str) -> dict:
    result = vote.odds(dict(items), tie_rule)
    return {"bag": result.bag, "tie_rule": tie_rule,
            "exact": {c: str(p) for c, p in result.exact.items()}, "odds": result.floats()}


def _is_json(content_type: str) -> bool:
    """application/json, with no parameter but charset=utf-8: the exact media type, not
    a substring ("text/plain; charset=application/json" needs no preflight)."""
    kind, *params = content_type.split(";")
    if kind.strip().lower() != "application/json":
        return False
    for param in filter(str.strip, params):
        name, _, value = param.partition("=")
        if (name.strip().lower(), value.strip().strip('"').lower()) != ("charset", "utf-8"):
            return False
    return True


async def _json_body(request: Request):
    if not _is_json(request.headers.get("content-type", "")):
        raise WebError(400, "Content-Type", "send application/json")
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BODY:
        raise WebError(400, "body", f"over {MAX_BODY} bytes")
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise WebError(400, "body", f"over {MAX_BODY} bytes")
    except ClientDisconnect:  # gone (or cut off for being too slow): nobody to answer
        raise WebError(400, "body", "the connection closed before the body ended") from None
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except RecursionError:
        raise WebError(400, "body", "nested too deeply") from None
    except ValueError:
        raise WebError(400, "body", "not valid JSON") from None


def _count(colour: str, n: str) -> int:
    """A count from the query string: ASCII digits only ("²" passes str.isdigit), 0-8."""
    if not (n.isascii() and n.isdigit() and len(n) <= 2 and int(n) <= vote.VOTE_SIZE):
        raise WebError(400, f"bag.{colour}", f"must be a whole number from 0 to "
                                             f"{vote.VOTE_SIZE}, not {shown(n, 20)}")
    return int(n)


class PhoneTable:
    """The table's own routes, each a named method: the page and its files, the state,
    Lugvanion's odds, draws and undos, and the live stream. Store calls run one at a time
    on `worker`."""

    def __init__(self, store: Store, look: Look):
        self.store, self.look = store, look
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="table-store")
        self.hub = Hub()
        self.colours = [p["colour"] for p in store.players]
        self.assets = Assets(PAGE / "static")
        self.html = self.built_page()

    def built_page(self) -> Asset:
        """The page never changes while the table runs: built once, its files named by
        their content's hash. "<" escaped so that no player name can close the script
        element it sits in."""
        setup = json.dumps({**self.look.for_page(), "players": self.store.players})
        text = self.assets.linked((PAGE / "index.html").read_text(encoding="utf-8"))
        return Asset.of(text.replace("{{setup}}", setup.replace("<", "\\u003c")).encode(),
                        "text/html; charset=utf-8")

    async def run(self, fn, *args):
        try:
            return await asyncio.get_running_loop().run_in_executor(self.worker,
                                                                    partial(fn, *args))
        except sqlite3.Error as e:  # a full disk, a file gone read-only: nothing was kept
            raise unwritable(e) from None

    def with_summary(self, change, *args):
        """A change and the table it leaves, in one worker job: no other draw can come
        between them, so each event carries its own draw's next commitment."""
        return (*change(*args), self.store.summary())

    def check_token(self, request: Request) -> None:
        if not hmac.compare_digest(request.path_params["token"].encode(),
                                   self.store.token.encode()):
            raise WebError(404, "token", "no table here: scan the table's QR code again")

    def for_games(self) -> Web:
        """What each game's routes use of the table."""
        return Web(self.store, self.run, self.hub.publish, self.check_token, _json_body,
                   self.look.own, {g: self.look.texts[f"g_{g}"] for g in GAMES},
                   self.hub.listening)

    async def page(self, request: Request):
        self.check_token(request)
        response = self.html.response(request, "no-store")
        response.headers["Content-Security-Policy"] = CSP
        return response

    async def static(self, request: Request):
        return self.assets.serve(request, request.path_params["name"])

    async def favicon(self, request: Request):  # asked for by browsers whatever the page says
        return self.assets.serve(request, "icon.svg")

    async def state(self, request: Request):
        self.check_token(request)
        return JSONResponse(await self.run(self.store.state))

    async def odds(self, request: Request):
        self.check_token(request)
        bag = _bag_asked(request, self.colours)
        try:
            return JSONResponse(_odds(tuple(sorted(bag.items())), self.store.tie_rule))
        except ScoreError as e:
            raise WebError(400, e.field, e.message) from None

    async def draw(self, request: Request):
        self.check_token(request)
        key = _draw_key(request)
        guild, bag, commitment = _check_draw(await _json_body(request), self.store.guilds,
                                             self.colours)
        answer, made, summary = await self.run(self.with_summary, self.store.draw, guild,
                                               bag, key, commitment)
        if made:
            self.hub.publish("draw", {"draw": answer, **summary})
        return JSONResponse(answer)

    async def undo(self, request: Request):
        self.check_token(request)
        draw_id = _undo_asked(await _json_body(request))
        undone, made, summary = await self.run(self.with_summary, self.store.undo, draw_id)
        if made:
            self.hub.publish("undo", {"undone": undone["id"], **summary})
        return JSONResponse({"undone": undone["id"], **summary})

    async def events(self, request: Request):
        self.check_token(request)
        q = self.hub.join()
        return EventSourceResponse(self.stream(q), ping=15,
                                   headers={"X-Accel-Buffering": "no"})

    async def stream(self, q: asyncio.Queue):
        """A phone's live stream: the table's summary, then every change, until the hub
        ends it (the phone fell too far behind) or the phone goes."""
        try:
            yield {"event": "hello", "data": json.dumps(await self.run(self.store.summary))}
            while (message := await q.get()) is not None:
                batch, ended = _waiting_after(message, q)
                yield b"".join(batch)
                if ended:
                    break
        finally:
            self.hub.leave(q)

    def routes(self) -> list:
        return [
            Route("/t/{token}", self.page),
            Route("/t/{token}/", self.page),
            Route("/t/{token}/api/state", self.state),
            Route("/t/{token}/api/odds", self.odds),
            Route("/t/{token}/api/draw", self.draw, methods=["POST"]),
            Route("/t/{token}/api/undo", self.undo, methods=["POST"]),
            Route("/t/{token}/api/events", self.events),
            *game_routes(self.for_games()),
            Route("/static/{name}", self.static),
            Route("/favicon.ico", self.favicon),
        ]


def _waiting_after(message: bytes, q: asyncio.Queue) -> tuple[list[bytes], bool]:
    """The message and what else is waiting, for one write: in a burst of changes a phone
    costs one send, not one per change; and whether the hub ended the stream."""
    batch, ended = [message], False
    while not q.empty() and not ended:
        more = q.get_nowait()
        ended = more is None
        if not ended:
            batch.append(more)
    return batch, ended


def _bag_asked(request: Request, colours: list[str]) -> dict[str, int]:
    """The bag of an odds request's query string (colour=count)."""
    bag = {}
    for colour, n in request.query_params.multi_items():
        if colour not in colours:
            raise WebError(400, "bag", f"unknown colour {shown(colour, 40)}")
        bag[colour] = _count(colour, n)
    return bag


def _draw_key(request: Request) -> str:
    """A draw's Idempotency-Key: required, one per draw."""
    key = request.headers.get("idempotency-key", "")
    if not key or len(key) > MAX_KEY or not key.isprintable():
        raise WebError(400, "Idempotency-Key", f"send a header of 1 to {MAX_KEY} "
                                               "printable characters, new for each draw")
    return key


def _undo_asked(body) -> int | None:
    """The draw an undo names ({"id": N}); None: the last one."""
    if not isinstance(body, dict) or set(body) - {"id"}:
        raise WebError(400, "body", "send {} or {\"id\": N}")
    draw_id = body.get("id")
    if draw_id is not None and (isinstance(draw_id, bool) or not isinstance(draw_id, int)):
        raise WebError(400, "id", "must be a whole number")
    return draw_id


async def _web_error(request: Request, e: WebError):
    return JSONResponse(e.body(), e.status)


async def _http_error(request: Request, e: HTTPException):
    return JSONResponse({"error": e.detail}, e.status_code)


def _middleware(allowed_hosts: list[str], port: int | None) -> list[Middleware]:
    return [Middleware(_Headers), Middleware(_Served, hosts=allowed_hosts, port=port)]


def create_app(store: Store, look: Look, allowed_hosts: list[str],
               port: int | None = None) -> Starlette:
    """The app for `store`, answering to `allowed_hosts` (names or IP addresses); POSTs
    with an Origin must come from one of them on `port` (None: any port)."""
    table = PhoneTable(store, look)
    app = Starlette(routes=table.routes(), middleware=_middleware(allowed_hosts, port),
                    exception_handlers={WebError: _web_error, HTTPException: _http_error},
                    lifespan=partial(_lifespan, worker=table.worker))
    app.state.hub = table.hub
    return app


@asynccontextmanager
async def _lifespan(app, worker):
    yield
    worker.shutdown(wait=True)


def _host(name: str) -> str:
    """One spelling of a host: lowercase, IPv6 compressed."""
    name = name.lower().removesuffix(".")
    try:
        return ipaddress.ip_address(name).compressed
    except ValueError:
        return name


@lru_cache(maxsize=64)  # asked on every request, with the same few Host headers
def _authority(url: str) -> tuple[str, int | None] | None:
    """(host, port) of "//host:port" or "scheme://host:port" ([v6] too); None if that is
    not all there is to it."""
    try:
        parts = urlsplit(url)
        if parts.path or parts.query or parts.fragment or parts.username is not None:
            return None
        return (_host(parts.hostname), parts.port) if parts.hostname else None
    except ValueError:
        return None


class _Served:
    """Answers only to the hosts this table is served on (a Host header "[::1]:8000" is
    an IPv6 host, not "["), and takes a change (POST, PUT, DELETE) only from no page or
    the table's own."""

    def __init__(self, app, hosts: list[str], port: int | None):
        self.app, self.hosts, self.port = app, {_host(h) for h in hosts}, port

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            problem = self.problem(scope)
            if problem:
                status, field, message = problem
                response = JSONResponse({"error": f"{field}: {message}"}, status)
                return await response(scope, receive, send)
        await self.app(scope, receive, send)

    def problem(self, scope) -> tuple[int, str, str] | None:
        headers = Headers(scope=scope)
        host = _authority("//" + headers.get("host", ""))
        if host is None or host[0] not in self.hosts:
            return 400, "Host", "not a name this table is served on"
        origin = headers.get("origin")
        if scope["method"] not in ("GET", "HEAD") and origin is not None:
            ours = origin.lower().startswith("http://") and _authority(origin)
            if not ours or ours[0] not in self.hosts or (
                    self.port is not None and (ours[1] or 80) != self.port):
                return 403, "Origin", "this table takes changes from its own page only"
        return None


class _Headers:
    """Adds the privacy and safety headers to every response (streams included)."""

    ADDED = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                message["headers"] = headers + [h for h in self.ADDED if h[0] not in have]
            await send(message)

        await self.app(scope, receive, send_with_headers)
