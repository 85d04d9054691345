"""A card list from the web: a Google Sheet shared or published ("Anyone with the link"),
or any address of a CSV file, named where a spreadsheet file would be:

    cards = { sheet = "https://docs.google.com/spreadsheets/d/ID/edit#gid=0" }

A Google Sheet's address is read as that tab's CSV export. The last copy read is kept in
our cache (paths.cache("sheets")); a build that cannot reach the address (no network, the
sheet unshared) uses that copy and says how old it is, once. Only http and https, also
after a redirect; at most spreadsheet.MAX_CSV bytes, read with a time limit."""

import hashlib
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from companion import atomic, paths
from companion.errors import CompanionError

TIMEOUT = 20  # seconds to connect, and between two reads
_SHEET = re.compile(r"^/spreadsheets/d/(e/)?([\w-]+)(?:/|$)")
_said: set[str] = set()


def is_url(sheet: str) -> bool:
    return sheet.lower().startswith(("http://", "https://"))


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


class _OnlyWeb(urllib.request.HTTPRedirectHandler):
    """Follows a redirect to http or https only (urllib would follow one to ftp)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not is_url(newurl):
            raise urllib.error.URLError(f"redirected to {newurl[:60]}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _cached(url: str) -> Path:
    return paths.cache("sheets") / (hashlib.sha256(url.encode()).hexdigest()[:32] + ".csv")


def _download(url: str, limit: int) -> bytes:
    opener = urllib.request.build_opener(_OnlyWeb)
    request = urllib.request.Request(url, headers={"User-Agent": "table-companion"})
    with opener.open(request, timeout=TIMEOUT) as answer:
        length = answer.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > limit:
            raise _TooBig(int(length))
        data = answer.read(limit + 1)
    if len(data) > limit:
        raise _TooBig(len(data))
    return data


class _TooBig(Exception):
    pass


def read(url: str, limit: int, source: str, field: str) -> tuple[bytes, str]:
    """The CSV's bytes and the name messages give it (the address, or its cached copy)."""
    if not is_url(url) or any(ch.isspace() for ch in url):
        raise CompanionError("a sheet's address starts with https:// (or http://)",
                             source=source, field=field)
    target = csv_url(url)
    cached = _cached(target)
    try:
        data = _download(target, limit)
    except _TooBig as e:
        raise CompanionError(f"the card list at {url} is {e.args[0]:,} bytes: over the "
                             f"{limit:,} a CSV may be", source=source, field=field) from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        why = getattr(e, "reason", None) or e
        if not cached.is_file():
            raise CompanionError(f"cannot read {url} ({str(why)[:80]}) and no copy of it was "
                                 "read before: check the address, that the sheet is shared "
                                 "(anyone with the link), and the network", source=source,
                                 field=field) from None
        age = time.time() - cached.stat().st_mtime
        if target not in _said:
            _said.add(target)
            print(f"Note: {source}: {field}: cannot read {url} ({str(why)[:60]}): using the "
                  f"copy read {_ago(age)} ago", file=sys.stderr)
        return cached.read_bytes()[:limit + 1], f"{url} (the copy read {_ago(age)} ago)"
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        with atomic.replaced(cached) as tmp:
            Path(tmp).write_bytes(data)
        (cached.with_suffix(".json")).write_text(json.dumps({"url": url, "csv": target}))
    except (OSError, CompanionError):
        pass  # a cache we cannot write: this build reads the web, the next one too
    return data, url


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
