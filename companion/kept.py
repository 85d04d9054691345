"""What a run works out and a later run reads back, kept in our cache folder
(paths.cache): what reportlab learns parsing a font, a long data file's parse. Each is
marshal data (values only: no code runs on reading it back) in a file named by a digest
of what it was worked out from. One missing, damaged or unwritable costs only working it
out again: reading it back never fails a build."""

import marshal

from companion import atomic, paths


def read(folder: str, key: str):
    """What `keep` kept under `key`, or None."""
    try:
        return marshal.loads((paths.cache(folder) / f"{key}.marshal").read_bytes())
    except (OSError, EOFError, ValueError, TypeError):  # none kept yet, or damaged
        return None


# Files kept in a folder at the most: a designer editing a game file makes a new one at
# each save (watch mode), and the oldest go.
MOST = 64


def keep(folder: str, key: str, value) -> None:
    """Keeps `value` (marshal's types only) for a later run; a cache that cannot be
    written keeps nothing."""
    where = paths.cache(folder)
    try:
        atomic.write_aside(where / f"{key}.marshal", marshal.dumps(value))
        files = list(where.glob("*.marshal"))
        if len(files) > MOST:
            files.sort(key=lambda f: f.stat().st_mtime_ns)
            for old in files[:-MOST]:
                old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass
