"""Coverta at the command line: the deck from layouts/, round entry at the terminal, and
words for scorers.coverta's results. The ledger file itself is companion/score/ledger.py."""

import re
from pathlib import Path

from companion import paths
from companion.data import load_toml
from companion.errors import CompanionError, escape
from scorers import coverta as rules
from scorers.coverta_rows import Fault
from scorers.errors import ScoreError
from companion.typography import listing

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

def as_json(s: rules.Standings) -> dict:
    return {"game": "coverta", "players": s.players, "rounds": s.rounds, "totals": s.totals,
            "winners": s.winners}


def report(s: rules.Standings) -> str:
    width = max(len(p) for p in s.players) + 2
    out = ["Coverta: points per round (hand - smallest hand, -1 for an emptied hand, "
           "-1 for the first steal); lowest total wins", "",
           "".ljust(9) + "".join(p.rjust(width) for p in s.players)]
    for i, r in enumerate(s.rounds, 1):
        out.append(f"Round {i}".ljust(9) + "".join(str(r[p]).rjust(width) for p in s.players))
    out.append("Total".ljust(9) + "".join(str(s.totals[p]).rjust(width) for p in s.players))
    if s.rounds:
        lead = listing(s.winners, "and")
        out += ["", f"{'Winner' if len(s.winners) == 1 else 'Shared lead'}: {lead}"]
    return "\n".join(out)


def faults_json(faults: list[Fault]) -> dict:
    return {"game": "coverta", "faults": [f._asdict() for f in faults]}


def faults_report(faults: list[Fault]) -> str:
    if not faults:
        return "Every checked card keeps its row's rules."
    return "\n".join(f"{f.card} in {escape(f.row)}'s row breaks {f.rule}: it is {f.value}, "
                     f"and {f.against} laid just before it is {f.before}" for f in faults)


# ---- entry at the terminal -----------------------------------------------------------

def ask_players(prompt, echo) -> list[str]:
    while True:
        names = [n.strip() for n in prompt("Players, in table order (comma-separated)", "")
                 .split(",") if n.strip()]
        try:
            return rules.check_players(names)
        except ScoreError as e:
            echo(f"  {e.message if names else 'no names'}: give 2 to 5 different names, "
                 "e.g. Ana, Bo, Cy")


def ask_count(prompt, echo, player: str) -> int:
    while True:
        line = prompt(f"{player}: cards left in hand", "").strip()
        if COUNT.fullmatch(line) and int(line) <= rules.MAX_HAND:
            return int(line)
        echo(f"  a whole number, 0 to {rules.MAX_HAND}")


def ask_round(prompt, echo, players: list[str]) -> dict:
    """One round at the terminal; re-asks a bad line (a bad round as a whole: all of it)."""
    while True:
        hands = {p: ask_count(prompt, echo, p) for p in players}
        try:
            rules.check_round(players, {"hands": hands}, "round")
            break
        except ScoreError as e:
            echo(f"  {e.message}: type the round again")
    while True:
        line = prompt("First to play correctly in another's place this round (Enter: nobody)",
                      "").strip()
        if not line:
            return {"hands": hands}
        match = [p for p in players if p.lower() == line.lower()]
        if match:
            return {"hands": hands, "first_steal": match[0]}
        echo(f"  one of: {', '.join(players)}")
