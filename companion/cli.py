"""The `companion` command. Thin: it parses, calls the library, prints.
Heavy imports (reportlab) happen inside the commands that need them, so that
`companion score ...` starts fast. `main` is the one place errors become exit codes."""

import sys

import click

from companion.errors import CompanionError

EXIT_BAD_INPUT = 2


class Failure(Exception):
    """A command's own verdict other than success (for example a draw that does not verify)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples:
  companion build all
  companion build covenia --paper letter --lang fr
  companion score covenia game.toml --json
  companion COMMAND --help""")
@click.version_option(package_name="table-companion", prog_name="companion")
def cli():
    """table-companion: print-and-play kits and table helpers for Covenia, Coverta,
    Lugvanion and Vengeance."""


def _split(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


@cli.command(short_help="Build a print-and-play kit: PDFs, manifest, guide.", epilog="""\b
Examples:
  companion build covenia
  companion build covenia --paper letter --lang fr
  companion build covenia --only cards,tokens --flip short --out ~/print
  companion build covenia --card-size 63x88mm --bleed 2mm
  companion build covenia --data my-covenia.toml
  companion build all""")
@click.argument("game")
@click.option("--paper", default="a4", show_default=True, help="a4 or letter.")
@click.option("--lang", default="en", show_default=True, help="Printed language: en or fr.")
@click.option("--card-size", default="poker", show_default=True,
              help="poker, bridge, euro, mini-euro, mini-usa, tarot, square, or WxH like 63x88mm.")
@click.option("--bleed", default="0mm", show_default=True,
              help="Bleed around each card, e.g. 3mm (fewer cards per sheet).")
@click.option("--flip", default="long", show_default=True,
              help="Duplex: long (backs mirrored), short (backs turned 180°), none (no backs).")
@click.option("--only", help="Comma-separated parts to build, e.g. cards,tokens (default: all).")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: output/GAME).")
@click.option("--data", type=click.Path(dir_okay=False),
              help="Your own copy of the game's layouts/GAME.toml.")
def build(game, paper, lang, card_size, bleed, flip, only, out, data):
    """Build a game's print-and-play kit: PDFs, manifest.json and a print guide."""
    from pathlib import Path

    from companion import kit

    games = list(kit.GAMES) if game == "all" else [game]
    if data and game == "all":
        raise CompanionError("--data names one game's file; build one game with it",
                             field="--data")
    for name in games:
        kit.game_module(name)  # an unknown game fails before anything is drawn
    for name in games:
        target = Path(out) / name if out and game == "all" else out
        opts = kit.Options(paper=paper, lang=lang, card_size=card_size, bleed=bleed, flip=flip,
                           only=_split(only), out=target, data=data)
        with _Progress(name) as progress:
            manifest = kit.build(name, opts, progress)
        where = target or kit.paths.OUTPUT / name
        files = ", ".join(f"{f['path']} ({f['pages']} pages)" for f in manifest["files"])
        click.echo(f"{name}: {where}/ {files}, manifest.json, print-guide.txt")


class _Progress:
    """A progress bar on a terminal, nothing elsewhere."""

    def __init__(self, label: str):
        self.label, self.bar = label, None

    def __enter__(self):
        if sys.stderr.isatty():
            self.bar = click.progressbar(length=6, label=f"building {self.label}",
                                         file=sys.stderr, show_eta=False)
            self.bar.__enter__()
        return self

    def __call__(self, step: str) -> None:
        if self.bar:
            self.bar.label = f"building {self.label}: {step}"
            self.bar.update(1)

    def __exit__(self, *exc):
        if self.bar:
            self.bar.update(self.bar.length)
            self.bar.__exit__(*exc)


@cli.group(epilog="""\b
Examples:
  companion score covenia game.toml
  companion score covenia game.toml --json
  companion score covenia --save game.toml""")
def score():
    """Score a finished game from what lies on the table."""


def _lang(lang: str) -> str:
    if lang not in ("en", "fr"):
        raise CompanionError(f"unknown language {lang!r} (use en, fr)", field="--lang")
    return lang


def _read_input(file: str) -> tuple[str, str]:
    """(text, name for messages) of a FILE argument, '-' meaning standard input."""
    if file == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(file, encoding="utf-8") as f:
            return f.read(), file
    except FileNotFoundError:
        raise CompanionError("no such file", source=file) from None
    except (OSError, UnicodeDecodeError) as e:
        raise CompanionError(f"cannot read ({e})", source=file) from None


def _prompt(text: str, default: str) -> str:
    return click.prompt(text, default=default, show_default=bool(default), err=True)


@score.command("covenia", epilog="""\b
Examples:
  companion score covenia game.toml
  companion score covenia game.toml --json
  companion score covenia game.toml --lang fr --pdf score.pdf
  companion score covenia --save game.toml      (type the table in, keep it)
  cat game.toml | companion score covenia -

\b
game.toml:
  decks = "A"          # optional: A, B or AB (default: 2 players one deck, 3-4 both)
  [[players]]
  name = "Emma"
  area = { red = [1, 4, 6], yellow = [2, 8], green = [3], blue = [4, 5], purple = [1, 2, 3] }
  hand = { yellow = [5], green = [9], purple = [9] }""")
@click.argument("file", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--lang", default="en", show_default=True, help="Words: en or fr.")
@click.option("--pdf", type=click.Path(dir_okay=False), help="Also write the filled score-book page.")
@click.option("--paper", default="a4", show_default=True, help="Paper for --pdf: a4 or letter.")
@click.option("--save", type=click.Path(dir_okay=False),
              help="Write what was entered at the terminal as a score file.")
def score_covenia(file, as_json, lang, pdf, paper, save):
    """Covenia end scores, explained line by line, and the winner.

    FILE is a TOML score file ('-' for standard input); without it, type the table in."""
    import json

    from companion.atomic import write_text
    from companion.score import covenia as sc
    from scorers.covenia import score as compute
    from scorers.errors import ScoreError

    lang = _lang(lang)
    data = sc.words()
    if file is None:
        table, source = sc.ask(_prompt, lambda t: click.echo(t, err=True), data, lang), "entry"
    else:
        text, source = _read_input(file)
        table = sc.parse_text(text, source)
    if save:
        write_text(save, sc.to_toml(table))
    try:
        result = compute(table)
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field) from None
    if pdf:
        sc.write_pdf(pdf, result, data, lang, paper)
    if as_json:
        click.echo(json.dumps(sc.as_json(result), ensure_ascii=False))
    else:
        click.echo(sc.report(result, data, lang))


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
