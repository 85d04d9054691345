"""What one hostile or broken client may cost the table: little.

uvicorn closes a connection left idle after an answer (timeout_keep_alive), but nothing
bounds how long a client takes to send its request: a socket sending a byte a second
stays open for ever. A few hundred of them use up the process's file descriptors (256 by
default on macOS); then every phone times out, and asyncio logs a traceback for each
accept it cannot make, thousands a second. So uvicorn's HTTP protocol (h11) is wrapped
here, with no change to the application:

- a request must arrive whole (head and body) within REQUEST_TIMEOUT of the connection
  opening or of the previous answer; an answer in progress (an event stream) is never
  timed out;
- at most `limit` connections are open, well under the descriptors there are: one more
  closes the connection that has waited longest for its request (one that never had an
  answer before a phone's kept-alive one), or itself if every other is busy answering, so
  a crowd of slow sockets cannot lock the phones out;
- the server's log says a repeated thing once a minute, and never with a traceback for
  a connection it could not take.

uvicorn has no setting for the first two (its issue 157 asks for a request timeout), and
its protocol classes' insides change between releases. So the guard wraps the protocol
instead of subclassing it: uvicorn builds the class given to Config(http=...), which
builds uvicorn's own protocol (the one Config(http="h11") names) and passes every
asyncio call through to it. The guard sees only the bytes each way, and reads them with
h11's public parser: the requests as a server would, the answers as a client would."""

import asyncio
import logging
import time

import h11
import uvicorn

REQUEST_TIMEOUT = 10.0  # a phone on poor Wi-Fi sends its request in well under a second
RESERVE = 32  # descriptors kept for the table's files, the event loop and the log
# asyncio accepts up to BACKLOG connections at a time, and a connection reaches the
# protocol (which may close it) two turns of the event loop later, its descriptor freed a
# turn after that: 4 x BACKLOG must fit in the descriptors too. The system's own queue of
# connections not yet accepted (which costs no descriptor) is longer, so that in a crowd
# a phone's connection waits there instead of being dropped (and retried a second later).
BACKLOG = 16
LISTEN_QUEUE = 128
# The watching parsers never refuse what uvicorn's would take (it refuses a head over
# its h11_max_incomplete_event_size, 16 KiB by default, and closes the connection).
WATCH_HEAD = 1 << 20
LOG = logging.getLogger("uvicorn.error")


class Watched:
    """The transport as the wrapped protocol sees it: what it writes is also shown to
    `seen` (the answers); everything else is the real transport's."""

    def __init__(self, transport: asyncio.Transport, seen):
        self._transport, self._seen = transport, seen

    def write(self, data) -> None:
        self._transport.write(data)
        self._seen(data)

    def writelines(self, chunks) -> None:
        for data in chunks:
            self.write(data)

    def __getattr__(self, name):
        return getattr(self._transport, name)


class Guarded(asyncio.Protocol):
    """uvicorn's HTTP protocol (`inner`), wrapped. Made for one server by protocol()."""

    inner: type[asyncio.Protocol]
    limit = 1000
    timeout = REQUEST_TIMEOUT
    live: set  # this server's open connections
    dropped = 0  # connections closed for being slow or too many, in this process

    def __init__(self, *args, **kwargs):
        self.wrapped = self.inner(*args, **kwargs)
        self.transport: asyncio.Transport | None = None
        self.requests = h11.Connection(h11.SERVER, max_incomplete_event_size=WATCH_HEAD)
        self.answers: h11.Connection | None = None  # the answer to the request read
        self.answer_done = False
        self.answered = 0  # requests answered on this connection
        self.since = 0.0
        self.deadline: asyncio.TimerHandle | None = None

    # ---- asyncio's calls, passed through ------------------------------------------

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.live.add(self)
        self.wrapped.connection_made(Watched(transport, self._wrote))
        self._await_request()
        if len(self.live) > self.limit:
            waiting = [c for c in self.live if c._receiving()]
            # A connection that has had an answer is a phone between two requests: the
            # slow sockets that never finished one go first, the longest-waiting first.
            min(waiting, key=lambda c: (c.answered > 0, c.since), default=self)._drop()

    def data_received(self, data: bytes) -> None:
        self.wrapped.data_received(data)
        if self.requests is not None:
            self.requests.receive_data(data)
            self._read_requests()
        if not self._receiving():
            self._cancel()

    def eof_received(self):
        return self.wrapped.eof_received()

    def pause_writing(self) -> None:
        self.wrapped.pause_writing()

    def resume_writing(self) -> None:
        self.wrapped.resume_writing()

    def connection_lost(self, exc) -> None:
        self._cancel()
        self.live.discard(self)
        self.wrapped.connection_lost(exc)

    # ---- what the bytes say -------------------------------------------------------

    def _read_requests(self) -> None:
        """Follow the client's bytes; a request's head starts watching its answer."""
        try:
            while True:
                event = self.requests.next_event()
                if isinstance(event, h11.Request):
                    self._watch_answer(event.method)
                elif event in (h11.NEED_DATA, h11.PAUSED) or isinstance(
                        event, (h11.EndOfMessage, h11.ConnectionClosed)):
                    break
        except h11.RemoteProtocolError:
            # uvicorn answers 400 and closes; till then the deadline still runs.
            self.requests = None
            return
        self._next_cycle()

    def _watch_answer(self, method: bytes) -> None:
        """A client's parser for the answer, told of a request like the real one (a HEAD
        request's answer has no body, whatever its length says)."""
        self.answers = h11.Connection(h11.CLIENT, max_incomplete_event_size=WATCH_HEAD)
        self.answers.send(h11.Request(method=b"HEAD" if method == b"HEAD" else b"GET",
                                      target=b"/", headers=[(b"host", b"guard")]))
        self.answers.send(h11.EndOfMessage())
        self.answer_done = False

    def _wrote(self, data) -> None:
        if self.answers is None or self.answer_done or not data:
            # uvicorn's own 400 before closing, say: no request to answer. An empty
            # write (a HEAD answer's body) must not reach h11, which reads b"" as closed.
            return
        try:
            self.answers.receive_data(bytes(data))
            while True:
                event = self.answers.next_event()
                if isinstance(event, h11.EndOfMessage):
                    self.answer_done = True
                    break
                if event in (h11.NEED_DATA, h11.PAUSED):
                    return
        except h11.ProtocolError:
            self.answers = None  # not HTTP we can follow: left to uvicorn's own timeouts
            return
        self.answered += 1
        if not self.transport.is_closing():
            self._await_request()
        self._next_cycle()

    def _next_cycle(self) -> None:
        """The request read whole and answered: watch for the next one, with what the
        client has sent already (a pipelined request)."""
        if not (self.answer_done and self.requests is not None
                and self.requests.their_state is h11.DONE):
            return
        left, closed = self.requests.trailing_data
        self.requests = h11.Connection(h11.SERVER, max_incomplete_event_size=WATCH_HEAD)
        self.answers, self.answer_done = None, False
        if left:
            self.requests.receive_data(left)
        if closed:
            self.requests.receive_data(b"")  # h11's way of saying the client closed
        self._read_requests()

    def _receiving(self) -> bool:
        """Still waiting for this request's head or body (not answering it)."""
        state = self.requests.their_state if self.requests is not None else h11.IDLE
        return state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing()

    # ---- the deadline -------------------------------------------------------------

    def _await_request(self) -> None:
        self._cancel()
        self.since = time.monotonic()
        self.deadline = asyncio.get_running_loop().call_later(self.timeout, self._expire)

    def _expire(self) -> None:
        self.deadline = None
        if self._receiving():
            self._drop()

    def _cancel(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _drop(self) -> None:
        Guarded.dropped += 1
        LOG.warning("Closing connections that are too slow or too many (%d so far); a "
                    "phone on poor Wi-Fi simply reconnects.", Guarded.dropped)
        self._cancel()
        self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server, its sockets given the longer system queue once it listens
    (asyncio listens with its accept batch, BACKLOG; listening again only lengthens the
    queue)."""

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        for sock in sockets or []:
            sock.listen(LISTEN_QUEUE)


def protocol(limit: int, timeout: float = REQUEST_TIMEOUT, http: str = "h11") -> type[Guarded]:
    """The HTTP protocol class for uvicorn.Config(http=...): uvicorn's own `http`
    protocol, guarded."""
    return type("Guarded", (Guarded,), {"inner": http_protocol(http), "limit": limit,
                                        "timeout": timeout, "live": set()})


def http_protocol(name: str) -> type[asyncio.Protocol]:
    """The protocol class uvicorn runs for Config(http=name), as its Config finds it."""
    config = uvicorn.Config(_no_app, http=name, ws="none", lifespan="off", log_config=None,
                            proxy_headers=False)
    config.load()
    return config.http_protocol_class


async def _no_app(scope, receive, send) -> None:
    """Only there for a Config to load: never called."""


def connection_limit(most: int = 1000) -> int:
    """How many connections this process can hold open, after raising its soft limit of
    file descriptors as far as the hard limit allows."""
    try:
        import resource
    except ImportError:  # Windows: the selector's own limit is 512 sockets
        return 500
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = most + RESERVE + 4 * BACKLOG
    if soft != resource.RLIM_INFINITY and soft < want:
        raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return most
    return max(4, min(most, soft - RESERVE - 4 * BACKLOG))


class OncePerMinute(logging.Filter):
    """The same message at most once a minute; an accept refused for want of
    descriptors without its traceback (asyncio logs one per attempt)."""

    def __init__(self, every: float = 60.0):
        super().__init__()
        self.every, self.last = every, {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:200])
        now = time.monotonic()
        if now - self.last.get(key, -self.every) < self.every:
            return False
        self.last[key] = now
        if "out of system resource" in str(record.msg):
            record.exc_info, record.exc_text = None, None
        return True


def quiet_logs() -> None:
    """Filter the loggers a client can make talk: uvicorn's and asyncio's."""
    for name in ("uvicorn.error", "asyncio"):
        logging.getLogger(name).addFilter(OncePerMinute())
