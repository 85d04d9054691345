"""Coverta at the command line: the deck from companion/layouts/, round entry at the terminal, and
words for companion.rules.coverta's results. The ledger file itself is companion/score/ledger.py."""

import re
from functools import cache
from pathlib import Path

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.errors import CompanionError, escape
from companion.rules import coverta as rules
from companion.rules.coverta_rows import Fault
from companion.rules.errors import ScoreError
from companion.score import entry
from companion.text.typography import listing

COUNT = re.compile(r"[0-9]{1,2}")  # ASCII digits only: "²".isdigit() is True


def deck(data_path: Path | None = None) -> list[dict]:
    path = Path(data_path) if data_path else paths.LAYOUTS / "coverta.toml"
    table = load_toml(path)
    if "cards" not in table:
        raise CompanionError("missing: the deck's cards = [...]", source=str(path), field="cards")
    try:
        rules.check_deck(table["cards"])
    except ScoreError as e:
        raise CompanionError(e.message, source=str(path), field=e.field) from None
    return table["cards"]


# ---- words ---------------------------------------------------------------------------

@cache
def words() -> Fields:
    """The scorer's words, English and French: companion/layouts/strings.toml's [coverta]."""
    path = paths.LAYOUTS / "strings.toml"
    return Fields(load_toml(path, only=frozenset({"coverta"})), str(path),
                  english=True).sub("coverta")


def _say(lang: str):
    w = words()
    return lambda key, **kw: w.text(key, lang).format(**kw)


def why(e: ScoreError, lang: str) -> str:
    """A scorer's refusal in `lang`: its message, or in French the words the phone gives
    its code (companion/layouts/phone.toml's "why_" + the code), filled with its params."""
    if lang == "en" or not e.code:
        return e.message
    path = paths.LAYOUTS / "phone.toml"
    texts = Fields(load_toml(path, only=frozenset({"texts"})), str(path), english=True)
    key = "why_" + e.code.replace(".", "_")
    if key not in texts.sub("texts").table:
        return e.message
    try:
        return texts.sub("texts").text(key, lang).format(**e.params)
    except (KeyError, IndexError):  # a text naming a param this refusal lacks
        return e.message


def as_json(s: rules.Standings) -> dict:
    return {"game": "coverta", "players": s.players, "rounds": s.rounds, "totals": s.totals,
            "winners": s.winners}


def report(s: rules.Standings, lang: str = "en") -> str:
    say = _say(lang)
    width = max(len(p) for p in s.players) + 2
    rounds = [say("round", n=i) for i in range(1, len(s.rounds) + 1)]
    total = say("total")
    label = max(9, *(len(x) + 1 for x in [*rounds, total]))
    out = [say("title"), "", "".ljust(label) + "".join(p.rjust(width) for p in s.players)]
    for name, r in zip(rounds, s.rounds):
        out.append(name.ljust(label) + "".join(str(r[p]).rjust(width) for p in s.players))
    out.append(total.ljust(label) + "".join(str(s.totals[p]).rjust(width) for p in s.players))
    if s.rounds:
        lead = listing(s.winners, say("and"))
        out += ["", say("winner" if len(s.winners) == 1 else "winners", names=lead)]
    return "\n".join(out)


def faults_json(faults: list[Fault]) -> dict:
    return {"game": "coverta", "faults": [f._asdict() for f in faults]}


def faults_report(faults: list[Fault], lang: str = "en", data_path: Path | None = None) -> str:
    """Each fault in a sentence. In English the rule and values as a row file writes them
    (keep:parity, odd); in another language as the game file prints them ([features],
    [texts] keep/alternate, [values])."""
    say = _say(lang)
    if not faults:
        return say("no_fault")
    named = _printed_names(lang, data_path)
    return "\n".join(say("fault", card=f.card, row=escape(f.row), rule=named.rule(f.rule),
                         value=named.value(f.rule, f.value), against=f.against,
                         before=named.value(f.rule, f.before)) for f in faults)


class _Names:
    """A rule (MODE:FEATURE) and a feature's value as printed in a language: the game
    file's [features], [texts] keep/alternate and [values]; None: as a row file writes
    them."""

    def __init__(self, game: Fields | None, lang: str):
        self.game, self.lang = game, lang

    def rule(self, rule: str) -> str:
        if self.game is None:
            return rule
        mode, _, feature = rule.partition(":")
        return _say(self.lang)("rule", feature=self.game.sub("features").text(feature, self.lang),
                               mode=self.game.sub("texts").text(mode, self.lang).lower())

    def value(self, rule: str, value: str) -> str:
        if self.game is None:
            return value
        feature = rule.partition(":")[2]
        key = f"bg_{value}" if feature == "background" else value
        values = self.game.sub("values")
        return values.text(key, self.lang) if key in values.table else value


def _printed_names(lang: str, data_path: Path | None) -> _Names:
    if lang == "en":
        return _Names(None, lang)
    path = Path(data_path) if data_path else paths.LAYOUTS / "coverta.toml"
    return _Names(Fields(load_toml(path, only=frozenset({"features", "texts", "values"})),
                         str(path)), lang)


# ---- entry at the terminal -----------------------------------------------------------

def ask_players(prompt, echo, lang: str = "en") -> list[str]:
    say, ask = _say(lang), entry.asking(prompt, lang)
    while True:
        names = [n.strip() for n in ask(say("players_prompt"), "").split(",") if n.strip()]
        try:
            return rules.check_players(names)
        except ScoreError as e:
            echo("  " + say("players_again", why=why(e, lang) if names else say("no_names")))


def ask_count(prompt, echo, player: str, lang: str = "en") -> int:
    say, ask = _say(lang), entry.asking(prompt, lang)
    while True:
        line = ask(say("count_prompt", player=player), "").strip()
        if COUNT.fullmatch(line) and int(line) <= rules.MAX_HAND:
            return int(line)
        echo("  " + say("count_again", most=rules.MAX_HAND))


def ask_round(prompt, echo, players: list[str], lang: str = "en") -> dict:
    """One round at the terminal; re-asks a bad line (a bad round as a whole: all of it)."""
    say, ask = _say(lang), entry.asking(prompt, lang)
    while True:
        hands = {p: ask_count(prompt, echo, p, lang) for p in players}
        try:
            rules.check_round(players, {"hands": hands}, "round")
            break
        except ScoreError as e:
            echo("  " + say("round_again", why=why(e, lang)))
    while True:
        line = ask(say("steal_prompt"), "").strip()
        if not line:
            return {"hands": hands}
        match = [p for p in players if p.lower() == line.lower()]
        if match:
            return {"hands": hands, "first_steal": match[0]}
        echo("  " + say("one_of", names=", ".join(players)))
