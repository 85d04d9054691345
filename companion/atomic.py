"""Outputs are written aside and put in place in one step, so a failed, interrupted or
killed command leaves the previous output as it was and no partial file behind.

A kit is a folder: it is built whole in a staging folder beside it, then swapped in by
two renames (old kit aside, new kit in). A build killed between the two is undone by the
next one, which puts the old kit back. Builds of one kit folder hold its lock, so one
never removes another's staging folder."""

import os
import secrets
import shutil
from contextlib import contextmanager
from pathlib import Path

from companion import lock
from companion.errors import CompanionError

KIT_MARK = "manifest.json"  # a folder holding it is a kit: ours to replace


def _os_error(e: OSError, where: Path) -> CompanionError:
    return CompanionError(f"cannot write ({e.strerror or e})", source=str(where))


@contextmanager
def kit_folder(out: Path):
    """Yield an empty folder; when the block succeeds it becomes `out`, replacing the
    earlier kit whole (so files a smaller --only build no longer lists go too). On any
    failure `out` is left exactly as it was."""
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with lock.held(out, "building this kit"):
            _recover(out)
            _refuse_foreign(out)
            # mkdir, not mkdtemp: the kit gets the user's usual permissions, not 0700.
            stage = out.with_name(f".{out.name}.staging-{os.getpid()}-{secrets.token_hex(3)}")
            stage.mkdir()
            try:
                yield stage
                _swap(stage, out)
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
    if not out.is_dir():
        raise CompanionError("is a file, not a folder for the kit", source=str(out),
                             field="--out")
    visible = [p for p in out.iterdir() if not p.name.startswith(".")]
    ours = (out / KIT_MARK).is_file() or set(visible) <= set(_nested_outputs(out))
    if visible and not ours:
        raise CompanionError("holds files that are not a kit: give a new or empty folder",
                             source=str(out), field="--out")


def _swap(stage: Path, out: Path) -> None:
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.rename(out, old)
    try:
        os.rename(stage, out)
    except OSError:
        if old.exists():
            os.rename(old, out)
        raise
    if old.exists():
        _carry_exports(old, out)
        shutil.rmtree(old, ignore_errors=True)


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
        raise _os_error(e, path) from None
    finally:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def write_text(path: Path, text: str) -> None:
    """One file written whole or not at all."""
    with replaced(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
