"""A game file's player count: `[game] players = 4` (up to 4) or `players = [2, 4]` (2 to
4), from 1 to 12 (the most a table seats). The score pad prints a column for each of the
most; anything else is refused in one line naming the file and the field."""

from companion.errors import CompanionError, shown

MOST = 12


def players(data) -> tuple[int, int] | None:
    """The least and the most players the game file says (None: it says nothing)."""
    game = data.table.get("game")
    if not isinstance(game, dict) or "players" not in game:
        return None
    raw = game["players"]
    span = [raw] if isinstance(raw, int) else raw

    def whole(n) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MOST

    if not isinstance(span, list) or not 1 <= len(span) <= 2 or not all(map(whole, span)) \
            or span[0] > span[-1]:
        raise CompanionError(f"{shown(raw, 40)}: the most players (players = 4) or the least "
                             f"and the most (players = [2, 4]), from 1 to {MOST}",
                             source=data.source, field="game.players")
    return (1 if isinstance(raw, int) else span[0]), span[-1]
