"""`companion new NAME [DIR]`: a game of your own, from a blank folder. DIR/NAME.toml (the
game: its colours, card kinds, components, each line commented), cards.csv (its cards, a
row a card), icons/ (two SVG icons of ours), art/README.txt (each picture's box) and a
small starter game of ours, "Tidepool", that builds as it is: replace it with yours."""

import click

from companion.commands.common import taken_back_on_failure
from companion.errors import CompanionError

STARTER = ("starter.toml", "cards.csv", "icons/shell.svg", "icons/wave.svg")


@click.command(short_help="Start a game of your own: a game file, a card list, icons.",
               epilog="""\b
Examples:
  companion new "Moth Lanterns"          (writes ./moth-lanterns/moth-lanterns.toml, cards.csv...)
  companion new tidepool my-games/tidepool
  companion build moth-lanterns/moth-lanterns.toml""")
@click.argument("name")
@click.argument("folder", required=False, type=click.Path(file_okay=False))
def new(name, folder):
    """Write a new game's folder FOLDER (default: ./ID/, ID made from NAME): a game file,
    its card list, two icons and a picture guide, holding a starter game that builds."""
    import os
    from pathlib import Path

    from companion.files import paths
    from companion.files.atomic import write_text
    from companion.engine.pictures import slug

    gid = slug(name)
    if not gid or not name.strip() or any(ch in name for ch in '"\\\n\r\t{}'):
        raise CompanionError("a game's name: letters, digits and spaces (it names the game "
                             "and its folder)", field="NAME")
    target = Path(folder or gid)
    source = paths.LAYOUTS / "starter"
    files = {f"{gid}.toml" if rel == "starter.toml" else rel:
             (source / rel).read_text(encoding="utf-8") for rel in STARTER}
    files[f"{gid}.toml"] = files[f"{gid}.toml"].replace("{id}", gid).replace("{name}", name.strip())
    if os.path.lexists(target) and (not target.is_dir() or any(target.iterdir())):
        raise CompanionError("already exists and is not an empty folder: give another "
                             "folder", source=str(target))
    with taken_back_on_failure(target) as made:
        for rel, text in files.items():
            path = target / rel
            for folder_ in reversed(path.parents):
                if not folder_.exists():
                    folder_.mkdir()
                    made.append(folder_)
            write_text(path, text)
            made.append(path)
        readme = target / "art" / "README.txt"
        readme.parent.mkdir()
        made.append(readme.parent)
        write_text(readme, _art_readme(target / f"{gid}.toml", gid))
        made.append(readme)
    click.echo(f"{name.strip()}: {target}/ {gid}.toml, cards.csv, icons/, art/README.txt")
    click.echo(f"build it: companion build {target / (gid + '.toml')}")


def _art_readme(game_file, gid: str) -> str:
    from companion.files.data import load_fields
    from companion.games import art_readme, drawn
    from companion.engine.face import Engine

    data = load_fields(game_file)
    return art_readme.readme_text(
        gid, data.table, kinds=drawn.art_kinds(data, Engine.of(data, "en")),
        example='the art column of cards.csv: "art/hermit-crab.jpg" on a row puts that '
                'picture on its cards')
