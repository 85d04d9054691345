"""`companion coverta round|check`: Coverta at the table."""

import json

import click

from companion.commands import common
from companion.data import parse_toml
from companion.errors import CompanionError


@click.group(epilog="""\b
Examples:
  companion coverta round ledger.toml
  companion coverta check row.toml
  companion score coverta ledger.toml""")
def coverta():
    """Coverta at the table: a ledger of rounds, and checking a revealed player's row."""


def _scored(table, source):
    from scorers.coverta import standings
    from scorers.errors import ScoreError

    try:
        return standings(table)
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field or None) from None


@coverta.command(epilog="""\b
Examples:
  companion coverta round ledger.toml    (creates it on the first round)

The ledger is rewritten whole after each round, so a crash never loses earlier rounds.""")
@click.argument("ledger", type=click.Path(dir_okay=False))
def round(ledger):
    """Add one round to the LEDGER file and print the standings."""
    from pathlib import Path

    from companion.atomic import write_text
    from companion.score import coverta as cv

    echo = lambda t: click.echo(t, err=True)  # noqa: E731
    path = Path(ledger)
    if path.exists():
        text, source = common.read_input(ledger)
        table = parse_toml(text, source)
        _scored(table, source)  # a bad ledger fails before anything is asked
    else:
        table = {"players": cv.ask_players(common.prompt, echo), "rounds": []}
    table.setdefault("rounds", []).append(cv.ask_round(common.prompt, echo, table["players"]))
    result = _scored(table, ledger)
    write_text(path, cv.to_toml(table))
    click.echo(cv.report(result))


@coverta.command(epilog="""\b
Examples:
  companion coverta check row.toml
  companion coverta check row.toml --json

\b
row.toml:
  start = "C12"                                # the card turned up to start
  plays = [ { card = "C07", row = "Ana" },     # every card laid, in table order
            { card = "C15", row = "Bo" },      # (passes left out)
            { card = "C33", row = "Ana" } ]
  rules = { Ana = ["keep:parity", "alternate:shape"] }   # the revealed rules
  marked = ["C15"]                             # cards already under a token""")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--data", type=click.Path(dir_okay=False), help="Your own layouts/coverta.toml.")
def check(file, as_json, data):
    """List every card in the revealed rows that breaks its owner's rules (RULINGS V5)."""
    from companion.score import coverta as cv
    from scorers.coverta import check_rows
    from scorers.errors import ScoreError

    text, source = common.read_input(file)
    t = parse_toml(text, source)
    try:
        plays = t.get("plays", [])
        if not isinstance(plays, list) or not all(isinstance(p, dict) for p in plays):
            raise ScoreError("plays", "a list of { card = CODE, row = NAME }")
        pairs = [(p.get("card"), p.get("row")) for p in plays]
        rules = t.get("rules")
        if not isinstance(rules, dict) or not rules:
            raise ScoreError("rules", "give the revealed rules, e.g. { Ana = [\"keep:parity\"] }")
        faults = check_rows(cv.deck(data), t.get("start", ""), pairs, rules,
                            t.get("marked", []))
    except ScoreError as e:
        raise CompanionError(e.message, source=source, field=e.field) from None
    if as_json:
        click.echo(json.dumps(cv.faults_json(faults)))
    else:
        click.echo(cv.faults_report(faults))
