"""Coverta's kit: the 40 number cards, 14 rule cards, memo cards, player aids and the score
sheet. The deck and every text come from companion/layouts/coverta.toml; every card, its faces and
backs, and the score sheet are drawn by the layout engine from its [backs], [components]
and [kinds]. What stays here draws nothing: the fields the rulebook (companion/rules/coverta.py)
decides and where each kind's pictures go. Each of the seven features reads without
colour vision: the ink colour also shows as a suit mark (♦ red, ♠ black), the symbol
colour as a small drop (blue) or sun (yellow)."""

import json
import re

import msgspec

from companion.engine.pictures import Kind, Pictures
from companion.engine.parts import Context
from companion.engine import components
from companion.engine.face import Engine
from companion.rules import coverta as rules

PARTS = ("numbers", "rules", "memo", "aids", "scoresheet")
INK = {"red": "red_ink", "black": "ink"}  # the number's colour, of [game]
SUIT = {"red": "♦", "black": "♠"}  # ... and its suit mark
COLOUR_MARK = {"blue": "drop", "yellow": "sun"}  # the symbol colour's mark

EXAMPLE = ('[art] number = "art/{code}.jpg" gives each of the 40 number cards its own '
           'picture (C01.jpg ... C40.jpg)')
# Each kind of card and where its picture goes ([layout.KIND] art, engine/pictures.py).
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


# ---- the kit -------------------------------------------------------------------------


class _Texts(dict):
    """A data table's texts in one language; a text the cards ask for and the data lacks
    is the data's error naming the field (not a KeyError while drawing)."""

    def __init__(self, table, lang: str):
        super().__init__({key: table.text(key, lang) for key in table.table})
        self._table, self._lang = table, lang

    def __missing__(self, key: str) -> str:
        return self._table.text(key, self._lang)  # raises: missing field


def number_fields(cd: dict) -> dict:
    """A number card's fields: its own, its code as its id, and its marks."""
    return {**cd, "id": cd["code"], "ink_colour": INK[cd["ink"]], "suit": SUIT[cd["ink"]],
            "mark": COLOUR_MARK[cd["symbol_colour"]]}


def example(deck: list, feature: str, mode: str, data) -> list[dict]:
    """A rule card's example: the deck's first card, then the next one the rule allows."""
    first = deck[0]
    same = rules.features(first)[feature]
    second = next((cd for cd in deck[1:] if (rules.features(cd)[feature] == same)
                   == (mode == "keep")), None)
    if second is None:
        raise data.error("cards", f"no card to show what {feature}-{mode} allows after "
                                  f"{first['code']}")
    return [number_fields(first), number_fields(second)]


def rule_cards(data, deck: list, words: dict, lang: str) -> list:
    """(fields, data entry) of each rule card: each feature, alternate then keep."""
    rule_texts = data.sub("rule_texts")
    out = []
    for feature, (a, b) in rules.FEATURES.items():
        name = lambda v: words["values"].get(f"bg_{v}" if feature == "background" else v, v)  # noqa
        for mode in rules.MODES:
            out.append(({"id": f"{feature}-{mode}", "feature": feature, "mode": mode,
                         "name": words["features"][feature], "values": f"{name(a)} / {name(b)}",
                         "word": words["texts"][mode],
                         "text": rule_texts.sub(feature).text(mode, lang),
                         "joker": feature in rules.JOKERS,
                         "example": example(deck, feature, mode, data)},
                        rule_texts.sub(feature)))
    return out


def memo_card(data, words: dict, lang: str) -> dict:
    """The memo's fields: each side's features by their short names ([memo_features];
    optional in a data file: the full names otherwise) and their values."""
    short = data.sub("memo_features") if "memo_features" in data.table else None
    v = words["values"]

    def side(feats):
        return [{"feature": f, "name": short.text(f, lang) if short and f in short.table
                 else words["features"][f],
                 "values": f"{v.get(a, a)} / {v.get(b, b)}"}
                for f in feats for a, b in [rules.FEATURES[f]]]
    return {"id": "memo", "qty": data.sub("scoresheet").get("memo_copies", int),
            "left": side(rules.NUMBER_RULES), "right": side(rules.SYMBOL_RULES)}


def _check_texts(data, engine: Engine, lang: str) -> None:
    """Every [texts] or [titles] key the kinds and components print is in the data: a
    missing one is one line naming it (texts.KEY: missing)."""
    named = json.dumps([msgspec.to_builtins(engine.kinds),
                        data.table.get("components", {}), data.table.get("backs", {})],
                       default=str)  # a TOML date or time where a text goes: a text
    for part, key in sorted(set(re.findall(r"\{(texts|titles)\.(\w+)\}", named))):
        data.sub(part).text(key, lang)


def kit(ctx: Context):
    data, lang = ctx.data, ctx.lang
    deck = data.get("cards", list)
    try:
        rules.check_deck(deck)
    except rules.ScoreError as e:
        raise data.error(e.field, e.message) from None
    engine = Engine.of(data, lang, "coverta")
    _check_texts(data, engine, lang)
    words = {k: _Texts(data.sub(k), lang) for k in ("features", "values", "texts")}
    cards = data.items("cards")
    derived = {"numbers": [(number_fields(cd), f) for cd, f in zip(deck, cards)],
               "rules": rule_cards(data, deck, words, lang),
               "memo": [(memo_card(data, words, lang), None)]}
    pics = Pictures(ctx, "coverta", ART)
    files: list = []
    components.add(files, ctx, engine, components.backs(ctx, engine, pics, "coverta"), pics,
                   "coverta", derived)
    return files
