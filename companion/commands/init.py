"""`companion init GAME [DIR]`: a copy of a game's bundled data to edit, then build with
`companion build GAME --data DIR/GAME.toml`."""

import click

from companion.errors import CompanionError


@click.command(short_help="Copy a game's data (cards, texts, colours) to edit.", epilog="""\b
Examples:
  companion init covenia                 (writes ./covenia/covenia.toml)
  companion init lugvanion my-proto
  companion build covenia --data covenia/covenia.toml""")
@click.argument("game")
@click.argument("folder", required=False, type=click.Path(file_okay=False))
def init(game, folder):
    """Write an editable copy of GAME's data file into FOLDER (default: ./GAME/)."""
    from pathlib import Path

    from companion import kit, paths
    from companion.atomic import write_text

    kit.game_module(game)  # an unknown game fails before anything is written
    target = Path(folder or game) / f"{game}.toml"
    if target.exists():
        raise CompanionError("already exists: edit it, or give another folder", source=str(target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CompanionError(f"cannot write ({e.strerror})", source=str(target.parent)) from None
    write_text(target, paths.layout(f"{game}.toml").read_text(encoding="utf-8"))
    click.echo(f"{target}: your copy of {game}'s cards, texts and colours. Edit it, then:\n"
               f"  companion build {game} --data {target}")
