"""A designer's game scored from its score categories (the game file's [[scoring]]):
each category is points as typed, a count times a number of points, or a count squared;
the highest total wins, or the lowest. Pure: plain data in, named tuples out.

A sheet: {"wins": "highest" | "lowest", "categories": [{"id", "score", "points"}]}, as
`rules` checks it from the game file. Entries: [{"name": str, ID: int, ...}], one per
player, a whole number per category id; a category a player has not filled counts 0.
"""

from typing import NamedTuple

from companion.rules.errors import ScoreError, escape, shown

# How a category turns what a player writes into points.
SCORES = {
    "points": "the points as written",
    "each": "a count times `points`",
    "squared": "a count, squared",
}
WINS = ("highest", "lowest")
MOST = 1_000_000  # the largest number a player writes in a category


class Category(NamedTuple):
    """One row of the score pad: its id, how it scores, its points for each one counted."""

    id: str
    score: str
    points: int = 1

    def of(self, n: int) -> int:
        if self.score == "each":
            return n * self.points
        if self.score == "squared":
            return n * n
        return n


class Rules(NamedTuple):
    """A game's categories, in score-pad order, and which total wins."""

    categories: tuple[Category, ...]
    wins: str = "highest"


class PlayerScore(NamedTuple):
    """A player's points per category (with what she wrote), total and rank."""

    name: str
    written: dict[str, int]
    points: dict[str, int]
    total: int
    rank: int


class Result(NamedTuple):
    """Every player's score, in entry order, and the winners (several on a tie)."""

    players: list[PlayerScore]
    winners: list[str]


def rules(scoring, wins="highest", where: str = "scoring") -> Rules:
    """The game file's [[scoring]] list (and its `wins`), checked."""
    if wins not in WINS:
        raise ScoreError("wins", f"{shown(wins)}: the highest or the lowest total wins "
                                 "(highest, lowest)", "sheet.wins", {"value": shown(wins)})
    if not isinstance(scoring, list) or not scoring:
        raise ScoreError(where, "a list of score categories ([[scoring]] tables)",
                         "sheet.no_categories")
    out: list[Category] = []
    for i, raw in enumerate(scoring):
        at = f"{where}[{i}]"
        if not isinstance(raw, dict):
            raise ScoreError(at, "must be a table (id, name, score)", "sheet.not_a_table")
        cid = raw.get("id")
        if not isinstance(cid, str) or not cid or not all(c.isalnum() or c in "-_" for c in cid):
            raise ScoreError(f"{at}.id", f"{shown(cid)}: letters, digits, - and _",
                             "sheet.bad_id", {"value": shown(cid)})
        if cid == "name":
            raise ScoreError(f"{at}.id", "name is a player's name: call the category "
                             "otherwise", "sheet.id_name", {"value": cid})
        if any(c.id == cid for c in out):
            raise ScoreError(f"{at}.id", f"{shown(cid)} names two categories",
                             "sheet.id_twice", {"value": cid})
        how = raw.get("score", "points")
        if how not in SCORES:
            raise ScoreError(f"{at}.score", f"{shown(how)} is none of "
                             + "; ".join(f"{k}: {v}" for k, v in SCORES.items()),
                             "sheet.bad_score", {"value": shown(how)})
        points = raw.get("points", 1)
        if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 1000:
            raise ScoreError(f"{at}.points", f"{shown(points)} is not a whole number "
                             "from -1000 to 1000", "sheet.bad_points", {"value": shown(points)})
        out.append(Category(cid, how, points))
    return Rules(tuple(out), wins)


def entry(raw, game: Rules, where: str = "") -> dict:
    """One player's entry, checked: a name, and whole numbers in known categories."""
    def at(key: str) -> str:
        return f"{where}.{escape(key)}" if where else escape(key)

    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) \
            or not raw["name"].strip():
        raise ScoreError(where or "name", "each player is a table with a name",
                         "sheet.no_name")
    by_id = {c.id: c for c in game.categories}
    counts = {k: v for k, v in raw.items() if k != "name"}
    for key, n in counts.items():
        if key not in by_id:
            raise ScoreError(at(key), "unknown category (use "
                             f"{', '.join(c.id for c in game.categories)})",
                             "sheet.unknown_category", {"word": escape(str(key))})
        least = -MOST if by_id[key].score == "points" else 0  # a count is never negative
        if isinstance(n, bool) or not isinstance(n, int) or not least <= n <= MOST:
            raise ScoreError(at(key), f"{shown(n)} is not a whole number from {least} to "
                             f"{MOST}", "sheet.bad_count",
                             {"value": shown(n), "category": key, "least": least,
                              "most": MOST})
    return {"name": raw["name"], **counts}


def entries(raw, game: Rules, where: str = "players") -> list[dict]:
    """The players' entries, checked, each player once."""
    if not isinstance(raw, list) or not raw:
        raise ScoreError(where, "a list of players, each a name and a number per category",
                         "sheet.no_players")
    out, names = [], set()
    for i, one in enumerate(raw):
        checked = entry(one, game, f"{where}[{i}]")
        name = checked["name"]
        if name.casefold() in names:
            raise ScoreError(f"{where}[{i}].name", f"{shown(name)} is given twice",
                             "sheet.name_twice", {"player": name})
        names.add(name.casefold())
        out.append(checked)
    return out


def score(game: Rules, raw_entries) -> Result:
    players = entries(raw_entries, game)
    scored = []
    for p in players:
        written = {c.id: p.get(c.id, 0) for c in game.categories}
        points = {c.id: c.of(written[c.id]) for c in game.categories}
        scored.append((p["name"], written, points, sum(points.values())))
    totals = [t for *_, t in scored]
    better = (lambda a, b: a > b) if game.wins == "highest" else (lambda a, b: a < b)
    result = [PlayerScore(name, written, points, total, 1 + sum(better(t, total) for t in totals))
              for name, written, points, total in scored]
    best = (max if game.wins == "highest" else min)(totals)
    return Result(result, [p.name for p in result if p.total == best])
