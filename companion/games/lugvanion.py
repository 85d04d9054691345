"""Lugvanion's kit: which components it has and how each face is laid out.
Every text, colour and symbol comes from layouts/lugvanion.toml."""

from dataclasses import dataclass
from functools import partial

from reportlab.lib.colors import Color

from companion.draw import card, colour, symbols, text
from companion.kit import CardFile, Component, Context
from companion.sheets import Card, Face
from companion.errors import shown
from companion.units import parse_size

PARTS = ("characters", "guilds", "circles", "bounties", "objectives", "aids", "tokens")


@dataclass(frozen=True)
class Named:
    """A team, guild or circle: its name, colour and symbol."""
    id: str
    name: str
    colour: Color
    symbol: str
    short: str = ""  # a shorter name for a card's header, where the data gives one


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    guild: Named
    circle: Named | None  # None: the circle of the copied character
    power: str
    costs: list[tuple[int, str]]
    summary: str


@dataclass(frozen=True)
class Look:
    ink: Color
    paper: Color
    gold: Color
    back: Color
    objective_back: Color
    bounty_back: Color
    frame: float
    words: dict


def _named(ctx: Context, key: str) -> dict[str, Named]:
    out = {}
    for f in ctx.data.items(key):
        sym = symbols.named(f, "symbol")
        short = f.text("short", ctx.lang) if "short" in f.table else ""
        out[f.get("id", str)] = Named(f.get("id", str), f.text("name", ctx.lang),
                                      colour.field(f, "colour"), sym, short)
    return out


def _characters(ctx: Context, guilds: dict, circles: dict) -> list[Character]:
    out = []
    for f in ctx.data.items("characters"):
        g, ci = f.get("guild", str), f.get("circle", str)
        if g not in guilds:
            raise f.error("guild", f"unknown guild {shown(g)} (have {', '.join(guilds)})")
        if ci != "copied" and ci not in circles:
            raise f.error("circle", f"unknown circle {shown(ci)} (have {', '.join(circles)}, copied)")
        costs = [(c.get("gold", int), c.text("buys", ctx.lang)) for c in f.items("costs")]
        out.append(Character(f.get("id", str), f.text("name", ctx.lang), guilds[g],
                             circles.get(ci), f.text("power", ctx.lang), costs,
                             f.text("summary", ctx.lang)))
    return out


def _look(ctx: Context) -> Look:
    g = ctx.data.sub("game")
    get = lambda k: colour.field(g, k)  # noqa: E731
    texts = ctx.data.sub("texts")
    words = {k: texts.text(k, ctx.lang) for k in texts.table}
    frame = float(ctx.data.sub("layout").get("frame", (int, float)))
    return Look(get("ink"), get("paper"), get("gold"), get("back_colour"),
                get("objective_back"), get("bounty_back"), frame, words)


# ---- shared bits ---------------------------------------------------------------------

def _framed(c, w, h, bleed, look: Look, edge: Color) -> None:
    card.background(c, w, h, bleed, edge)
    card.panel(c, w, h, look.frame * w, look.paper)


def _badge(c, named: Named, x, y, r, look: Look) -> None:
    """A coloured disc with the symbol in paper colour: readable in greyscale by shape."""
    c.setFillColor(named.colour)
    c.circle(x, y, r, stroke=0, fill=1)
    c.setFillColor(look.paper)
    symbols.draw(c, named.symbol, x, y, r * 0.62)


def _header(c, w, h, look: Look, named: Named, title: str, over: str = "",
            band: float = 0.2) -> None:
    """A coloured band across the top with the title, and a small word over it if given."""
    inset = look.frame * w
    c.setFillColor(named.colour)
    c.roundRect(inset, h - band * h, w - 2 * inset, band * h - inset, inset, stroke=0, fill=1)
    c.rect(inset, h - band * h, w - 2 * inset, band * h * 0.4, stroke=0, fill=1)
    c.setFillColor(look.paper)
    if over:
        text.line(c, over, w / 2, h - band * h * 0.42, "narrow", 0.05 * w, align="center")
    text.line(c, title.upper(), w / 2, h - band * h * (0.75 if over else 0.62), "bold",
              0.08 * w, align="center", max_w=0.84 * w)


def _gold(c, amount: int, x, y, r, look: Look) -> None:
    c.setFillColor(look.gold)
    c.circle(x, y, r, stroke=0, fill=1)
    c.setFillColor(look.ink)
    text.line(c, str(amount), x, y - r * 0.38, "bold", r * 1.1, align="center")


def _dashed_area(c, x, y, w, h, look: Look) -> None:
    c.saveState()
    c.setStrokeColor(colour.mix(look.ink, look.paper, 0.55))
    c.setLineWidth(0.7)
    c.setDash(3, 2)
    c.roundRect(x, y, w, h, 0.08 * w, stroke=1, fill=0)
    c.restoreState()


# ---- faces ---------------------------------------------------------------------------

def character_front(c, w, h, bleed, *, ch: Character, team: Named, look: Look):
    _framed(c, w, h, bleed, look, team.colour)
    _badge(c, team, 0.15 * w, h - 0.1 * h, 0.075 * w, look)
    _badge(c, ch.guild, 0.84 * w, h - 0.1 * h, 0.09 * w, look)
    c.setFillColor(look.ink)
    text.line(c, ch.guild.name, 0.84 * w, h - 0.2 * h, "narrow", 0.042 * w, align="center",
              max_w=0.3 * w)
    text.line(c, ch.name.upper(), w / 2, h - 0.285 * h, "bold", 0.095 * w, align="center",
              max_w=0.84 * w)
    c.setFillColor(team.colour)
    c.circle(0.13 * w, h - 0.355 * h, 0.025 * w, stroke=0, fill=1)
    c.setFillColor(look.ink)
    text.line(c, look.words["free"].format(guild=ch.guild.name), 0.17 * w, h - 0.365 * h,
              "narrow", 0.048 * w, max_w=0.73 * w)
    c.setStrokeColor(colour.mix(look.ink, look.paper, 0.7))
    c.setLineWidth(0.6)
    c.line(0.1 * w, h - 0.395 * h, 0.9 * w, h - 0.395 * h)
    text.line(c, look.words["power"].upper(), w / 2, h - 0.44 * h, "bold", 0.042 * w,
              align="center")
    text.block(c, ch.power, 0.1 * w, h - 0.46 * h, 0.8 * w, 0.165 * h, "regular", 0.055 * w,
               align="center")
    y = h - 0.67 * h
    if ch.costs:
        row = min(0.06 * h, 0.17 * h / len(ch.costs))
        for gold, buys in ch.costs:
            _gold(c, gold, 0.22 * w, y, 0.04 * w, look)
            c.setFillColor(look.ink)
            text.line(c, f"→ {buys}", 0.3 * w, y - 0.018 * w, "regular", 0.05 * w,
                      max_w=0.62 * w)
            y -= row
    else:
        text.line(c, look.words["cost_as_copied"], w / 2, y, "regular", 0.05 * w,
                  align="center", max_w=0.8 * w)
    # the tithe band along the bottom: the circle that receives it
    inset = look.frame * w
    band = 0.12 * h
    circle = ch.circle
    c.setFillColor(circle.colour if circle else colour.mix(look.ink, look.paper, 0.35))
    c.roundRect(inset, inset, w - 2 * inset, band, inset, stroke=0, fill=1)
    c.rect(inset, inset + band * 0.5, w - 2 * inset, band * 0.5, stroke=0, fill=1)
    c.setFillColor(look.paper)
    if circle:
        symbols.draw(c, circle.symbol, 0.14 * w, inset + band / 2, band * 0.3)
        tithe = look.words["tithe"].format(circle=circle.name)
    else:
        tithe = look.words["tithe_copied"]
    text.block(c, tithe, 0.23 * w, inset + band * 0.78, 0.7 * w, band * 0.7, "narrow",
               0.045 * w)


def team_back(c, w, h, bleed, *, team: Named, look: Look, name: str):
    card.background(c, w, h, bleed, look.back)
    c.setFillColor(team.colour)
    inset = 0.05 * w
    c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, inset, stroke=0, fill=1)
    card.double_frame(c, w, h, look.paper)
    c.setFillColor(look.paper)
    symbols.draw(c, team.symbol, w / 2, h * 0.58, 0.2 * w)
    text.line(c, name.upper(), w / 2, h * 0.36, "bold", 0.1 * w, align="center", max_w=0.72 * w)
    text.line(c, look.words["back_word_team"].format(team=team.name), w / 2, h * 0.3,
              "regular", 0.055 * w, align="center", max_w=0.72 * w)


def plain_back(c, w, h, bleed, *, look: Look, fill: Color, name: str, word: str, symbol: str):
    card.emblem_back(c, w, h, bleed, fill=fill, frame=look.gold, emblem=look.gold, symbol=symbol,
                     name=name, word=word, word_ink=look.paper)


def guild_front(c, w, h, bleed, *, guild: Named, look: Look):
    _framed(c, w, h, bleed, look, guild.colour)
    _header(c, w, h, look, guild, guild.name)
    _badge(c, guild, w / 2, h - 0.27 * h, 0.1 * w, look)
    r = 0.075 * w
    for i in range(8):  # eight marked spaces: the vote starts when they are full
        x = w * (0.2 + 0.2 * (i % 4))
        y = h - (0.45 if i < 4 else 0.56) * h
        c.setStrokeColor(guild.colour)
        c.setLineWidth(1.2)
        c.setFillColor(colour.mix(look.paper, guild.colour, 0.08))
        c.circle(x, y, r, stroke=1, fill=1)
        c.setFillColor(colour.mix(look.ink, look.paper, 0.6))
        text.line(c, str(i + 1), x, y - r * 0.35, "bold", r, align="center")
    c.setFillColor(look.ink)
    text.block(c, look.words["guild_spaces"], 0.1 * w, h - 0.63 * h, 0.8 * w, 0.08 * h,
               "narrow-bold", 0.05 * w, align="center")
    _dashed_area(c, 0.14 * w, 0.08 * h, 0.72 * w, 0.2 * h, look)
    c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
    text.block(c, look.words["guild_holder"], 0.18 * w, 0.24 * h, 0.64 * w, 0.14 * h, "narrow",
               0.048 * w, align="center")


def circle_front(c, w, h, bleed, *, circle: Named, look: Look):
    _framed(c, w, h, bleed, look, circle.colour)
    if circle.short:
        _header(c, w, h, look, circle, circle.short, over=look.words["circle_word"])
    else:
        _header(c, w, h, look, circle, circle.name)
    _badge(c, circle, w / 2, h - 0.33 * h, 0.14 * w, look)
    _dashed_area(c, 0.12 * w, 0.08 * h, 0.76 * w, 0.42 * h, look)
    c.setFillColor(colour.mix(look.gold, look.paper, 0.55))
    symbols.draw(c, "coin", w / 2, 0.32 * h, 0.12 * w)
    c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
    text.block(c, look.words["circle_area"], 0.16 * w, 0.2 * h, 0.68 * w, 0.1 * h, "narrow",
               0.048 * w, align="center")


def bounty_front(c, w, h, bleed, *, ch: Character, look: Look):
    _framed(c, w, h, bleed, look, look.bounty_back)
    c.setFillColor(look.ink)
    text.line(c, look.words["bounty"].upper(), w / 2, h - 0.12 * h, "bold", 0.09 * w,
              align="center", max_w=0.8 * w)
    c.setFillColor(colour.mix(look.ink, look.paper, 0.15))
    symbols.draw(c, "target", w / 2, h - 0.34 * h, 0.2 * w)
    c.setFillColor(look.ink)
    text.line(c, ch.name.upper(), w / 2, h - 0.55 * h, "bold", 0.1 * w, align="center",
              max_w=0.84 * w)
    _gold(c, 3, 0.27 * w, h - 0.64 * h, 0.045 * w, look)
    c.setFillColor(look.ink)
    text.line(c, look.words["bounty_reward"], 0.35 * w, h - 0.65 * h, "bold", 0.055 * w,
              max_w=0.55 * w)
    text.block(c, look.words["bounty_how"], 0.1 * w, h - 0.72 * h, 0.8 * w, 0.2 * h, "regular",
               0.05 * w, align="center")


def objective_front(c, w, h, bleed, *, circle: Named, guild: Named, look: Look):
    _framed(c, w, h, bleed, look, look.objective_back)
    c.setFillColor(look.ink)
    text.line(c, look.words["objective"].upper(), w / 2, h - 0.11 * h, "bold", 0.085 * w,
              align="center", max_w=0.8 * w)
    for top, named, key in ((0.17, circle, "objective_tithe"), (0.47, guild, "objective_guild")):
        y = h - top * h
        c.setFillColor(colour.mix(look.paper, named.colour, 0.12))
        c.roundRect(0.09 * w, y - 0.26 * h, 0.82 * w, 0.26 * h, 0.04 * w, stroke=0, fill=1)
        _badge(c, named, w / 2, y - 0.07 * h, 0.07 * w, look)
        c.setFillColor(look.ink)
        text.block(c, look.words[key].format(circle=circle.name, guild=guild.name), 0.13 * w,
                   y - 0.125 * h, 0.74 * w, 0.12 * h, "regular", 0.048 * w, align="center")
    c.setFillColor(look.ink)
    text.line(c, look.words["objective_or"].upper(), w / 2, h - 0.455 * h, "bold", 0.045 * w,
              align="center")
    text.block(c, look.words["objective_after"], 0.1 * w, h - 0.76 * h, 0.8 * w, 0.1 * h,
               "narrow", 0.043 * w, align="center")
    c.setFillColor(colour.mix(look.ink, look.paper, 0.45))
    text.block(c, look.words["objective_note"], 0.1 * w, h - 0.87 * h, 0.8 * w, 0.07 * h,
               "narrow", 0.034 * w, align="center")


def aid_front(c, w, h, bleed, *, look: Look, title: str, lines: list[str]):
    _framed(c, w, h, bleed, look, look.back)
    card.aid(c, w, h, title=title, lines=lines, ink=look.ink, accent=look.gold, size=0.06,
             title_size=0.075)


def aid_back(c, w, h, bleed, *, look: Look, characters: list[Character]):
    """The reference table of the eight characters."""
    _framed(c, w, h, bleed, look, look.back)
    m = 0.07 * w
    c.setFillColor(look.ink)
    text.line(c, look.words["reference"], w / 2, h - 0.085 * h, "bold", 0.062 * w,
              align="center", max_w=w - 2 * m)
    top = h - 0.115 * h
    row = (top - 0.06 * h) / len(characters)
    for i, ch in enumerate(characters):
        y = top - i * row
        if i % 2 == 0:
            c.setFillColor(colour.mix(look.paper, look.ink, 0.06))
            c.rect(m * 0.6, y - row, w - 1.2 * m, row, stroke=0, fill=1)
        _badge(c, ch.guild, m + 0.035 * w, y - row * 0.32, 0.032 * w, look)
        c.setFillColor(look.ink)
        text.line(c, ch.name, m + 0.085 * w, y - row * 0.42, "bold", 0.045 * w, max_w=0.32 * w)
        text.line(c, ch.summary, m + 0.085 * w, y - row * 0.8, "narrow", 0.036 * w,
                  max_w=w - 2 * m - 0.17 * w)
        if ch.circle:
            _badge(c, ch.circle, w - m - 0.035 * w, y - row * 0.5, 0.032 * w, look)
        else:
            text.line(c, "⟲", w - m - 0.035 * w, y - row * 0.62, "bold", 0.05 * w,
                      align="center")


def token_front(c, w, h, bleed, *, fill: Color, ink: Color, symbol: str | None = None,
                label: str | None = None):
    """A partisan (the team's symbol) or a coin (a ring and its value)."""
    r = min(w, h) / 2
    c.setFillColor(fill)
    c.circle(w / 2, h / 2, r, stroke=0, fill=1)
    c.setFillColor(ink)
    c.setStrokeColor(ink)
    if symbol:
        symbols.draw(c, symbol, w / 2, h / 2, r * 0.55)
    if label:
        c.setLineWidth(r * 0.06)
        c.circle(w / 2, h / 2, r * 0.78, stroke=1, fill=0)
        text.line(c, label, w / 2, h / 2 - r * 0.36, "bold", r, align="center")
    card.cut_circle(c, w / 2, h / 2, r)


# ---- the kit -------------------------------------------------------------------------

def kit(ctx: Context):
    data = ctx.data
    look = _look(ctx)
    teams, guilds, circles = (_named(ctx, k) for k in ("teams", "guilds", "circles"))
    characters = _characters(ctx, guilds, circles)
    name = data.sub("game").get("name", str)
    titles = data.sub("titles")
    title = lambda k: titles.text(k, ctx.lang)  # noqa: E731
    w = look.words

    chars = [Card(title("characters"),
                  Face(partial(character_front, ch=ch, team=t, look=look)),
                  Face(partial(team_back, team=t, look=look, name=name), key=f"back-{t.id}"))
             for t in teams.values() for ch in characters]
    back = partial(plain_back, look=look, name=name)
    table_back = Face(partial(back, fill=look.back, word=title("guilds"), symbol="anvil"),
                      key="back-table")
    guild_cards = [Card(title("guilds"), Face(partial(guild_front, guild=g, look=look)),
                        table_back) for g in guilds.values()]
    circle_back = Face(partial(back, fill=look.back, word=title("circles"), symbol="coin"),
                       key="back-circle")
    circle_cards = [Card(title("circles"), Face(partial(circle_front, circle=ci, look=look)),
                         circle_back) for ci in circles.values()]
    bounty_back = Face(partial(back, fill=look.bounty_back, word=w["bounty"], symbol="target"),
                       key="back-bounty")
    bounties = [Card(title("bounties"), Face(partial(bounty_front, ch=ch, look=look)),
                     bounty_back) for ch in characters]
    objective_back = Face(partial(back, fill=look.objective_back, word=w["objective"],
                                  symbol="coin"), key="back-objective")
    objectives = [Card(title("objectives"),
                       Face(partial(objective_front, circle=ci, guild=g, look=look)),
                       objective_back)
                  for ci in circles.values() for g in guilds.values()]
    aid = data.sub("aid")
    lines = aid.text_list("lines", ctx.lang)
    aid_card = Card(title("aids"),
                    Face(partial(aid_front, look=look, title=aid.text("title", ctx.lang),
                                 lines=lines), key="aid-front"),
                    Face(partial(aid_back, look=look, characters=characters), key="aid-back"))
    aids = [aid_card] * aid.get("copies", int)

    game = data.sub("game")
    per_team, coins = game.get("partisans_per_team", int), game.get("gold_coins", int)
    partisans = [Card(title("tokens"), face, face)
                 for t in teams.values()
                 for face in [Face(partial(token_front, fill=t.colour, symbol=t.symbol,
                                           ink=look.paper), key=f"partisan-{t.id}")]
                 for _ in range(per_team)]
    coin_face = Face(partial(token_front, fill=look.gold, ink=look.ink, label="1"), key="coin")
    gold = [Card(title("tokens"), coin_face, coin_face)] * coins
    tok = data.sub("tokens")
    token_size = parse_size(tok.get("size", str), field="tokens.size")

    return [
        CardFile("cards.pdf", [
            Component("characters", "characters", title("characters"), len(chars), chars),
            Component("guilds", "guilds", title("guilds"), len(guild_cards), guild_cards),
            Component("circles", "circles", title("circles"), len(circle_cards), circle_cards),
            Component("bounties", "bounties", title("bounties"), len(bounties), bounties),
            Component("objectives", "objectives", title("objectives"), len(objectives),
                      objectives),
            Component("aids", "aids", title("aids"), len(aids), aids),
        ], ctx.card, ctx.card_name),
        CardFile("tokens.pdf", [
            Component("partisans", "tokens", title("tokens"), len(partisans), partisans),
            Component("gold", "tokens", title("tokens"), len(gold), gold),
        ], token_size, tok.get("size", str), stock="tokens"),
    ]
