"""Ctrl+C at any moment: one line, exit 130, and the line true to what is on disk.

The command line installs `stop` as the SIGINT handler before it imports anything heavy.
It raises `Interrupted`, not KeyboardInterrupt, so that neither click (which turns a
KeyboardInterrupt into a blank line and "Aborted") nor a library (watchfiles logs its own
line) catches it and speaks first: it goes up to companion.cli, which says `line()`.
Each output put in place whole (a kit folder swapped in, a file renamed over) is recorded
with `wrote`, so that a Ctrl+C coming after it says so instead of "nothing written"."""

import _signal
import os
import sys  # the signal module's core: `signal` itself imports enum, slow to start

EXIT = 130  # 128 + SIGINT, what a shell reports for a command Ctrl+C stopped


class Interrupted(BaseException):
    """Ctrl+C, raised by `stop`. A BaseException, as KeyboardInterrupt is: no
    `except Exception` swallows it, and every `finally` (locks, staging folders) runs."""


_written: list[str] = []
_held = [0, False]  # [blocks holding Ctrl+C back, whether one came meanwhile]


def stop(signum=None, frame=None):
    if _held[0]:
        _held[1] = True  # said when the block ends (held_back)
        return
    raise Interrupted


class held_back:
    """A block Ctrl+C does not cut in two: one that came inside it is raised at its end.
    Around a step that puts an output in place and records it (`wrote`), so that the
    line said is true whatever the moment: the old output and "nothing was written", or
    the new one and "had already been written whole". Only around steps that cannot
    wait on anything (renames, never a write into a pipe)."""

    def __enter__(self):
        _held[0] += 1

    def __exit__(self, *exc):
        _held[0] -= 1
        if not _held[0] and _held[1]:
            _held[1] = False
            raise Interrupted
        return False


def install() -> None:
    """From now on Ctrl+C raises Interrupted (the process's own command line only); one
    that comes where nothing of ours catches it (between the start-up's lines) ends the
    process with the same line."""
    _signal.signal(_signal.SIGINT, stop)
    sys.excepthook = _uncaught


def _uncaught(kind, value, tb) -> None:
    if not issubclass(kind, Interrupted):
        return sys.__excepthook__(kind, value, tb)
    sys.stderr.write(f"companion: {line()}\n")
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(EXIT)  # an uncaught exception's own exit status would be 1


def forget() -> None:
    """A new command (a caller may run several in one process)."""
    _written.clear()
    _held[:] = [0, False]


def wrote(path) -> None:
    """`path` is in place, whole: said if Ctrl+C comes before the command ends."""
    if str(path) not in _written:
        _written.append(str(path))


def line() -> str:
    if not _written:
        return "interrupted; nothing was written"
    return f"interrupted; {', '.join(_written)} had already been written whole"
