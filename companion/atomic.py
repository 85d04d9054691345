"""Builds write into a staging folder and move finished files into place, so a failed or
interrupted build leaves the previous outputs untouched and no partial file behind."""

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from companion.errors import CompanionError


@contextmanager
def staged(out: Path):
    """Yield an empty folder on the same file system as `out`; on success each file in it
    replaces its namesake in `out` (one atomic rename each); on any failure it is removed."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".staging-", dir=out))
    except OSError as e:
        raise CompanionError(f"cannot write here ({e.strerror})", source=str(out)) from None
    try:
        yield stage
        for f in sorted(stage.iterdir()):
            os.replace(f, out / f.name)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


@contextmanager
def replaced(path: Path):
    """Yield a temporary path beside `path`; once the block succeeds it becomes `path` in
    one rename. On failure the old file stays as it was."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        raise CompanionError(f"cannot write ({e.strerror})", source=str(path)) from None
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path: Path, text: str) -> None:
    """One file written whole or not at all."""
    with replaced(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
