"""Outputs are written aside and put in place in one step, so a failed, interrupted or
killed command leaves the previous output as it was and no partial file behind.

A kit is a folder: it is built whole in a staging folder beside it, then swapped in by
two renames (old kit aside, new kit in). A build killed between the two is undone by the
next one, which puts the old kit back. Builds of one kit folder hold its lock, so one
never removes another's staging folder.

Every output goes through `guard` first (kit_folder and replaced call it; a command calls
it too, before any work): never over one of the command's inputs, never a device, FIFO
or socket renamed over. A character device or a FIFO is written through (/dev/null,
/dev/stdout, a pipe), so is a name for an open stream (/dev/fd/N, /proc/self/fd/N); a
socket, a disk device or a folder where a file goes is refused."""

import os
import re
import secrets
import shutil
import stat
import sys
from contextlib import contextmanager
from pathlib import Path

from companion import interrupt
from companion.files import inputs, lock
from companion.errors import CompanionError

KIT_MARK = "manifest.json"  # a folder holding it is a kit: ours to replace


def _os_error(e: OSError, where: Path) -> CompanionError:
    return CompanionError(f"cannot write ({e.strerror or e})", source=str(where))


THROUGH = "through"  # guard's verdict: written into the file as it stands, not renamed over
REPLACE = "replace"  # a regular file, or none yet: written aside and renamed over


def _is_input(path: Path) -> bool:
    read = inputs.of_command()
    if not read:
        return False
    if os.path.realpath(path) in read:
        return True
    me = inputs.identity(path)
    return me is not None and me in read.values()


_STREAM = re.compile(r"/dev/(stdout|stderr|fd/\d+)|/proc/[^/]+/fd/\d+")


def _under_system(path: Path) -> bool:
    """/dev/stdout, /dev/fd/3, /proc/self/fd/1: a name for an open stream, whatever it
    leads to (a terminal, a pipe, the file a shell redirected to)."""
    return _STREAM.fullmatch(os.path.abspath(path)) is not None


def guard(path, field: str | None = None, update: bool = False) -> str:
    """The one check of a file output, made before any work: REPLACE (write aside, rename
    over) or THROUGH (write into it as it stands: a character device, a FIFO, a name for
    an open stream such as /dev/stdout); a CompanionError for one of the command's inputs (by its device and
    inode, and by its resolved path: unless `update`, a file the command rewrites on
    purpose), a folder, a socket or a disk device."""
    path = Path(path)
    if not update and _is_input(path):
        raise CompanionError("is one of this command's inputs: give another file (nothing "
                             "was written)", source=str(path), field=field)
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return REPLACE  # none yet (or a dangling link: its target is made)
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return THROUGH if _under_system(path) else REPLACE
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return THROUGH
    what = ("a folder" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a disk device" if stat.S_ISBLK(mode) else "not a regular file")
    raise CompanionError(f"is {what}, not a file: give a file name (nothing was written)",
                         source=str(path), field=field)


def guard_folder(out: Path, field: str | None = "--out") -> None:
    """The check of a kit's or an export's folder, before any work: not a file nor a
    device, and holding none of the command's inputs (the swap would take them away)."""
    out = Path(out)
    if os.path.lexists(out) and not out.is_dir():
        raise CompanionError("is a file, not a folder for the kit", source=str(out),
                             field=field)
    real = Path(os.path.realpath(out))
    for read in inputs.of_command():
        if Path(read).is_relative_to(real):
            raise CompanionError(f"holds {read}, one of this command's inputs: give "
                                 "another folder (nothing was written)", source=str(out),
                                 field=field)


@contextmanager
def kit_folder(out: Path, kind: str = "kit"):
    """Yield an empty folder; when the block succeeds it becomes `out`, replacing the
    earlier output of the same `kind` whole (so files a smaller --only build no longer
    lists go too): "kit" for a build, the format for an export ("png"). On any failure
    `out` is left exactly as it was."""
    guard_folder(out)
    given = str(out)  # as the user named it, in the line a Ctrl+C gets
    out = Path(os.path.abspath(out))  # `.` has no name to put a staging folder beside
    if out == out.parent:
        raise CompanionError("is the root folder: give a folder for the kit",
                             source=str(out), field="--out")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with lock.held(out, "building this kit"):
            _recover(out)
            _refuse_foreign(out)
            _refuse_other_kind(out, kind)
            # mkdir, not mkdtemp: the kit gets the user's usual permissions, not 0700.
            stage = out.with_name(f".{out.name}.staging-{os.getpid()}-{secrets.token_hex(3)}")
            stage.mkdir()
            try:
                yield stage
                if _holds_cwd(out):  # the shell's folder stays where it is
                    with interrupt.held_back():
                        _fill_in_place(stage, out)
                        interrupt.wrote(given)
                else:
                    _swap(stage, out, given)
            finally:
                shutil.rmtree(stage, ignore_errors=True)
    except OSError as e:
        # Name the file as the user knows it: in the kit, not in the staging folder.
        name = Path(e.filename) if e.filename else out
        inside = name.parent.name.startswith(f".{out.name}.staging-")
        raise _os_error(e, out / name.name if inside else name) from None


def _leftovers(out: Path, kind: str) -> list[Path]:
    return sorted(out.parent.glob(f".{out.name}.{kind}-*"))


def _recover(out: Path) -> None:
    """Clear what a killed build left: its staging folder, and an old kit set aside but
    not yet replaced (put back) or replaced but not yet removed (its exports kept)."""
    for stage in _leftovers(out, "staging"):
        shutil.rmtree(stage, ignore_errors=True)
    for old in _leftovers(out, "old"):
        if not out.exists():
            os.rename(old, out)
        else:
            _carry_exports(old, out)
            shutil.rmtree(old, ignore_errors=True)


def _nested_outputs(folder: Path) -> list[Path]:
    """Sub-folders that are outputs of their own (an export in output/GAME/FORMAT)."""
    return [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")
            and (p / KIT_MARK).is_file()]


def _carry_exports(old: Path, new: Path) -> None:
    """A kit replaced whole keeps the exports inside it (moved, not copied)."""
    for sub in _nested_outputs(old):
        if not (new / sub.name).exists():
            os.rename(sub, new / sub.name)


def _refuse_foreign(out: Path) -> None:
    """Never replace a folder that is not ours (someone's own files): ours holds a
    manifest.json, or nothing but outputs that do."""
    if not out.exists():
        return
    visible = [p for p in out.iterdir() if not p.name.startswith(".")]
    ours = (out / KIT_MARK).is_file() or set(visible) <= set(_nested_outputs(out))
    if visible and not ours:
        raise CompanionError("holds files that are not a kit: give a new or empty folder",
                             source=str(out), field="--out")


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux's renameat2 RENAME_EXCHANGE): no moment when
    neither is there. False where the system has no such call."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # an old kernel, or a file system without it: two renames
    raise OSError(err, os.strerror(err), str(b))


def _kind_of(folder: Path) -> str | None:
    """What an output folder holds, from its manifest: "kit", an export's format, or
    None (no manifest, or one we cannot read)."""
    import msgspec

    class Head(msgspec.Struct):  # its one key read, the rest (2,000 cards' digests) skipped
        format: object = msgspec.UNSET

    try:
        head = msgspec.json.decode((folder / KIT_MARK).read_bytes(), type=Head)
    except (OSError, msgspec.DecodeError):  # none, unreadable, not JSON, not an object
        return None
    return "kit" if head.format is msgspec.UNSET else str(head.format)


def _refuse_other_kind(out: Path, kind: str) -> None:
    """An export never replaces a built kit (nor a build an export, nor one format
    another): --out onto the wrong folder would lose it whole."""
    have = _kind_of(out)
    if have is None or have == kind:
        return
    what = "a kit built by `companion build`" if have == "kit" else f"a {have} export"
    raise CompanionError(f"holds {what}: replacing it would lose it; give another --out",
                         source=str(out), field="--out")


def _swap(stage: Path, out: Path, said: str | None = None) -> None:
    """The new kit in, recorded as written (interrupt.wrote) in the same block Ctrl+C
    does not cut, with the old kit's exports carried over; then the old kit removed,
    where Ctrl+C may come (the new kit is in place, and said to be)."""
    # In one step where the system can: a kill at any moment leaves a whole kit in place.
    with interrupt.held_back():
        if out.exists() and _exchange(stage, out):
            interrupt.wrote(said or out)
            _carry_exports(stage, out)
            old = stage
        else:
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            if out.exists():
                os.rename(out, old)
            try:
                os.rename(stage, out)
            except OSError:
                if old.exists():
                    os.rename(old, out)
                raise
            interrupt.wrote(said or out)
            if old.exists():
                _carry_exports(old, out)
    shutil.rmtree(old, ignore_errors=True)


def _holds_cwd(folder: Path) -> bool:
    """`folder` is the current folder or holds it (`--out .`, `--out ..`)."""
    try:
        return Path.cwd().resolve().is_relative_to(folder.resolve())
    except OSError:  # the current folder is gone already
        return False


def _fill_in_place(stage: Path, out: Path) -> None:
    """A kit put into the folder a shell stands in, without swapping the folder (which
    would leave the shell in a deleted one): each new file renamed over its old one in
    turn, the manifest last, then the old kit's files the new one does not list removed
    (an export inside kept, as a swap keeps it). A folder holding the current one is
    filled in the same way, never removed."""
    new = sorted(stage.iterdir(), key=lambda p: (p.name == KIT_MARK, p.name))
    for item in new:
        target = out / item.name
        if target.is_dir() and not target.is_symlink() and _holds_cwd(target):
            if item.is_dir():
                _fill_in_place(item, target)
            continue  # a file cannot take the shell's folder's place: it stays
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(item, target)
    names = {p.name for p in new}
    kept = set(_nested_outputs(out))
    for old in out.iterdir():
        if old.name in names or old.name.startswith(".") or old in kept or _holds_cwd(old):
            continue
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        else:
            old.unlink()


def _in_cache(path: Path) -> bool:
    from companion.files import paths

    return Path(os.path.abspath(path)).is_relative_to(os.path.abspath(paths.cache("")))


@contextmanager
def replaced(path: Path, update: bool = False):
    """Yield a temporary path beside `path`; once the block succeeds it becomes `path` in
    one rename, on disk (the file and its folder synced) before this returns. On failure
    the old file stays as it was. `guard` decides first: one of the command's inputs is
    refused (unless `update`: the file is rewritten on purpose, as a ledger is), a device
    or a FIFO written through (`through`).

    A file the user owns is treated as hers: a symlink is followed (its target is
    replaced, the link stays: a shared ledger gets the round); the file's mode is kept
    (600 stays 600); a read-only file is refused, not replaced; a file with other names
    (hard links) is replaced with a note that those keep the old content."""
    path = Path(path)
    if not _in_cache(path) and guard(path, update=update) == THROUGH:
        with through(path) as tmp:
            yield tmp
        return
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        st = os.stat(target)
    except OSError:
        st = None
    if st is not None:
        if stat.S_ISREG(st.st_mode) and not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP
                                                           | stat.S_IWOTH):
            raise CompanionError("is read-only: make it writable to replace it, or give "
                                 "another file", source=str(path))
        if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            others = st.st_nlink - 1
            print(f"companion: note: {path} has {others} other name{'s' * (others > 1)} "
                  "(hard links), which keep the old content", file=sys.stderr)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        if st is not None and stat.S_ISREG(st.st_mode):
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        _sync(tmp)
        with interrupt.held_back():  # in place and said so, or neither
            os.replace(tmp, target)
            if not _in_cache(target):  # an output of the user's: said if Ctrl+C comes now
                interrupt.wrote(path)
        _sync(target.parent)
    except OSError as e:
        raise _os_error(e, path) from None
    finally:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


@contextmanager
def through(path: Path):
    """Yield a temporary path (in the temporary folder: never beside a device, in /dev);
    once the block succeeds its bytes are written into `path` as it stands: a device stays
    a device, a FIFO a FIFO. A FIFO nothing reads is refused rather than waited on;
    /dev/full fails as a full disk does."""
    import tempfile

    fd, name = tempfile.mkstemp(prefix="companion-", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        _copy_into(tmp, path)
        interrupt.wrote(path)
    except OSError as e:
        raise _os_error(e, path) from None
    finally:
        tmp.unlink(missing_ok=True)


def _copy_into(source: Path, path: Path) -> None:
    import errno

    st = os.stat(path)
    for stream in (sys.stdout, sys.stderr):  # /dev/stdout: this command's own output
        if _is_stream(stream, st):
            stream.flush()  # in order: what was printed, then the file
            with open(source, "rb") as f:
                shutil.copyfileobj(f, stream.buffer)
            stream.buffer.flush()
            return
    fifo = stat.S_ISFIFO(st.st_mode)
    flags = os.O_WRONLY | (os.O_NONBLOCK if fifo else 0)
    if stat.S_ISREG(st.st_mode):
        flags |= os.O_TRUNC  # /dev/fd/3 a shell redirected to a file: it holds this alone
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ENXIO:  # a FIFO with no reader: waiting could be forever
            raise CompanionError("is a pipe (FIFO) that nothing reads: nothing was written",
                                 source=str(path)) from None
        raise
    try:
        if fifo:
            os.set_blocking(fd, True)
        with open(source, "rb") as f:
            while chunk := f.read(1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _is_stream(stream, st: os.stat_result) -> bool:
    try:
        return hasattr(stream, "buffer") and os.path.samestat(os.fstat(stream.fileno()), st)
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture)
        return False


def _sync(path: Path) -> None:
    """fsync a file, or a folder (where the system allows it: not on Windows)."""
    if path.is_dir() and os.name == "nt":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        if not path.is_dir():  # some file systems cannot sync a folder: the rename stands
            raise
    finally:
        os.close(fd)


def write_aside(target: Path, data: bytes) -> None:
    """A cache file: written aside and renamed, so that two builds filling the cache at
    once never read half a file (not synced: a cache lost in a crash is made again)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path: Path, text: str, update: bool = False) -> None:
    """One file written whole or not at all (`update`: see `replaced`)."""
    with replaced(path, update) as tmp:
        tmp.write_text(text, encoding="utf-8")
