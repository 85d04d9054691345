"""A designer's game scored from its score categories (the game file's [[scoring]]). Pure:
plain data in, named tuples out; every figure comes with a Reason (a key and its numbers)
that the caller words in its own language (companion/score/scoring_words.py).

A category (`score = ...`) turns a figure into points:
  points    the points as written
  each      a count times `points` (or times another category's figure: `times = "id"`)
  squared   a count times itself
  table     a count through `table = [0, 1, 3, 6, 10]` (past its end, its last entry)
  sum       a list of values written (a card's value each), added up, times `points`
  lowest    the lowest of a list written, or of the categories named in `of`, times `points`
  highest   the same, the highest
  sets      complete sets: the shortest of the counts named in `of`, times `points`
  most      a count times `most` when it is the most at the table (a tie for most too),
            times `others` otherwise
  majority  places by the figure at the table: `award = [first, second, ...]`; tied players
            `ties = "share"` the places' points (rounded down), each take the best tied
            place's points ("full") or score nothing ("none"); a figure of 0 takes no place
A category with `rounds = 1` in a game of several rounds is scored once, at the game's end
(a figure, not a list; a majority or the most among the players once); what it is worked
out from (`of`, `times`) is scored as often as it is. A category with `of` is worked out,
not written; `total = false` makes one a figure for the
others (cards in hand) that adds nothing itself.

The game: `wins` ("highest" | "lowest"), `rounds` (N: each written category is a list of N
figures, one a round; every category, majorities and the most included, is scored in each
round and the rounds added up), `tiebreak` (category ids: equal totals are broken by those
categories' figures, added up over the rounds, in order; the higher figure wins the tie).

Entries: [{"name": str, ID: figure, ...}], one per player; a category not filled counts 0
(an empty list for a list).
"""

from bisect import bisect_right
from collections import Counter
from typing import NamedTuple

from companion.rules.errors import ScoreError, escape, shown

# How a category turns what a player writes into points.
SCORES = {
    "points": "the points as written",
    "each": "a count times `points`",
    "squared": "a count, squared",
    "table": "a count through `table`",
    "sum": "a list of values, added up",
    "lowest": "the lowest of a list or of the categories in `of`",
    "highest": "the highest of a list or of the categories in `of`",
    "sets": "the shortest of the counts in `of`, times `points`",
    "most": "a count times `most` if the most at the table, else times `others`",
    "majority": "places by the figure at the table, points from `award`",
}
# The keys each kind reads, beyond id, name, score and total.
KEYS = {
    "points": (), "each": ("points", "times"), "squared": (), "table": ("table",),
    "sum": ("points",), "lowest": ("of", "points"), "highest": ("of", "points"),
    "sets": ("of", "points"), "most": ("most", "others"), "majority": ("award", "ties"),
}
COMMON = ("id", "name", "score", "total", "gender", "rounds")
GENDERS = ("m", "f")
MOST_ROUNDS = 20
# What each key says, for the reference the docs are written from (companion.score.reference).
KEY_HELP = {
    "id": "the category's id: letters, digits, - and _ (a scores file's key for it)",
    "name": "its printed name: a text, or { en = ..., fr = ... }",
    "score": "how it scores: one of the kinds below (default \"points\")",
    "total": "false: a figure other categories use (`of`, `times`), not added to the total",
    "rounds": "1: scored once, at the game's end, in a game of several rounds (a figure, "
              "not a list); default: every round",
    "gender": "the French gender of its name, \"m\" (default) or \"f\": the words that "
              "explain its figures agree with it (\"aucune : 0\")",
    "points": "a whole number from -1000 to 1000 each counted one is worth (default 1)",
    "times": "another category's id: a count times that category's figure",
    "table": "points by count: `[0, 1, 3, 6, 10]` (past its end, its last entry)",
    "of": "category ids: the figure is worked out from theirs, not written",
    "most": "points each when the player has the most at the table (a tie for most too)",
    "others": "points each otherwise",
    "award": "the places' points, first first: `[6, 3]`",
    "ties": "share (tied players split the places' points, rounded down), full (each "
            "gets the best tied place) or none (a tie takes nothing); default share",
}
GAME_HELP = {
    "wins": "\"highest\" (default) or \"lowest\": which total wins",
    "rounds": f"1 to {MOST_ROUNDS}: each written category is a list of that many figures, "
              "each round scored alone (a majority in each round) and the rounds added up",
    "tiebreak": "category ids: equal totals are broken by those categories' figures, "
                "added up over the rounds, in order; the higher figure wins the tie",
}
# The [game] keys the score pad and the scores file read beyond the scoring language's
# (companion/games/players.py, factions.py), for the reference the docs are written from.
PAD_HELP = {
    "players": "the most players (`players = 4`) or the least and the most (`[2, 4]`), 1 to "
               "12: the score pad prints a column for each of the most",
    "factions": "the sides players pick (`[\"Otters\", \"Crabs\"]`): a Faction row on the "
                "pad, a choice on each phone, and `faction = \"Otters\"` beside a player's "
                "figures in a scores file",
}
TIES = ("share", "full", "none")
WINS = ("highest", "lowest")
MOST = 1_000_000  # the largest number a player writes in a category
MOST_VALUES = 100  # the longest list of values a player writes in a category
# A game's players and categories: a table seats 30 at most; past these, a file is refused
# before it is scored (the tie lists each player's reasons name grow with the ties).
MOST_PLAYERS = 100
MOST_CATEGORIES = 100


class Category(NamedTuple):
    """One row of the score pad: its id, how it scores, and what that kind reads."""

    id: str
    score: str
    points: int = 1
    award: tuple[int, ...] = ()
    ties: str = "share"
    table: tuple[int, ...] = ()
    of: tuple[str, ...] = ()
    times: str | None = None
    most: int = 0
    others: int = 0
    total: bool = True
    gender: str = "m"
    rounds: int = 1  # the game's rounds, or 1: scored once, at the game's end

    def of_count(self, n: int) -> int:
        """Points for a figure, for the kinds that need no other player or category."""
        if self.score == "each":
            return n * self.points
        if self.score == "squared":
            return n * n
        if self.score == "table":
            return self.table[min(n, len(self.table) - 1)]
        if self.score in ("sum", "lowest", "highest", "sets"):
            return n * self.points
        return n

    @property
    def written(self) -> bool:
        """Whether players write it (else it is worked out from other categories)."""
        return not self.of

    @property
    def listed(self) -> bool:
        """Whether what a player writes in it (each round) is a list of values."""
        return self.score == "sum" or (self.score in ("lowest", "highest") and not self.of)


class Rules(NamedTuple):
    """A game's categories, in score-pad order, which total wins, its rounds and
    tie-breaks."""

    categories: tuple[Category, ...]
    wins: str = "highest"
    rounds: int = 1
    tiebreak: tuple[str, ...] = ()


class Reason(NamedTuple):
    """Why a figure is what it is: a key the caller words, and its numbers. The key is
    the category's kind (`score`), but most/others for `most`, times for a count times
    another category's figure. Numbers: always n (the figure) and points; each, with (the
    tied players) and top (the most at the table) for most/others; by and times (its id)
    for times; place, places, ties and with for majority; else each, table, and values (a
    list written) or of ({id: figure} of the categories it reads)."""

    key: str
    numbers: dict


class PlayerScore(NamedTuple):
    """A player's points per category (with what she wrote), total and rank; per round,
    each category's points and why (one item a round)."""

    name: str
    written: dict
    points: dict[str, int]
    total: int
    rank: int
    rounds: dict[str, list[int]] = {}
    reasons: dict[str, list[Reason]] = {}
    figures: dict[str, int] = {}


class Result(NamedTuple):
    """Every player's score, in entry order, and the winners (several on a tie)."""

    players: list[PlayerScore]
    winners: list[str]


def _whole(value, at: str, least: int = -1000, most: int = 1000):
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ScoreError(at, f"{shown(value)} is not a whole number from {least} to {most}",
                         "scoring.bad_number", {"value": shown(value), "least": least,
                                              "most": most})
    return value


def _numbers(value, at: str, most_items: int = 50) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or len(value) > most_items:
        raise ScoreError(at, f"{shown(value)}: a list of 1 to {most_items} whole numbers",
                         "scoring.bad_numbers", {"value": shown(value), "most": most_items})
    return tuple(_whole(v, f"{at}[{i}]") for i, v in enumerate(value))


def _category(raw, at: str, before: list[Category], rounds: int = 1) -> Category:
    if not isinstance(raw, dict):
        raise ScoreError(at, "must be a table (id, name, score)", "scoring.not_a_table")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid or not all(c.isalnum() or c in "-_" for c in cid):
        raise ScoreError(f"{at}.id", f"{shown(cid)}: letters, digits, - and _",
                         "scoring.bad_id", {"value": shown(cid)})
    if cid == "name":
        raise ScoreError(f"{at}.id", "name is a player's name: call the category "
                         "otherwise", "scoring.id_name", {"value": cid})
    if any(c.id == cid for c in before):
        raise ScoreError(f"{at}.id", f"{shown(cid)} names two categories",
                         "scoring.id_twice", {"value": cid})
    how = raw.get("score", "points")
    if how not in SCORES:
        raise ScoreError(f"{at}.score", f"{shown(how)} is none of "
                         + "; ".join(f"{k}: {v}" for k, v in SCORES.items()),
                         "scoring.bad_score", {"value": shown(how)})
    allowed = (*COMMON, *KEYS[how])
    for key in raw:
        if key not in allowed:
            raise ScoreError(f"{at}.{escape(str(key))}", f"unknown key for score = "
                             f"\"{how}\" (it reads {', '.join(allowed)})",
                             "scoring.unknown_key", {"word": escape(str(key)), "score": how})
    points = raw.get("points", 1)
    if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 1000:
        raise ScoreError(f"{at}.points", f"{shown(points)} is not a whole number "
                         "from -1000 to 1000", "scoring.bad_points", {"value": shown(points)})
    total = raw.get("total", True)
    if not isinstance(total, bool):
        raise ScoreError(f"{at}.total", f"{shown(total)}: true (its points count) or false "
                         "(a figure for other categories only)", "scoring.bad_total",
                         {"value": shown(total)})
    gender = raw.get("gender", "m")
    if gender not in GENDERS:
        raise ScoreError(f"{at}.gender", f"{shown(gender)}: the French gender of its name, "
                         "m or f", "scoring.bad_gender", {"value": shown(gender)})
    once = raw.get("rounds", rounds)
    if not isinstance(once, int) or isinstance(once, bool) or once not in (1, rounds):
        raise ScoreError(f"{at}.rounds", f"{shown(once)}: 1 (scored once, at the game's end) "
                         f"or the game's {rounds} (every round)", "scoring.bad_category_rounds",
                         {"value": shown(once), "rounds": rounds})
    kw: dict = {"points": points, "total": total, "gender": gender, "rounds": once}
    known = {c.id: c for c in before}
    for key in ("of", "times"):  # worked out from figures scored as often as it is
        read = raw.get(key, [])
        for o in read if isinstance(read, list) else [read]:
            if isinstance(o, str) and o in known and known[o].rounds != once:
                raise ScoreError(f"{at}.{key}", f"{shown(o)} is scored {_often(known[o])}, "
                                 f"this category {_often(once)}: both alike",
                                 "scoring.rounds_apart", {"value": shown(o)})
    if "of" in raw or how == "sets":
        of = raw.get("of")
        if not isinstance(of, list) or not of or len(of) > 20 \
                or not all(isinstance(o, str) for o in of):
            raise ScoreError(f"{at}.of", f"{shown(of)}: a list of the ids of categories "
                             "listed above it", "scoring.bad_of", {"value": shown(of)})
        for o in of:
            if o not in known or known[o].listed:
                raise ScoreError(f"{at}.of", f"{shown(o)} is no category above it with a "
                                 "number a round (" + ", ".join(
                                     c.id for c in before if not c.listed) + ")",
                                 "scoring.of_unknown", {"value": shown(o)})
        kw["of"] = tuple(of)
    if "times" in raw:
        t = raw["times"]
        if not isinstance(t, str) or t not in known:
            raise ScoreError(f"{at}.times", f"{shown(t)} is no category above it (its figure "
                             "multiplies the count)", "scoring.times_unknown", {"value": shown(t)})
        if "points" in raw:
            raise ScoreError(f"{at}.points", "goes without `times` (the count is multiplied "
                             "by one or the other)", "scoring.times_and_points")
        kw["times"] = t
    if how == "table":
        if "table" not in raw:
            raise ScoreError(f"{at}.table", "missing: the points for a count of 0, 1, 2, ... "
                             "(e.g. [0, 1, 3, 6, 10])", "scoring.no_table")
        kw["table"] = _numbers(raw["table"], f"{at}.table")
    if how == "most":
        for key in ("most", "others"):
            if key not in raw:
                raise ScoreError(f"{at}.{key}", "missing: the points for each one counted, "
                                 "for the most at the table (most) and for the others (others)",
                                 "scoring.no_most", {"key": key})
            kw[key] = _whole(raw[key], f"{at}.{key}")
    if how == "majority":
        if "award" not in raw:
            raise ScoreError(f"{at}.award", "missing: the points of each place, first first "
                             "(e.g. [6, 3])", "scoring.no_award")
        kw["award"] = _numbers(raw["award"], f"{at}.award", 20)
        ties = raw.get("ties", "share")
        if ties not in TIES:
            raise ScoreError(f"{at}.ties", f"{shown(ties)}: share (tied players split the "
                             "places' points), full (each the best tied place's) or none",
                             "scoring.bad_ties", {"value": shown(ties)})
        kw["ties"] = ties
    return Category(cid, how, **kw)


def _often(c) -> str:
    n = c if isinstance(c, int) else c.rounds
    return "once" if n == 1 else "every round"


def rules(scoring, wins="highest", where: str = "scoring", rounds=1, tiebreak=()) -> Rules:
    """The game file's [[scoring]] list (and its `wins`, `rounds`, `tiebreak`), checked.
    A fault in the game's keys names `wins`, `rounds` or `tiebreak`."""
    if wins not in WINS:
        raise ScoreError("wins", f"{shown(wins)}: the highest or the lowest total wins "
                                 "(highest, lowest)", "scoring.wins", {"value": shown(wins)})
    _whole(rounds, "rounds", 1, MOST_ROUNDS)
    if not isinstance(scoring, list) or not scoring:
        raise ScoreError(where, "a list of score categories ([[scoring]] tables)",
                         "scoring.no_categories")
    if len(scoring) > MOST_CATEGORIES:
        raise ScoreError(where, f"{len(scoring):,} score categories: a game has at most "
                         f"{MOST_CATEGORIES}", "scoring.too_many_categories",
                         {"count": len(scoring), "most": MOST_CATEGORIES})
    out: list[Category] = []
    for i, raw in enumerate(scoring):
        out.append(_category(raw, f"{where}[{i}]", out, rounds))
    ids = [c.id for c in out]
    if not isinstance(tiebreak, (list, tuple)) or not all(t in ids for t in tiebreak) \
            or len(set(tiebreak)) != len(tiebreak):
        raise ScoreError("tiebreak", f"{shown(tiebreak)}: a list of category ids, each once "
                         f"({', '.join(ids)})", "scoring.bad_tiebreak",
                         {"value": shown(tiebreak)})
    return Rules(tuple(out), wins, rounds, tuple(tiebreak))


def _one(value, c: Category, at):
    """One round's figure as written in `c`: a whole number, or a list of values. `at()`
    is where it is written (worked out only for an error's message)."""
    if c.listed:
        if not isinstance(value, list) or len(value) > MOST_VALUES:
            raise ScoreError(at(), f"{shown(value)} is not a list of up to {MOST_VALUES} whole "
                             "numbers", "scoring.bad_list", {"value": shown(value), "category": c.id})
        for i, v in enumerate(value):  # a value in a list: any whole number
            _number(v, -MOST, c, lambda i=i: f"{at()}[{i}]")
        return list(value)
    # a count is never negative
    return _number(value, -MOST if c.score == "points" else 0, c, at)


def _number(value, least: int, c: Category, at):
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MOST:
        raise ScoreError(at(), f"{shown(value)} is not a whole number from {least} to "
                         f"{MOST}", "scoring.bad_count",
                         {"value": shown(value), "category": c.id, "least": least,
                          "most": MOST})
    return value


def entry(raw, game: Rules, where: str = "") -> dict:
    """One player's entry, checked: a name, and figures in written categories (with
    rounds, a list of one a round)."""
    def at(key: str) -> str:
        return f"{where}.{escape(key)}" if where else escape(key)

    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) \
            or not raw["name"].strip():
        raise ScoreError(where or "name", "each player is a table with a name",
                         "scoring.no_name")
    by_id = {c.id: c for c in game.categories}
    counts = {k: v for k, v in raw.items() if k != "name"}
    for key, n in counts.items():
        c = by_id.get(key)
        if c is None:
            raise ScoreError(at(key), "unknown category (use " + ", ".join(
                c.id for c in game.categories if c.written) + ")",
                "scoring.unknown_category", {"word": escape(str(key))})
        if not c.written:
            raise ScoreError(at(key), f"worked out from {', '.join(c.of)}: not written",
                             "scoring.worked_out", {"word": escape(str(key))})
        if c.rounds == 1:  # one round, or scored once at the game's end
            _one(n, c, lambda key=key: at(key))
            continue
        if not isinstance(n, list) or len(n) != c.rounds:
            raise ScoreError(at(key), f"{shown(n)}: a list of {c.rounds} figures, one a "
                             "round", "scoring.bad_rounds",
                             {"value": shown(n), "rounds": c.rounds, "category": key})
        for i, v in enumerate(n):
            _one(v, c, lambda key=key, i=i: f"{at(key)}[{i}]")
    return {"name": raw["name"], **counts}


def entries(raw, game: Rules, where: str = "players", exact_names: bool = False
            ) -> list[dict]:
    """The players' entries, checked, each player once: "Ana" and "ana" are one player,
    or two with `exact_names`."""
    if not isinstance(raw, list) or not raw:
        raise ScoreError(where, "a list of players, each a name and a number per category",
                         "scoring.no_players")
    if len(raw) > MOST_PLAYERS:
        raise ScoreError(where, f"{len(raw):,} players: a game has at most {MOST_PLAYERS}",
                         "scoring.too_many_players", {"count": len(raw), "most": MOST_PLAYERS})
    out, names = [], set()
    for i, one in enumerate(raw):
        checked = entry(one, game, f"{where}[{i}]")
        name = checked["name"]
        told = name if exact_names else name.casefold()
        if told in names:
            raise ScoreError(f"{where}[{i}].name", f"{shown(name)} is given twice",
                             "scoring.name_twice", {"player": name})
        names.add(told)
        out.append(checked)
    return out


def majority(figures: list[int], award: tuple[int, ...], ties: str = "share"
             ) -> list[tuple[int, int, int]]:
    """Each player's (points, place, tied) for one majority: places from 1 by figure,
    highest first; `tied` players share the place (1 when alone). A figure of 0 takes no
    place (place 0, no points). Players with equal figures always get equal points."""
    each = {}  # figure -> (points, place, tied): one sort, each figure worked out once
    above = 0
    for f, tied in sorted(Counter(figures).items(), reverse=True):
        place = 1 + above
        above += tied
        if f <= 0:
            each[f] = (0, 0, tied)
            continue
        got = award[place - 1:place - 1 + tied]  # the places past `award` score 0
        if tied == 1 or ties == "full":
            points = got[0] if got else 0
        elif ties == "share":
            points = sum(got) // tied
        else:
            points = 0
        each[f] = (points, place, tied)
    return [each[f] for f in figures]


def _names_by(figs: list, rows: list[dict]) -> dict:
    """{figure: the names of the players with it}, in table order."""
    out: dict = {}
    for f, r in zip(figs, rows):
        out.setdefault(f, []).append(r["name"])
    return out


def _others(names: list[str], i: int, rows: list[dict]) -> list[str]:
    """The names of a tie but player i's own (names are unique at a table)."""
    me = rows[i]["name"]
    return [n for n in names if n != me]


def _places(award: tuple[int, ...], place: int, tied: int) -> list[int]:
    """The points of the places a tie of `tied` players at `place` takes (0 past award)."""
    return [award[p - 1] if p <= len(award) else 0 for p in range(place, place + tied)]


def _round(categories: tuple[Category, ...], rows: list[dict]) -> list[dict]:
    """One round's points and reasons for each player in `categories`: [{id: (points,
    figure, Reason)}]."""
    out: list[dict] = [{} for _ in rows]
    figures: list[dict] = [{} for _ in rows]
    for c in categories:
        if c.listed:
            vals = [list(r.get(c.id, [])) for r in rows]
            if c.score == "sum":
                figs = [sum(v) for v in vals]
            else:
                pick = min if c.score == "lowest" else max
                figs = [pick(v) if v else 0 for v in vals]
            extra = [{"values": v} for v in vals]
        elif c.of:
            got = [[f[o] for o in c.of] for f in figures]
            pick = max if c.score == "highest" else min
            figs = [pick(g) for g in got]
            extra = [{"of": dict(zip(c.of, g))} for g in got]
        else:
            figs = [r.get(c.id, 0) for r in rows]
            extra = [{} for _ in rows]
        if c.score == "majority":
            placed = majority(figs, c.award, c.ties)
            named = _names_by(figs, rows)
            places_of: dict = {}  # figure -> its places' points, worked out once
            for i, (pts, place, tied) in enumerate(placed):
                with_ = _others(named[figs[i]], i, rows) if place else []
                if place and figs[i] not in places_of:
                    places_of[figs[i]] = _places(c.award, place, tied)
                places = places_of[figs[i]] if place else []
                out[i][c.id] = (pts, figs[i], Reason("majority", {
                    "n": figs[i], "place": place, "with": with_, "places": places,
                    "ties": c.ties, "points": pts}))
        elif c.score == "most":
            top = max(figs)
            leaders = [r["name"] for f, r in zip(figs, rows) if f == top]
            for i, f in enumerate(figs):
                first = f == top and f > 0  # none at all is not the most
                each = c.most if first else c.others
                tied = _others(leaders, i, rows) if first else []
                out[i][c.id] = (f * each, f, Reason("most" if first else "others", {
                    "n": f, "each": each, "with": tied if first else [], "top": top,
                    "points": f * each}))
        else:
            for i, f in enumerate(figs):
                if c.times is not None:
                    by = figures[i][c.times]
                    pts = f * by
                    reason = Reason("times", {"n": f, "by": by, "times": c.times,
                                              "points": pts})
                else:
                    pts = c.of_count(f)
                    reason = Reason(c.score, {"n": f, "points": pts, "each": c.points,
                                              "table": list(c.table), **extra[i]})
                out[i][c.id] = (pts, f, reason)
        for i, f in enumerate(figs):
            figures[i][c.id] = f
    return out


def score(game: Rules, raw_entries, exact_names: bool = False) -> Result:
    """Every player's points and reasons by category, total, rank; the winners.
    `exact_names`: players told apart by case too (entries())."""
    players = entries(raw_entries, game, exact_names=exact_names)
    ids = [c.id for c in game.categories]
    # Each round scores the categories of every round; then those scored once, at the end.
    many = tuple(c for c in game.categories if c.rounds > 1)
    once = tuple(c for c in game.categories if c.rounds == 1)
    passes = [(many, k) for k in range(game.rounds)] if many else []
    if once:
        passes.append((once, None))
    got = [{i: [] for i in ids} for _ in players]  # (points, figure, Reason) a round
    for cats, k in passes:
        rows = [{"name": p["name"], **{c.id: (p[c.id] if k is None else p[c.id][k])
                                       for c in cats if c.id in p}} for p in players]
        for n, done in enumerate(_round(cats, rows)):
            for i, item in done.items():
                got[n][i].append(item)
    scored = []
    for n, p in enumerate(players):
        written = {c.id: p.get(c.id, [] if c.listed else 0) if c.rounds == 1 else
                   p.get(c.id, [[] if c.listed else 0] * c.rounds)
                   for c in game.categories if c.written}
        per = {i: [x[0] for x in got[n][i]] for i in ids}
        reasons = {i: [x[2] for x in got[n][i]] for i in ids}
        figs = {i: sum(x[1] for x in got[n][i]) for i in ids}
        points = {i: sum(per[i]) for i in ids}
        total = sum(points[c.id] for c in game.categories if c.total)
        scored.append((p["name"], written, points, total, per, reasons, figs))
    sign = 1 if game.wins == "highest" else -1

    def key(s) -> tuple:
        return (sign * s[3], *(s[6][t] for t in game.tiebreak))

    keys = [key(s) for s in scored]
    ordered = sorted(keys)  # a place: 1 + the players whose key is higher (a bisection)
    result = [PlayerScore(name, written, points, total,
                          1 + len(ordered) - bisect_right(ordered, k), per, reasons, figs)
              for k, (name, written, points, total, per, reasons, figs) in zip(keys, scored)]
    best = max(keys)
    return Result(result, [p.name for p, k in zip(result, keys) if k == best])
