"""Covenia's kit: which components it has and how each face is laid out.
Every text, colour, symbol and position comes from layouts/covenia.toml."""

from dataclasses import dataclass
from functools import partial

from reportlab.lib.colors import Color, white

from companion.draw import card, colour, symbols, text
from companion.draw.card import Pic
from companion.games.pictures import Kind, Pictures, keyed
from companion.layout import components
from companion.layout.face import Engine
from companion.kit import CardFile, Component, Context, PageFile
from companion.sheets import Card, Face
from companion.units import mm, parse_size

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

# What each card layout in the data file must give (see [layout.*] in layouts/covenia.toml).
XYR, XYS, YHS = ("x", "y", "r"), ("x", "y", "size"), ("y", "h", "size")
LAYOUT = {
    "clan": {"frame": None, "corner": XYS, "corner_symbol": XYR, "deck_mark": XYR,
             "emblem": XYR, "name": ("y", "size"), "reminder": YHS},
    "temple": {"frame": None, "band_h": None, "symbol": XYR, "title": ("y", "size"),
               "ritual": YHS, "when": YHS},
    "aid": {"margin": None, "title": ("y", "size"), "body": YHS},
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


# ---- faces -------------------------------------------------------------------------

def card_back(c, w, h, bleed, *, look: Look, title: str, word: str | None,
              pic: Pic | None = None):
    back, gold, paper = card.on_back(look.back, look.gold, look.paper)
    if card.picture_back(c, w, h, bleed, pic, back):
        return
    card.background(c, w, h, bleed, back)
    card.double_frame(c, w, h, gold)
    c.setFillColor(gold)
    r = 0.13 * w
    symbols.draw(c, "sun", w / 2, h * 0.62, r)
    c.setFillColor(paper)
    symbols.draw(c, "moon", w / 2, h * 0.38, r * 0.85)
    c.setFillColor(gold)
    text.line(c, title.upper(), w / 2, h * 0.48, "bold", 0.1 * w, align="center", max_w=0.7 * w,
              field="game.name")
    if word:
        c.setFillColor(paper)
        text.line(c, word, w / 2, h * 0.16, "regular", 0.06 * w, align="center", max_w=0.7 * w,
                  field="texts.temple_back")


def temple_front(c, w, h, bleed, *, clan: Clan, look: Look, lay: dict, title: str,
                 heading: str, when: str, pic: Pic | None = None):
    inset = lay["frame"] * w
    band = lay["band_h"] * h
    if not card.picture_ground(c, w, h, bleed, pic):
        card.background(c, w, h, bleed, clan.colour)
        card.panel(c, w, h, inset, look.paper)
    c.setFillColor(clan.colour)
    c.rect(inset, h - band, w - 2 * inset, band - inset, stroke=0, fill=1)
    t = lay["title"]
    c.setFillColor(clan.band_ink)
    text.line(c, title, w / 2, h - t["y"] * h, "narrow", 0.055 * w, align="center",
              max_w=0.82 * w, field="titles.temple")
    text.line(c, clan.name.upper(), w / 2, h - t["y"] * h - 0.1 * w, "bold", t["size"] * w,
              align="center", max_w=0.8 * w, field="name")
    s = lay["symbol"]
    if not card.picture_window(c, w, h, bleed, pic, edge=clan.colour):
        c.setFillColor(clan.colour)
        symbols.draw(c, clan.symbol, s["x"] * w, h - s["y"] * h, s["r"] * w)
    r = lay["ritual"]
    c.setFillColor(look.ink)
    text.line(c, heading.upper(), w / 2, h - (r["y"] - 0.02) * h, "bold", 0.05 * w,
              align="center", field="texts.temple_heading")
    text.block(c, clan.ritual, 0.1 * w, h - r["y"] * h, 0.8 * w, r["h"] * h, "regular",
               r["size"] * w, align="center", field="ritual")
    wn = lay["when"]
    c.setFillColor(colour.mix(look.ink, look.paper, 0.35))
    text.block(c, when, 0.1 * w, h - wn["y"] * h, 0.8 * w, wn["h"] * h, "narrow",
               wn["size"] * w, align="center", field="texts.temple_when")


def aid_face(c, w, h, bleed, *, look: Look, lay: dict, title: str, lines: list[str],
             clans: list[Clan], side: str, pic: Pic | None = None):
    """Either side of the game aid: a title over a rule, then bulleted lines."""
    if not card.picture_ground(c, w, h, bleed, pic):
        card.background(c, w, h, bleed, look.back)
        inset = 0.035 * w
        card.panel(c, w, h, inset, look.paper)
    card.picture_window(c, w, h, bleed, pic)  # a box moved off the whole card: under the texts
    m = lay["margin"] * w
    t = lay["title"]
    c.setFillColor(look.ink)
    text.line(c, title, w / 2, h - t["y"] * h, "bold", t["size"] * w, align="center",
              max_w=w - 2 * m, field=f"aid.{side}_title")
    c.setStrokeColor(look.gold)
    c.setLineWidth(1)
    c.line(m, h - (t["y"] + 0.025) * h, w - m, h - (t["y"] + 0.025) * h)
    b = lay["body"]
    by_name = {cl.name.lower(): cl for cl in clans}

    def mark(c, body, x, y, size):
        clan = by_name.get(body.split(":")[0].strip().lower())
        if clan:  # a scoring line: the clan's own symbol as its bullet
            c.setFillColor(clan.colour)
            symbols.draw(c, clan.symbol, x, y, size * 0.45)
        else:
            c.setFillColor(look.gold)
            c.circle(x - size * 0.05, y + size * 0.03, size * 0.18, stroke=0, fill=1)

    card.bullets(c, lines, m, h - b["y"] * h, w - 2 * m, b["h"] * h, b["size"] * w, look.ink, mark,
                 field=f"aid.{side}")


def token_face(c, w, h, bleed, *, look: Look, symbol: str, label: str, fill: Color,
               sym_colour: Color, label_field: str, small: str | None = None,
               small_field: str | None = None, pic: Pic | None = None):
    """A round token: its ground runs into the bleed, the cut line stays at its edge. A
    face with a small text under its label lifts the symbol to make room for it."""
    r = min(w, h) / 2
    cx, cy = w / 2, h / 2
    if not card.picture_disc(c, cx, cy, r, w, h, bleed, pic):
        card.disc(c, cx, cy, r, bleed, fill)
    c.setStrokeColor(look.gold)
    c.setLineWidth(1.2)
    c.circle(cx, cy, r * 0.88, stroke=1, fill=0)
    if card.picture_window(c, w, h, bleed, pic):
        pass  # the picture stands for the symbol
    elif small:
        c.setFillColor(card.ink_on(fill, sym_colour, look.ink))
        symbols.draw(c, symbol, cx, cy + r * 0.36, r * 0.32)
    else:
        c.setFillColor(card.ink_on(fill, sym_colour, look.ink))
        symbols.draw(c, symbol, cx, cy + r * 0.12, r * 0.45)
    c.setFillColor(card.ink_on(fill, look.paper if fill == look.back else look.ink, look.ink))
    text.line(c, label, cx, cy - (0.08 if small else 0.55) * r, "bold", r * 0.17,
              align="center", max_w=r * 1.3, field=label_field)
    if small:
        text.block(c, small, cx - r * 0.66, cy - r * 0.2, r * 1.32, r * 0.42, "narrow",
                   r * 0.125, align="center", field=small_field)
    card.cut_circle(c, cx, cy, r)


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
    data = ctx.data
    look = _look(ctx)
    clans = _clans(ctx)
    game_name = data.sub("game").get("name", str)
    titles = data.sub("titles")
    title = lambda k: titles.text(k, ctx.lang)  # noqa: E731
    texts = data.sub("texts")
    tx = lambda k: texts.text(k, ctx.lang)  # noqa: E731
    layout = data.sub("layout")
    lay = {k: layout.geometry(k, shape) for k, shape in LAYOUT.items()}

    pics = Pictures(ctx, "covenia", ART)

    def back_face(word, back: str, component: str):
        pic = pics.pic("back", f"{component}/back", {"id": back, "back": back})
        return Face(partial(card_back, look=look, title=game_name, word=word, pic=pic),
                    key=keyed(f"back-{back}", pic))

    main_back = back_face(None, "clan", "clan-cards")
    temple_back = back_face(tx("temple_back"), "temple", "temple")
    temple = [Card(title("temple"),
                   Face(partial(temple_front, clan=cl, look=look, lay=lay["temple"],
                                title=title("temple"), heading=tx("temple_heading"),
                                when=tx("temple_when"),
                                pic=pics.pic("temple", f"temple/{cl.id}",
                                             {"id": cl.id, "clan": cl.id}))),
                   temple_back, id=cl.id)
              for cl in clans]

    aid = data.sub("aid")

    def side(s):
        pic = pics.pic("aid", "aids/aid", {"id": "aid", "side": s}, aid)
        return Face(partial(aid_face, look=look, lay=lay["aid"],
                            title=aid.text(f"{s}_title", ctx.lang),
                            lines=aid.text_list(s, ctx.lang), clans=clans, side=s, pic=pic),
                    key=keyed(f"aid-{s}", pic))

    aids = [Card(title("aids"), side("front"), side("back"), id="aid")] * aid.get("copies", int)

    tok = data.sub("tokens")
    fp, sh = tok.sub("first_player"), tok.sub("shield")
    face = partial(token_face, look=look)
    first = dict(label=tx("first_player"), label_field="texts.first_player")
    shield = dict(label=tx("shield"), label_field="texts.shield")

    def token_pic(entry, tid: str, s: str):
        return pics.pic("token", f"tokens/{tid}", {"id": tid, "side": s}, entry)

    tokens = [
        Card(title("tokens"),
             Face(partial(face, symbol=symbols.named(fp, "front"), fill=look.paper,
                          sym_colour=look.gold, pic=token_pic(fp, "first-player", "front"),
                          **first)),
             Face(partial(face, symbol=symbols.named(fp, "back"), fill=look.back,
                          sym_colour=look.paper, pic=token_pic(fp, "first-player", "back"),
                          **first)), id="first-player"),
        Card(title("tokens"),
             Face(partial(face, symbol=symbols.named(sh, "front"), fill=look.paper,
                          sym_colour=look.ink, pic=token_pic(sh, "shield", "front"), **shield)),
             Face(partial(face, symbol=symbols.named(sh, "back"), fill=look.back,
                          sym_colour=look.gold, small=tx("shield_back"),
                          small_field="texts.shield_back", pic=token_pic(sh, "shield", "back"),
                          **shield)), id="shield"),
    ]
    token_size = parse_size(tok.get("size", str), field="tokens.size")

    sb = data.sub("scorebook")
    games = sb.get("games_per_page", int) * sb.get("pages", int)
    files = [
        CardFile("cards.pdf", [
            Component("temple", "temple", title("temple"), len(temple), temple),
            Component("aids", "aids", title("aids"), len(aids), aids),
        ], ctx.card, ctx.card_name),
        CardFile("tokens.pdf", [Component("tokens", "tokens", title("tokens"), len(tokens),
                                          tokens)],
                 token_size, tok.get("size", str), stock="tokens"),
        PageFile("scorebook.pdf", [Component("scorebook", "scorebook", title("scorebook"),
                                             games)],
                 partial(scorebook_pages, ctx=ctx, look=look, clans=clans,
                         game_name=game_name, title=title("scorebook"))),
    ]
    # The clan cards: [components.clan-cards] and [kinds.clan] in the layouts file.
    components.add(files, ctx, Engine.of(data, ctx.lang, "covenia"), {"clan": main_back}, pics,
                   "covenia")
    return files

