"""Coverta: the deck's features, round points over several rounds, and the row check
(RULINGS V1-V6). Pure: plain data in, dataclasses out.

A number card is {"code", "number", "ink", "shape", "symbol_colour", "fill", "background"};
parity and range follow from the number.
"""

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from scorers.errors import ScoreError

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


def features(card: dict) -> dict[str, str]:
    n = card["number"]
    return {"parity": "even" if n % 2 == 0 else "odd", "range": "low" if n <= 5 else "high",
            **{f: card[f] for f in FREE}}


# ---- the deck ------------------------------------------------------------------------

def check_deck(cards: list[dict]) -> dict[str, str]:
    """Checks a deck's cards (V1-V2); returns code -> code for lookups. Raises on a bad card."""
    codes = {}
    for i, c in enumerate(cards):
        where = f"cards[{i}]"
        code = c.get("code")
        if not isinstance(code, str) or not code:
            raise ScoreError(f"{where}.code", "missing")
        if code.upper() in codes:
            raise ScoreError(f"{where}.code", f"{code} is used twice")
        n = c.get("number")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10:
            raise ScoreError(f"{where}.number", f"{n!r} is not a number 1-10")
        for f in FREE:
            if c.get(f) not in FEATURES[f]:
                raise ScoreError(f"{where}.{f}", f"{c.get(f)!r} is not one of "
                                 f"{', '.join(FEATURES[f])}")
        codes[code.upper()] = code
    return codes


@dataclass(frozen=True)
class Balance:
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

@dataclass(frozen=True)
class Standings:
    players: list[str]
    rounds: list[dict[str, int]]
    totals: dict[str, int]
    winners: list[str]


def check_ledger(table) -> tuple[list[str], list[dict]]:
    if not isinstance(table, dict):
        raise ScoreError("", "the ledger must be a table")
    players = table.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise ScoreError("players", "give the players' names: players = [\"Ana\", \"Bo\"]")
    if not 2 <= len(players) <= 5:
        raise ScoreError("players", f"Coverta is for 2 to 5 players, not {len(players)}")
    dup = [p for p, n in Counter(players).items() if n > 1]
    if dup:
        raise ScoreError("players", f"two players are named {dup[0]!r}")
    rounds = table.get("rounds", [])
    if not isinstance(rounds, list):
        raise ScoreError("rounds", "must be a list of [[rounds]] tables")
    for i, r in enumerate(rounds):
        where = f"rounds[{i}]"
        if not isinstance(r, dict):
            raise ScoreError(where, "must be a table")
        extra = set(r) - {"hands", "first_steal"}
        if extra:
            raise ScoreError(f"{where}.{sorted(extra)[0]}", "unknown field (use hands, first_steal)")
        hands = r.get("hands")
        if not isinstance(hands, dict):
            raise ScoreError(f"{where}.hands", "missing: give every player's hand count")
        for name, n in hands.items():
            if name not in players:
                raise ScoreError(f"{where}.hands.{name}", "not one of the players")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ScoreError(f"{where}.hands.{name}", f"{n!r} is not a hand count (0 or more)")
        missing = [p for p in players if p not in hands]
        if missing:
            raise ScoreError(f"{where}.hands.{missing[0]}", "missing: every player has a count")
        steal = r.get("first_steal")
        if steal is not None and steal not in players:
            raise ScoreError(f"{where}.first_steal", f"{steal!r} is not one of the players")
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


# ---- the row check (V5) --------------------------------------------------------------

@dataclass(frozen=True)
class Fault:
    card: str
    row: str
    rule: str  # e.g. "keep:parity"
    against: str  # the card laid just before it
    value: str  # this card's value of the feature
    before: str  # the earlier card's value


def parse_rule(text: str, field: str) -> tuple[str, str]:
    mode, _, feature = str(text).strip().lower().partition(":")
    if mode not in MODES or feature not in FEATURES:
        raise ScoreError(field, f"{text!r} is not a rule: write MODE:FEATURE with MODE alternate "
                         f"or keep and FEATURE one of {', '.join(FEATURES)}")
    return mode, feature


def check_rows(deck: list[dict], start: str, plays: list[tuple[str, str]],
               rules: dict[str, list[str]], marked: list[str] = ()) -> list[Fault]:
    """Every card in the checked rows that breaks its row owner's rules, each compared with
    the card laid just before it by anyone. Marked cards are not checked again but still
    count as the card before the next one; the starting card is checked against nothing."""
    by_code = {c["code"].upper(): c for c in deck}

    def card(code, field):
        c = by_code.get(str(code).strip().upper())
        if c is None:
            raise ScoreError(field, f"unknown card code {code!r}")
        return c

    first = card(start, "start")
    seen = {first["code"]}
    laid = [first]
    rows = []
    for i, (code, row) in enumerate(plays):
        if not isinstance(row, str) or not row.strip():
            raise ScoreError(f"plays[{i}].row", "missing: the player whose row it was laid in")
        c = card(code, f"plays[{i}].card")
        if c["code"] in seen:
            raise ScoreError(f"plays[{i}].card", f"{c['code']} is laid twice")
        seen.add(c["code"])
        laid.append(c)
        rows.append(row)
    for row, rs in rules.items():
        if not isinstance(rs, list):
            raise ScoreError(f"rules.{row}", 'must be a list, e.g. ["keep:parity", "alternate:shape"]')
    checked = {row: [parse_rule(r, f"rules.{row}[{k}]") for k, r in enumerate(rs)]
               for row, rs in rules.items()}
    for row in checked:
        if row not in rows:
            raise ScoreError(f"rules.{row}", "no card was laid in this row")
    skip = {card(m, f"marked[{k}]")["code"] for k, m in enumerate(marked)}
    faults = []
    for i, row in enumerate(rows):
        c, prev = laid[i + 1], laid[i]
        if row not in checked or c["code"] in skip:
            continue
        a, b = features(c), features(prev)
        for mode, f in checked[row]:
            same = a[f] == b[f]
            if same != (mode == "keep"):
                faults.append(Fault(c["code"], row, f"{mode}:{f}", prev["code"], a[f], b[f]))
    return faults
