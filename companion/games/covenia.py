"""Covenia's kit: which components it has and how each face is laid out.
Every text, colour, symbol and position comes from layouts/covenia.toml."""

from dataclasses import dataclass
from functools import partial

from reportlab.lib.colors import Color, white

from companion.draw import colour, symbols, text
from companion.games.pictures import Kind, Pictures
from companion.layout import components
from companion.layout.face import Engine
from companion.kit import Component, Context, PageFile
from companion.units import mm

PARTS = ("cards", "temple", "aids", "tokens", "scorebook")

EXAMPLE = ('art = "art/{clan}-{value}{deck}.jpg" on a [[clans]] entry gives each of its '
           '20 cards its own picture')
# Each kind of card and where its picture goes ([layout.KIND] art, games/pictures.py).
ART = {
    "clan": Kind("Clan cards", "[[clans]]", ("id", "clan", "value", "deck"),
                 "A window in place of the emblem, edged in the clan's colour."),
    "temple": Kind("Temple cards", "", ("id", "clan"),
                   "In place of the clan's symbol, under the band."),
    "aid": Kind("Game aids", "[aid]", ("id", "side"),
                "The whole card, under the texts; both sides ({side}: front or back)."),
    "token": Kind("Tokens", "[tokens.first_player], [tokens.shield]", ("id", "side"),
                  "The whole token, cut round, in place of its symbol ({side}: front or back).",
                  stock="tokens"),
    "back": Kind("Card backs", "", ("id", "back"),
                 "The whole back: the picture is the back ({back}: clan or temple)."),
}

@dataclass(frozen=True)
class Clan:
    id: str
    name: str
    colour: Color  # the clan's cue: grounds, frames, symbols
    symbol: str
    reminder: str
    ritual: str
    formula: str
    text_colour: Color  # the clan's words and numbers on light grounds (a darker shade)
    band_ink: Color  # words printed on the clan's colour (the Temple's band)


@dataclass(frozen=True)
class Look:
    ink: Color
    paper: Color
    back: Color
    gold: Color


def _clans(ctx: Context) -> list[Clan]:
    out = []
    for f in ctx.data.items("clans"):
        cue = colour.field(f, "colour")
        # Optional in a data file: a clan without them prints its words in its own colour
        # and white on its band (a build then reports any contrast too low).
        text_colour = colour.field(f, "text_colour") if "text_colour" in f.table else cue
        band_ink = colour.field(f, "band_ink") if "band_ink" in f.table else white
        out.append(Clan(f.get("id", str), f.text("name", ctx.lang), cue,
                        symbols.named(f, "symbol"), f.text("reminder", ctx.lang),
                        f.text("ritual", ctx.lang), f.text("formula", ctx.lang),
                        text_colour, band_ink))
    return out


def _look(ctx: Context) -> Look:
    g = ctx.data.sub("game")
    return Look(*(colour.field(g, k)
                  for k in ("ink", "paper", "back_colour", "gold")))


# ---- the score book ----------------------------------------------------------------

def _score_rows(ctx: Context, look: Look, clans: list[Clan]) -> list[tuple]:
    bonus, total = ctx.data.sub("bonus"), ctx.data.sub("total")
    rows = [(cl.name, cl.formula, cl.colour, cl.symbol) for cl in clans]
    rows.append((bonus.text("name", ctx.lang), bonus.text("formula", ctx.lang), look.gold, "sun"))
    rows.append((total.text("name", ctx.lang), total.text("formula", ctx.lang), look.ink, None))
    return rows


def _page_head(c, ctx: Context, look: Look, heading: str, note: str, corner: str = "") -> None:
    pw, ph = ctx.page
    m = mm(12)
    c.setFillColor(look.ink)
    text.line(c, heading, m, ph - m - mm(2), "bold", 14, field="titles.scorebook")
    if corner:
        text.line(c, corner, pw - m, ph - m - mm(2), "regular", 9, align="right", field="page")
    text.line(c, note, m, ph - m - mm(8), "regular", 7.5, max_w=pw - 2 * m,
              field="texts.scorebook_note")
    c.setFillColor(colour.mix(look.ink, white, 0.4))
    text.line(c, ctx.data.sub("game").text("credits", ctx.lang), pw / 2, m - mm(5),
              "regular", 6.5, align="center", max_w=pw - 2 * m, field="game.credits")


def scorebook_pages(c, *, ctx: Context, look: Look, clans: list[Clan], game_name: str,
                    title: str) -> int:
    sb = ctx.data.sub("scorebook")
    per_page, pages, players = (sb.get(k, int) for k in ("games_per_page", "pages", "players"))
    texts = ctx.data.sub("texts")
    tx = lambda k: texts.text(k, ctx.lang)  # noqa: E731
    rows = _score_rows(ctx, look, clans)
    pw, ph = ctx.page
    m = mm(12)
    for p in range(pages):
        _page_head(c, ctx, look, f"{game_name} · {title}", tx("scorebook_note"),
                   f"{p + 1} / {pages}")
        block_h = (ph - 2 * m - mm(14)) / per_page
        for g in range(per_page):
            top = ph - m - mm(14) - g * block_h
            _score_table(c, m, top - mm(3), pw - 2 * m, block_h - mm(8), rows, players, look, tx)
        c.showPage()
    return pages


def filled_scorebook(c, ctx: Context, names: list[str], values: dict[str, list[int]],
                     report_lines: list[str], verdict: str) -> None:
    """One game of the score book, filled in, with each player's reasons below it."""
    look, clans = _look(ctx), _clans(ctx)
    texts = ctx.data.sub("texts")
    tx = lambda k: texts.text(k, ctx.lang)  # noqa: E731
    game_name = ctx.data.sub("game").get("name", str)
    title = ctx.data.sub("titles").text("scorebook", ctx.lang)
    pw, ph = ctx.page
    m = mm(12)
    _page_head(c, ctx, look, f"{game_name} · {title}", tx("scorebook_note"))
    order = [cl.id for cl in clans] + ["bonus", "total"]
    cells = [[str(v) for v in values[row]] for row in order]
    table_h = mm(95)
    _score_table(c, m, ph - m - mm(17), pw - 2 * m, table_h, _score_rows(ctx, look, clans),
                 len(names), look, tx, names=names, cells=cells)
    y = ph - m - mm(17) - table_h - mm(6)
    c.setFillColor(look.ink)
    text.line(c, verdict, m, y, "bold", 12, max_w=pw - 2 * m, field="verdict")
    y -= mm(6)
    for line in report_lines:
        y -= text.block(c, line, m, y, pw - 2 * m, mm(30), "regular", 8, field="report") + mm(2)
    c.showPage()


def _score_table(c, x, top, w, h, rows, players, look, tx, names=None, cells=None):
    label_w = w * 0.36
    col_w = (w - label_w) / players
    row_h = h / (len(rows) + 2)
    c.setFillColor(look.ink)
    if names is None:
        text.line(c, f"{tx('scorebook_game')} ______    {tx('scorebook_date')} ____________",
                  x, top - row_h * 0.65, "regular", 9, field="texts.scorebook_game")
    y = top - row_h
    c.setFillColor(colour.mix(look.paper, look.gold, 0.25))
    c.rect(x, y - row_h, w, row_h, stroke=0, fill=1)
    c.setFillColor(look.ink)
    for i in range(players):
        cx = x + label_w + (i + 0.5) * col_w
        if names:
            text.line(c, names[i], cx, y - row_h * 0.62, "bold", 9, align="center",
                      max_w=col_w - mm(2), field="players.name")
        else:
            text.line(c, f"{tx('scorebook_player')} {i + 1}", cx, y - row_h * 0.62, "narrow", 7,
                      align="center", field="texts.scorebook_player")
    y -= row_h
    for r, (name, formula, col, sym) in enumerate(rows):
        is_total = sym is None
        if is_total:
            c.setFillColor(colour.mix(look.paper, look.ink, 0.1))
            c.rect(x, y - row_h, w, row_h, stroke=0, fill=1)
        c.setFillColor(col)
        if sym:
            c.rect(x, y - row_h, mm(1.6), row_h, stroke=0, fill=1)
            symbols.draw(c, sym, x + mm(5), y - row_h / 2, row_h * 0.3)
        c.setFillColor(look.ink)
        text.line(c, name, x + mm(9), y - row_h * 0.45, "bold", min(10, row_h * 0.42),
                  max_w=label_w - mm(10), field="name")
        c.setFillColor(colour.mix(look.ink, white, 0.35))
        text.line(c, formula, x + mm(9), y - row_h * 0.82, "narrow", min(6.5, row_h * 0.26),
                  max_w=label_w - mm(10), field="formula")
        if cells:
            c.setFillColor(look.ink)
            for i, value in enumerate(cells[r]):
                text.line(c, value, x + label_w + (i + 0.5) * col_w, y - row_h * 0.66,
                          "bold" if is_total else "regular", min(13, row_h * 0.5), align="center",
                          field="score")
        y -= row_h
    c.setStrokeColor(look.ink)
    c.setLineWidth(0.5)
    table_top = top - row_h
    for i in range(len(rows) + 2):
        yy = table_top - i * row_h
        c.line(x, yy, x + w, yy)
    c.setLineWidth(1.2)
    c.line(x, table_top - (len(rows)) * row_h, x + w, table_top - (len(rows)) * row_h)
    c.setLineWidth(0.5)
    for i in range(players + 1):
        xx = x + label_w + i * col_w
        c.line(xx, table_top, xx, table_top - (len(rows) + 1) * row_h)
    c.line(x, table_top, x, table_top - (len(rows) + 1) * row_h)


# ---- the kit -----------------------------------------------------------------------

def kit(ctx: Context):
    """Every card and token is declared in layouts/covenia.toml ([backs], [components],
    [kinds]) and drawn by the layout engine; the score book is drawn here."""
    data = ctx.data
    look = _look(ctx)
    clans = _clans(ctx)
    game_name = data.sub("game").get("name", str)
    title = data.sub("titles").text("scorebook", ctx.lang)
    pics = Pictures(ctx, "covenia", ART)
    engine = Engine.of(data, ctx.lang, "covenia")
    files: list = []
    components.add(files, ctx, engine, components.backs(ctx, engine, pics, "covenia"), pics,
                   "covenia")
    sb = data.sub("scorebook")
    games = sb.get("games_per_page", int) * sb.get("pages", int)
    files.append(PageFile("scorebook.pdf", [Component("scorebook", "scorebook", title, games)],
                          partial(scorebook_pages, ctx=ctx, look=look, clans=clans,
                                  game_name=game_name, title=title)))
    return files
