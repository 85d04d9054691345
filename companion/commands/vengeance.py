"""`companion vengeance resolve`: which ritual object wins a turn."""

import json

import click

from companion.errors import CompanionError


@click.group(epilog="""\b
Examples:
  companion vengeance resolve --herb 1 --mineral 1 --potion 2 --artifact 12:potion --artifact 4:mineral""")
def vengeance():
    """Vengeance at the table: resolving a turn."""


@vengeance.command(epilog="""\b
Examples:
  companion vengeance resolve --herb 1 --mineral 1 --potion 2 --artifact 12:potion --artifact 4:mineral
  companion vengeance resolve --herb 2 --mineral 2 --json
  companion vengeance resolve --potion 3 --incantation 7 --incantation 2 --artifact 9:potion""")
@click.option("--herb", type=int, default=0, show_default=True,
              help="Herb objects revealed (0-33: 26 ritual + 7 transitory).")
@click.option("--mineral", type=int, default=0, show_default=True,
              help="Mineral objects revealed (0-28: 22 ritual + 6 transitory).")
@click.option("--potion", type=int, default=0, show_default=True,
              help="Potion objects revealed (0-23: 18 ritual + 5 transitory).")
@click.option("--artifact", "artifacts", multiple=True, metavar="N:TYPE",
              help="An artifact played: its number (1-13) and the type it removes (repeatable).")
@click.option("--incantation", "incantations", multiple=True, type=int, metavar="N",
              help="An incantation played: its number, 1-13 (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def resolve(herb, mineral, potion, artifacts, incantations, as_json):
    """The order things act in this turn, and which ritual object type wins.

    Count transitory objects with their type (RULINGS G3)."""
    from companion.rules import vengeance as rules
    from companion.rules.errors import ScoreError

    try:
        r = rules.resolve({"herb": herb, "mineral": mineral, "potion": potion},
                          [rules.artifact(a) for a in artifacts], list(incantations))
    except ScoreError as e:
        raise CompanionError(e.message, field=f"--{e.field}") from None
    if as_json:
        click.echo(json.dumps({"order": [s.as_dict() for s in r.order], "removed": r.removed,
                               "counts": r.counts, "winner": r.winner}))
        return
    click.echo(f"Centre: {herb} herb, {mineral} mineral, {potion} potion")
    for i, s in enumerate(r.order, 1):
        if s.kind == "incantation":
            click.echo(f"{i}. Incantation {s.number}: its witch's spell")
        elif s.discarded:
            click.echo(f"{i}. Artifact {s.number} ({s.type}): no ritual object left, discarded")
        else:
            click.echo(f"{i}. Artifact {s.number} removes every {s.type} ({s.removed})")
    left = ", ".join(f"{n} {t}" for t, n in r.counts.items())
    click.echo(f"Left: {left}")
    if r.winner:
        click.echo(f"Winner: {r.winner} (ties: potion, then mineral, then herb)")
    else:
        click.echo("Winner: none. Nothing is left: no demon action; play another turn.")
