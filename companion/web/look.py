"""What the phone page shows that is data, not code: team colours and names, guild names
(layouts/lugvanion.toml), each game's credits (layouts/GAME.toml) and the page's words in
English and French (layouts/phone.toml)."""

from dataclasses import dataclass

from companion.data import Fields, load_toml
from companion.paths import LAYOUTS

LANGS = ("en", "fr")
GAMES = ("lugvanion", "covenia", "coverta", "vengeance")


@dataclass(frozen=True)
class Look:
    teams: dict[str, dict]   # id -> {"colour": "#rrggbb", "name": {"en":..., "fr":...}}
    guilds: dict[str, dict]  # id -> {"name": {...}}
    texts: dict[str, dict]   # key -> {"en":..., "fr":...}
    credits: dict[str, dict]  # game -> {"en":..., "fr":...}: each game's authors

    def for_page(self) -> dict:
        return {"teams": self.teams, "guilds": self.guilds, "texts": self.texts,
                "credits": self.credits}

    def all_credits(self, lang: str) -> list[str]:
        """Every game's credits, for the table's printed QR card."""
        return [self.credits[g][lang] for g in GAMES]


def _names(f: Fields, key: str) -> dict[str, str]:
    return {lang: f.text(key, lang) for lang in LANGS}


def _hex(team: Fields) -> str:
    """The team's colour as written, once checked by the kits' own colour reader."""
    from companion.draw import colour

    colour.field(team, "colour")
    return team.get("colour", str)


def load() -> Look:
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
    return Look(teams, guilds, texts, each)
