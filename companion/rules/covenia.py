"""Covenia end scores (rulebook "End of Game", RULINGS C1-C8). Pure: plain data in, named tuples out.

Input is the parsed form of the score file: {"decks": "A"|"B"|"AB" (optional),
"players": [{"name": str, "area": {clan: [values]}, "hand": {clan: [values]}}]}.
Clan keys may be English or French. Every figure comes with a Reason (a key and its
numbers) that the caller words in its own language.
"""

from typing import NamedTuple

from companion.rules.errors import ScoreError, escape, plain, shown

CLANS = ("red", "yellow", "green", "blue", "purple")
FRENCH = {"rouge": "red", "jaune": "yellow", "vert": "green", "bleu": "blue", "violet": "purple"}
VALUES = range(1, 11)
DECKS = {"A": 1, "B": 1, "AB": 2}  # how many copies of each clan+value are in play (C1)


class Reason(NamedTuple):
    """Why a figure is what it is: a key the caller words, and its numbers."""

    key: str  # e.g. "red_most", "yellow", "yellow_empty_hand"
    numbers: dict


class Figure(NamedTuple):
    """One row's points for one player, and why."""

    points: int
    reason: Reason


class Player(NamedTuple):
    """A player's table as read from the score file."""

    name: str
    area: dict[str, tuple[int, ...]]  # clan -> column, top to bottom
    hand: tuple[tuple[str, int], ...]  # (clan, value)


class PlayerScore(NamedTuple):
    """A player's figures per row, total and rank."""

    name: str
    figures: dict[str, Figure]  # red, yellow, green, blue, purple, bonus
    total: int
    rank: int

    def points(self, row: str) -> int:
        return self.total if row == "total" else self.figures[row].points


class Result(NamedTuple):
    """The decks in play, every player's score, and the winners (several on a tie)."""

    decks: str
    players: list[PlayerScore]
    winners: list[str]


def default_decks(players: int) -> str:
    """The decks in play when none are chosen (C1): one for 2 players, both for 3-4."""
    return "A" if players <= 2 else "AB"


def check_decks(decks, players: int, seated: int = 0) -> str:
    """The decks a score file declares, checked against its number of players (C1): two
    players take one deck, A or B; three or four shuffle both together (AB). `seated`: the
    players at a phone table, some of whom may not have entered yet (both decks are right
    for four seated while two have entered)."""
    if not isinstance(decks, str) or decks.strip().upper() not in DECKS:
        raise ScoreError("decks", f"{shown(decks)} is not a deck choice "
                         "(use \"A\", \"B\" or \"AB\")", "covenia.not_decks",
                         {"value": shown(decks)})
    decks = decks.strip().upper()
    if decks == "AB" and max(players, seated) > 2:
        return decks
    if decks != "AB" and players <= 2:
        return decks
    want = "one deck, \"A\" or \"B\"" if players <= 2 else "both decks, \"AB\""
    raise ScoreError("decks", f"{shown(decks)}: {players} players play with {want}",
                     "covenia.decks_for_players", {"value": shown(decks), "n": players})


# ---- reading and checking the input ------------------------------------------------

def clan_key(word: str) -> str | None:
    w = str(word).strip().lower()
    return w if w in CLANS else FRENCH.get(w)


def check_values(raw, where: str) -> tuple[int, ...]:
    """A list of card values 1-10."""
    if not isinstance(raw, (list, tuple)):
        raise ScoreError(where, f"must be a list of card values, not {shown(raw)}",
                         "covenia.not_a_list", {"value": shown(raw)})
    for v in raw:
        if isinstance(v, bool) or not isinstance(v, int) or v not in VALUES:
            raise ScoreError(where, f"{shown(v)} is not a card value (1-10)",
                             "covenia.not_a_value", {"value": shown(v)})
    return tuple(raw)


def _clans(raw, where: str) -> dict[str, tuple[int, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ScoreError(where, "must be a table of clan = [values]", "covenia.not_clans")
    out: dict[str, tuple[int, ...]] = {}
    for key, values in raw.items():
        clan = clan_key(key)
        if clan is None:
            raise ScoreError(f"{where}.{escape(key)}", "unknown clan (use red, yellow, green, blue, "
                             "purple or rouge, jaune, vert, bleu, violet)",
                             "covenia.unknown_clan", {"word": escape(str(key))})
        if clan in out:
            raise ScoreError(f"{where}.{escape(key)}", f"clan {clan} is given twice",
                             "covenia.clan_twice", {"clan": clan})
        try:
            out[clan] = check_values(values, f"{where}.{escape(key)}")
        except ScoreError as e:
            e.params.setdefault("clan", clan)
            raise
    return out


def check_column(raw, where: str) -> tuple[int, ...]:
    """A column of one clan in a player's area: values rising strictly top to bottom (C2)."""
    column = check_values(raw, where)
    for a, b in zip(column, column[1:]):
        if b <= a:
            raise ScoreError(where, f"a column rises strictly from top to bottom ({b} after {a})",
                             "covenia.column_falls", {"value": b, "after": a})
    return column


def parse(table, seated: int = 0) -> tuple[list[Player], str]:
    """Checks a score file's content; returns the players and the decks in play.
    `seated`: the players at a phone table (check_decks)."""
    if not isinstance(table, dict):
        raise ScoreError("", "the score file must be a table", "covenia.not_a_table")
    unknown = set(table) - {"decks", "players"}
    if unknown:
        raise ScoreError(escape(sorted(unknown)[0]), "unknown field (use decks and [[players]])",
                         "covenia.unknown_field", {"word": escape(sorted(unknown)[0])})
    raw_players = table.get("players")
    if not isinstance(raw_players, list) or not all(isinstance(p, dict) for p in raw_players):
        raise ScoreError("players", "missing: give 2 to 4 [[players]] tables",
                         "covenia.no_players")
    if not 2 <= len(raw_players) <= 4:
        raise ScoreError("players", f"Covenia is for 2 to 4 players, not {len(raw_players)}",
                         "covenia.players_count", {"n": len(raw_players)})
    decks = check_decks(table.get("decks", default_decks(len(raw_players))), len(raw_players),
                        seated)
    return check_players(raw_players, decks), decks


def check_players(raw_players: list, decks: str) -> list[Player]:
    """Each player's entry and the copies in play (C1) with `decks` ("A", "B" or "AB"),
    for any number of players (a table whose entries are still coming in): the checks
    and words of parse()."""
    players, names = [], set()
    for i, raw in enumerate(raw_players):
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ScoreError(f"players[{i}].name", "missing: every player needs a name",
                             "covenia.name_missing", {"n": i + 1})
        if not plain(name):
            raise ScoreError(f"players[{i}].name", f"{shown(name)}: a name cannot hold "
                             "control characters", "covenia.name_control",
                             {"name": escape(name)})
        where = f"players[{i}] {shown(name)}"
        if name in names:
            raise ScoreError(f"{where}.name", "two players have this name",
                             "covenia.name_twice", {"player": name})
        names.add(name)
        extra = set(raw) - {"name", "area", "hand"}
        if extra:
            raise ScoreError(f"{where}.{escape(sorted(extra)[0])}",
                             "unknown field (use name, area, hand)",
                             "covenia.unknown_entry_field",
                             {"player": name, "word": escape(sorted(extra)[0])})
        try:  # an error in her entry names her, for a caller's words
            area = _clans(raw.get("area"), f"{where}.area")
            for clan, column in area.items():
                try:
                    check_column(column, f"{where}.area.{clan}")
                except ScoreError as e:
                    e.params.setdefault("clan", clan)
                    raise
            hand = _clans(raw.get("hand"), f"{where}.hand")
        except ScoreError as e:
            e.params.setdefault("player", name)
            raise
        players.append(Player(name, area, tuple((c, v) for c, vs in hand.items() for v in vs)))

    # Each clan+value exists once per deck in play (C1), across all areas and hands.
    seen: dict[tuple[str, int], int] = {}
    copies = DECKS[decks]
    for i, p in enumerate(players):
        cards = [(c, v, "area") for c, col in p.area.items() for v in col]
        cards += [(c, v, "hand") for c, v in p.hand]
        for clan, value, place in cards:
            seen[clan, value] = seen.get((clan, value), 0) + 1
            if seen[clan, value] > copies:
                held = "once" if copies == 1 else "twice"
                raise ScoreError(f'players[{i}] "{p.name}".{place}.{clan}',
                                 f"{clan} {value} is in play more often than decks {decks} "
                                 f"hold it ({held})", "covenia.too_many_copies",
                                 {"player": p.name, "clan": clan, "value": value,
                                  "decks": decks, "copies": copies})
    return players


# ---- scoring: covenia.toml's [[scoring]], by the one engine (issue 33) ----------------

def figures(players: list[Player]) -> list[dict]:
    """Each player's entry for the scoring language (companion.rules.sheet), as
    covenia.toml's [[scoring]] names them: each clan's count in the area, the blue values,
    the hand's values (its lowest is yellow's multiplier) and its size (green's)."""
    out = []
    for p in players:
        count = {c: len(p.area.get(c, ())) for c in CLANS}
        hand = [v for _, v in p.hand]
        out.append({"name": p.name, "hand_lowest": hand, "hand_size": len(hand),
                    "blue_cards": count["blue"], "red": count["red"],
                    "yellow": count["yellow"], "green": count["green"],
                    "blue": list(p.area.get("blue", ())), "purple": count["purple"]})
    return out


# The figures the scoring language has for the five counts (the bonus's `of`): blue's own
# category adds the values, so its count has one of its own.
COUNTED = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue_cards",
           "purple": "purple"}


def score(table, game: "sheet.Rules", seated: int = 0) -> Result:
    """The end scores of a score file's content: `game` is covenia.toml's [[scoring]]
    (companion.score.covenia.rules() reads it), scored by the one engine
    (companion.rules.sheet) from figures(); each figure's Reason is Covenia's own (a key
    and its numbers, the multipliers read from the data), so a caller words it as the
    rulebook's example does. A tie shares the win (C8)."""
    from companion.rules import sheet  # here: checking an entry needs no engine

    players, decks = parse(table, seated)
    # The engine tells players apart regardless of case; Covenia only by exact name
    # ("Ana" and "ana" are two players): it gets their places at the table.
    entries = [{**e, "name": str(i)} for i, e in enumerate(figures(players))]
    scored = sheet.score(game, entries)
    most = max(p.figures["red"] for p in scored.players)
    out = [PlayerScore(p.name, _covenia_figures(s, most), s.total, s.rank)
           for p, s in zip(players, scored.players)]
    return Result(decks, out, [players[int(w)].name for w in scored.winners])


def _covenia_figures(p: "sheet.PlayerScore", most: int) -> dict[str, Figure]:
    """One player's engine points and reasons (one round) as Covenia's figures."""
    why = {row: p.reasons[row][0].numbers for row in p.reasons}
    none = Reason("none", {"n": 0})
    out: dict[str, Figure] = {}
    n, pts = p.figures["red"], p.points["red"]
    if n == 0:
        out["red"] = Figure(pts, none)
    elif p.reasons["red"][0].key == "most":
        out["red"] = Figure(pts, Reason("red_tie" if why["red"]["with"] else "red_most",
                                        {"n": n, "each": why["red"]["each"], "points": pts}))
    else:
        out["red"] = Figure(pts, Reason("red_other", {"n": n, "most": most,
                                                      "each": why["red"]["each"],
                                                      "points": pts}))
    n, pts = p.figures["yellow"], p.points["yellow"]
    if n == 0:
        out["yellow"] = Figure(pts, none)
    elif p.figures["hand_size"] == 0:
        out["yellow"] = Figure(pts, Reason("yellow_empty_hand", {"n": n}))
    else:
        out["yellow"] = Figure(pts, Reason("yellow", {"n": n, "low": why["yellow"]["by"],
                                                      "points": pts}))
    n, pts = p.figures["green"], p.points["green"]
    out["green"] = Figure(pts, Reason("green", {"n": n, "hand": why["green"]["by"],
                                                "points": pts}) if n else none)
    values, pts = why["blue"]["values"], p.points["blue"]
    out["blue"] = Figure(pts, Reason("blue", {"values": list(values), "points": pts})
                         if values else none)
    n, pts = p.figures["purple"], p.points["purple"]
    out["purple"] = Figure(pts, Reason("purple", {"n": n, "points": pts}) if n else none)
    rows, pts, of = p.figures["bonus"], p.points["bonus"], why["bonus"]["of"]
    short = [c for c in CLANS if of[COUNTED[c]] == rows]
    out["bonus"] = Figure(pts, Reason("bonus" if rows else "bonus_none",
                                      {"rows": rows, "shortest": short,
                                       "each": why["bonus"]["each"], "points": pts}))
    return out
