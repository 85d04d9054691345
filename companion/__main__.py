"""`python -m companion` and the `companion` command. Ctrl+C is taken over first, before
click and the commands are imported, so that it is one line even during start-up."""

import sys

from companion import interrupt


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
