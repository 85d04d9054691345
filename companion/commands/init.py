"""`companion init GAME [DIR]`: a copy of a game's bundled data to edit, then build with
`companion build GAME --data DIR/GAME.toml`. With --spreadsheets, the card lists go to a
spreadsheet beside it (one tab per list, or one CSV file per list) that the TOML names.
DIR/art/README.txt tells what pictures the cards take: each card kind's art box in mm and
in pixels at 300 dpi, and the fields a picture's path may name."""

import click

from companion.commands import common
from companion.commands.common import Named, taken_back_on_failure
from companion.errors import CompanionError


@click.command(short_help="Copy a game's data (cards, texts, colours) to edit.", epilog="""\b
Examples:
  companion init covenia                 (writes ./covenia/covenia.toml, covenia/art/README.txt)
  companion init lugvanion my-proto
  companion init covenia --spreadsheets xlsx (the card lists in ./covenia/covenia.xlsx)
  companion build covenia --data covenia/covenia.toml""")
@click.argument("game", callback=common.GAME["callback"])
@click.argument("folder", required=False, type=click.Path(file_okay=False))
# --sheets: the option's old name, still taken
@click.option("--spreadsheets", "--sheets", "spreadsheets",
              type=Named("spreadsheet kind", ("csv", "xlsx")),
              help="Put the card lists in a spreadsheet beside the TOML: one XLSX with a tab "
                   "per list, or one CSV per list.")
def init(game, folder, spreadsheets):
    """Write an editable copy of GAME's data file into FOLDER (default: ./GAME/), and
    art/README.txt beside it: the size of each card kind's picture."""
    import os
    from pathlib import Path

    from companion.files import paths
    from companion.files.atomic import write_text
    from companion.games.art_readme import readme_text

    from companion import games

    if games.is_path(game) or game not in games.bundled():
        raise CompanionError(f"init copies a bundled game ({', '.join(games.bundled())}); "
                             "for a game of your own, companion new NAME", field="GAME")
    target = Path(folder or game) / f"{game}.toml"
    text = paths.layout(f"{game}.toml").read_text(encoding="utf-8")
    tabs, text = _lists_to_spreadsheets(text, game, spreadsheets) if spreadsheets else ({}, text)
    art_readme = target.parent / "art" / "README.txt"
    written = [target, *(target.parent / name for name in tabs), art_readme]
    for path in written:
        if os.path.lexists(path):
            raise CompanionError("already exists: edit it, or give another folder",
                                 source=str(path))
    for folder in (target.parent, art_readme.parent):  # checked before anything is written
        if os.path.lexists(folder) and not folder.is_dir():
            raise CompanionError("is a file, not a folder: move it, or give another folder",
                                 source=str(folder))
    with taken_back_on_failure(target) as made:
        for folder in (target.parent, art_readme.parent):
            if not folder.exists():
                folder.mkdir(parents=True)
                made.append(folder)
        _write_spreadsheets(target.parent, tabs)
        made += [target.parent / name for name in tabs]
        write_text(target, text)
        made.append(target)
        write_text(art_readme, readme_text(game))
    listed = ", ".join(str(p) for p in written)
    click.echo(f"{listed}: your copy of {game}'s cards, texts and colours. Edit, then:\n"
               f"  companion build {game} --data {target}")


def _lists_to_spreadsheets(text: str, game: str, kind: str):
    """The TOML with each list of cards replaced by { spreadsheet = ..., tab = ... }, comments
    kept (tomlkit), and {file name: {tab: rows}} to write."""
    from pathlib import Path

    import tomlkit

    from companion.files import spreadsheet

    doc = tomlkit.parse(text)
    files: dict[Path, dict] = {}
    for key, value in list(doc.items()):
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            continue
        rows = spreadsheet.rows_of([v.unwrap() if hasattr(v, "unwrap") else v for v in value])
        if rows is None:
            continue  # holds lists a cell cannot: stays in the TOML
        ref = tomlkit.inline_table()
        if kind == "xlsx":
            name = Path(f"{game}.xlsx")
            ref.update({"spreadsheet": name.name, "tab": key})
        else:
            name = Path(f"{game}-{key}.csv")
            ref.update({"spreadsheet": name.name})
        files.setdefault(name, {})[key] = rows
        doc[key] = ref
    return files, _guides_kept(text, tomlkit.dumps(doc))


def _guides_kept(before: str, after: str) -> str:
    """tomlkit keeps the comment block above a header with the table before it, so
    replacing a list's last table loses the guide to what follows (the list itself, or
    the next table): each lost block goes back above its header or `list = {spreadsheet..}`."""
    import re

    lines = after.splitlines(keepends=True)
    for m in re.finditer(r"((?:^#[^\n]*\n)+)^\[\[?([\w.]+)\]", before, re.M):
        block, key = m.groups()
        if block in after:
            continue
        header = re.compile(rf"\[\[?{re.escape(key)}\]")
        sheet = re.compile(rf"{re.escape(key)}\s*=\s*\{{\s*spreadsheet\b")
        at = next((i for pattern in (header, sheet) for i, ln in enumerate(lines)
                   if pattern.match(ln)), None)
        if at is not None:
            lines.insert(at, block)
    return "".join(lines)


def _write_spreadsheets(folder, tabs) -> None:
    from companion.files import spreadsheet

    for name, sheets in tabs.items():
        spreadsheet.write(folder / name, sheets)
