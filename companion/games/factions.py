"""A game file's factions (or roles): `[game] factions = ["Wolves", "Ravens", ...]`, the
names a player chooses from on the phone sheet and writes on the printed score pad's
Faction row, so each play records hers. Checked once here for the kit and the table:
a list of 2 to 12 names, each 1 to 40 printable characters, no two alike (but for case);
anything else refused in one line naming the file and the field. A scores file gives each
player's faction as the phones record it (with_factions)."""

from companion.errors import CompanionError, shown
from companion.rules.errors import ScoreError

MOST = 12
LONGEST = 40


def factions(data) -> tuple[str, ...]:
    """The game file's factions (none: an empty tuple), as written."""
    game = data.table.get("game")
    if not isinstance(game, dict) or "factions" not in game:
        return ()
    raw = game["factions"]

    def bad(why: str) -> CompanionError:
        return CompanionError(why, source=data.source, field="game.factions")

    if not isinstance(raw, list) or not 2 <= len(raw) <= MOST:
        raise bad(f"{shown(raw, 40)}: a list of 2 to {MOST} names, e.g. "
                  'factions = ["Wolves", "Ravens"]')
    seen: set[str] = set()
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip() or len(name) > LONGEST \
                or not name.isprintable() or name != " ".join(name.split()):
            raise CompanionError(f"{shown(name, 40)}: a faction is a name of 1 to {LONGEST} "
                                 "printable characters, no leading, trailing or double spaces",
                                 source=data.source, field=f"game.factions[{i}]")
        if name.casefold() in seen:
            raise CompanionError(f"{shown(name, 40)} is given twice", source=data.source,
                                 field=f"game.factions[{i}]")
        seen.add(name.casefold())
    return tuple(raw)


def matching(sides: tuple[str, ...], raw) -> str | None:
    """The faction `raw` names, as the game file spells it (case and spacing aside), or
    None when it names none of `sides`."""
    if not isinstance(raw, str):
        return None
    said = " ".join(raw.split()).casefold()
    return next((f for f in sides if f.casefold() == said), None)


def with_factions(players, sides: tuple[str, ...], game) -> tuple[list, list]:
    """A scores file's players without their `faction` (one of the game's [game]
    factions, as the phones record it) and each one's faction (None: not given), checked:
    ScoreError naming the player's field. A game with a category called faction scores it."""
    if not isinstance(players, list) or not sides or any(c.id == "faction"
                                                         for c in game.categories):
        return players, [None] * (len(players) if isinstance(players, list) else 0)
    rest, chosen = [], []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or "faction" not in p:
            rest.append(p)
            chosen.append(None)
            continue
        side = matching(sides, p["faction"])
        if side is None:
            raise ScoreError(f"players[{i}].faction", f"{shown(p['faction'])} is none "
                             f"of the game's factions ({', '.join(sides)})")
        rest.append({k: v for k, v in p.items() if k != "faction"})
        chosen.append(side)
    return rest, chosen
