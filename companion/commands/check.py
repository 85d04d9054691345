"""`companion check GAME`: the legibility check (companion.kit.legibility): faces that
differ only by colour, alike as designed, with a colour vision deficiency or printed in
greyscale, a line each; legibility.pdf beside. Exit 0 with findings, 2 under --strict."""

from pathlib import Path

import click

from companion.commands import common
from companion.errors import CompanionError, escape


@click.command(short_help="Check that every player can tell the cards apart (colour vision, greyscale).",
               epilog="""\b
Examples:
  companion check covenia
  companion check mygame/mygame.toml --strict
  companion check all""")
@click.argument("game", **common.GAME)
@click.option("--lang", type=common.LANGUAGE, default="en", show_default=True,
              help="Printed language: en, fr, or one your game file is written in.")
@click.option("--card-size", type=common.CARD_SIZE, default="poker", show_default=True,
              help="The card size the faces are laid out at.")
@click.option("--out", type=click.Path(file_okay=False),
              help="Output folder (default: ./output/GAME-check).")
@click.option("--strict", is_flag=True, help="Exit 2 when there is a finding.")
def check(game, lang, card_size, out, strict):
    """Render every face as designed, with deuteranopia, protanopia and tritanopia, and
    in greyscale; list the faces that differ only by colour and look alike in one of
    these views; write legibility.pdf (the findings, then every face in each view)."""
    from companion import kit
    from companion.games import bundled
    from companion.kit import legibility

    names = list(bundled()) if game == "all" else [game]
    for name in names:
        kit.game_module(name)  # an unknown game fails before anything is drawn
    found = 0
    for name in names:
        target = Path(out) / name if out and game == "all" else out
        report = legibility.check(name, lang, card_size, target)
        click.echo(f"{report.game}: {escape(str(report.folder))}/{legibility.PATH}, "
                   f"{report.faces} faces, {len(report.lines)} "
                   f"finding{'s' * (len(report.lines) != 1)}")
        for line in legibility.summary_lines(report):
            click.echo(f"  {escape(line)}")
        for line in report.lines:
            click.echo(f"{report.game}: {escape(line)}")
        found += len(report.lines)
    if strict and found:
        raise CompanionError(f"{found} finding{'s' * (found != 1)}: faces that only "
                             "colour tells apart look alike (listed above)", field="--strict")
