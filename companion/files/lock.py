"""An OS lock on a file, held by one process at a time and released by the system when
that process dies (however it dies). `held` locks a path: the lock lives on a hidden
sidecar file (`.NAME.lock`, removed when let go), never on the data file itself (SQLite's
own POSIX locks on a database would be dropped by ours); the holder's process id is
written into the sidecar, so a refusal can say who holds it. `held_file` locks a file
itself, whatever name it is reached by (the phone table: a hard link to it is the same
table)."""

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


def _open(lock_path: Path) -> int:
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as e:
        # Named as the user knows it: the folder she asked to write in, not our hidden
        # lock file in it.
        raise CompanionError(f"cannot write in this folder ({e.strerror})",
                             source=str(lock_path.parent)) from None


def _same_file(fd: int, lock_path: Path) -> bool:
    """The sidecar locked is still the one at its path (a holder that let go removed
    it; a new one may stand there now: the lock must be taken on that one)."""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(lock_path))
    except OSError:
        return False


@contextmanager
def held(path: Path, purpose: str, wait: float = 0.0):
    """Hold the lock of `path` for the block. Waits up to `wait` seconds for another
    holder to let go, then raises Locked naming it (`purpose` says what it is doing,
    e.g. "serving this table"). The sidecar goes when the lock is let go: nothing stays
    beside the file (but after a kill, until the next holder lets go)."""
    lock_path = sidecar(path)
    deadline = time.monotonic() + wait
    while True:
        fd = _open(lock_path)
        if _try_lock(fd):
            if _same_file(fd, lock_path):
                break
            _unlock(fd)  # taken on a sidecar its holder removed: take the new one
        os.close(fd)
        if time.monotonic() >= deadline:
            raise Locked(path, _holder(lock_path), purpose)
        time.sleep(0.05)
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        try:
            yield
        finally:
            if os.name != "nt":  # (Windows cannot remove a file still open)
                try:
                    os.unlink(lock_path)
                except OSError:
                    pass
            _unlock(fd)
    finally:
        os.close(fd)


@contextmanager
def held_file(path: Path, purpose: str):
    """Hold a lock on the file `path` itself (its device and inode, not its name), for
    the block: a second name for it (a hard link, a symlink, another path) is refused
    too. flock on POSIX, which SQLite's own (fcntl) locks on the same file never meet;
    the descriptor stays open until the block ends, after SQLite has closed the file.
    On Windows the lock of `held` on its path is all there is."""
    if os.name == "nt":
        yield
        return
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as e:
        raise CompanionError(f"cannot lock ({e.strerror})", source=str(path)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise CompanionError(
                f"another process is {purpose} (the same file, under another name or "
                "link); stop it first, or use another file", source=str(path)) from None
        yield
    finally:
        os.close(fd)
