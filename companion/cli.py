"""The `companion` command. Thin: it parses, calls the library, prints.
Heavy imports (reportlab) happen inside the commands that need them, so that
`companion score ...` starts fast. `main` is the one place errors become exit codes."""

import sys

import click

from companion.commands import build, coverta, lugvanion, score, serve, vengeance
from companion.commands.common import Failure
from companion.errors import CompanionError

EXIT_BAD_INPUT = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples:
  companion build all
  companion build covenia --paper letter --lang fr
  companion score covenia game.toml --json
  companion serve --players red,blue,green
  companion COMMAND --help""")
@click.version_option(package_name="table-companion", prog_name="companion")
def cli():
    """table-companion: print-and-play kits and table helpers for Covenia, Coverta,
    Lugvanion and Vengeance."""


cli.add_command(build.build)
cli.add_command(score.score)
cli.add_command(lugvanion.lugvanion)
cli.add_command(vengeance.vengeance)
cli.add_command(coverta.coverta)
cli.add_command(serve.serve)


def main(argv: list[str] | None = None) -> None:
    from scorers.errors import ScoreError

    try:
        code = cli.main(args=argv, prog_name="companion", standalone_mode=False)
    except (CompanionError, ScoreError) as e:
        click.echo(f"companion: {e.line()}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as e:
        hint = f" (see: {e.ctx.command_path} --help)" if e.ctx else ""
        click.echo(f"companion: {e.format_message()}{hint}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.Abort:
        click.echo("companion: aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        click.echo(f"companion: {e.format_message()}", err=True)
        sys.exit(e.exit_code)
    except Failure as e:
        click.echo(f"companion: {e}", err=True)
        sys.exit(e.code)
    except KeyboardInterrupt:
        click.echo("companion: interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
