"""A designer's game scored from its game file's [[scoring]] (companion.rules.sheet): the rules
read from the file with errors naming it, each figure put into words, the JSON a program
or a phone reads. The same words as the printed score pad (companion/layouts/scorepad.toml)."""

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.errors import CompanionError
from companion.text.typography import listing
from companion.rules import sheet as scorer
from companion.rules.errors import ScoreError


def rules(data: Fields) -> scorer.Rules:
    """The game's score categories and which total wins; CompanionError naming the file."""
    game = data.table.get("game") if isinstance(data.table.get("game"), dict) else {}
    try:
        return scorer.rules(data.table.get("scoring"), game.get("wins", "highest"))
    except ScoreError as e:
        field = "game.wins" if e.field == "wins" else e.field
        raise CompanionError(e.message, source=data.source, field=field) from None


def has_scoring(data: Fields) -> bool:
    return "scoring" in data.table


def words() -> Fields:
    path = paths.LAYOUTS / "scorepad.toml"
    return Fields(load_toml(path, only=frozenset({"scorepad"})), str(path),
                  english=True).sub("scorepad")


def names(data: Fields, lang: str) -> dict[str, str]:
    """Each category's printed name, by id."""
    return {c.get("id", str): c.text("name", lang) for c in data.items("scoring")}


def explain(category: scorer.Category, written: int) -> str:
    """One figure as the score pad counts it: "3 × 2 = 6", "4 × 4 = 16", "7"."""
    points = category.of(written)
    if category.score == "each":
        return f"{written} × {category.points} = {points}"
    if category.score == "squared":
        return f"{written} × {written} = {points}"
    return f"{points}"


def as_json(result: scorer.Result) -> dict:
    return {"players": [{"name": p.name, "written": p.written, "points": p.points,
                         "total": p.total, "rank": p.rank} for p in result.players],
            "winners": result.winners}


def report(game: scorer.Rules, result: scorer.Result, data: Fields, lang: str) -> str:
    """The table of points (a row a category, a column a player), then each player's
    figures explained, then who won."""
    pad = words()
    labels = {**names(data, lang), "total": pad.sub("total").text("name", lang)}
    width = max(len(v) for v in labels.values()) + 2
    cols = [max(6, len(p.name) + 2) for p in result.players]
    title = data.sub("game").get("name", str)
    out = [f"{title}: {pad.text('highest' if game.wins == 'highest' else 'lowest', lang)}", ""]
    out.append(" " * width + "".join(p.name.rjust(w) for p, w in zip(result.players, cols)))
    for row in [*(c.id for c in game.categories), "total"]:
        cells = [str(p.total if row == "total" else p.points[row]) for p in result.players]
        out.append(labels[row].ljust(width) + "".join(c.rjust(w) for c, w in zip(cells, cols)))
    for p in result.players:
        out += ["", p.name]
        for c in game.categories:
            out.append(f"  {labels[c.id].ljust(width)}{p.points[c.id]:>6}   "
                       f"{explain(c, p.written[c.id])}")
        out.append(f"  {labels['total'].ljust(width)}{p.total:>6}")
    won = listing(result.winners, pad.text("and", lang))
    out += ["", pad.text("winner" if len(result.winners) == 1 else "winners", lang)
            .format(names=won)]
    return "\n".join(out)
