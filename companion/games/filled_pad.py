"""A designer's game's filled score pad (`companion score GAME SCORES --pdf FILE`): pages
drawn by the kit's own pad layout ([kinds.scorepad-filled] in layouts/scorepad.toml,
under the game file's own), its cells holding the scorer's points, as Covenia's filled
score-book page is drawn. No reportlab here until a page is written.

Every player is on the pad: at most COLUMNS players a page, as many pages as it takes,
each page's explanations those of its players (fewer players on a page when their lines
would not fit under the table). A name too wide for its column is shortened in the
column's head, with a key (its player's number, "12."), the same number before the full
name in the explanations. A player whose explanation alone does not fit under the table
is refused, naming the limit."""

from pathlib import Path

from companion.files.data import Fields
from companion.rules import scoring as scorer
from companion.score import scoring_words
from companion.text.typography import listing


COLUMNS = 8  # players a page: a column of 15 mm or more on A4 and letter
LABEL = 0.34  # the table's share for its labels: label_w of [kinds.scorepad-filled.replace.game]
HEAD_PT = 7.0  # the smallest size a name in a column's head is printed at
REPORT_PT = 8.0  # the explanations' size (the reasons' size in the layout)
MM = 72 / 25.4


def fields(data: Fields, rules: scorer.Rules, result: scorer.Result, factions: list | None,
           lang: str, keys: dict[int, str] | None = None) -> dict:
    """The filled page's fields: `data` as the kit's pad reads it (drawn.with_scorepad),
    each row's `values` (a player's points, a list of a round's in a game of rounds),
    the players' names over the columns, who won and each player's figures in words."""
    from companion.engine import components

    pad = data.sub("scorepad")
    words = components.fields_of(data.table["scorepad"], lang, data, "scorepad")
    labels = {**scoring_words.names(data, lang), "total": pad.sub("total").text("name", lang)}
    by_id = {c.id: c for c in rules.categories}
    players = result.players

    def points(c: scorer.Category, p: scorer.PlayerScore):
        if rules.rounds > 1 and c.rounds > 1:
            return [str(x) for x in p.rounds[c.id]]
        return str(p.points[c.id])

    scoring = [dict(row, values=[points(by_id[row["id"]], p) for p in players])
               for row in components.fields_of(data.table["scoring"], lang, data, "scoring")]
    sides = [f or "" for f in factions] if factions else [""] * len(players)
    faction_rows = [dict(row, values=sides) for row in words.get("faction_rows", [])]
    total = dict(words["total"], values=[str(p.total) for p in players])
    w = scoring_words.kinds()
    report = []
    for i, (p, side) in enumerate(zip(players, sides)):
        def one(c: scorer.Category) -> str:  # "Pairs 2 (2 × 1 = 2)"; "Creatures 9"
            why = scoring_words.explained(p, c, labels, lang, w, rules.rounds)
            got = f"{labels[c.id]} {p.points[c.id]}"
            return got if why == str(p.points[c.id]) else f"{got} ({why})"

        said = w.text("sep", lang).join(one(c) for c in rules.categories)
        # the name put in after typesetting: a player's name is never respaced
        who = f"{p.name} ({side})" if side else p.name
        who = f"{keys[i]} {who}" if keys and i in keys else who  # the column's key
        report.append(w.text("line", lang).replace("{figures}", said).replace("{name}", who))
    report += scoring_words.tiebreaks(rules, result, labels, lang, w)
    won = listing(result.winners, pad.text("and", lang))
    verdict = pad.text("winner" if len(result.winners) == 1 else "winners", lang) \
        .format(names=won)
    rows = len(faction_rows) + len(words.get("round_rows", [])) + len(scoring) + 1
    return {**words, "scoring": scoring, "faction_rows": faction_rows, "total": total,
            "game": components.fields_of(data.table["game"], lang, data, "game"),
            "names": [p.name for p in players], "pad_rows": rows + 1,  # and the header
            "verdict": verdict, "report": report, "n": 1}


def write_pdf(path: Path, data: Fields, rules: scorer.Rules, result: scorer.Result,
              factions: list | None, lang: str, paper: str) -> bool:
    """The filled pad, written aside then put in place. A name holding characters our
    fonts cannot draw prints them as boxes, and the page says so: True then (the caller
    says so too)."""
    from companion.files.atomic import replaced
    from companion.games.drawn import with_scorepad
    from companion.engine.face import Engine
    from companion.press import fonts, presets
    from companion.press.pdf import open_canvas

    data = with_scorepad(data, lang)
    shown = {p.name: fonts.printable(p.name) for p in result.players}
    boxed = any(shown[n] != n for n in shown)
    result = result._replace(players=[p._replace(name=shown[p.name]) for p in result.players],
                             winners=[shown[n] for n in result.winners])
    page = presets.paper_size(paper)
    columns = min(COLUMNS, len(result.players)) or 1
    head_w = (page[0] - 24 * MM) * (1 - LABEL) / columns - 2 * MM
    keys = {i: f"{i + 1}." for i, p in enumerate(result.players) if _wide(p.name, head_w)}
    filled = fields(data, rules, result, factions, lang, keys)
    if boxed:
        filled["report"].append(scoring_words.kinds().text("unprintable", lang).format(
            box=fonts.PLACEHOLDER))
    engine = Engine.of(data, lang)
    game = data.sub("game")
    credits = game.text("credits", lang) if "credits" in game.table else ""
    sheets = pages(filled, len(result.players), keys, head_w, _report_room(page, filled))
    with replaced(Path(path)) as tmp:
        c = open_canvas(tmp, page, f"{game.get('name', str)}: score", credits)
        for one in sheets:
            engine.face("scorepad-filled", one, label="score").draw(c, *page, 0.0)
            c.showPage()
        c.save()
    return boxed


def _wide(name: str, room: float) -> bool:
    from companion.draw import text

    return text.width(name, "bold", HEAD_PT) > room


def _short(name: str, key: str, room: float) -> str:
    """`key` and as much of `name` as fits `room` at HEAD_PT, cut with an ellipsis."""
    from companion.draw import text

    cut = len(name)
    while cut > 0 and text.width(f"{key} {name[:cut]}…", "bold", HEAD_PT) > room:
        cut -= 1
    return f"{key} {name[:cut]}…" if cut else key


def _report_room(page, filled: dict) -> tuple[float, float]:
    """(width, height) of the explanations' box under the table, as the layout's
    [[kinds.scorepad-filled.elements]] "reasons" places it."""
    rows = filled["pad_rows"]
    table = 29 * MM + min(9 * MM, 150 * MM / rows) * rows
    return page[0] - 24 * MM, page[1] - table - 25 * MM


def _height(lines: list[str], width: float) -> float:
    from companion.draw import card

    return card._height(lines, width, REPORT_PT, "regular", 1.5 * MM)


def pages(filled: dict, count: int, keys: dict[int, str], head_w: float,
          room: tuple[float, float]) -> list[dict]:
    """The filled fields page by page: at most COLUMNS players each, fewer where their
    explanations would not fit under the table; the lines after the players' (ties, a
    note) on the last page, or a page of their own."""
    from companion.errors import CompanionError

    width, height = room
    report, after = filled["report"][:count], filled["report"][count:]
    chunks: list[list[int]] = [[]]
    for i in range(count):
        mine = chunks[-1] + [i]
        if len(mine) > COLUMNS or (chunks[-1] and _height(
                [report[j] for j in mine], width) > height):
            chunks.append([i])
            mine = [i]
        if _height([report[i]], width) > height:
            raise CompanionError(
                f"the explanation of player {i + 1} does not fit under the pad's table on "
                f"a page ({len(filled['scoring'])} categories): score fewer categories "
                "for a filled pad (the scores themselves are shown)", field="--pdf")
        chunks[-1] = mine
    if after and _height([report[j] for j in chunks[-1]] + after, width) > height:
        chunks.append([])
    out = []
    for n, chunk in enumerate(chunks, 1):
        names = [filled["names"][i] for i in chunk]
        names = [_short(nm, keys[i], head_w) if i in keys else nm
                 for i, nm in zip(chunk, names)]
        out.append({**filled, "names": names or [""],
                    "scoring": [_cut(r, chunk) for r in filled["scoring"]],
                    "faction_rows": [_cut(r, chunk) for r in filled["faction_rows"]],
                    "total": _cut(filled["total"], chunk),
                    "report": [report[i] for i in chunk] + (after if n == len(chunks) else []),
                    "n": n})
    return out


def _cut(row: dict, chunk: list[int]) -> dict:
    values = row.get("values", [])
    return {**row, "values": [values[i] for i in chunk] or [""]}
