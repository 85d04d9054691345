"""Vengeance: resolving what was revealed in the centre in one turn (RULINGS G3). Pure.

Incantations act first, highest number first (their spells are the witches' own, so only
their order is given). Then artifacts, highest number first: each removes every ritual
object of the type it names; one played when the centre holds no ritual object at all is
discarded unused. Then the most numerous type left wins (a transitory object counts with
its type); ties go potion, then mineral, then herb. Nothing left: no demon action, and
another turn is played.
"""

import re
import unicodedata
from typing import NamedTuple

from companion.rules.errors import ScoreError, escape, shown

TYPES = ("herb", "mineral", "potion")
# The most of each type the centre can hold: every ritual and transitory object of that
# type in the box (RULINGS G2: 26/22/18 ritual, 7/6/5 transitory; 84 objects in all).
MOST = {"herb": 26 + 7, "mineral": 22 + 6, "potion": 18 + 5}
TIE_ORDER = ("potion", "mineral", "herb")  # first wins a tie
NUMBERS = range(1, 14)
# At most 3 digits: artifacts are numbered 1-13, and int() of a huge digit string is slow.
_ARTIFACT = re.compile(r"\s*([0-9]{1,3})\s*:\s*([a-zé]+)\s*")
# The type words as a French table writes them (the rulebook's herbe, minéral, potion).
FRENCH_TYPES = {"herbe": "herb", "minéral": "mineral"}


class Step(NamedTuple):
    kind: str  # "incantation" or "artifact"
    number: int
    type: str | None = None  # the type an artifact removes
    removed: int = 0
    discarded: bool = False  # an artifact that found no ritual object at all

    def as_dict(self) -> dict:
        d = {"kind": self.kind, "number": self.number}
        if self.kind == "artifact":
            d.update(type=self.type, removed=self.removed, discarded=self.discarded)
        return d


class Resolution(NamedTuple):
    order: list[Step]
    removed: dict[str, int]
    counts: dict[str, int]  # ritual objects left after the artifacts
    winner: str | None


def artifact(text: str, field: str = "artifact") -> tuple[int, str]:
    """An artifact played, as written at the table: "12:potion" -> (12, "potion"). The
    number and the type are checked by `resolve`."""
    m = (_ARTIFACT.fullmatch(unicodedata.normalize("NFC", text).lower())
         if isinstance(text, str) else None)
    if not m:
        raise ScoreError(field, f"{shown(text)} is not NUMBER:TYPE (e.g. 12:potion; artifacts "
                                "are numbered 1-13)", "vengeance.not_an_artifact",
                         {"value": shown(text)})
    return int(m.group(1)), FRENCH_TYPES.get(m.group(2), m.group(2))


def _number(n, field: str, seen: set) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n not in NUMBERS:
        raise ScoreError(field, f"{shown(n)} is not a card number (1-13)",
                         "vengeance.not_a_card_number", {"value": shown(n)})
    if n in seen:
        raise ScoreError(field, f"card {n} is played twice (there is one of each number)",
                         "vengeance.card_twice", {"number": n})
    seen.add(n)
    return n


def resolve(counts: dict[str, int], artifacts: list[tuple[int, str]] = (),
            incantations: list[int] = ()) -> Resolution:
    left = {}
    for t in counts:
        if t not in TYPES:
            raise ScoreError(escape(str(t)),
                             f"unknown ritual object type (use {', '.join(TYPES)})",
                             "vengeance.unknown_type", {"word": escape(str(t))})
    for t in TYPES:
        n = counts.get(t, 0)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ScoreError(t, f"{shown(n)} is not a count (a whole number, 0 or more)",
                             "vengeance.not_a_count", {"type": t, "value": shown(n)})
        if n > MOST[t]:
            raise ScoreError(t, f"{n} {t} objects: the game has {MOST[t]} in all "
                             "(ritual and transitory, RULINGS G2)", "vengeance.too_many",
                             {"type": t, "n": n, "most": MOST[t]})
        left[t] = n
    seen_i: set = set()
    spells = sorted((_number(n, "incantation", seen_i) for n in incantations), reverse=True)
    seen_a: set = set()
    checked = []
    for n, t in artifacts:
        if t not in TYPES:
            raise ScoreError("artifact", f"artifact {shown(n)} removes {shown(t)}: unknown type "
                             f"(use {', '.join(TYPES)})", "vengeance.artifact_unknown_type",
                             {"number": shown(n), "value": shown(t)})
        checked.append((_number(n, "artifact", seen_a), t))

    order = [Step("incantation", n) for n in spells]
    removed = dict.fromkeys(TYPES, 0)
    for n, t in sorted(checked, reverse=True):
        if sum(left.values()) == 0:
            order.append(Step("artifact", n, t, 0, discarded=True))
            continue
        gone, left[t] = left[t], 0
        removed[t] += gone
        order.append(Step("artifact", n, t, gone))
    top = max(left.values())
    winner = next(t for t in TIE_ORDER if left[t] == top) if top > 0 else None
    return Resolution(order, removed, left, winner)
