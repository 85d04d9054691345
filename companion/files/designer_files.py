"""The one way a designer's file is read (a data file, a spreadsheet, a picture): files
are untrusted input, shared between designers and downloaded in art packs.

- A regular file only: a pipe (FIFO) would block a read for ever, a device such as
  /dev/zero never ends, a folder is no file. The file is opened without blocking and
  checked on the open descriptor (fstat), so it cannot be swapped between the check and
  the read; a symlink is followed to what it names, and that is checked.
- Its size is capped before a byte is read, from the open file's own size, and the read
  stops at the cap whatever the file does meanwhile.

Every refusal is a CompanionError naming the file, what it holds and the limit."""

import os
import stat
from pathlib import Path

from companion.errors import CompanionError
from companion.files import inputs

KINDS = ((stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISDIR, "a folder"))


def _megabytes(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n < 10_000_000 else f"{n // 1_000_000} MB"


def _a(what: str) -> str:
    """`what` with its article: "a picture", "an ICC profile", "an SVG icon", "a PDF"
    (an acronym is said letter by letter)."""
    word = what.split(" ", 1)[0]
    vowels = "AEFHILMNORSX" if word.isupper() and len(word) > 1 else "aeiouAEIOU"
    return f"{'an' if word[:1] in vowels else 'a'} {what}"


def _kind(mode: int) -> str:
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` stays in `folder` once "..", and links, are followed."""
    try:
        Path(path).resolve().relative_to(Path(folder).resolve())
        return True
    except (ValueError, OSError, RuntimeError):
        return False


def named_beside(data, key: str) -> dict[str, Path]:
    """The files a data file's [key] table names ([icons], [fonts]: name = "folder/file"),
    each inside the data file's folder (a copy of the folder takes them along); one outside
    it is an error naming its entry."""
    if key not in data.table:
        return {}
    table = data.sub(key)
    base = Path(data.source).parent if data.source else Path.cwd()
    out = {}
    for name in table.table:
        rel = table.get(name, str)
        path = base / rel
        if not inside(path, base):
            raise table.error(name, f"{rel} is outside the data file's folder: keep {key} "
                                    "beside it")
        out[name] = path
    return out


def read_bytes(path: Path | str, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them (more is an error
    naming the file, its size and the limit). `what` names the file in messages ("data
    file", "picture", "spreadsheet")."""
    name = str(path)
    inputs.note(path)  # a build --watch rebuilds when it is saved again (a font, an icon)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise CompanionError("no such file", source=name) from None
    except IsADirectoryError:
        raise CompanionError(f"is a folder, not {_a(what)}", source=name) from None
    except PermissionError:
        raise CompanionError("permission denied: cannot read it", source=name) from None
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror or e})", source=name) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CompanionError(f"is {_kind(st.st_mode)}, not {_a(what)}: give a regular file",
                                 source=name)
        if st.st_size > limit:
            raise CompanionError(f"is {_megabytes(st.st_size)}: over the {_megabytes(limit)} "
                                 f"{_a(what)} may be", source=name)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, left = [], limit + 1
        while left > 0:
            # the file's size first, then 64 KB at a time (a fresh 1 MB buffer costs 0.4 ms)
            chunk = os.read(fd, min(left, st.st_size + 1 if not chunks else 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror or e})", source=name) from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while being read
        raise CompanionError(f"grew over the {_megabytes(limit)} {_a(what)} may be while "
                             "being read", source=name)
    return data
