"""Lugvanion's kit: which components it has and how each face is laid out.
Every text, colour and symbol comes from layouts/lugvanion.toml."""

from dataclasses import dataclass
from functools import partial

from reportlab.lib.colors import Color

from companion.draw import card, colour, symbols, text
from companion.draw.card import Pic
from companion.games.pictures import Kind, Pictures, keyed
from companion.kit import CardFile, Component, Context
from companion.sheets import Card, Face
from companion.errors import shown
from companion.units import parse_size

PARTS = ("characters", "guilds", "circles", "bounties", "objectives", "aids", "tokens")

EXAMPLE = ('art = "art/{character}.jpg" on a [[characters]] entry puts one picture on '
           'its four team cards')
# Each kind of card and where its picture goes ([layout.KIND] art, games/pictures.py).
ART = {
    "character": Kind("Characters", "[[characters]]",
                      ("id", "character", "team", "guild", "circle"),
                      "A portrait window at the top, between the two badges ({id}: "
                      "team-character, e.g. red-spy; {circle}: copied for the copiers)."),
    "guild": Kind("Guilds", "[[guilds]]", ("id", "guild"),
                  "A window in place of the guild's badge, under its band."),
    "circle": Kind("Circles", "[[circles]]", ("id", "circle"),
                   "A window in place of the circle's badge, under its band."),
    "bounty": Kind("Bounties", "", ("id", "character"), "In place of the target."),
    "objective": Kind("Objectives", "", ("id", "circle", "guild"),
                      "The whole card, under the texts ({id}: circle-guild)."),
    "aid": Kind("Player aids", "[aid]", ("id", "side"),
                "The whole card, under the texts; both sides ({side}: front, or back: the "
                "character table)."),
    "partisan": Kind("Partisans", "[[teams]]", ("id", "team"),
                     "The whole token, cut round, in place of the team's symbol.",
                     stock="tokens"),
    "coin": Kind("Gold coins", "", ("id",), "The whole token, cut round, under its ring and "
                 "value.", stock="tokens"),
    "back": Kind("Card backs", "", ("id", "back"),
                 "The whole back: the picture is the back ({back}: team-red, team-blue, "
                 "team-green, team-yellow, guild, circle, bounty or objective)."),
}

# Where the text boxes of the busiest faces sit ([layout.*] in layouts/lugvanion.toml):
# x, w and sizes are fractions of the card's width, y and h of its height from the top.
XYR, XW, YS = ("x", "y", "r"), ("x", "w"), ("y", "size")
LAYOUT = {
    "character": {"team_badge": XYR, "guild_badge": XYR, "guild_name": ("y", "w", "size"),
                  "name": ("y", "w", "size"), "free": ("x", "y", "w", "size"),
                  "power_head": YS, "power": ("x", "y", "w", "h", "size"),
                  "costs": ("x", "y", "w", "h", "size"), "tithe": ("x", "w", "h", "size")},
    "reference": {"margin": None, "title": YS, "top": None, "bottom": None,
                  "name": ("x", "size"), "summary": ("x", "size"), "badge": ("r",)},
}


@dataclass(frozen=True)
class Named:
    """A team, guild or circle: its name, colour and symbol."""
    id: str
    name: str
    colour: Color
    symbol: str
    short: str = ""  # a shorter name for a card's header, where the data gives one
    ink: Color | None = None  # words printed on its colour (None: the paper colour)


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
    objective_back_ink: Color  # the words on the grey objective backs
    lay: dict  # [layout.*], checked against LAYOUT


def _named(ctx: Context, key: str) -> dict[str, Named]:
    out = {}
    for f in ctx.data.items(key):
        sym = symbols.named(f, "symbol")
        short = f.text("short", ctx.lang) if "short" in f.table else ""
        ink = colour.field(f, "ink_on_colour") if "ink_on_colour" in f.table else None
        out[f.get("id", str)] = Named(f.get("id", str), f.text("name", ctx.lang),
                                      colour.field(f, "colour"), sym, short, ink)
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
    layout = ctx.data.sub("layout")
    frame = float(layout.get("frame", (int, float)))
    lay = {k: layout.geometry(k, shape) for k, shape in LAYOUT.items()}
    paper = get("paper")
    return Look(get("ink"), paper, get("gold"), get("back_colour"),
                get("objective_back"), get("bounty_back"), frame, words,
                get("objective_back_ink") if "objective_back_ink" in g.table else paper, lay)


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


def _header(c, w, h, look: Look, named: Named, title: str, field: str, over: str = "",
            band: float = 0.2) -> None:
    """A coloured band across the top with the title, and a small word over it if given."""
    inset = look.frame * w
    c.setFillColor(named.colour)
    c.roundRect(inset, h - band * h, w - 2 * inset, band * h - inset, inset, stroke=0, fill=1)
    c.rect(inset, h - band * h, w - 2 * inset, band * h * 0.4, stroke=0, fill=1)
    c.setFillColor(named.ink or look.paper)
    if over:
        text.line(c, over, w / 2, h - band * h * 0.42, "narrow", 0.05 * w, align="center",
                  field="texts.circle_word")
    text.line(c, title.upper(), w / 2, h - band * h * (0.75 if over else 0.62), "bold",
              0.08 * w, align="center", max_w=0.84 * w, field=field)


def _gold(c, amount: int, x, y, r, look: Look, field: str) -> None:
    c.setFillColor(look.gold)
    c.circle(x, y, r, stroke=0, fill=1)
    c.setFillColor(look.ink)
    text.line(c, str(amount), x, y - r * 0.38, "bold", r * 1.1, align="center", field=field)


def _dashed_area(c, x, y, w, h, look: Look) -> None:
    c.saveState()
    c.setStrokeColor(colour.mix(look.ink, look.paper, 0.55))
    c.setLineWidth(0.7)
    c.setDash(3, 2)
    c.roundRect(x, y, w, h, 0.08 * w, stroke=1, fill=0)
    c.restoreState()


# ---- faces ---------------------------------------------------------------------------

def character_front(c, w, h, bleed, *, ch: Character, team: Named, look: Look,
                    pic: Pic | None = None):
    lay = look.lay["character"]
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, team.colour)
    card.picture_window(c, w, h, bleed, pic, edge=team.colour)
    b = lay["team_badge"]
    _badge(c, team, b["x"] * w, h - b["y"] * h, b["r"] * w, look)
    b = lay["guild_badge"]
    _badge(c, ch.guild, b["x"] * w, h - b["y"] * h, b["r"] * w, look)
    c.setFillColor(look.ink)
    g = lay["guild_name"]
    text.line(c, ch.guild.name, b["x"] * w, h - g["y"] * h, "narrow", g["size"] * w,
              align="center", max_w=g["w"] * w, field="guilds.name")
    n = lay["name"]
    text.line(c, ch.name.upper(), w / 2, h - n["y"] * h, "bold", n["size"] * w, align="center",
              max_w=n["w"] * w, field="characters.name")
    f = lay["free"]
    c.setFillColor(team.colour)
    c.circle(f["x"] * w - 0.04 * w, h - f["y"] * h + 0.01 * h, 0.025 * w, stroke=0, fill=1)
    c.setFillColor(look.ink)
    text.line(c, look.words["free"].format(guild=ch.guild.name), f["x"] * w, h - f["y"] * h,
              "narrow", f["size"] * w, max_w=f["w"] * w, field="texts.free")
    c.setStrokeColor(colour.mix(look.ink, look.paper, 0.7))
    c.setLineWidth(0.6)
    rule_y = h - (f["y"] + 0.03) * h
    c.line(0.1 * w, rule_y, 0.9 * w, rule_y)
    ph = lay["power_head"]
    text.line(c, look.words["power"].upper(), w / 2, h - ph["y"] * h, "bold", ph["size"] * w,
              align="center", field="texts.power")
    p = lay["power"]
    text.block(c, ch.power, p["x"] * w, h - p["y"] * h, p["w"] * w, p["h"] * h, "regular",
               p["size"] * w, align="center", field="characters.power")
    k = lay["costs"]
    y = h - k["y"] * h
    if ch.costs:
        row = min(0.06 * h, k["h"] * h / len(ch.costs))
        for i, (gold, buys) in enumerate(ch.costs):
            _gold(c, gold, k["x"] * w - 0.08 * w, y, 0.04 * w, look, f"characters.costs[{i}].gold")
            c.setFillColor(look.ink)
            text.line(c, f"→ {buys}", k["x"] * w, y - 0.018 * w, "regular", k["size"] * w,
                      max_w=k["w"] * w, field=f"characters.costs[{i}].buys")
            y -= row
    else:
        text.line(c, look.words["cost_as_copied"], w / 2, y, "regular", k["size"] * w,
                  align="center", max_w=0.8 * w, field="texts.cost_as_copied")
    # the tithe band along the bottom: the circle that receives it
    inset = look.frame * w
    t = lay["tithe"]
    band = t["h"] * h
    circle = ch.circle
    c.setFillColor(circle.colour if circle else colour.mix(look.ink, look.paper, 0.35))
    c.roundRect(inset, inset, w - 2 * inset, band, inset, stroke=0, fill=1)
    c.rect(inset, inset + band * 0.5, w - 2 * inset, band * 0.5, stroke=0, fill=1)
    c.setFillColor((circle.ink if circle else None) or look.paper)
    if circle:
        symbols.draw(c, circle.symbol, (t["x"] * w + inset) / 2, inset + band / 2, band * 0.3)
        tithe, key = look.words["tithe"].format(circle=circle.name), "texts.tithe"
    else:
        tithe, key = look.words["tithe_copied"], "texts.tithe_copied"
    size = t["size"] * w
    n = len(text.wrap(tithe, "narrow", size, t["w"] * w))  # its lines centred on the band
    top = inset + band / 2 + (1.27 + 1.2 * (n - 1)) * size / 2
    text.block(c, tithe, t["x"] * w, top, t["w"] * w, band - 0.1 * size, "narrow", size,
               field=key)


def team_back(c, w, h, bleed, *, team: Named, look: Look, name: str, pic: Pic | None = None):
    if card.picture_back(c, w, h, bleed, pic, card.on_back(look.back)[0]):
        return
    card.background(c, w, h, bleed, card.on_back(look.back)[0])
    inset = 0.05 * w
    if card.saving():  # the team's colour as a wide outline on white, its symbol in it
        c.setStrokeColor(team.colour)
        c.setLineWidth(0.03 * w)
        c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, inset, stroke=1, fill=0)
        ink = team.ink or team.colour
    else:
        c.setFillColor(team.colour)
        c.roundRect(inset, inset, w - 2 * inset, h - 2 * inset, inset, stroke=0, fill=1)
        ink = team.ink or look.paper
    card.double_frame(c, w, h, ink)
    c.setFillColor(ink)
    symbols.draw(c, team.symbol, w / 2, h * 0.58, 0.2 * w)
    text.line(c, name.upper(), w / 2, h * 0.36, "bold", 0.1 * w, align="center", max_w=0.72 * w,
              field="game.name")
    text.line(c, look.words["back_word_team"].format(team=team.name), w / 2, h * 0.3,
              "regular", 0.055 * w, align="center", max_w=0.72 * w, field="texts.back_word_team")


def plain_back(c, w, h, bleed, *, look: Look, fill: Color, name: str, word: str, symbol: str,
               word_field: str, ink: Color | None = None, pic: Pic | None = None):
    if card.picture_back(c, w, h, bleed, pic, card.on_back(fill)[0]):
        return
    card.emblem_back(c, w, h, bleed, fill=fill, frame=look.gold, emblem=look.gold, symbol=symbol,
                     name=name, word=word, word_ink=ink or look.paper, word_field=word_field)


def guild_front(c, w, h, bleed, *, guild: Named, look: Look, pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, guild.colour)
    _header(c, w, h, look, guild, guild.name, "guilds.name")
    if not card.picture_window(c, w, h, bleed, pic, edge=guild.colour):
        _badge(c, guild, w / 2, h - 0.27 * h, 0.1 * w, look)
    r = 0.075 * w
    for i in range(8):  # eight marked spaces: the vote starts when they are full
        x = w * (0.2 + 0.2 * (i % 4))
        y = h - (0.45 if i < 4 else 0.56) * h
        c.setStrokeColor(guild.colour)
        c.setLineWidth(1.2)
        c.setFillColor(colour.mix(look.paper, guild.colour, 0.08))
        c.circle(x, y, r, stroke=1, fill=1)
        c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
        text.line(c, str(i + 1), x, y - r * 0.35, "bold", r, align="center", field="space")
    c.setFillColor(look.ink)
    text.block(c, look.words["guild_spaces"], 0.1 * w, h - 0.63 * h, 0.8 * w, 0.08 * h,
               "narrow-bold", 0.05 * w, align="center", field="texts.guild_spaces")
    _dashed_area(c, 0.14 * w, 0.08 * h, 0.72 * w, 0.2 * h, look)
    c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
    text.block(c, look.words["guild_holder"], 0.18 * w, 0.24 * h, 0.64 * w, 0.14 * h, "narrow",
               0.048 * w, align="center", field="texts.guild_holder")


def circle_front(c, w, h, bleed, *, circle: Named, look: Look, pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, circle.colour)
    if circle.short:
        _header(c, w, h, look, circle, circle.short, "circles.short",
                over=look.words["circle_word"])
    else:
        _header(c, w, h, look, circle, circle.name, "circles.name")
    if not card.picture_window(c, w, h, bleed, pic, edge=circle.colour):
        _badge(c, circle, w / 2, h - 0.33 * h, 0.14 * w, look)
    _dashed_area(c, 0.12 * w, 0.08 * h, 0.76 * w, 0.42 * h, look)
    c.setFillColor(colour.mix(look.gold, look.paper, 0.55))
    symbols.draw(c, "coin", w / 2, 0.32 * h, 0.12 * w)
    c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
    text.block(c, look.words["circle_area"], 0.16 * w, 0.2 * h, 0.68 * w, 0.1 * h, "narrow",
               0.048 * w, align="center", field="texts.circle_area")


def bounty_front(c, w, h, bleed, *, ch: Character, look: Look, pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, look.bounty_back)
    c.setFillColor(look.ink)
    text.line(c, look.words["bounty"].upper(), w / 2, h - 0.12 * h, "bold", 0.09 * w,
              align="center", max_w=0.8 * w, field="texts.bounty")
    if not card.picture_window(c, w, h, bleed, pic, edge=look.ink):
        c.setFillColor(colour.mix(look.ink, look.paper, 0.15))
        symbols.draw(c, "target", w / 2, h - 0.34 * h, 0.2 * w)
    c.setFillColor(look.ink)
    text.line(c, ch.name.upper(), w / 2, h - 0.55 * h, "bold", 0.1 * w, align="center",
              max_w=0.84 * w, field="characters.name")
    _gold(c, 3, 0.27 * w, h - 0.64 * h, 0.045 * w, look, "reward")
    c.setFillColor(look.ink)
    text.line(c, look.words["bounty_reward"], 0.35 * w, h - 0.65 * h, "bold", 0.055 * w,
              max_w=0.55 * w, field="texts.bounty_reward")
    text.block(c, look.words["bounty_how"], 0.1 * w, h - 0.72 * h, 0.8 * w, 0.2 * h, "regular",
               0.05 * w, align="center", field="texts.bounty_how")


def objective_front(c, w, h, bleed, *, circle: Named, guild: Named, look: Look,
                    pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, look.objective_back)
    card.picture_window(c, w, h, bleed, pic)  # a box moved off the whole card: under the texts
    c.setFillColor(look.ink)
    text.line(c, look.words["objective"].upper(), w / 2, h - 0.11 * h, "bold", 0.085 * w,
              align="center", max_w=0.8 * w, field="texts.objective")
    for top, named, key in ((0.17, circle, "objective_tithe"), (0.47, guild, "objective_guild")):
        y = h - top * h
        c.setFillColor(colour.mix(look.paper, named.colour, 0.12))
        c.roundRect(0.09 * w, y - 0.26 * h, 0.82 * w, 0.26 * h, 0.04 * w, stroke=0, fill=1)
        _badge(c, named, w / 2, y - 0.07 * h, 0.07 * w, look)
        c.setFillColor(look.ink)
        text.block(c, look.words[key].format(circle=circle.name, guild=guild.name), 0.13 * w,
                   y - 0.125 * h, 0.74 * w, 0.12 * h, "regular", 0.048 * w, align="center",
                   field=f"texts.{key}")
    c.setFillColor(look.ink)
    text.line(c, look.words["objective_or"].upper(), w / 2, h - 0.455 * h, "bold", 0.045 * w,
              align="center", field="texts.objective_or")
    text.block(c, look.words["objective_after"], 0.1 * w, h - 0.76 * h, 0.8 * w, 0.1 * h,
               "narrow", 0.043 * w, align="center", field="texts.objective_after")
    c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
    text.block(c, look.words["objective_note"], 0.1 * w, h - 0.87 * h, 0.8 * w, 0.07 * h,
               "narrow", 0.034 * w, align="center", field="texts.objective_note")


def aid_front(c, w, h, bleed, *, look: Look, title: str, lines: list[str],
              pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, look.back)
    card.picture_window(c, w, h, bleed, pic)
    card.aid(c, w, h, title=title, lines=lines, ink=look.ink, accent=look.gold, size=0.06,
             title_size=0.075, title_field="aid.title", lines_field="aid.lines")


def aid_back(c, w, h, bleed, *, look: Look, characters: list[Character],
             pic: Pic | None = None):
    """The reference table of the eight characters: on each row the guild's badge, the
    name and the tithe's circle (⟲: that of the copied character), the summary under them."""
    lay = look.lay["reference"]
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, look.back)
    card.picture_window(c, w, h, bleed, pic)
    m = lay["margin"] * w
    t = lay["title"]
    c.setFillColor(look.ink)
    text.line(c, look.words["reference"], w / 2, h - t["y"] * h, "bold", t["size"] * w,
              align="center", max_w=w - 2 * m, field="texts.reference")
    top, bottom = h - lay["top"] * h, lay["bottom"] * h
    row = (top - bottom) / len(characters)
    r = lay["badge"]["r"] * w
    nx, sx = lay["name"]["x"] * w, lay["summary"]["x"] * w
    for i, ch in enumerate(characters):
        y = top - i * row
        if i % 2 == 0:
            c.setFillColor(colour.mix(look.paper, look.ink, 0.06))
            c.rect(look.frame * w, y - row, w - 2 * look.frame * w, row, stroke=0, fill=1)
        name_y = y - row * 0.42
        _badge(c, ch.guild, m + r, name_y + r * 0.3, r, look)
        c.setFillColor(look.ink)
        text.line(c, ch.name, nx, name_y, "bold", lay["name"]["size"] * w,
                  max_w=w - m - nx - 3 * r, field="characters.name")
        text.line(c, ch.summary, sx, y - row * 0.84, "narrow", lay["summary"]["size"] * w,
                  max_w=w - m - sx, field="characters.summary")
        if ch.circle:
            _badge(c, ch.circle, w - m - r, name_y + r * 0.3, r, look)
        else:
            text.line(c, "⟲", w - m - r, name_y, "bold", 1.7 * r, align="center",
                      field="characters.circle")


def token_front(c, w, h, bleed, *, fill: Color, ink: Color, symbol: str | None = None,
                label: str | None = None, pic: Pic | None = None):
    """A partisan (the team's symbol) or a coin (a ring and its value); its ground runs into
    the bleed, the cut line stays at its edge."""
    r = min(w, h) / 2
    if not card.picture_disc(c, w / 2, h / 2, r, w, h, bleed, pic):
        card.disc(c, w / 2, h / 2, r, bleed, fill)
    shown = card.picture_window(c, w, h, bleed, pic)
    c.setFillColor(ink)
    c.setStrokeColor(ink)
    if symbol and not shown:  # a partisan's picture stands for its symbol
        symbols.draw(c, symbol, w / 2, h / 2, r * 0.55)
    if label:
        c.setLineWidth(r * 0.06)
        c.circle(w / 2, h / 2, r * 0.78, stroke=1, fill=0)
        text.line(c, label, w / 2, h / 2 - r * 0.36, "bold", r, align="center", field="coin")
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

    pics = Pictures(ctx, "lugvanion", ART)
    entries = {k: {f.get("id", str): f for f in data.items(k)}
               for k in ("teams", "guilds", "circles", "characters")}

    def back_pic(back: str, component: str):
        return pics.pic("back", f"{component}/back", {"id": back, "back": back})

    chars = []
    for t in teams.values():
        pic = back_pic(f"team-{t.id}", "characters")
        team_face = Face(partial(team_back, team=t, look=look, name=name, pic=pic),
                         key=keyed(f"back-{t.id}", pic))
        for ch in characters:
            cid = f"{t.id}-{ch.id}"
            pic = pics.pic("character", f"characters/{cid}",
                           {"id": cid, "character": ch.id, "team": t.id, "guild": ch.guild.id,
                            "circle": ch.circle.id if ch.circle else "copied"},
                           entries["characters"][ch.id])
            chars.append(Card(title("characters"),
                              Face(partial(character_front, ch=ch, team=t, look=look, pic=pic)),
                              team_face, id=cid))
    back = partial(plain_back, look=look, name=name)

    def plain(key: str, back_name: str, component: str, **kw):
        pic = back_pic(back_name, component)
        return Face(partial(back, pic=pic, **kw), key=keyed(key, pic))

    table_back = plain("back-table", "guild", "guilds", fill=look.back, word=title("guilds"),
                       symbol="anvil", word_field="titles.guilds")
    guild_cards = [Card(title("guilds"),
                        Face(partial(guild_front, guild=g, look=look,
                                     pic=pics.pic("guild", f"guilds/{g.id}",
                                                  {"id": g.id, "guild": g.id},
                                                  entries["guilds"][g.id]))),
                        table_back, id=g.id) for g in guilds.values()]
    circle_back = plain("back-circle", "circle", "circles", fill=look.back,
                        word=title("circles"), symbol="coin", word_field="titles.circles")
    circle_cards = [Card(title("circles"),
                         Face(partial(circle_front, circle=ci, look=look,
                                      pic=pics.pic("circle", f"circles/{ci.id}",
                                                   {"id": ci.id, "circle": ci.id},
                                                   entries["circles"][ci.id]))),
                         circle_back, id=ci.id) for ci in circles.values()]
    bounty_back = plain("back-bounty", "bounty", "bounties", fill=look.bounty_back,
                        word=w["bounty"], symbol="target", word_field="texts.bounty")
    bounties = [Card(title("bounties"),
                     Face(partial(bounty_front, ch=ch, look=look,
                                  pic=pics.pic("bounty", f"bounties/{ch.id}",
                                               {"id": ch.id, "character": ch.id}))),
                     bounty_back, id=ch.id) for ch in characters]
    objective_back = plain("back-objective", "objective", "objectives",
                           fill=look.objective_back, word=w["objective"], symbol="coin",
                           word_field="texts.objective", ink=look.objective_back_ink)
    objectives = [Card(title("objectives"),
                       Face(partial(objective_front, circle=ci, guild=g, look=look,
                                    pic=pics.pic("objective", f"objectives/{ci.id}-{g.id}",
                                                 {"id": f"{ci.id}-{g.id}", "circle": ci.id,
                                                  "guild": g.id}))),
                       objective_back, id=f"{ci.id}-{g.id}")
                  for ci in circles.values() for g in guilds.values()]
    aid = data.sub("aid")
    lines = aid.text_list("lines", ctx.lang)
    front_pic, back_pic_ = (pics.pic("aid", "aids/aid", {"id": "aid", "side": s}, aid)
                            for s in ("front", "back"))
    aid_card = Card(title("aids"),
                    Face(partial(aid_front, look=look, title=aid.text("title", ctx.lang),
                                 lines=lines, pic=front_pic), key=keyed("aid-front", front_pic)),
                    Face(partial(aid_back, look=look, characters=characters, pic=back_pic_),
                         key=keyed("aid-back", back_pic_)), id="aid")
    aids = [aid_card] * aid.get("copies", int)

    game = data.sub("game")
    per_team, coins = game.get("partisans_per_team", int), game.get("gold_coins", int)
    partisans = []
    for t in teams.values():
        pic = pics.pic("partisan", f"partisans/{t.id}", {"id": t.id, "team": t.id},
                       entries["teams"][t.id])
        face = Face(partial(token_front, fill=t.colour, symbol=t.symbol, ink=look.paper,
                            pic=pic), key=keyed(f"partisan-{t.id}", pic))
        partisans += [Card(title("tokens"), face, face, id=t.id) for _ in range(per_team)]
    pic = pics.pic("coin", "gold/coin", {"id": "coin"})
    coin_face = Face(partial(token_front, fill=look.gold, ink=look.ink, label="1", pic=pic),
                     key=keyed("coin", pic))
    gold = [Card(title("tokens"), coin_face, coin_face, id="coin")] * coins
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
