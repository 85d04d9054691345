"""An OS lock on a file, held by one process at a time and released by the system when
that process dies (however it dies). The lock lives on a hidden sidecar file (`.NAME.lock`), never
on the data file itself: SQLite's own POSIX locks on a database would be dropped by ours.
The holder's process id is written into the sidecar, so a refusal can say who holds it."""

import os
import time
from contextlib import contextmanager
from pathlib import Path

from companion.errors import CompanionError

_REGION = 1 << 20  # Windows locks a byte range: lock one far past the pid we write at 0


class Locked(CompanionError):
    """Another process holds the lock."""

    def __init__(self, path: Path, pid: str | None, purpose: str):
        self.pid = pid
        who = f"process {pid}" if pid else "another process"
        super().__init__(f"{who} is {purpose}; stop it first, or use another file",
                         source=str(path))


def sidecar(path: Path) -> Path:
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


def _try_lock(fd: int) -> bool:
    try:
        if os.name == "nt":
            import msvcrt

            os.lseek(fd, _REGION, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _unlock(fd: int) -> None:
    if os.name == "nt":
        import msvcrt

        os.lseek(fd, _REGION, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


def _holder(lock_path: Path) -> str | None:
    try:
        pid = lock_path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return pid if pid.isdigit() else None


@contextmanager
def held(path: Path, purpose: str, wait: float = 0.0):
    """Hold the lock of `path` for the block. Waits up to `wait` seconds for another
    holder to let go, then raises Locked naming it (`purpose` says what it is doing,
    e.g. "serving this table")."""
    lock_path = sidecar(path)
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as e:
        raise CompanionError(f"cannot lock ({e.strerror})", source=str(lock_path)) from None
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise Locked(path, _holder(lock_path), purpose)
            time.sleep(0.05)
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)
