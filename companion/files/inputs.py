"""Which files a build read: the data loader, the spreadsheet reader and the picture
cache note each file here (with its modification time when read), so that
`build --watch` knows what to watch, and sees a file saved again while it was building."""

import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_read: ContextVar[dict | None] = ContextVar("files_read", default=None)

# Every file the command has read, by its resolved path: {path: (device, inode)}, so that
# no output is written over one of them (companion.files.atomic.guard), by any name.
_command: dict[str, tuple[int, int] | None] = {}


def note(path) -> None:
    if str(path) == "-":
        return
    p = Path(path).resolve()
    if str(p) not in _command:
        _command[str(p)] = identity(p)
    files = _read.get()
    if files is not None:
        files.setdefault(p, stamp(p))


def identity(path) -> tuple[int, int] | None:
    """A file's (device, inode), whatever name reaches it; None if there is none."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def of_command() -> dict[str, tuple[int, int] | None]:
    """The files read since the command began: {resolved path: (device, inode)}."""
    return _command


def forget() -> None:
    """A new command (a caller may run several in one process)."""
    _command.clear()


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
