"""Coverta's row check (RULINGS V3, V5): every card in a revealed row that breaks its
owner's two rules. Pure: the parsed row file in, faults out.

A row file is {"start": CODE, "plays": [{"card": CODE, "row": NAME}, ...] in table order,
"rules": {NAME: [RULE, RULE]}, "marked": [CODE, ...], "deal": "standard" | "three-card"}.
"""

from collections import Counter
from typing import NamedTuple

from companion.rules.coverta import (FEATURES, MODES, NUMBER_RULES, PLAYERS, SYMBOL_RULES, features,
                             unknown_field)
from companion.rules.errors import ScoreError, escape, plain, shown

ROW_FIELDS = ("start", "plays", "rules", "marked", "deal")
PLAY_FIELDS = ("card", "row")
# The standard deal gives each player one rule from each side of the memo, jokers set
# aside; the 3-card deal (2-4 players) shuffles all 14 in and each keeps any 2 (V3).
DEALS = {"standard": range(2, 6), "three-card": range(2, 5)}
RULES_HELD = 2


class Fault(NamedTuple):
    card: str
    row: str
    rule: str  # e.g. "keep:parity"
    against: str  # the card laid just before it
    value: str  # this card's value of the feature
    before: str  # the earlier card's value


class RowFile(NamedTuple):
    start: object
    plays: list[tuple[object, object]]
    rules: dict
    marked: list
    deal: str


def row_file(table) -> RowFile:
    """The fields of a parsed row file, unknown ones refused."""
    if not isinstance(table, dict):
        raise ScoreError("", "the row file must be a table")
    unknown_field(table, ROW_FIELDS)
    if "start" not in table:
        raise ScoreError("start", "missing: the card turned up to start, e.g. start = \"C12\"")
    plays = table.get("plays", [])
    if not isinstance(plays, list):
        raise ScoreError("plays", "must be a list of { card = CODE, row = NAME }")
    pairs = []
    for i, p in enumerate(plays):
        if not isinstance(p, dict):
            raise ScoreError(f"plays[{i}]", f"must be {{ card = CODE, row = NAME }}, not {shown(p)}")
        unknown_field(p, PLAY_FIELDS, f"plays[{i}]")
        pairs.append((p.get("card"), p.get("row")))
    rules = table.get("rules")
    if not isinstance(rules, dict) or not rules:
        raise ScoreError("rules", "give the revealed rules, e.g. "
                         "{ Ana = [\"keep:parity\", \"alternate:shape\"] }")
    marked = table.get("marked", [])
    if not isinstance(marked, list):
        raise ScoreError("marked", f"must be a list of card codes, e.g. [\"C15\"], not "
                         f"{shown(marked)}")
    deal = table.get("deal", "standard")
    if deal not in DEALS:
        raise ScoreError("deal", f"{shown(deal)} is not a deal (use {', '.join(DEALS)})")
    return RowFile(table["start"], pairs, rules, marked, deal)


def parse_rule(text, field: str) -> tuple[str, str]:
    mode, _, feature = text.strip().lower().partition(":") if isinstance(text, str) else ("",) * 3
    if mode not in MODES or feature not in FEATURES:
        raise ScoreError(field, f"{shown(text)} is not a rule: write MODE:FEATURE with MODE "
                         f"alternate or keep and FEATURE one of {', '.join(FEATURES)}")
    return mode, feature


def _side(feature: str) -> str:
    return "number" if feature in NUMBER_RULES else "symbol" if feature in SYMBOL_RULES \
        else "joker"


def check_hands(rules: dict, deal: str = "standard") -> dict[str, list[tuple[str, str]]]:
    """Each revealed hand of rule cards: exactly two, each rule card held once at the table,
    and under the standard deal one number rule and one symbol rule (V3)."""
    holder: dict[tuple[str, str], str] = {}
    out = {}
    for row, rs in rules.items():
        field = f"rules.{escape(row)}"
        if not isinstance(rs, list):
            raise ScoreError(field, 'must be a list of 2 rules, e.g. ["keep:parity", '
                             '"alternate:shape"]')
        if len(rs) != RULES_HELD:
            raise ScoreError(field, f"a player reveals exactly {RULES_HELD} rules, not "
                             f"{len(rs)} (RULINGS V3)")
        hand = [parse_rule(r, f"{field}[{k}]") for k, r in enumerate(rs)]
        for k, rule in enumerate(hand):
            if rule in holder:
                who = "this player" if holder[rule] == row else shown(holder[rule])
                raise ScoreError(f"{field}[{k}]", f"{':'.join(rule)} is already held by {who}: "
                                 "there is one card of each rule")
            holder[rule] = row
        sides = sorted(_side(f) for _, f in hand)
        if deal == "standard" and sides != ["number", "symbol"]:
            if "joker" in sides:
                raise ScoreError(field, "background rules are the jokers, set aside in the "
                                 "standard deal (write deal = \"three-card\" for the 3-card deal)")
            raise ScoreError(field, "the standard deal gives one number rule (parity, range, "
                             "ink) and one symbol rule (shape, symbol_colour, fill); write "
                             "deal = \"three-card\" for the 3-card deal (RULINGS V3)")
        out[row] = hand
    return out


def check_rows(deck: list[dict], start, plays: list[tuple], rules: dict, marked=(),
               deal: str = "standard") -> list[Fault]:
    """Every card in the checked rows that breaks its row owner's rules, each compared with
    the card laid just before it by anyone. Marked cards are not checked again but still
    count as the card before the next one; the starting card is checked against nothing."""
    by_code = {c["code"].upper(): c for c in deck}

    def card(code, field):
        if not isinstance(code, str):
            raise ScoreError(field, f"{'missing' if code is None else shown(code)}: give a "
                             "card code, e.g. \"C07\"")
        c = by_code.get(code.strip().upper())
        if c is None:
            raise ScoreError(field, f"unknown card code {shown(code)}")
        return c

    first = card(start, "start")
    where = {first["code"]: "start"}
    laid, rows = [first], []
    for i, (code, row) in enumerate(plays):
        if not isinstance(row, str) or not row.strip():
            raise ScoreError(f"plays[{i}].row", "missing: the player whose row it was laid in")
        if not plain(row):
            raise ScoreError(f"plays[{i}].row", f"{shown(row)}: a name cannot hold control "
                             "characters")
        c = card(code, f"plays[{i}].card")
        if c["code"] in where:
            raise ScoreError(f"plays[{i}].card", f"{c['code']} is laid twice (also {where[c['code']]})")
        where[c["code"]] = f"plays[{i}]"
        laid.append(c)
        rows.append(row)
    seats = list(Counter(rows))
    if len(seats) > max(PLAYERS):
        raise ScoreError("plays", f"cards are laid in {len(seats)} rows, but Coverta is for "
                         f"2 to {max(PLAYERS)} players")
    if len(seats) > max(DEALS[deal]):
        raise ScoreError("deal", f"the {deal} deal is for 2 to {max(DEALS[deal])} players, "
                         f"and cards are laid in {len(seats)} rows")
    checked = check_hands(rules, deal)
    for row in checked:
        if row not in rows:
            raise ScoreError(f"rules.{escape(row)}", "no card was laid in this row")
    skip = set()
    for k, m in enumerate(marked):
        c = card(m, f"marked[{k}]")
        if c["code"] not in where or where[c["code"]] == "start":
            raise ScoreError(f"marked[{k}]", f"{c['code']} was not laid in a row (tokens go "
                             "on cards in the rows)")
        if c["code"] in skip:
            raise ScoreError(f"marked[{k}]", f"{c['code']} is marked twice")
        skip.add(c["code"])
    return faults(laid, rows, checked, skip)


def faults(laid: list[dict], rows: list[str], checked: dict[str, list[tuple[str, str]]],
           skip: set = frozenset()) -> list[Fault]:
    """The V5 check itself: laid[0] is the starting card, laid[i + 1] was laid in rows[i]."""
    out = []
    for i, row in enumerate(rows):
        c, prev = laid[i + 1], laid[i]
        if row not in checked or c["code"] in skip:
            continue
        a, b = features(c), features(prev)
        for mode, f in checked[row]:
            same = a[f] == b[f]
            if same != (mode == "keep"):
                out.append(Fault(c["code"], row, f"{mode}:{f}", prev["code"], a[f], b[f]))
    return out

