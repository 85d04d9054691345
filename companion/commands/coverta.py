"""`companion coverta round|check`: Coverta at the table."""

import json

import click

from companion.commands import common
from companion.files.data import parse_toml
from companion.errors import CompanionError


@click.group(short_help="Coverta at the table: round scores and checking a row.", epilog="""\b
Examples:
  companion coverta round ledger.toml
  companion coverta check row.toml
  companion score coverta ledger.toml""")
def coverta():
    """Coverta at the table: a ledger of rounds, and checking a revealed player's row."""


@coverta.command(epilog="""\b
Examples:
  companion coverta round ledger.toml    (creates it on the first round)
  companion coverta round ledger.toml --lang fr

Hand counts are 0 to 39 (40 cards, one turned up to start). The round is typed first, then
added to the ledger as it stands at that moment, keeping its comments; two players adding
rounds at once both get theirs in. A round that cannot be added (for example the ledger's
players changed meanwhile) is kept in a side file, LEDGER.round-N.toml, which the error
names.""")
@click.argument("ledger", type=click.Path(dir_okay=False))
@click.option("--lang", type=common.WORDS, default="en", show_default=True,
              help="Words: en or fr.")
def round(ledger, lang):
    """Add one round to the LEDGER file and print the standings."""
    from pathlib import Path

    from companion.score import coverta as cv
    from companion.score import entry
    from companion.score import ledger as book

    lang = common.lang(lang)
    if ledger == "-":
        raise CompanionError("a ledger is a file that is rewritten, not standard input",
                             field="LEDGER")
    path = Path(ledger)
    if not path.parent.is_dir():  # before anything is typed
        raise CompanionError("no such folder", source=str(path.parent), field="LEDGER")
    seen = book.read(path)  # a bad ledger fails before anything is asked
    players = seen.standings.players if seen else cv.ask_players(entry.prompt, entry.echo, lang)
    typed = cv.ask_round(entry.prompt, entry.echo, players, lang)
    click.echo(cv.report(book.add_round(path, seen, players, typed), lang))


@coverta.command(epilog="""\b
Examples:
  companion coverta check row.toml
  companion coverta check row.toml --json
  companion coverta check row.toml --lang fr

\b
row.toml:
  start = "C12"                                # the card turned up to start
  plays = [ { card = "C07", row = "Ana" },     # every card laid, in table order
            { card = "C15", row = "Bo" },      # (passes left out)
            { card = "C33", row = "Ana" } ]
  rules = { Ana = ["keep:parity", "alternate:shape"] }   # each revealed player's 2 rules
  marked = ["C15"]                             # cards already under a token
  deal = "standard"      # optional: standard (one number rule, one symbol rule; the
                         # default) or three-card (any 2 of the 14, jokers included)""")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--data", type=click.Path(dir_okay=False),
              help="Your own companion/layouts/coverta.toml.")
@click.option("--lang", type=common.WORDS, default="en", show_default=True,
              help="Words: en or fr.")
def check(file, as_json, data, lang):
    """List every card in the revealed rows that breaks its owner's rules (RULINGS V5)."""
    from companion.score import coverta as cv
    from companion.rules.coverta_rows import check_rows, row_file
    from companion.rules.errors import ScoreError

    lang = common.lang(lang)
    text, source = common.read_input(file)
    table = parse_toml(text, source)
    try:
        row = row_file(table)
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field or None) from None
    deck = cv.deck(data)
    try:
        faults = check_rows(deck, row.start, row.plays, row.rules, row.marked, row.deal)
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field or None) from None
    if as_json:
        click.echo(json.dumps(cv.faults_json(faults)))
    else:
        click.echo(cv.faults_report(faults, lang, data))
