"""What a run works out and a later run reads back, kept in our cache folder
(paths.cache): what reportlab learns parsing a font, a long data file's parse, a kit's
card faces' drawings (companion.kit.drawings). Each is marshal data (values only: no
code runs on reading it back) behind a checksum of its bytes, in a file named by a digest
of what it was worked out from. One missing, damaged (its checksum does not match) or
unwritable costs only working it out again. (Whoever can write the user's cache folder
can change what it holds: the cache guards against damage, as the picture cache does,
not against the user's own account.)"""

import gc
import marshal
import os
import zlib
from contextlib import contextmanager

from companion.files import atomic, paths

# The files' format, in their names and first line: another format is never read.
VERSION = 1
FORMAT = b"table-companion kept %d\n" % VERSION
# Files kept in a folder at the most: a designer editing a game file makes a new one at
# each save (watch mode), and the oldest go.
MOST = 64
# The largest file read back: the largest we keep, a Tabletop Simulator sheet's tiles
# (companion.export.reuse), is under 50 MB (4096 x 4096 RGB pixels, compressed); a larger
# file is not one of ours, and is worked out again rather than read whole.
LARGEST = 512 * 1024 * 1024


# Set while an output is drawn again cold (companion.press.written found a name of ours
# left dangling in what was written): nothing kept is read back, from the cache folder or
# from this process, and no drawing is put back (companion.engine.reused).
cold = False


@contextmanager
def drawn_cold():
    """Within the block, everything is drawn anew: nothing kept is read or put back."""
    global cold
    was, cold = cold, True
    try:
        yield
    finally:
        cold = was


def _file(folder: str, key: str):
    return paths.cache(folder) / f"{key}-v{VERSION}.marshal"


def read(folder: str, key: str):
    """What `keep` kept under `key`, or None (a file over LARGEST, too: never read)."""
    try:
        with open(_file(folder, key), "rb") as f:
            if os.fstat(f.fileno()).st_size > LARGEST:
                return None
            raw = f.read(LARGEST + 1)  # within the bound, whatever it has grown to since
        if len(raw) > LARGEST:
            return None
        head, check, payload = raw[:len(FORMAT)], raw[len(FORMAT):len(FORMAT) + 4], \
            raw[len(FORMAT) + 4:]
        if head != FORMAT or zlib.crc32(payload).to_bytes(4, "big") != check:
            return None  # damaged, or cut short
        return _loaded(payload)
    except Exception:  # noqa: BLE001 - none kept yet, or unreadable: work it out again
        return None


def _loaded(payload: bytes):
    """marshal's values, read with the cyclic collector paused: values hold no cycles, and
    the tens of thousands of lists, tuples and dicts a font's tables or a kit's drawings
    make would set off collections that walk every object of the process, again and again
    (a third of a cold build's reading time)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return marshal.loads(payload)
    finally:
        if paused:
            gc.enable()


def keep(folder: str, key: str, value) -> None:
    """Keeps `value` (marshal's types only) for a later run; a cache that cannot be
    written keeps nothing."""
    try:
        payload = marshal.dumps(value)
        if len(payload) + len(FORMAT) + 4 > LARGEST:  # never read back: not kept
            return
        atomic.write_aside(_file(folder, key),
                           FORMAT + zlib.crc32(payload).to_bytes(4, "big") + payload)
        files = list(paths.cache(folder).glob("*.marshal"))
        if len(files) > MOST:
            files.sort(key=lambda f: f.stat().st_mtime_ns)
            for old in files[:-MOST]:
                old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass


# A watching process (companion.files.watch) keeps, from one build to the next, what
# each card face drew (companion.kit.drawings): a dict the kit fills, None when not
# watching (a one-off build keeps nothing in memory).
in_process: dict | None = None
