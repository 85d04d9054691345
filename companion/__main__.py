"""`python -m companion` and the `companion` command. Ctrl+C is taken over first, before
click and the commands are imported, so that it is one line even during start-up."""

import os
import sys

# numpy (ezdxf's cut files, colorspacious's simulations) starts OpenBLAS's threads when it
# is imported; a process with threads gives a designer's files to workers made by
# multiprocessing's fork server (companion.files.bounded), which start slower. We never
# multiply matrices large enough to want them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from companion import interrupt  # noqa: E402


def main() -> None:
    interrupt.install()
    try:
        from companion.cli import main as run
    except interrupt.Interrupted:
        sys.stderr.write(f"companion: {interrupt.line()}\n")
        sys.exit(interrupt.EXIT)
    run()


if __name__ == "__main__":
    main()
