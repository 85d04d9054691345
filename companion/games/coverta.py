"""Coverta's kit: the 40 number cards, 14 rule cards, memo cards, player aids and the score
sheet. The deck and every text come from layouts/coverta.toml. Each of the seven features
reads without colour vision: the ink colour also shows as a suit mark (♦ red, ♠ black),
the symbol colour as a small drop (blue) or sun (yellow)."""

from dataclasses import dataclass
from functools import partial

from reportlab.lib.colors import Color

from companion.data import Fields
from companion.draw import card, colour, fit, symbols, text
from companion.draw.card import Pic
from companion.games.pictures import Kind, Pictures, keyed
from companion.kit import CardFile, Component, Context, PageFile
from companion.sheets import Card, Face
from companion.units import mm
from scorers import coverta as rules

PARTS = ("numbers", "rules", "memo", "aids", "scoresheet")
SUIT = {"red": "♦", "black": "♠"}
COLOUR_MARK = {"blue": "drop", "yellow": "sun"}

EXAMPLE = ('[art] number = "art/{code}.jpg" gives each of the 40 number cards its own '
           'picture (C01.jpg ... C40.jpg)')
# Each kind of card and where its picture goes ([layout.KIND] art, games/pictures.py).
ART = {
    "number": Kind("Number cards", "[[cards]]", ("id", "code", "number", "ink", "shape",
                                                      "symbol_colour", "fill", "background"),
                   "A window behind the symbol, on the card's black or white background, "
                   "which shows round it: a feature, so keep the box off the edges. The "
                   "number, symbol and code stay on top; {id} is the code (C07)."),
    "rule": Kind("Rule cards", "[rule_texts.FEATURE]", ("id", "feature", "mode"),
                 "The whole card, under the texts and the example ({id}: feature-mode, "
                 "e.g. parity-keep)."),
    "memo": Kind("Memo cards", "", ("id",), "The whole card, under the texts."),
    "aid": Kind("Player aids", "[aid]", ("id", "side"),
                "The whole card, under the texts; both sides ({side}: front or back)."),
    "back": Kind("Card backs", "", ("id", "back"),
                 "The whole back: the picture is the back ({back}: number or rule)."),
}


@dataclass(frozen=True)
class Look:
    paper: Color
    ink: Color
    red: Color
    blue: Color
    yellow: Color
    black: Color
    white: Color
    rule: Color
    back: Color
    gold: Color
    frame: float


def _look(ctx: Context) -> Look:
    g = ctx.data.sub("game")
    get = lambda k: colour.field(g, k)  # noqa: E731
    return Look(*(get(k) for k in ("paper", "ink", "red_ink", "blue", "yellow", "card_black",
                                   "card_white", "rule_colour", "back_colour", "gold")),
                float(ctx.data.sub("layout").get("frame", (int, float))))


# ---- the number card ---------------------------------------------------------------

def number_front(c, w, h, bleed, *, cd: dict, look: Look, pic: Pic | None = None):
    dark = cd["background"] == "black"
    card.background(c, w, h, bleed, look.black if dark else look.white, cue=True)  # a feature
    # The picture lies on the background, under everything else: keep its box off the
    # card's edges, where the background (a feature) must still show.
    card.picture_ground(c, w, h, bleed, pic)
    card.picture_window(c, w, h, bleed, pic)
    if not dark:  # a thin grey edge, so a white card still shows its border
        c.setStrokeColorRGB(0.75, 0.75, 0.75)
        c.setLineWidth(0.5)
        c.roundRect(0.03 * w, 0.03 * w, w - 0.06 * w, h - 0.06 * w, 0.05 * w, stroke=1, fill=0)
    ink = look.red if cd["ink"] == "red" else look.ink
    sym_colour = look.blue if cd["symbol_colour"] == "blue" else look.yellow
    # The number on a light plate, so black ink reads on a black card, and its suit mark
    # (the ink colour, for colour-blind players) beside it at its top: the two are centred
    # as one group, and a wide number (10) is set a little smaller rather than under it.
    c.setFillColor(look.paper)
    c.roundRect(0.19 * w, h - 0.36 * h, 0.62 * w, 0.28 * h, 0.06 * w, stroke=0, fill=1)
    num, suit = str(cd["number"]), SUIT[cd["ink"]]
    suit_size, gap = 0.1 * w, 0.025 * w
    sw = text.width(suit, "bold", suit_size)
    size = min(0.36 * w, 0.36 * w * (0.56 * w - gap - sw) / text.width(num, "bold", 0.36 * w))
    nw = text.width(num, "bold", size)
    x0, base = w / 2 - (nw + gap + sw) / 2, h - 0.31 * h
    c.setFillColor(ink)
    text.line(c, num, x0, base, "bold", size, field="cards.number")
    text.line(c, suit, x0 + nw + gap, base + 0.73 * (size - suit_size), "bold", suit_size,
              field="cards.ink")
    # Corner indices for a fanned hand: number and suit mark.
    for turned in (False, True):
        c.saveState()
        if turned:
            c.translate(w, h)
            c.rotate(180)
        c.setFillColor(look.paper)
        c.roundRect(0.05 * w, h - 0.2 * h, 0.12 * w, 0.16 * h, 0.02 * w, stroke=0, fill=1)
        c.setFillColor(ink)
        text.line(c, num, 0.11 * w, h - 0.1 * h, "narrow-bold", 0.08 * w,
                  align="center", max_w=0.11 * w, field="cards.number")
        text.line(c, suit, 0.11 * w, h - 0.17 * h, "bold", 0.06 * w, align="center",
                  field="cards.ink")
        c.restoreState()
    # The symbol: shape, colour and fill, with its colour mark beside it.
    cx, cy, r = w / 2, h * 0.4, 0.22 * w
    c.setFillColor(sym_colour)
    c.setStrokeColor(sym_colour)
    c.setLineWidth(0.045 * w)
    filled = cd["fill"] == "filled"
    if cd["shape"] == "circle":
        c.circle(cx, cy, r, stroke=0 if filled else 1, fill=1 if filled else 0)
    else:
        c.rect(cx - r, cy - r, 2 * r, 2 * r, stroke=0 if filled else 1, fill=1 if filled else 0)
    symbols.draw(c, COLOUR_MARK[cd["symbol_colour"]], cx + r * 1.35, cy - r * 1.05, 0.06 * w)
    # The code, to type at the table.
    c.setFillColor(look.paper)
    c.roundRect(0.36 * w, 0.07 * h, 0.28 * w, 0.075 * h, 0.02 * w, stroke=0, fill=1)
    c.setFillColor(look.ink)
    text.line(c, cd["code"], w / 2, 0.09 * h, "bold", 0.06 * w, align="center",
              field="cards.code")


def plain_back(c, w, h, bleed, *, look: Look, name: str, word: str, symbol: str,
               word_field: str, pic: Pic | None = None):
    if card.picture_back(c, w, h, bleed, pic, card.on_back(look.back)[0]):
        return
    card.emblem_back(c, w, h, bleed, fill=look.back, frame=look.gold, emblem=look.gold,
                     symbol=symbol, name=name, word=word, word_ink=look.paper,
                     word_field=word_field)


# ---- rule, memo and aid cards --------------------------------------------------------

def rule_front(c, w, h, bleed, *, mode: str, feature: str, words: dict, pair: tuple,
               look: Look, pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        card.background(c, w, h, bleed, look.rule)
        card.panel(c, w, h, look.frame * w, look.paper)
    card.picture_window(c, w, h, bleed, pic)  # a box moved off the whole card: under the texts
    joker = feature in rules.JOKERS
    c.setFillColor(look.rule)
    text.line(c, words["features"][feature], w / 2, h - 0.11 * h, "bold", 0.07 * w,
              align="center", max_w=0.84 * w, field=f"features.{feature}")
    a, b = rules.FEATURES[feature]
    name = lambda v: words["values"].get(f"bg_{v}" if feature == "background" else v, v)  # noqa
    c.setFillColor(look.ink)
    text.line(c, f"{name(a)} / {name(b)}", w / 2, h - 0.17 * h, "regular", 0.05 * w,
              align="center", max_w=0.84 * w, field="values")
    c.setFillColor(look.rule)
    text.line(c, words["texts"][mode].upper(), w / 2, h - 0.3 * h, "bold", 0.12 * w,
              align="center", max_w=0.84 * w, field=f"texts.{mode}")
    c.setFillColor(look.ink)
    text.block(c, words["rule_texts"][feature][mode], 0.1 * w, h - 0.34 * h, 0.8 * w,
               0.12 * h, "regular", 0.05 * w, align="center",
               field=f"rule_texts.{feature}.{mode}")
    # An example pair: the last card laid, then one this rule allows.
    s = 0.28
    for i, cd in enumerate(pair):
        c.saveState()
        c.translate(w * (0.17 + 0.38 * i), h * 0.22)
        c.scale(s, s)
        with fit.exempt():  # a card drawn small as a picture: its codes are not read
            number_front(c, w, h, 0, cd=cd, look=look)
        c.restoreState()
    c.setFillColor(look.rule)
    text.line(c, "→", w / 2, h * 0.345, "bold", 0.1 * w, align="center", field="arrow")
    text.line(c, words["texts"]["example_ok"], 0.69 * w, h * 0.185, "narrow", 0.045 * w,
              align="center", field="texts.example_ok")
    if joker:  # what makes a joker a joker, on the card itself: a band along the bottom
        c.setFillColor(look.gold)
        c.rect(look.frame * w, h * 0.04, w - 2 * look.frame * w, 0.125 * h, stroke=0, fill=1)
        c.setFillColor(look.ink)
        text.block(c, f"{words['texts']['joker']} · {words['texts']['joker_text']}",
                   0.09 * w, h * 0.155, 0.82 * w, 0.11 * h, "narrow-bold", 0.04 * w,
                   align="center", field="texts.joker_text")


def memo_front(c, w, h, bleed, *, words: dict, look: Look, pic: Pic | None = None):
    """The number rules on the left, the symbol rules on the right, each feature under its
    column's heading by its short name ([memo_features])."""
    if not card.picture_ground(c, w, h, bleed, pic):
        card.background(c, w, h, bleed, look.rule)
        card.panel(c, w, h, look.frame * w, look.paper)
    card.picture_window(c, w, h, bleed, pic)
    t, f, v = words["texts"], words["memo_features"], words["values"]
    c.setFillColor(look.rule)
    text.line(c, t["memo_title"], w / 2, h - 0.1 * h, "bold", 0.075 * w, align="center",
              max_w=0.84 * w, field="texts.memo_title")
    col_w = 0.38 * w
    for col, (key, feats) in enumerate((("memo_left", rules.NUMBER_RULES),
                                        ("memo_right", rules.SYMBOL_RULES))):
        x = w * (0.09 + 0.44 * col)
        c.setFillColor(look.rule)
        text.line(c, t[key].upper(), x + col_w / 2, h - 0.18 * h, "bold", 0.05 * w,
                  align="center", max_w=col_w, field=f"texts.{key}")
        y = h - 0.26 * h
        for feat in feats:
            a, b = rules.FEATURES[feat]
            c.setFillColor(look.ink)
            text.line(c, f[feat], x, y, "bold", 0.042 * w, max_w=col_w,
                      field=f"memo_features.{feat}")
            text.line(c, f"{v.get(a, a)} / {v.get(b, b)}", x, y - 0.04 * h, "narrow", 0.04 * w,
                      max_w=col_w, field="values")
            text.line(c, f"{t['alternate']} · {t['keep']}", x, y - 0.08 * h, "narrow", 0.036 * w,
                      max_w=col_w, field="texts.alternate")
            y -= 0.15 * h
    c.setStrokeColor(look.rule)
    c.line(w / 2, h - 0.15 * h, w / 2, h * 0.25)
    c.setFillColor(look.ink)
    text.block(c, t["memo_deal"], 0.1 * w, h * 0.22, 0.8 * w, 0.07 * h, "narrow", 0.04 * w,
               align="center", field="texts.memo_deal")
    text.block(c, t["memo_joker"], 0.1 * w, h * 0.13, 0.8 * w, 0.07 * h, "narrow-bold", 0.04 * w,
               align="center", field="texts.memo_joker")


def aid_face(c, w, h, bleed, *, title: str, lines: list[str], look: Look, fields: tuple,
             pic: Pic | None = None):
    """Either side of the player aid; `fields` name its title's and lines' data keys."""
    if not card.picture_ground(c, w, h, bleed, pic):
        card.background(c, w, h, bleed, look.back)
        card.panel(c, w, h, look.frame * w, look.paper)
    card.picture_window(c, w, h, bleed, pic)
    card.aid(c, w, h, title=title, lines=lines, ink=look.ink, accent=look.gold, size=0.055,
             title_size=0.068, title_ink=look.rule, title_field=fields[0],
             lines_field=fields[1])


# ---- the score sheet -----------------------------------------------------------------

def score_sheet(c, *, ctx: Context, look: Look, name: str, title: str, words: dict) -> int:
    sb = ctx.data.sub("scoresheet")
    rounds, players = sb.get("rounds", int), sb.get("players", int)
    t = words["texts"]
    pw, ph = ctx.page
    m = mm(12)
    c.setFillColor(look.ink)
    text.line(c, f"{name} · {title}", m, ph - m - mm(2), "bold", 14, field="titles.scoresheet")
    text.block(c, t["sheet_note"], m, ph - m - mm(6), pw - 2 * m, mm(12), "regular", 8,
               field="texts.sheet_note")
    top = ph - m - mm(22)
    label_w = mm(22)
    col_w = (pw - 2 * m - label_w) / players
    sub_w = col_w / 3
    row_h = min(mm(14), (top - m - mm(6)) / (rounds + 1.5))
    c.setLineWidth(0.5)
    c.setStrokeColor(look.ink)
    head = row_h * 1.5
    for p in range(players):  # header: a box for the player's name over hand / bonus / total
        x = m + label_w + p * col_w
        c.setFillColor(colour.mix(look.paper, look.rule, 0.15))
        c.rect(x, top - head, col_w, head, stroke=1, fill=1)
        c.line(x, top - head * 0.62, x + col_w, top - head * 0.62)
        c.setFillColor(look.ink)
        for k, key in enumerate(("sheet_hand", "sheet_bonus", "sheet_total")):
            text.line(c, t[key], x + (k + 0.5) * sub_w, top - head * 0.88, "narrow", 7,
                      align="center", max_w=sub_w - 2, field=f"texts.{key}")
    for r in range(rounds):
        y = top - head - row_h * (r + 1)
        c.setFillColor(look.ink)
        text.line(c, f"{t['sheet_round']} {r + 1}", m + mm(2), y + row_h * 0.35, "bold", 9,
                  field="texts.sheet_round")
        for p in range(players):
            x = m + label_w + p * col_w
            for k in range(3):
                shade = 0.12 if k == 2 else 0.0  # the running total, shaded
                c.setFillColor(colour.mix(look.white, look.rule, shade))
                c.rect(x + k * sub_w, y, sub_w, row_h, stroke=1, fill=1)
        c.rect(m, y, label_w, row_h, stroke=1, fill=0)
    c.setFillColor(colour.mix(look.ink, look.white, 0.4))
    text.line(c, ctx.data.sub("game").text("credits", ctx.lang), pw / 2, m - mm(5), "regular",
              6.5, align="center", max_w=pw - 2 * m, field="game.credits")
    c.showPage()
    return 1


# ---- the kit -------------------------------------------------------------------------


class _Texts(dict):
    """A data table's texts in one language; a text the faces ask for and the data lacks
    is the data's error naming the field (not a KeyError while drawing)."""

    def __init__(self, table, lang: str):
        super().__init__({key: table.text(key, lang) for key in table.table})
        self._table, self._lang = table, lang

    def __missing__(self, key: str) -> str:
        return self._table.text(key, self._lang)  # raises: missing field


def kit(ctx: Context):
    data, lang = ctx.data, ctx.lang
    look = _look(ctx)
    deck = data.get("cards", list)
    try:
        rules.check_deck(deck)
    except rules.ScoreError as e:
        raise data.error(e.field, e.message) from None
    name = data.sub("game").get("name", str)
    titles = data.sub("titles")
    title = lambda k: titles.text(k, lang)  # noqa: E731
    words = {k: _Texts(data.sub(k), lang) for k in ("features", "values", "texts")}
    # Short feature names for the memo, under their column's heading (optional in a data
    # file: the full names otherwise).
    short = data.sub("memo_features") if "memo_features" in data.table else None
    words["memo_features"] = {f: short.text(f, lang) if short and f in short.table
                              else words["features"][f] for f in rules.FEATURES}
    rule_texts = data.sub("rule_texts")
    words["rule_texts"] = {f: {m: rule_texts.sub(f).text(m, lang) for m in rules.MODES}
                           for f in rules.FEATURES}
    back = partial(plain_back, look=look, name=name)
    pics = Pictures(ctx, "coverta", ART)

    def back_face(key: str, back_name: str, component: str, **kw):
        pic = pics.pic("back", f"{component}/back", {"id": back_name, "back": back_name})
        return Face(partial(back, pic=pic, **kw), key=keyed(key, pic))

    number_back = back_face("back-number", "number", "numbers", word=title("numbers"),
                            symbol="circle", word_field="titles.numbers")
    numbers = []
    for i, cd in enumerate(deck):
        entry = Fields(cd, data.source, f"cards[{i}]")
        fields = {"id": cd["code"], **{k: cd[k] for k in ART["number"].fields if k != "id"}}
        pic = pics.pic("number", f"numbers/{cd['code']}", fields, entry)
        numbers.append(Card(title("numbers"), Face(partial(number_front, cd=cd, look=look,
                                                           pic=pic)),
                            number_back, id=cd["code"]))

    rule_back = back_face("back-rule", "rule", "rules", word=words["texts"]["rule_back"],
                          symbol="square", word_field="texts.rule_back")

    def example(mode, feature):
        first = deck[0]
        want_same = mode == "keep"
        second = next(cd for cd in deck[1:]
                      if (rules.features(cd)[feature] == rules.features(first)[feature])
                      == want_same)
        return first, second

    def rule_pic(feature, mode):
        rid = f"{feature}-{mode}"
        return pics.pic("rule", f"rules/{rid}", {"id": rid, "feature": feature, "mode": mode},
                        rule_texts.sub(feature))

    rule_cards = [Card(title("rules"),
                       Face(partial(rule_front, mode=mode, feature=feature, words=words,
                                    pair=example(mode, feature), look=look,
                                    pic=rule_pic(feature, mode))), rule_back,
                       id=f"{feature}-{mode}")
                  for feature in rules.FEATURES for mode in rules.MODES]

    sb = data.sub("scoresheet")
    memo_pic = pics.pic("memo", "memo/memo", {"id": "memo"})
    memo = [Card(title("memo"), Face(partial(memo_front, words=words, look=look, pic=memo_pic),
                                     key=keyed("memo", memo_pic)),
                 rule_back, id="memo")] * sb.get("memo_copies", int)

    aid = data.sub("aid")
    aid_pics = {s: pics.pic("aid", "aids/aid", {"id": "aid", "side": s}, aid)
                for s in ("front", "back")}
    aid_card = Card(title("aids"),
                    Face(partial(aid_face, title=words["texts"]["aid_title"],
                                 lines=aid.text_list("front", lang), look=look,
                                 fields=("texts.aid_title", "aid.front"), pic=aid_pics["front"]),
                         key=keyed("aid-front", aid_pics["front"])),
                    Face(partial(aid_face, title=words["texts"]["aid_back_title"],
                                 lines=aid.text_list("back", lang), look=look,
                                 fields=("texts.aid_back_title", "aid.back"),
                                 pic=aid_pics["back"]),
                         key=keyed("aid-back", aid_pics["back"])), id="aid")
    aids = [aid_card] * aid.get("copies", int)

    return [
        CardFile("cards.pdf", [
            Component("numbers", "numbers", title("numbers"), len(numbers), numbers),
            Component("rules", "rules", title("rules"), len(rule_cards), rule_cards),
            Component("memo", "memo", title("memo"), len(memo), memo),
            Component("aids", "aids", title("aids"), len(aids), aids),
        ], ctx.card, ctx.card_name),
        PageFile("scoresheet.pdf", [Component("scoresheet", "scoresheet", title("scoresheet"), 1)],
                 partial(score_sheet, ctx=ctx, look=look, name=name, title=title("scoresheet"),
                         words=words)),
    ]
