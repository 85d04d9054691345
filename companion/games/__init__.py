"""The games. A game is a game file: a TOML file with a [game] table (id, name, credits)
and its cards, kinds and components. The bundled games are the files of companion/layouts/ that
hold a [game] table; a designer's game is any path to such a file. A game whose id names
a module of this package (covenia.py: what its rules derive, which parts --only takes,
where its pictures go) uses it; any other is drawn from its file alone (drawn.py)."""

import importlib
import importlib.util
import os
from functools import cache
from pathlib import Path
from types import ModuleType

import msgspec

from companion.files import paths
from companion.errors import CompanionError, shown


class Game(msgspec.Struct, frozen=True):
    id: str  # the output folder's and the manifest's name
    path: Path  # its game file
    bundled: bool  # one of the files shipped in companion/layouts/
    module: ModuleType | None  # its rules' code (games/ID.py), or None

    @property
    def parts(self) -> tuple[str, ...]:
        """What --only takes besides the components its file declares."""
        return tuple(getattr(self.module, "PARTS", ()))


@cache
def bundled() -> dict[str, Path]:
    """The bundled games by id: companion/layouts/*.toml holding a [game] table."""
    return {p.stem: p for p in sorted(paths.LAYOUTS.glob("*.toml"))
            if "\n[game]" in "\n" + p.read_text(encoding="utf-8")}


def is_path(name: str) -> bool:
    """A game named by its file ("mygame/mygame.toml"), not by a bundled game's id."""
    return name.endswith(".toml") or "/" in name or os.sep in name


def find(name: str) -> Game:
    """The game `name` names: a bundled game's id, or a path to a game file."""
    if is_path(name):
        return _from_file(Path(name))
    games = bundled()
    if name not in games and Path(name).is_dir():
        return _from_file(Path(name))
    if name not in games:
        raise CompanionError(f"unknown game {shown(name)} (have {', '.join(games)}, all, or "
                             "a game file's path such as mygame/mygame.toml)", field="GAME")
    return Game(name, games[name], True, _module(name))


def _game_file_of(path: Path) -> Path:
    """A game's folder stands for the game file named after it (`companion new lanterns`
    writes lanterns/lanterns.toml); a folder without one is an error naming what it holds."""
    if not path.is_dir():
        return path
    own = path / f"{path.name}.toml"
    if own.is_file():
        return own
    held = sorted(p.name for p in path.glob("*.toml"))[:5]
    raise CompanionError("is a folder: give its game file"
                         + (f" ({', '.join(f'{path.name}/{h}' for h in held)}?)" if held
                            else " (a .toml file with a [game] table)"),
                         source=str(path), field="GAME")


def _from_file(path: Path) -> Game:
    from companion.files.data import Fields, parse_toml, read_text

    path = _game_file_of(path)
    # Only its [game] table is wanted here: its card lists' spreadsheets are read once,
    # by the build.
    text, name = read_text(path)
    data = Fields(parse_toml(text, name), name)
    if "game" not in data.table or not isinstance(data.table["game"], dict):
        raise CompanionError("no [game] table: a game file starts with one (id, name, "
                             "credits); `companion new NAME` writes a whole one",
                             source=str(path))
    game = data.sub("game")
    gid = game.get("id", str, path.stem)
    if not gid or not all(ch.isalnum() or ch in "-_" for ch in gid):
        raise game.error("id", f"{shown(gid)}: letters, digits, - and _ only (it names the "
                               "output folder)")
    # An edited copy of a bundled game (`companion init`) keeps that game's code; any other
    # id is a game of the designer's own, drawn from its file alone.
    return Game(gid, path, False, _module(gid) if gid in bundled() else None)


def _module(gid: str) -> ModuleType | None:
    name = f"{__name__}.{gid}"
    return importlib.import_module(name) if importlib.util.find_spec(name) else None
