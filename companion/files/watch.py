"""`companion build GAME --watch`: build, then rebuild whenever a file the build read (the
data file, its spreadsheets, its pictures) is saved. A bad edit prints its one-line error
and leaves the last good kit in place; the next save tries again."""

from pathlib import Path
from typing import Callable

from companion.files import inputs
from companion.errors import CompanionError

LOOK = 250  # ms: how often the watcher looks at the files' stamps too


def watch(build: Callable[[], object], say: Callable[[str], None],
          stop_event=None, bundled: Path | None = None) -> None:
    """Runs build() now and after each change to what it read; returns on Ctrl+C or when
    stop_event is set. The package's own bundled files are not watched (they do not change
    under a user's edits) unless nothing else was read. Ctrl+C is how a watch ends: the
    same exit (0) whether it comes while waiting or in a rebuild (which is dropped whole,
    the last good kit kept)."""
    from companion.files import kept

    kept.in_process = {}  # each face's drawing, kept for the next build (issue 36)
    from companion.interrupt import Interrupted

    try:
        _watch(build, say, stop_event, bundled)
    except (KeyboardInterrupt, Interrupted):  # ours, before watchfiles could log its own
        pass
    finally:
        kept.in_process = None
    say("stopped watching; the last good kit is in place")


def _watch(build, say, stop_event, bundled) -> None:
    import watchfiles

    files = _attempt(build, say) or {}
    watched: set[Path] = set()
    folders: list[Path] = []
    events = None
    while True:
        watched.clear()
        watched.update({f for f in files if bundled is None or not _under(f, bundled)} or files)
        if not watched:
            say("nothing to watch")
            return
        if sorted({f.parent for f in watched}) != folders:
            # One watcher stays open across builds, so a save made during a build is
            # delivered afterwards, never lost; a new one only when the folders change.
            folders = sorted({f.parent for f in watched})
            # It yields nothing every LOOK ms: a save made before it began to watch
            # (it begins at the first next()) is then found by its file's stamp.
            events = iter(watchfiles.watch(
                *folders, watch_filter=lambda _, p: Path(p).resolve() in watched,
                debounce=50, step=20, stop_event=stop_event, raise_interrupt=True,
                recursive=False, rust_timeout=LOOK, yield_on_timeout=True))
        stale = [f for f in watched if inputs.stamp(f) != files.get(f)]
        if stale:  # saved while the build ran: build again now
            names = ", ".join(sorted({f.name for f in stale}))
        else:
            say(f"watching {len(watched)} files; Ctrl+C to stop")
            while True:
                changes = next(events, None)
                if changes is None:  # stopped
                    return
                if changes:
                    names = ", ".join(sorted({Path(p).name for _, p in changes}))
                    break
                stale = [f for f in watched if inputs.stamp(f) != files.get(f)]
                if stale:
                    names = ", ".join(sorted({f.name for f in stale}))
                    break
        say(f"changed: {names}; rebuilding")
        files = _attempt(build, say) or files


def _attempt(build, say) -> dict[Path, int | None] | None:
    """{file read: its modification time then}, or None if nothing was read; a failed
    build says its error and keeps the last good kit. A failure that is our fault, not
    the input's (an exception no check words), is one line too, never the end of the
    watch: what the process kept of earlier builds is dropped (it may be what failed),
    so the next build draws afresh."""
    from companion.files import kept

    inputs.forget()  # each rebuild a command of its own: its outputs guarded by its inputs
    with inputs.noted() as files:
        try:
            build()
        except CompanionError as e:
            say(f"companion: {e.line()} (the last good kit is kept; save again to retry)")
        except Exception as e:  # noqa: BLE001 - a watch outlives a rebuild's bug
            if kept.in_process is not None:
                kept.in_process.clear()
            what = " ".join(str(e).split())[:200] or "no detail"
            say(f"companion: the rebuild failed ({type(e).__name__}: {what}); the last good "
                "kit is kept; save again to retry")
    return dict(files) or None


def _under(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder.resolve())
        return True
    except ValueError:
        return False
