"""A card list from the web: a Google Sheet shared or published ("Anyone with the link"),
or any address of a CSV file, named where a spreadsheet file would be:

    cards = { spreadsheet = "https://docs.google.com/spreadsheets/d/ID/edit#gid=0" }

A Google Sheet's address is read as that tab's CSV export. Only http and https, also
after a redirect; at most spreadsheet.MAX_CSV bytes. What a server sends is untrusted: the
download runs in a worker process (companion.files.bounded) with one deadline, TIMEOUT, for all
of it (resolving the name, connecting, the headers and the body), killed when it passes,
so a server sending a byte a second holds a build no longer than that; a body short of
its Content-Length, or a chunked one cut short, is an error.

The last copy read whole is kept in our cache (paths.cache("sheets")). A build that cannot
get the list (no network, no answer in time, an error status such as an unshared sheet's,
a connection that broke off) uses that copy and says why and how old it is, once: these
pass, and a copy read whole before is worth more than no build. A malformed address, or
an answer that breaks HTTP (its status line, over 100 headers, a line over 64 KB), fails
the same way every time: it is refused, with or without a copy. An address holding a
user name or a password (user:password@) is refused too: urllib would not send them, a
game file is shared with collaborators, and a shared sheet needs none; no message and no
cache record ever holds them. Every failure is one CompanionError line."""

import hashlib
import json
import re
import sys
import time
import urllib.parse
from functools import cache
from pathlib import Path

from companion.files import atomic, bounded, paths
from companion.errors import CompanionError, shown

TIMEOUT = 20  # seconds for a whole download: connect, headers and body
_SHEET = re.compile(r"^/spreadsheets/d/(e/)?([\w-]+)(?:/|$)")
_USERINFO = re.compile(r"(?<=//)[^/?#@\s]*@")  # user:password@ after a scheme's //
_said: set[str] = set()


def is_url(sheet: str) -> bool:
    return sheet.lower().startswith(("http://", "https://"))


def without_password(text: str) -> str:
    """`text` with every address's user:password@ taken out (for messages and records)."""
    return _USERINFO.sub("", text)


def csv_url(url: str) -> str:
    """The address of the CSV a sheet's address stands for: a Google Sheet's tab (its
    gid, 0 for the first) exported as CSV; any other address as it is. A Google Sheet is
    known by its address's path (/spreadsheets/d/ID/...), on whichever host serves it."""
    parts = urllib.parse.urlsplit(url)
    m = _SHEET.match(parts.path)
    if not m:
        return url
    query = urllib.parse.parse_qs(parts.query)
    gid = re.search(r"gid=(\d+)", parts.fragment)
    gid = gid[1] if gid else (query.get("gid") or ["0"])[0]
    if not gid.isdigit():
        gid = "0"
    if m[1]:  # published to the web: /d/e/KEY/pubhtml
        path, query = f"/spreadsheets/d/e/{m[2]}/pub", f"output=csv&gid={gid}"
    else:
        path, query = f"/spreadsheets/d/{m[2]}/export", f"format=csv&gid={gid}"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def address_fault(url: str) -> str | None:
    """What makes `url` no address to download (None: it is one): checked before any
    connection, and on every redirect (http.client would fail on these with a traceback,
    a password in its message)."""
    if not is_url(url) or any(ch.isspace() or ord(ch) < 32 for ch in url):
        return "a sheet's address starts with https:// (or http://) and holds no spaces"
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as e:  # "[127.0.0.1/x": Invalid IPv6 URL
        return f"not an address ({e})"
    if "@" in parts.netloc:
        return ("holds a user name or password (user:password@, not shown): they would not "
                "be sent, and a game file is shared; share the sheet with a link instead")
    try:
        parts.port
    except ValueError:
        return f"its port {shown(parts.netloc.rpartition(':')[2])} is not a number 0 to 65535"
    if not parts.hostname:
        return "names no host"
    return None


# ---- in the worker ---------------------------------------------------------------------

class _Lost(Exception):
    """The list did not come (no network, no answer, an error status, a broken-off body):
    a copy read before may stand in."""


class _Bad(Exception):
    """The address or the answer is malformed: it will fail so every time, refused."""


class _TooBig(Exception):
    pass


@cache
def _only_web():
    """A redirect handler that follows a redirect to a well-formed http or https address
    only (urllib would follow one to ftp, and fail on a bad port or a password with a
    traceback). Made at the first download: urllib.request and http.client (11 ms of
    imports, ssl and email among them) are not imported by a build whose card lists are
    files."""
    import urllib.request

    class _OnlyWeb(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            fault = address_fault(newurl)
            if fault:
                raise _Bad(f"redirected to {without_password(newurl)[:60]}, which {fault}")
            return super().redirect_request(req, fp, code, msg, headers, newurl)
    return _OnlyWeb


def _body(answer, limit: int) -> bytes:
    """The whole body, at most `limit` + 1 bytes; one short of its Content-Length is an
    error (http.client's read(n) returns what came, without a word)."""
    announced = answer.length  # None when chunked or not given
    if announced is not None and announced > limit:
        raise _TooBig(announced)
    data = bytearray()
    while len(data) <= limit:
        part = answer.read(min(1 << 16, limit + 1 - len(data)))
        if not part:
            break
        data += part
    if len(data) > limit:
        raise _TooBig(len(data))
    if announced is not None and len(data) < announced:
        raise _Lost(f"the answer stopped after {len(data):,} of the {announced:,} bytes it "
                    "announced")
    return bytes(data)


def _download(url: str, limit: int, timeout: float) -> bytes:
    import urllib.request

    opener = urllib.request.build_opener(_only_web())
    request = urllib.request.Request(url, headers={"User-Agent": "table-companion"})
    with opener.open(request, timeout=timeout) as answer:
        return _body(answer, limit)


def _fetch(url: str, limit: int, timeout: float) -> tuple:
    """In the worker: ("ok", bytes), ("big", size), ("lost", why) or ("bad", why), `why`
    one line without a password. Every exception is sorted here: the parent gets a
    tuple back, or nothing by the deadline."""
    import http.client
    import urllib.error

    try:
        return "ok", _download(url, limit, timeout)
    except _TooBig as e:
        return "big", e.args[0]
    except (_Lost, _Bad) as e:
        kind, why = ("lost" if isinstance(e, _Lost) else "bad"), str(e)
    except urllib.error.HTTPError as e:  # an error status (an unshared sheet: 401, 404)
        # or a redirect urllib will not follow (to file:)
        kind, why = ("bad" if 300 <= e.code < 400 else "lost"), f"HTTP {e.code}: {e.reason}"
    except urllib.error.URLError as e:
        reason = e.reason
        kind = "lost" if isinstance(reason, OSError) else "bad"  # no network, refused...
        why = getattr(reason, "strerror", None) or str(reason)
    except http.client.IncompleteRead as e:
        kind, why = "lost", ("the answer stopped before its last chunk" if e.expected is None
                             else f"the answer stopped {e.expected:,} bytes short")
    except http.client.RemoteDisconnected:  # before BadStatusLine, which it also is
        kind, why = "lost", "the server closed the connection without answering"
    except http.client.LineTooLong:
        kind, why = "bad", f"a line of its answer is over {http.client._MAXLINE:,} bytes"
    except http.client.BadStatusLine as e:
        line = shown(str(e.line).strip(), 40)
        kind, why = "bad", f"its answer's first line is not HTTP: {line}"
    except http.client.HTTPException as e:  # got more than 100 headers, an invalid URL
        kind, why = "bad", str(e).replace("got more than", "its answer has over")
    except OSError as e:  # a timeout, a connection reset while reading
        kind, why = "lost", e.strerror or str(e) or type(e).__name__
    except ValueError as e:
        kind, why = "bad", str(e)
    return kind, " ".join(without_password(why).split())[:160]


# ---- in the build ----------------------------------------------------------------------

def _cached(url: str) -> Path:
    return paths.cache("sheets") / (hashlib.sha256(url.encode()).hexdigest()[:32] + ".csv")


def _got(target: str, limit: int, name: str) -> tuple:
    """_fetch() run under the one deadline; a worker killed at the deadline is "lost"."""
    began = time.monotonic()
    try:
        return bounded.run(_fetch, target, limit, TIMEOUT, source=name,
                           what="sheet's download", seconds=TIMEOUT)
    except CompanionError as e:
        if time.monotonic() - began >= TIMEOUT:
            return "lost", f"no whole answer within {TIMEOUT:g} s"
        return "bad", e.message  # the worker could not start, or crashed


def read(url: str, limit: int, source: str, field: str) -> tuple[bytes, str]:
    """The CSV's bytes and the name messages give it (the address, or its cached copy)."""
    shown_url = without_password(url)
    fault = address_fault(url)
    if fault:
        raise CompanionError(f"{shown_url[:200]}: {fault}" if is_url(url) else fault,
                             source=source, field=field)
    target = csv_url(url)
    cached = _cached(target)
    status, value = _got(target, limit, shown_url)
    if status == "big":
        raise CompanionError(f"the card list at {shown_url} is {value:,} bytes: over the "
                             f"{limit:,} a CSV may be", source=source, field=field)
    if status == "bad":
        raise CompanionError(f"cannot read {shown_url} ({value}): not an answer a sheet's "
                             "server sends, so no copy read before is used; check the "
                             "address", source=source, field=field)
    if status == "lost":
        return _copy(cached, target, shown_url, value, limit, source, field)
    _keep(cached, value, shown_url, without_password(target))
    return value, shown_url


def _copy(cached: Path, target: str, url: str, why: str, limit: int, source: str,
          field: str) -> tuple[bytes, str]:
    """The copy read before, said once, when the list did not come."""
    if not cached.is_file():
        raise CompanionError(f"cannot read {url} ({why}) and no copy of it was read before: "
                             "check the address, that the sheet is shared (anyone with the "
                             "link), and the network", source=source, field=field)
    stat = cached.stat()
    age = time.time() - stat.st_mtime
    if stat.st_size > limit:  # not one we kept (a list is kept only within the limit)
        raise CompanionError(f"cannot read {url} ({why[:60]}), and the copy read before, "
                             f"{cached}, is {stat.st_size:,} bytes: over the {limit:,} a CSV "
                             "may be; delete it", source=source, field=field)
    if target not in _said:
        _said.add(target)
        print(f"Note: {source}: {field}: cannot read {url} ({why[:60]}): using the copy "
              f"read {_ago(age)} ago", file=sys.stderr)
    with open(cached, "rb") as f:  # within the limit, whatever it has grown to since
        data = f.read(limit + 1)
    return data, f"{url} (the copy read {_ago(age)} ago)"


def _keep(cached: Path, data: bytes, url: str, target: str) -> None:
    """A list read whole, kept for the builds that cannot read it (its record without a
    password, though addresses holding one are refused before they get here)."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        with atomic.replaced(cached) as tmp:
            Path(tmp).write_bytes(data)
        atomic.write_aside(cached.with_suffix(".json"),
                           json.dumps({"url": url, "csv": target}).encode())
    except (OSError, CompanionError):
        pass  # a cache we cannot write: this build reads the web, the next one too


def _ago(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return "less than a minute"
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes > 1 else ''}"
    hours = minutes // 60
    if hours < 48:
        return f"{hours} hours"
    return f"{hours // 24} days"
