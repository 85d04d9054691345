"""A designer's game's filled score pad (`companion score GAME SCORES --pdf FILE`): one
page drawn by the kit's own pad layout ([kinds.scorepad-filled] in layouts/scorepad.toml,
under the game file's own), its cells holding the scorer's points, as Covenia's filled
score-book page is drawn. No reportlab here until a page is written."""

from pathlib import Path

from companion.files.data import Fields
from companion.rules import sheet as scorer
from companion.score import sheet
from companion.text.typography import listing


def fields(data: Fields, rules: scorer.Rules, result: scorer.Result, factions: list | None,
           lang: str) -> dict:
    """The filled page's fields: `data` as the kit's pad reads it (drawn.with_scorepad),
    each row's `values` (a player's points, a list of a round's in a game of rounds),
    the players' names over the columns, who won and each player's figures in words."""
    from companion.engine import components

    pad = data.sub("scorepad")
    words = components.fields_of(data.table["scorepad"], lang, data, "scorepad")
    labels = {**sheet.names(data, lang), "total": pad.sub("total").text("name", lang)}
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
    w = sheet.kinds()
    report = []
    for p, side in zip(players, sides):
        def one(c: scorer.Category) -> str:  # "Pairs 2 (2 × 1 = 2)"; "Creatures 9"
            why = sheet.explained(p, c, labels, lang, w, rules.rounds)
            got = f"{labels[c.id]} {p.points[c.id]}"
            return got if why == str(p.points[c.id]) else f"{got} ({why})"

        said = w.text("sep", lang).join(one(c) for c in rules.categories)
        # the name put in after typesetting: a player's name is never respaced
        who = f"{p.name} ({side})" if side else p.name
        report.append(w.text("line", lang).replace("{figures}", said).replace("{name}", who))
    report += sheet.tiebreaks(rules, result, labels, lang, w)
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
    filled = fields(data, rules, result, factions, lang)
    if boxed:
        filled["report"].append(sheet.kinds().text("unprintable", lang).format(
            box=fonts.PLACEHOLDER))
    face = Engine.of(data, lang).face("scorepad-filled", filled, label="score")
    page = presets.paper_size(paper)
    game = data.sub("game")
    credits = game.text("credits", lang) if "credits" in game.table else ""
    with replaced(Path(path)) as tmp:
        c = open_canvas(tmp, page, f"{game.get('name', str)}: score", credits)
        face.draw(c, *page, 0.0)
        c.showPage()
        c.save()
    return boxed
