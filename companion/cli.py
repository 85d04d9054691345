"""The `companion` command. Thin: it parses, calls the library, prints.
Heavy imports (reportlab) happen inside the commands that need them, so that
`companion score ...` starts fast. `main` is the one place errors become exit codes."""

import gc
import importlib
import sys

import click

from companion.commands.common import Failure
from companion import interrupt
from companion.files import inputs
from companion.errors import CompanionError, escape

EXIT_BAD_INPUT = 2
NO_ANSWER = "no answer: nothing was written"  # the input ended at a question: exit 1

# A group named alone (`companion`, `companion score`): click 8.2+ raises this usage error
# with the help as its message (exit 2); click 8.1 printed the help and exited 0.
_BARE_GROUP = getattr(click.exceptions, "NoArgsIsHelpError", ())


# Each command's module, imported only when that command runs (or --help lists them):
# `companion score ...` loads neither the kit builder, nor the server, nor reportlab.
COMMANDS = {name: f"companion.commands.{name}" for name in
            ("build", "export", "init", "new", "score", "lugvanion", "vengeance", "coverta",
             "serve", "playtest", "preflight", "check", "calibrate", "docs", "icc")}


class _Commands(click.Group):
    def list_commands(self, ctx) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx, name: str):
        if name not in COMMANDS:
            return None
        return getattr(importlib.import_module(COMMANDS[name]), name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples:
  companion build all
  companion build covenia --paper letter --lang fr
  companion init covenia        (your own copy of the cards to edit)
  companion score covenia game.toml --json
  companion serve --players red,blue,green
  companion COMMAND --help""")
@click.version_option(package_name="table-companion", prog_name="companion")
def cli():
    """table-companion: print-and-play kits and table helpers for Covenia, Coverta,
    Lugvanion and Vengeance."""


def _tolerant_streams() -> None:
    """A terminal or redirect that cannot encode a character (a Windows console, cp1252)
    shows a replacement instead of crashing the command."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure") and stream.errors == "strict":
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):
                pass


def _say(message: str) -> None:
    click.echo(f"companion: {escape(message)}", err=True)


def main(argv: list[str] | None = None) -> None:
    if argv is None:  # the process's own command line: Ctrl+C is ours to say (interrupt.py)
        interrupt.install()
    interrupt.forget()
    inputs.forget()
    try:
        _main(argv)
    finally:
        if argv is None:  # the process's own command line: it ends with the command
            # Everything the command made lives until the process ends: the cyclic
            # collector's passes over it all at exit find nothing worth their time (a
            # tenth of a cold kit build's). Not so for a caller that goes on (a test).
            gc.freeze()


def _main(argv: list[str] | None) -> None:
    from companion.rules.errors import ScoreError

    _tolerant_streams()
    try:
        code = cli.main(args=argv, prog_name="companion", standalone_mode=False)
    except (CompanionError, ScoreError) as e:
        _say(e.line())
        sys.exit(EXIT_BAD_INPUT)
    except _BARE_GROUP as e:  # asking what a group does is no error: its help, exit 0
        click.echo(e.ctx.get_help(), color=e.ctx.color)
        sys.exit(0)
    except click.UsageError as e:
        hint = f" (see: {e.ctx.command_path} --help)" if e.ctx else ""
        _say(f"{e.format_message()}{hint}")
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.Abort:  # the input ended at a question, or a caller's Ctrl+C
        if isinstance(sys.exc_info()[1].__context__, EOFError):  # Ctrl+D: no answer
            _say(NO_ANSWER)
            sys.exit(1)
        _say(interrupt.line())
        sys.exit(interrupt.EXIT)
    except click.ClickException as e:
        _say(e.format_message())
        sys.exit(e.exit_code)
    except Failure as e:
        _say(str(e))
        sys.exit(e.code)
    except OSError as e:  # the system refused a file or a device: one line, never a traceback
        where = f"{e.filename}: " if e.filename else ""
        _say(f"{where}{e.strerror or e}")
        sys.exit(EXIT_BAD_INPUT)
    except (KeyboardInterrupt, interrupt.Interrupted):
        _say(interrupt.line())
        sys.exit(interrupt.EXIT)
    sys.exit(code if isinstance(code, int) else 0)
