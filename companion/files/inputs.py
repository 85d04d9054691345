"""Which files a build read: the data loader, the spreadsheet reader and the picture
cache note each file here (with its modification time when read), so that
`build --watch` knows what to watch, and sees a file saved again while it was building."""

import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_read: ContextVar[dict | None] = ContextVar("files_read", default=None)


def note(path) -> None:
    files = _read.get()
    if files is not None and str(path) != "-":
        p = Path(path).resolve()
        files.setdefault(p, stamp(p))


def stamp(path: Path) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


@contextmanager
def noted():
    """Collects {file: modification time when first read} inside the block."""
    files: dict[Path, int | None] = {}
    token = _read.set(files)
    try:
        yield files
    finally:
        _read.reset(token)
