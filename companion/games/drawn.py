"""A game drawn from its file alone (a designer's own, with no code here): every card,
back and page its [components], [backs] and [kinds] declare. Each kind that holds a
picture element takes the designer's pictures like the bundled games' kinds: `art` on the
entry that makes a card (a `art` column of a card list), or `[art] KIND = "art/{id}.png"`
for every card of the kind; the box is `[layout.KIND] art`, the whole card without one.
A game whose file lists score categories ([[scoring]]) gets a score pad too
(companion/layouts/scorepad.toml, under what its own file sets): every kind of category
and `[game] rounds` and `tiebreak` as the scoring language has them, and a Faction row
when the file lists `[game] factions` (companion/games/factions.py)."""

from msgspec import structs

from companion.engine import components, schema
from companion.engine.face import Engine
from companion.engine.pictures import Kind, Pictures

PARTS: tuple[str, ...] = ()  # --only takes the components' names


def art_kinds(data, engine: Engine) -> dict[str, Kind]:
    """The game's picture kinds: a kind of its components that draws a picture, by the
    kind's name, and `back` for the backs."""
    out = {}
    specs = data.table.get("components", {})
    for name, spec in specs.items() if isinstance(specs, dict) else ():
        form = spec.get("kind") if isinstance(spec, dict) else None
        # kind = "{kind}": any kind a card may name
        named = list(engine.kinds) if isinstance(form, str) and "{" in form else [form]
        cards = spec.get("cards", name)
        lists = cards.get("lists") if isinstance(cards, dict) else None
        # a deck of several lists: each list's rows take art as one list's do
        entry = f"[[{cards}]]" if isinstance(cards, str) else " or ".join(
            f"[[{n}]]" for n in lists if isinstance(n, str)) if isinstance(lists, list) else ""
        for kind in named:
            if kind not in engine.kinds or not _draws_picture(engine, kind):
                continue
            if kind in out:  # several components draw it: each one's table takes art
                if entry and entry not in out[kind].entry.split(" or "):
                    out[kind] = structs.replace(out[kind], entry=" or ".join(
                        e for e in (out[kind].entry, entry) if e))
                continue
            out[kind] = Kind(kind.replace("-", " ").capitalize(), entry, ("id",),
                             "its art box: [layout.KIND] art, else the whole card")
    out["back"] = Kind("Card backs", "", ("id", "back"), "The whole back ({back}: which).")
    return out


def _draws_picture(engine: Engine, kind: str) -> bool:
    todo = list(engine.kinds[kind].elements)
    while todo:
        el = todo.pop()
        if isinstance(el, schema.Picture):
            return True
        todo.extend(schema.inner(el))
    return False


def with_scorepad(data, lang: str = "en"):
    """The game's data with the score pad's tables under its own, when it scores (our
    words in English where we have no `lang` translation). Each category gets the
    figures its legend line prints (`pad_award`, `pad_of`, ...: lists and names put into
    text), that line in words (`pad_legend`) and whether it is left out of the total
    (`pad_apart`); the pad the names of the tie-break's
    categories (`tiebreak_names`), its Faction row (`faction_rows`: [scorepad]
    faction with the game's factions, or none) and the row heading the rounds' columns
    under it (`round_rows`: [scorepad] round_row with rounds, or none). `[game] players`
    sets its columns, unless its own [scorepad] says `players`."""
    from companion.files import paths
    from companion.files.data import Fields, english_where_missing, load_toml
    from companion.games.factions import factions
    from companion.games.players import players
    from companion.score import scoring_words

    sides = factions(data)  # checked with or without a pad: one line naming the file
    seats = players(data)
    if not scoring_words.has_scoring(data):
        return data
    rules = scoring_words.rules(data)  # its categories checked, errors naming the game file
    table = dict(data.table)
    hers = table.get("scorepad")  # her own [scorepad], before ours goes under it
    hers = hers if isinstance(hers, dict) else {}
    if seats and "players" not in hers:  # her own [scorepad] players first
        table["scorepad"] = {**hers, "players": seats[1]}
    pad = english_where_missing(load_toml(paths.LAYOUTS / "scorepad.toml"), lang)
    for key, value in pad.items():
        own = table.setdefault(key, value)
        if isinstance(own, dict) and own is not value:  # its own first (the pad comes last)
            table[key] = {**own, **{k: v for k, v in value.items() if k not in own}}
    names = scoring_words.names(data, lang)
    words = Fields(table["scorepad"], data.source, "scorepad", english=True)
    table["scoring"] = [{**row, **scoring_words.legend(c, names), "pad_apart": not c.total,
                         "pad_legend": scoring_words.legend_text(c, names, words, lang, rules.rounds)}
                        if isinstance(row, dict) else row
                        for row, c in zip(table["scoring"], rules.categories)]
    row = table["scorepad"].get("faction") if isinstance(table["scorepad"], dict) else None
    table["scorepad"] = {**table["scorepad"], "faction_rows": [
        {**row, "pad_factions": " / ".join(sides)}] if sides and isinstance(row, dict) else []}
    heading = table["scorepad"].get("round_row")
    table["scorepad"]["round_rows"] = [heading] if rules.rounds > 1 and isinstance(
        heading, dict) else []
    if "games_per_page" not in hers:  # hers as she wrote it
        rows = len(table["scorepad"]["faction_rows"]) + len(table["scorepad"]["round_rows"]) \
            + len(rules.categories) + 1
        table["scorepad"]["games_per_page"] = _games_fitting(words, rows)
    if rules.tiebreak:
        then = words.text("tiebreak_then", lang)
        table["scorepad"] = {**table["scorepad"], "tiebreak_names": then.join(
            names[t] for t in rules.tiebreak)}
        line = scoring_words.tiebreak_rule(rules, names, words, lang)  # elided in French
        said = table["scorepad"].get("tiebreak")
        table["scorepad"]["tiebreak"] = {**(said if isinstance(said, dict) else {}), lang: line}
    return Fields(table, data.source)


def _games_fitting(words, rows: int) -> int:
    """The most games a pad page holds ([scorepad] games_per_page) with each of a game's
    `rows` (and its header and caption) at least [scorepad] least_row tall on the shorter
    paper, Letter: fewer, down to one, for a game of many categories. The pad's layout
    gives each game (the page - 38 mm) / games - 8 mm."""
    from companion.press import presets
    from companion.text.units import parse_length

    most = words.get("games_per_page", int, 3)
    least = parse_length(words.get("least_row", str, "7mm"), field="scorepad.least_row")
    body = presets.paper_size("letter")[1] - parse_length("38mm")
    fits = [g for g in range(1, most + 1)
            if (body / g - parse_length("8mm")) / (rows + 2) >= least]
    return max(fits, default=1)


def kit(ctx, game_id: str):
    ctx = structs.replace(ctx, data=with_scorepad(ctx.data, ctx.lang))
    engine = Engine.of(ctx.data, ctx.lang)
    pics = Pictures(ctx, game_id, art_kinds(ctx.data, engine), bundled=False)
    files: list = []
    components.add(files, ctx, engine, components.backs(ctx, engine, pics), pics)
    return files
