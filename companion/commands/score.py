"""`companion score GAME`: end scores at the table."""

import click

from companion.commands import common
from companion.files.data import parse_toml
from companion.errors import CompanionError


class _Games(click.Group):
    """The bundled games' commands, and a designer's game by its file's path: `companion
    score mygame/mygame.toml scores.toml` scores it from its [[scoring]]."""

    def get_command(self, ctx, name):
        if name not in self.commands:
            from companion import games

            if games.is_path(name):
                return _own_game(name)
        return super().get_command(ctx, name)


@click.group(cls=_Games, epilog="""\b
Examples:
  companion score covenia game.toml
  companion score covenia game.toml --json
  companion score covenia --save game.toml
  companion score coverta ledger.toml --json
  companion score mygame/mygame.toml scores.toml    (your own game: its [[scoring]])
  companion score mygame/mygame.toml scores.toml --lang fr --pdf pad.pdf""")
def score():
    """Score a finished game from what lies on the table."""


def _own_game(game_file: str) -> click.Command:
    @click.command(game_file, epilog="""\b
scores.toml: a table per player, a whole number per category of [[scoring]]
(a list of values for sum, lowest and highest; with [game] rounds = N, a list of
N of those, one a round); with [game] factions, each player's faction:
  [[players]]
  name = "Ana"
  faction = "Otters"
  creatures = 12
  pairs = 3""")
    @click.argument("file")
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
    @click.option("--lang", type=common.WORDS, default="en", show_default=True,
                  help="Words: en or fr.")
    @click.option("--pdf", type=click.Path(dir_okay=False),
                  help="Also write the filled score pad.")
    @click.option("--paper", type=common.PAPER_WITH_PDF,
                  help="Paper for --pdf: a4 (the default) or letter.")
    def own(file, as_json, lang, pdf, paper):
        """Your own game's end scores, from its game file's score categories."""
        import json

        from companion.files.data import load_fields
        from companion.games.factions import factions, with_factions
        from companion.score import scoring_words
        from companion.rules.errors import ScoreError
        from companion.rules.scoring import score as compute

        lang = common.lang(lang)
        if paper is not None and not pdf:
            raise CompanionError("goes with --pdf (the paper of the filled pad)",
                                 field="--paper")
        paper = paper or "a4"
        if pdf:  # before anything is read or written
            from companion.press import presets

            presets.paper_size(paper)
        data = load_fields(game_file)
        if not scoring_words.has_scoring(data):
            raise CompanionError("lists no score categories: add [[scoring]] tables (id, "
                                 "name, score)", source=game_file, field="scoring")
        rules = scoring_words.rules(data)
        text, source = common.read_input(file)
        table = parse_toml(text, source)
        if set(table) - {"players"}:
            raise CompanionError("unknown field (a score file holds [[players]])",
                                 source=source, field=sorted(set(table) - {"players"})[0])
        if pdf:  # every input read, nothing yet worked out nor written
            from companion.files import atomic

            atomic.guard(pdf, "--pdf")
        sides = factions(data)
        try:  # a player's faction (the phones record it) is checked, not scored
            players, chosen = with_factions(table.get("players"), sides, rules)
            result = compute(rules, players)
        except ScoreError as e:
            raise CompanionError(e.message, source=source, field=e.field or None) from None
        chosen = chosen if sides else None
        _outside(data, len(result.players), lang)
        if pdf:
            from companion.games import filled_pad

            if filled_pad.write_pdf(pdf, data, rules, result, chosen, lang, paper):
                from companion.press.fonts import PLACEHOLDER

                click.echo(f"Note: {pdf} prints as {PLACEHOLDER} the characters of names "
                           "that the bundled font cannot draw.", err=True)
        click.echo(json.dumps(scoring_words.as_json(result, rules, chosen), ensure_ascii=False)
                   if as_json else scoring_words.report(rules, result, data, lang, chosen))
    return own


def _outside(data, count: int, lang: str) -> None:
    """A line (on stderr) when the players scored lie outside the game file's [game]
    players: scored all the same."""
    from companion.games.players import players
    from companion.score.scoring_words import kinds

    span = players(data)
    if span and not span[0] <= count <= span[1]:
        click.echo(kinds().text("players_outside", lang).format(
            players=count, least=span[0], most=span[1]), err=True)


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
@click.option("--lang", type=common.WORDS, default="en", show_default=True,
              help="Words: en or fr.")
@click.option("--pdf", type=click.Path(dir_okay=False), help="Also write the filled score-book page.")
@click.option("--paper", type=common.PAPER_WITH_PDF,
              help="Paper for --pdf: a4 (the default) or letter.")
@click.option("--save", type=click.Path(dir_okay=False),
              help="Write what was entered (or FILE's content) as a score file, once it "
                   "scores; nothing is written on an error.")
def score_covenia(file, as_json, lang, pdf, paper, save):
    """Covenia end scores, explained line by line, and the winner.

    FILE is a TOML score file ('-' for standard input); without it, type the table in."""
    import json

    from companion.score import covenia as sc
    from companion.rules.errors import ScoreError

    lang = common.lang(lang)
    if paper is not None and not pdf:
        raise CompanionError("goes with --pdf (the paper of the score-book page)",
                             field="--paper")
    paper = paper or "a4"
    keep = _save_target(save, file)  # before a table is typed in
    if pdf:  # before a table is typed in, and before anything is written
        from companion.press import presets

        presets.paper_size(paper)
    # The words are read only where they are shown: --json alone needs none of them.
    data = sc.words(layouts=bool(pdf)) if pdf or file is None or not as_json else None
    if file is None:
        from companion.score import entry

        table, source = sc.ask(entry.prompt, entry.echo, data, lang), "entry"
    else:
        text, source = common.read_input(file)
        table = parse_toml(text, source)
    if pdf:  # every input read, nothing yet worked out nor written
        from companion.files import atomic

        atomic.guard(pdf, "--pdf")
    try:
        result = sc.score(table)  # before anything is written: only what scores is saved
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field or None) from None
    # The scores first: a file that cannot be written then loses nothing shown.
    if as_json:
        click.echo(json.dumps(sc.as_json(result), ensure_ascii=False))
    else:
        click.echo(sc.report(result, data, lang))
    try:
        if pdf:  # the PDF first: a PDF that cannot be written leaves --save's file as it was
            if sc.write_pdf(pdf, result, data, lang, paper):
                from companion.press.fonts import PLACEHOLDER

                click.echo(f"Note: {pdf} prints as {PLACEHOLDER} the characters of names that "
                           "the bundled font cannot draw.", err=True)
        if keep:
            from companion.files.atomic import write_text

            write_text(save, sc.to_toml(table))
    except (CompanionError, OSError) as e:
        if file is None:  # typed in: kept where it can be, and said where
            _keep_typed(sc.to_toml(table))
        raise e if isinstance(e, CompanionError) else CompanionError(
            f"cannot write: {e.strerror or e}", source=e.filename or save) from None


def _save_target(save: str | None, file: str | None) -> bool:
    """Whether --save writes: never over a file that exists (it may be another game's, or
    hold comments a rewrite would drop); --save naming FILE itself keeps it as it is."""
    import os

    if save and not os.path.lexists(save):
        folder = os.path.dirname(os.path.abspath(save))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
            raise CompanionError("cannot be written: its folder is missing or not writable "
                                 "(nothing was asked)", source=save, field="--save")
        return True
    if not save:
        return False
    if file and file != "-" and os.path.exists(file) and os.path.samefile(save, file):
        click.echo(f"Note: {save} is the file read: kept as it is.", err=True)
        return False
    raise CompanionError("already exists: give a new file name (nothing was overwritten)",
                         source=save, field="--save")


def _keep_typed(text: str) -> None:
    """A game typed in whose file could not be written, kept in the cache folder, and where
    it is said: what a player typed is never lost."""
    import time

    from companion.files import paths
    from companion.files.atomic import write_text

    kept = paths.cache("typed") / time.strftime("covenia-%Y%m%d-%H%M%S.toml")
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        write_text(kept, text)
    except (CompanionError, OSError):  # no cache either: the text itself, on the terminal
        click.echo("The game typed in (save it as a .toml file):\n" + text, err=True)
        return
    click.echo(f"Note: the game typed in is kept in {kept} (companion score covenia "
               f"{kept} scores it again).", err=True)


@score.command("coverta", epilog="""\b
Examples:
  companion score coverta ledger.toml
  companion score coverta ledger.toml --json
  companion score coverta ledger.toml --lang fr

\b
ledger.toml:
  players = ["Ana", "Bo", "Cy"]
  [[rounds]]
  hands = { Ana = 0, Bo = 3, Cy = 5 }
  first_steal = "Bo"      # optional: first to play correctly in another's place
  [[rounds]]
  hands = { Ana = 2, Bo = 1, Cy = 1 }""")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--lang", type=common.WORDS, default="en", show_default=True,
              help="Words: en or fr.")
def score_coverta(file, as_json, lang):
    """Coverta points per round and running totals (RULINGS V6); lowest total wins."""
    import json

    from companion.score import coverta as cv
    from companion.score.ledger import scored

    lang = common.lang(lang)
    text, source = common.read_input(file)
    result = scored(parse_toml(text, source), source)
    click.echo(json.dumps(cv.as_json(result)) if as_json else cv.report(result, lang))
