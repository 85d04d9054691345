"""Covenia end scores (rulebook "End of Game", RULINGS C1-C8). Pure: plain data in, named tuples out.

Input is the parsed form of the score file: {"decks": "A"|"B"|"AB" (optional),
"players": [{"name": str, "area": {clan: [values]}, "hand": {clan: [values]}}]}.
Clan keys may be English or French. The scores are the scoring language's
(companion.rules.scoring), from covenia.toml's [[scoring]]: every figure comes with the
engine's Reason (its kind and numbers) that the caller words in its own language.
"""

from typing import NamedTuple

from companion.rules.errors import ScoreError, escape, plain, shown

CLANS = ("red", "yellow", "green", "blue", "purple")
FRENCH = {"rouge": "red", "jaune": "yellow", "vert": "green", "bleu": "blue", "violet": "purple"}
VALUES = range(1, 11)
DECKS = {"A": 1, "B": 1, "AB": 2}  # how many copies of each clan+value are in play (C1)


class Player(NamedTuple):
    """A player's table as read from the score file."""

    name: str
    area: dict[str, tuple[int, ...]]  # clan -> column, top to bottom
    hand: tuple[tuple[str, int], ...]  # (clan, value)


class Result(NamedTuple):
    """The decks in play, every player's score in the scoring language's words (a
    companion.rules.scoring.PlayerScore: points, figures and reasons by category id), and
    the winners (several on a tie)."""

    decks: str
    players: list["sheet.PlayerScore"]
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
    """Each player's entry for the scoring language (companion.rules.scoring), as
    covenia.toml's [[scoring]] names them: the values in her hand (`hand`, whose lowest
    is yellow's multiplier) and how many (`hand_size`, green's), each clan's count in her
    area, the blue values and their count (`blue_cards`, for the bonus)."""
    out = []
    for p in players:
        count = {c: len(p.area.get(c, ())) for c in CLANS}
        out.append({"name": p.name, "hand": [v for _, v in p.hand], "hand_size": len(p.hand),
                    **count, "blue": list(p.area.get("blue", ())),
                    "blue_cards": count["blue"]})
    return out


def score(table, game: "sheet.Rules", seated: int = 0) -> Result:
    """The end scores of a score file's content: `game` is covenia.toml's [[scoring]]
    (companion.score.covenia.rules() reads it), scored by the one engine
    (companion.rules.scoring) from figures(); each category's reason is the engine's (its
    kind and numbers, the multipliers read from the data), worded by the caller. Players
    are told apart by exact name ("Ana" and "ana" are two). A tie shares the win (C8)."""
    from companion.rules import scoring  # here: checking an entry needs no engine

    players, decks = parse(table, seated)
    scored = scoring.score(game, figures(players), exact_names=True)
    return Result(decks, scored.players, scored.winners)
