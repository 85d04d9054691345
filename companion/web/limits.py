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
  a connection it could not take."""

import logging
import time

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 10.0  # a phone on poor Wi-Fi sends its request in well under a second
RESERVE = 32  # descriptors kept for the table's files, the event loop and the log
# asyncio accepts up to BACKLOG connections at a time, and a connection reaches the
# protocol (which may close it) two turns of the event loop later, its descriptor freed a
# turn after that: 4 x BACKLOG must fit in the descriptors too. The system's own queue of
# connections not yet accepted (which costs no descriptor) is longer, so that in a crowd
# a phone's connection waits there instead of being dropped (and retried a second later).
BACKLOG = 16
LISTEN_QUEUE = 128
LOG = logging.getLogger("uvicorn.error")


class GuardedH11(H11Protocol):
    limit = 1000
    timeout = REQUEST_TIMEOUT
    dropped = 0  # connections closed for being slow or too many, in this process

    _deadline: object = None
    _since = 0.0
    _answered = 0  # requests answered on this connection

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._await_request()
        if len(self.connections) > self.limit:
            waiting = [c for c in self.connections
                       if isinstance(c, GuardedH11) and c._receiving()]
            # A connection that has had an answer is a phone between two requests: the
            # slow sockets that never finished one go first, the longest-waiting first.
            min(waiting, key=lambda c: (c._answered > 0, c._since), default=self)._drop()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self._receiving():
            self._cancel()

    def on_response_complete(self) -> None:
        self._answered += 1
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_request()

    def connection_lost(self, exc) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _receiving(self) -> bool:
        """Still waiting for this request's head or body (not answering it)."""
        return (self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
                and not self.transport.is_closing())

    def _await_request(self) -> None:
        self._cancel()
        self._since = time.monotonic()
        self._deadline = self.loop.call_later(self.timeout, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        if self._receiving():
            self._drop()

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _drop(self) -> None:
        GuardedH11.dropped += 1
        LOG.warning("Closing connections that are too slow or too many (%d so far); a "
                    "phone on poor Wi-Fi simply reconnects.", GuardedH11.dropped)
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


def protocol(limit: int, timeout: float = REQUEST_TIMEOUT) -> type[GuardedH11]:
    """The HTTP protocol class for uvicorn.Config(http=...)."""
    return type("GuardedH11", (GuardedH11,), {"limit": limit, "timeout": timeout})


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
