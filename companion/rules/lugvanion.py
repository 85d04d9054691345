"""Lugvanion's guild vote (RULINGS L5-L6): exact odds and a verifiable draw. Pure.

The vote
    A bag holds partisans of 1-4 colours (8 in a real vote; 5 to 99 to explore odds).
    5 are drawn blind; the colour with strictly the most drawn partisans wins. On a tie:
      extra  (default) draw one more partisan at a time from those left until one colour
             leads alone; if all are out and the lead is still shared, put every partisan
             back and draw 5 afresh.
      redraw put every partisan back and draw 5 afresh.

Odds
    Exact fractions by enumerating every way the draw can go (each remaining partisan
    equally likely next), with the restarts summed as a geometric series:
    P(colour wins) = P(wins in one attempt) / (1 - P(attempt ends in a restart)).

The verifiable draw (version 1), so that another program can recompute it
    seed        32 random bytes, kept secret until the draw is done.
    commitment  lowercase hex of SHA-256(seed), published before the draw.
    context     the ASCII string
                    "lugvanion-draw-v1|tie=<rule>|bag=<c1>:<n1>,<c2>:<n2>,..."
                with the colours in byte order of their names, each colour that has a
                partisan in the bag listed and a colour at 0 left out (it cannot be drawn:
                a bag typed with or without its zeros gives the same draw); <rule> is
                "extra" or "redraw".
    attempt     attempts are numbered 0, 1, 2, ... (a new attempt after a restart).
    stream      for attempt a, the bytes HMAC-SHA256(key=seed, msg=context + "|attempt=" +
                str(a) + "|block=" + str(k)) for k = 0, 1, 2, ... concatenated.
    uniform(n)  read 4 bytes of the stream as a big-endian unsigned integer x; if
                x < 2**32 - (2**32 mod n) return x mod n, otherwise discard them and read 4
                more (rejection sampling: no modulo bias).
    shuffle     the partisans listed in context order (each colour repeated by its count);
                for i from len-1 down to 1: j = uniform(i + 1); swap items i and j
                (Fisher-Yates). The shuffled list is the order the partisans leave the bag.
    draw        take the first 5; while the lead is shared and the rule is "extra", take
                the next one. A shared lead with nothing left to take (extra) or after the
                5 (redraw) starts the next attempt. The winner is the lone leader.
    result      "drawn" lists the partisans of the deciding attempt in order: the 5 of
                the draw, then any a tie drew one at a time ("tie_break", RULINGS L6);
                "redrawn" lists the drawn partisans of each earlier, tied attempt.
"""

import hashlib
import hmac
import re
from typing import NamedTuple
from fractions import Fraction
from functools import lru_cache

from companion.rules.errors import ScoreError, shown

DRAWN = 5
VOTE_SIZE = 8
TIE_RULES = ("extra", "redraw")
MAX_COLOURS = 4
MAX_ANY_SIZE = 99  # bags other than 8 are for exploring odds; the draw stays instant
COLOUR = re.compile(r"[a-z]{1,20}")
MAX_ATTEMPTS = 10_000
VERSION = "lugvanion-draw-v1"
GUILDS_TO_WIN = 2


class Odds(NamedTuple):
    bag: dict[str, int]
    tie_rule: str
    exact: dict[str, Fraction]

    def floats(self) -> dict[str, float]:
        return {c: float(p) for c, p in self.exact.items()}


class Draw(NamedTuple):
    bag: dict[str, int]
    tie_rule: str
    commitment: str
    seed: str
    drawn: list[str]
    winner: str
    redrawn: list[list[str]]

    @property
    def first(self) -> list[str]:
        """The draw itself: the first 5 partisans of the deciding attempt."""
        return self.drawn[:DRAWN]

    @property
    def tie_break(self) -> list[str]:
        """What a tie among the first 5 drew one at a time under `extra` (RULINGS L6)."""
        return self.drawn[DRAWN:]

    def tied(self) -> dict[str, int]:
        """The colours level at the top of the first 5 when a tie-break followed, with
        their count ({} when the 5 decided)."""
        if not self.tie_break:
            return {}
        counts: dict[str, int] = {}
        for colour in self.first:
            counts[colour] = counts.get(colour, 0) + 1
        top = max(counts.values())
        return {c: n for c, n in counts.items() if n == top}


# ---- the bag -------------------------------------------------------------------------

def check_bag(bag: dict, allow_any_size: bool = False) -> dict[str, int]:
    """A bag as colour -> count, checked; returned in canonical (sorted) order. A real vote
    holds exactly 8 partisans of any colours, one colour alone included (RULINGS L5); other
    sizes, from 5 to MAX_ANY_SIZE, only to explore odds."""
    if not isinstance(bag, dict) or not bag:
        raise ScoreError("bag", "give each colour's partisans, e.g. red=3 blue=2")
    for colour, n in bag.items():
        if not isinstance(colour, str) or not COLOUR.fullmatch(colour):
            raise ScoreError("bag", f"{shown(colour)} is not a colour name (lowercase letters)")
        if isinstance(n, bool) or not isinstance(n, int):
            raise ScoreError(f"bag.{colour}", f"{shown(n)} is not a whole number")
        if n < 0:
            raise ScoreError(f"bag.{colour}", f"a count cannot be negative ({n})")
        if n > MAX_ANY_SIZE:
            raise ScoreError(f"bag.{colour}", f"{colour}={n}: a bag holds at most "
                             f"{MAX_ANY_SIZE} partisans (a vote {VOTE_SIZE})")
    if len(bag) > MAX_COLOURS:
        raise ScoreError("bag", f"at most {MAX_COLOURS} colours play, not {len(bag)}")
    total = sum(bag.values())
    if total != VOTE_SIZE and not allow_any_size:
        raise ScoreError("bag", f"a vote holds exactly {VOTE_SIZE} partisans, not {total}")
    if total < DRAWN:
        raise ScoreError("bag", f"{DRAWN} partisans are drawn, but the bag holds {total}")
    if total > MAX_ANY_SIZE:
        raise ScoreError("bag", f"a bag holds at most {MAX_ANY_SIZE} partisans, not {total}")
    return {c: bag[c] for c in sorted(bag)}


def check_tie_rule(rule: str) -> str:
    if rule not in TIE_RULES:
        raise ScoreError("tie_rule", f"{shown(rule)} is not a tie rule (use extra or redraw)")
    return rule


def lone_leader(counts: dict[str, int]) -> str | None:
    top = max(counts.values())
    leaders = [c for c, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else None


def governor(holders: dict[str, str | None]) -> str | None:
    """The colour that holds two guilds, which ends the game at once (RULINGS L7)."""
    held: dict[str, int] = {}
    for colour in holders.values():
        if colour is not None:
            held[colour] = held.get(colour, 0) + 1
            if held[colour] >= GUILDS_TO_WIN:
                return colour
    return None


# ---- exact odds ----------------------------------------------------------------------

def odds(bag: dict[str, int], tie_rule: str = "extra", allow_any_size: bool = False) -> Odds:
    bag = check_bag(bag, allow_any_size)
    tie_rule = check_tie_rule(tie_rule)
    colours = tuple(bag)

    @lru_cache(maxsize=None)
    def attempt(left: tuple[int, ...], drawn: tuple[int, ...]) -> tuple[Fraction, ...]:
        """P(each colour wins, then P(restart)) from this point of one attempt."""
        taken = sum(drawn)
        if taken >= DRAWN:
            counts = dict(zip(colours, drawn))
            leader = lone_leader(counts)
            if leader is not None:
                return tuple(Fraction(c == leader) for c in colours) + (Fraction(0),)
            if tie_rule == "redraw" or sum(left) == 0:
                return (Fraction(0),) * len(colours) + (Fraction(1),)
        total = sum(left)
        out = [Fraction(0)] * (len(colours) + 1)
        for i, n in enumerate(left):
            if n:
                nl = left[:i] + (n - 1,) + left[i + 1:]
                nd = drawn[:i] + (drawn[i] + 1,) + drawn[i + 1:]
                for k, p in enumerate(attempt(nl, nd)):
                    out[k] += Fraction(n, total) * p
        return tuple(out)

    *wins, restart = attempt(tuple(bag.values()), (0,) * len(colours))
    if restart == 1:
        raise ScoreError("bag", "this bag always ties: no colour can ever win")
    return Odds(bag, tie_rule, {c: w / (1 - restart) for c, w in zip(colours, wins)})


# ---- the verifiable draw -------------------------------------------------------------

def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str, field_name: str = "seed") -> bytes:
    t = str(text).strip().lower()
    if len(t) != 64 or any(ch not in "0123456789abcdef" for ch in t):
        raise ScoreError(field_name, "a seed is 64 hex digits (32 bytes)")
    return bytes.fromhex(t)


def context(bag: dict[str, int], tie_rule: str, zeros: bool = False) -> str:
    """The draw's context; `zeros` keeps a colour at 0, as draws made before 2026-11-28
    did (verify still checks those)."""
    return f"{VERSION}|tie={tie_rule}|bag=" + ",".join(f"{c}:{n}" for c, n in sorted(bag.items())
                                                       if n > 0 or zeros)


class _Stream:
    """The HMAC-SHA256 byte stream of one attempt, read 4 bytes at a time."""

    def __init__(self, seed: bytes, message: str):
        self.seed, self.message, self.block, self.buf = seed, message, 0, b""

    def u32(self) -> int:
        while len(self.buf) < 4:
            msg = f"{self.message}|block={self.block}".encode("ascii")
            self.buf += hmac.new(self.seed, msg, hashlib.sha256).digest()
            self.block += 1
        x, self.buf = int.from_bytes(self.buf[:4], "big"), self.buf[4:]
        return x

    def uniform(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            x = self.u32()
            if x < limit:
                return x % n


def shuffled(seed: bytes, bag: dict[str, int], tie_rule: str, attempt: int,
             zeros: bool = False) -> list[str]:
    items = [c for c, n in sorted(bag.items()) for _ in range(n)]
    stream = _Stream(seed, f"{context(bag, tie_rule, zeros)}|attempt={attempt}")
    for i in range(len(items) - 1, 0, -1):
        j = stream.uniform(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _one_attempt(order: list[str], tie_rule: str) -> tuple[list[str], str | None]:
    counts = dict.fromkeys(order, 0)
    drawn = []
    for colour in order:
        drawn.append(colour)
        counts[colour] += 1
        if len(drawn) >= DRAWN:
            leader = lone_leader(counts)
            if leader is not None:
                return drawn, leader
            if tie_rule == "redraw":
                return drawn, None
    return drawn, None


def draw(bag: dict[str, int], seed: bytes, tie_rule: str = "extra",
         allow_any_size: bool = False) -> Draw:
    return _draw(check_bag(bag, allow_any_size), seed, check_tie_rule(tie_rule))


def _draw(bag: dict[str, int], seed: bytes, tie_rule: str, zeros: bool = False) -> Draw:
    redrawn = []
    for attempt in range(MAX_ATTEMPTS):
        drawn, winner = _one_attempt(shuffled(seed, bag, tie_rule, attempt, zeros), tie_rule)
        if winner is not None:
            return Draw(bag, tie_rule, commitment(seed), seed.hex(), drawn, winner, redrawn)
        redrawn.append(drawn)
    raise ScoreError("bag", "no colour won in 10000 attempts: this bag always ties")


class Verdict(NamedTuple):
    ok: bool
    problem: str = ""


def verify(bag: dict[str, int], seed: bytes, claimed_commitment: str, drawn: list[str],
           tie_rule: str = "extra", allow_any_size: bool = False) -> Verdict:
    """Does the seed match the commitment, and does it give this draw from this bag?"""
    actual = commitment(seed)
    if actual != claimed_commitment.strip().lower():
        return Verdict(False, f"commitment: SHA-256 of the seed is {actual}, "
                              f"not {claimed_commitment.strip().lower()}")
    problem = _differs(draw(bag, seed, tie_rule, allow_any_size).drawn, drawn)
    if problem and 0 in bag.values():  # a draw made while zeros were part of the context
        if not _differs(_draw(bag, seed, tie_rule, zeros=True).drawn, drawn):
            return Verdict(True)
    return Verdict(not problem, problem)


def _differs(want: list[str], drawn: list[str]) -> str:
    """What differs between the draw the seed gives and the one claimed ("" if none)."""
    for i, (w, got) in enumerate(zip(want, drawn)):
        if w != got:
            return f"drawn[{i}]: the seed draws {w}, not {got}"
    if len(want) != len(drawn):
        return (f"drawn: the seed draws {len(want)} partisans ({','.join(want)}), "
                f"not {len(drawn)}")
    return ""
