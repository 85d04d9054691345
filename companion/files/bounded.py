"""One bound on time and memory for every decoder of a designer's file (an SVG icon, a
font, a picture, a spreadsheet, a sheet's download): the decoder runs in a worker process
with a memory limit and a deadline, whatever the library does inside. A crafted file can
make a library loop for hours or allocate gigabytes from a few bytes (a CSS selector over
deep nesting, a font's character map of overlapping ranges); a pre-check guards only the
cases someone has thought of, the worker also bounds the ones no one has found yet.

    result = bounded.run(parse, raw, source=str(path), what="font")

A bound that trips, or a decoder that fails or crashes, is one CompanionError naming the
file, what it holds and the limit. The result comes back pickled through a pipe from a
process we started (never from a file). Callers keep what the worker worked out (fonts
and icons in companion.files.kept), so a warm build starts no worker at all.

The worker is a fork of this process (a few milliseconds, nothing to import again) when
this process runs one thread; with other threads running (a server, a file watcher) a
fork could inherit a lock held for ever, so it comes from multiprocessing's fork server."""

import os
import sys

from companion.errors import CompanionError

SECONDS = 20.0  # a honest icon, font or sheet decodes in well under a second
MEMORY = 1_500_000_000  # bytes the worker may add to this process's address space


class Failed(Exception):
    """What a decoder raises inside the worker to be reported as it says (one line)."""


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        return threading.active_count()


def _context():
    import multiprocessing

    if sys.platform.startswith("linux") or sys.platform == "darwin":
        return multiprocessing.get_context("fork" if _threads() == 1 else "forkserver")
    return multiprocessing.get_context("spawn")


def _address_space() -> int:
    """This process's virtual size in bytes (what RLIMIT_AS counts), 0 if unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _work(conn, memory: int, func, args) -> None:
    """In the worker: the limit set, `func(*args)` run, its result or its failure sent."""
    import faulthandler

    faulthandler.disable()  # a library that crashes is reported in one line, not a dump
    try:
        import resource

        limit = _address_space() + memory
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)  # never above a cap this process was given (root could)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass  # no such limit here: the deadline still holds
    try:
        out = ("ok", func(*args))
    except MemoryError:
        out = ("memory", None)
    except CompanionError as e:
        out = ("error", e.message)
    except Failed as e:
        out = ("error", str(e))
    except RecursionError:
        out = ("error", "nests too deep to read")
    except Exception as e:  # noqa: BLE001 - whatever a library raises on a bad file
        out = ("error", f"{type(e).__name__}: {str(e)[:120]}".rstrip(": "))
    try:
        conn.send(out)
    except MemoryError:
        conn.send(("memory", None))
    except Exception as e:  # noqa: BLE001 - a result that cannot be sent back
        conn.send(("error", f"could not be read ({type(e).__name__})"))
    finally:
        conn.close()
        os._exit(0)  # no atexit handlers, no flushing of the parent's buffers twice


def run(func, *args, source: str, what: str, seconds: float | None = None,
        memory: int | None = None):
    """`func(*args)` run in a worker process bounded to `seconds` and `memory` bytes
    (default SECONDS and MEMORY, read at each call); its result. A failure is a
    CompanionError naming `source` (the file) and `what` it holds. `func` must be a
    module-level function; its result must pickle."""
    seconds = SECONDS if seconds is None else seconds
    memory = MEMORY if memory is None else memory
    ctx = _context()
    theirs, ours = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_work, args=(ours, memory, func, args), daemon=True)
    try:
        worker.start()
    except OSError as e:
        raise CompanionError(f"could not start a worker to read this {what} "
                             f"({e.strerror or e})", source=source) from None
    ours.close()
    try:
        if not theirs.poll(seconds):
            raise CompanionError(f"this {what} takes over {seconds:g} s to read, the "
                                 "most one may: refused (simplify it)", source=source)
        try:
            status, value = theirs.recv()
        except (EOFError, OSError):
            status, value = "crashed", None
    finally:
        theirs.close()
        if worker.is_alive():
            worker.kill()
        worker.join()
    if status == "ok":
        return value
    if status == "memory" or (status == "crashed" and worker.exitcode in (-9, -6)):
        raise CompanionError(f"this {what} needs over {memory // 1_000_000:,} MB to read, "
                             "the most one may: refused (simplify it)", source=source)
    if status == "crashed":
        raise CompanionError(f"this {what} could not be read (its reader stopped with "
                             f"code {worker.exitcode})", source=source)
    raise CompanionError(f"this {what} could not be read: {value}", source=source)
