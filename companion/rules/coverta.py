"""Coverta: the deck's features and round points over several rounds (RULINGS V1-V2,
V6). The row check (V3, V5) is in companion/rules/coverta_rows.py. Pure: plain data in,
named tuples out.

A number card is {"code", "number", "ink", "shape", "symbol_colour", "fill", "background"};
parity and range follow from the number.
"""

import re
from collections import Counter
from typing import NamedTuple
from itertools import combinations

from companion.rules.errors import ScoreError, escape, plain, shown

# The seven binary features (V1) and their two values.
FEATURES = {
    "parity": ("even", "odd"),
    "range": ("low", "high"),  # 1-5, 6-10
    "ink": ("red", "black"),
    "shape": ("square", "circle"),
    "symbol_colour": ("blue", "yellow"),
    "fill": ("filled", "hollow"),
    "background": ("black", "white"),
}
FREE = ("ink", "shape", "symbol_colour", "fill", "background")  # not set by the number
NUMBER_RULES = ("parity", "range", "ink")  # the memo card's left side (V3)
SYMBOL_RULES = ("shape", "symbol_colour", "fill")  # its right side
JOKERS = ("background",)
MODES = ("alternate", "keep")
CARD_FIELDS = ("code", "number", *FREE)
CODE = re.compile(r"[A-Za-z0-9-]{1,8}")  # printed on the card, typed at the table

DECK_SIZE = 40  # number cards (V2)
MAX_HAND = DECK_SIZE - 1  # one card is turned up to start (V4)
PLAYERS = range(2, 6)  # Coverta is for 2 to 5 players
LEDGER_FIELDS = ("players", "rounds")
ROUND_FIELDS = ("hands", "first_steal")


def features(card: dict) -> dict[str, str]:
    n = card["number"]
    return {"parity": "even" if n % 2 == 0 else "odd", "range": "low" if n <= 5 else "high",
            **{f: card[f] for f in FREE}}


def unknown_field(table: dict, known: tuple, where: str = "") -> None:
    extra = sorted(str(k) for k in table if k not in known)
    if extra:
        name = f"{where}.{escape(extra[0])}" if where else escape(extra[0])
        raise ScoreError(name, f"unknown field (use {', '.join(known)})",
                         "coverta.unknown_field", {"word": escape(extra[0])})


# ---- the deck ------------------------------------------------------------------------

def check_deck(cards) -> dict[str, str]:
    """Checks a deck's cards (V1-V2); returns code -> code for lookups. Raises on a bad card."""
    if not isinstance(cards, list) or not cards:
        raise ScoreError("cards", "give the deck: cards = [{ code = \"C01\", number = 1, ... }]",
                         "coverta.no_deck")
    codes = {}
    for i, c in enumerate(cards):
        where = f"cards[{i}]"
        if not isinstance(c, dict):
            raise ScoreError(where, f"must be a card table {{ code = ..., number = ..., ... }}, "
                             f"not {shown(c)}", "coverta.not_a_card",
                             {"card": i + 1, "value": shown(c)})
        unknown_field(c, CARD_FIELDS, where)
        code = c.get("code")
        if code is None:
            raise ScoreError(f"{where}.code", "missing", "coverta.card_code_missing",
                             {"card": i + 1})
        if not isinstance(code, str) or not CODE.fullmatch(code):
            raise ScoreError(f"{where}.code", f"{shown(code)} is not a card code (1 to 8 "
                             "letters, digits or -)", "coverta.not_a_card_code",
                             {"card": i + 1, "value": shown(code)})
        if code.upper() in codes:
            raise ScoreError(f"{where}.code", f"{code} is used twice", "coverta.card_code_twice",
                             {"card": i + 1, "code": code})
        n = c.get("number")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10:
            raise ScoreError(f"{where}.number", f"{shown(n)} is not a number 1-10",
                             "coverta.not_a_card_number", {"card": i + 1, "value": shown(n)})
        for f in FREE:
            if f not in c:
                raise ScoreError(f"{where}.{f}", f"missing (use {', '.join(FEATURES[f])})",
                                 "coverta.feature_missing",
                                 {"card": i + 1, "feature": f, "values": ", ".join(FEATURES[f])})
            if c[f] not in FEATURES[f]:
                raise ScoreError(f"{where}.{f}", f"{shown(c[f])} is not one of "
                                 f"{', '.join(FEATURES[f])}", "coverta.not_a_feature_value",
                                 {"card": i + 1, "feature": f, "value": shown(c[f]),
                                  "values": ", ".join(FEATURES[f])})
        codes[code.upper()] = code
    return codes


class Balance(NamedTuple):
    per_number: dict[int, int]
    feature_split: dict[str, Counter]
    within_number: dict[str, set]  # feature -> set of per-number splits seen
    pairs: dict[tuple[str, str], Counter]
    distinct: bool


def balance(cards: list[dict]) -> Balance:
    """The deck's balance figures, for tests and the designer's note."""
    feats = [features(c) for c in cards]
    within = {f: {tuple(sorted(Counter(x[f] for x, c in zip(feats, cards)
                                       if c["number"] == n).values()))
                  for n in range(1, 11)} for f in FREE}
    pairs = {(a, b): Counter((x[a], x[b]) for x in feats)
             for a, b in combinations(FEATURES, 2)}
    keys = [tuple(x[f] for f in FEATURES) for x in feats]
    return Balance(dict(Counter(c["number"] for c in cards)),
                   {f: Counter(x[f] for x in feats) for f in FEATURES}, within, pairs,
                   len(set(keys)) == len(keys))


# ---- round points and totals (V6) ----------------------------------------------------

class Standings(NamedTuple):
    players: list[str]
    rounds: list[dict[str, int]]
    totals: dict[str, int]
    winners: list[str]


def check_players(players) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip()
                                                for p in players):
        raise ScoreError("players", "give the players' names: players = [\"Ana\", \"Bo\"]",
                         "coverta.no_players")
    if len(players) not in PLAYERS:
        raise ScoreError("players", f"Coverta is for 2 to 5 players, not {len(players)}",
                         "coverta.players_count", {"n": len(players)})
    for i, p in enumerate(players):
        if not plain(p):
            raise ScoreError(f"players[{i}]", f"{shown(p)}: a name cannot hold control "
                             "characters", "coverta.name_control", {"name": escape(p)})
    dup = [p for p, n in Counter(players).items() if n > 1]
    if dup:
        raise ScoreError("players", f"two players are named {shown(dup[0])}",
                         "coverta.name_twice", {"player": escape(dup[0])})
    return players


def check_round(players: list[str], r, where: str) -> dict:
    """One round: every player's hand count (0-39, 39 in all at most) and the first steal."""
    if not isinstance(r, dict):
        raise ScoreError(where, "must be a table: hands = { NAME = COUNT, ... }",
                         "coverta.round_not_a_table")
    unknown_field(r, ROUND_FIELDS, where)
    hands = r.get("hands")
    if not isinstance(hands, dict):
        raise ScoreError(f"{where}.hands", "missing: give every player's hand count",
                         "coverta.hands_missing")
    for name, n in hands.items():
        field = f"{where}.hands.{escape(name)}"
        if name not in players:
            raise ScoreError(field, "not one of the players", "coverta.not_a_player",
                             {"name": escape(name)})
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_HAND:
            raise ScoreError(field, f"{shown(n)} is not a hand count (0 to {MAX_HAND}: the "
                             f"deck has {DECK_SIZE} cards, one turned up to start)",
                             "coverta.not_a_hand_count",
                             {"player": escape(name), "value": shown(n), "most": MAX_HAND})
    missing = [p for p in players if p not in hands]
    if missing:
        raise ScoreError(f"{where}.hands.{missing[0]}", "missing: every player has a count",
                         "coverta.hand_count_missing", {"player": escape(missing[0])})
    if sum(hands.values()) > MAX_HAND:
        raise ScoreError(f"{where}.hands", f"the hands hold {sum(hands.values())} cards in "
                         f"all, but at most {MAX_HAND} are ever in hand ({DECK_SIZE} cards, "
                         "one turned up to start)", "coverta.hands_too_many",
                         {"total": sum(hands.values()), "most": MAX_HAND, "deck": DECK_SIZE})
    steal = r.get("first_steal")
    if steal is not None and steal not in players:
        raise ScoreError(f"{where}.first_steal", f"{shown(steal)} is not one of the players",
                         "coverta.steal_not_a_player", {"value": shown(steal)})
    return r


def check_ledger(table) -> tuple[list[str], list[dict]]:
    if not isinstance(table, dict):
        raise ScoreError("", "the ledger must be a table", "coverta.not_a_table")
    unknown_field(table, LEDGER_FIELDS)
    players = check_players(table.get("players"))
    rounds = table.get("rounds", [])
    if not isinstance(rounds, list):
        raise ScoreError("rounds", "must be a list of [[rounds]] tables",
                         "coverta.rounds_not_a_list")
    for i, r in enumerate(rounds):
        check_round(players, r, f"rounds[{i}]")
    return players, rounds


def round_points(players: list[str], hands: dict[str, int], first_steal: str | None) -> dict:
    """Own hand - smallest hand; -1 for an emptied hand; -1 for the first steal (V6)."""
    low = min(hands[p] for p in players)
    return {p: hands[p] - low - (hands[p] == 0) - (p == first_steal) for p in players}


def standings(table) -> Standings:
    players, rounds = check_ledger(table)
    points = [round_points(players, r["hands"], r.get("first_steal")) for r in rounds]
    totals = {p: sum(r[p] for r in points) for p in players}
    best = min(totals.values()) if rounds else 0
    return Standings(players, points, totals, [p for p in players if totals[p] == best])
