"""What the phone page shows that is data, not code: team colours and names, guild names
(companion/layouts/lugvanion.toml), each game's credits (companion/layouts/GAME.toml), the
page's words in English and French (companion/layouts/phone.toml), and a designer's games
served with --game (their game files' [game] and [[scoring]])."""

from pathlib import Path

import msgspec

from companion.files.data import Fields, load_toml
from companion.files.paths import LAYOUTS

LANGS = ("en", "fr")
GAMES = ("lugvanion", "covenia", "coverta", "vengeance")


class Look(msgspec.Struct, frozen=True):
    teams: dict[str, dict]   # id -> {"colour": "#rrggbb", "name": {"en":..., "fr":...}}
    guilds: dict[str, dict]  # id -> {"name": {...}}
    texts: dict[str, dict]   # key -> {"en":..., "fr":...}
    credits: dict[str, dict]  # game -> {"en":..., "fr":...}: each game's authors
    own: dict = msgspec.field(default_factory=dict)  # id -> web.games.own.OwnGame

    def for_page(self) -> dict:
        return {"teams": self.teams, "guilds": self.guilds, "texts": self.texts,
                "credits": {**self.credits, **{g.id: g.page["credits"] for g in self.own.values()}},
                "own": [g.page for g in self.own.values()]}

    def all_credits(self, lang: str) -> list[str]:
        """Every game's credits, for the table's printed QR card."""
        return [self.credits[g][lang] for g in GAMES]


def _names(f: Fields, key: str) -> dict[str, str]:
    return {lang: f.text(key, lang) for lang in LANGS}


def _names_or_english(f: Fields, key: str) -> dict[str, str]:
    """A designer's text in each language of the page; English where it has none."""
    from companion.errors import CompanionError

    out = {}
    if key not in f.table:  # an optional text the designer left out
        return dict.fromkeys(LANGS, "")
    for lang in LANGS:
        try:
            out[lang] = f.text(key, lang)
        except CompanionError:
            out[lang] = f.text(key, "en")
    return out


def own_game(path: Path):
    """A designer's game file as the table serves it: its [game] and [[scoring]] alone;
    one without score categories, or with a bundled game's id, refused naming the file."""
    from companion.errors import CompanionError
    from companion.score import scoring_words
    from companion.web.games.own import BUNDLED, OwnGame

    data = Fields(load_toml(path, only=frozenset({"game", "scoring"})), str(path))
    game = data.sub("game")
    gid = game.get("id", str, path.stem)
    if gid in BUNDLED or not gid or not all(c.isalnum() or c in "-_" for c in gid):
        raise game.error("id", f"{gid!r}: a game of your own needs an id of its own (letters, "
                               "digits, - and _; not a bundled game's)")
    if not scoring_words.has_scoring(data):
        raise CompanionError("lists no score categories: add [[scoring]] tables (id, name, "
                             "score) to score it on the phones", source=str(path),
                             field="scoring")
    rules = scoring_words.rules(data)  # every game `companion score FILE` scores, the phones too
    names = [_names_or_english(f, "name") for f in data.items("scoring")]
    pad = scoring_words.words()
    page = {"id": gid, "name": {lang: game.get("name", str) for lang in LANGS},
            "credits": _names_or_english(game, "credits"), "wins": rules.wins,
            "rounds": rules.rounds, "tiebreak": list(rules.tiebreak),
            # A round's field as the printed pad heads its column: R1, R2... (M1 in French).
            "round": {lang: pad.text("round", lang) for lang in LANGS},
            "categories": [{"id": c.id, "score": c.score, "points": c.points,
                            "name": name, "written": c.written, "listed": c.listed,
                            "total": c.total, "rounds": c.rounds,
                            "how": _how(c, rules, names, pad)}
                           for c, name in zip(rules.categories, names)]}
    from companion.games.factions import factions

    page["factions"] = list(factions(data))  # a choice per player on the phone sheet
    page["version"] = game.get("version", str, None)  # what each play records
    return OwnGame(gid, rules, page, page["version"], tuple(page["factions"]))


def _how(c, rules, names: list[dict], pad: Fields) -> dict[str, str]:
    """Under each category's name on the phone, how it counts: the printed pad's legend."""
    from companion.score import scoring_words

    out = {}
    for lang in LANGS:
        by_id = {d.id: n[lang] for d, n in zip(rules.categories, names)}
        out[lang] = scoring_words.legend_text(c, by_id, pad, lang, rules.rounds)
    return out


def _hex(team: Fields) -> str:
    """The team's colour as written, once checked by the kits' own colour reader."""
    from companion.draw import colour

    colour.field(team, "colour")
    return team.get("colour", str)


def load(own: list[Path] | tuple = ()) -> Look:
    game = Fields(load_toml(LAYOUTS / "lugvanion.toml"), str(LAYOUTS / "lugvanion.toml"))
    # The words on a team's colour in its ink (the kit's `ink_on_colour`: dark on yellow),
    # so that a chip on a phone reads as well as the printed card.
    teams = {t.get("id", str): {"colour": _hex(t), "name": _names(t, "name"),
                                "ink": t.get("ink_on_colour", str) if "ink_on_colour" in t.table
                                else "#ffffff"}
             for t in game.items("teams")}
    guilds = {g.get("id", str): {"name": _names(g, "name")} for g in game.items("guilds")}
    phone = Fields(load_toml(LAYOUTS / "phone.toml"), str(LAYOUTS / "phone.toml"))
    words = phone.sub("texts")
    texts = {key: _names(words, key) for key in words.table}
    each = {}
    for name in GAMES:  # the page's footer credits the authors of the game it shows
        path = LAYOUTS / f"{name}.toml"
        data = game if name == "lugvanion" else Fields(load_toml(path), str(path))
        each[name] = _names(data.sub("game"), "credits")
    games = {}
    for path in own:
        game = own_game(Path(path))
        if game.id in games:
            from companion.errors import CompanionError

            raise CompanionError(f"names the game {game.id!r}, as another --game does",
                                 source=str(path), field="game.id")
        games[game.id] = game
    return Look(teams, guilds, texts, each, games)
