"""The phone page's files, light on the table's Wi-Fi: read once at start, each with a
content hash. The page names them with that hash (`/static/app.js?v=HASH`), so a phone
keeps them until they change (immutable for a year) and asks again only after an
upgrade; any other name is revalidated by its ETag (304). Sent gzipped to a phone that
takes it (every browser does): the page's script and style shrink about 4x."""

import gzip
import hashlib
from pathlib import Path

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from companion.web.errors import WebError

TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8"}
YEAR = "public, max-age=31536000, immutable"


class Asset(msgspec.Struct, frozen=True):
    body: bytes
    zipped: bytes
    kind: str
    version: str  # the content's hash, also its ETag

    @classmethod
    def of(cls, body: bytes, kind: str) -> "Asset":
        # mtime=0: the same bytes whenever the server starts
        return cls(body, gzip.compress(body, 9, mtime=0), kind,
                   hashlib.sha256(body).hexdigest()[:16])

    def response(self, request: Request, cache: str = "no-cache") -> Response:
        tag = f'"{self.version}"'
        headers = {"ETag": tag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
        if tag in {t.strip() for t in request.headers.get("if-none-match", "").split(",")}:
            return Response(status_code=304, headers=headers)
        if _takes_gzip(request.headers.get("accept-encoding", "")):
            return Response(self.zipped, media_type=self.kind,
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(self.body, media_type=self.kind, headers=headers)


def _takes_gzip(accepted: str) -> bool:
    for part in accepted.split(","):
        coding, _, q = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            return q.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


class Assets:
    def __init__(self, folder: Path):
        self.files = {p.name: Asset.of(p.read_bytes(), TYPES.get(p.suffix, "application/octet-stream"))
                      for p in sorted(folder.iterdir()) if p.is_file()}

    def url(self, name: str) -> str:
        return f"/static/{name}?v={self.files[name].version}"

    def linked(self, html: str) -> str:
        """`html` with each "{{static:NAME}}" made the file's versioned URL."""
        for name in self.files:
            html = html.replace("{{static:%s}}" % name, self.url(name))
        return html

    def serve(self, request: Request, name: str) -> Response:
        asset = self.files.get(name)
        if asset is None:
            raise WebError(404, "path", "no such file")
        current = request.query_params.get("v") == asset.version
        return asset.response(request, YEAR if current else "no-cache")
