"""Coverta at the command line: the deck from layouts/, the ledger file (read, rewritten
atomically), round entry, and words for scorers.coverta's results."""

import json
from pathlib import Path

from companion import paths
from companion.data import load_toml
from companion.errors import CompanionError
from scorers import coverta as rules


def deck(data_path: Path | None = None) -> list[dict]:
    path = Path(data_path) if data_path else paths.LAYOUTS / "coverta.toml"
    cards = load_toml(path).get("cards")
    if not isinstance(cards, list):
        raise CompanionError("missing: the deck's cards = [...]", source=str(path), field="cards")
    try:
        rules.check_deck(cards)
    except rules.ScoreError as e:
        raise CompanionError(e.message, source=str(path), field=e.field) from None
    return cards


def to_toml(ledger: dict) -> str:
    """The ledger format. json.dumps gives valid TOML basic strings."""
    out = [f"players = [{', '.join(json.dumps(p) for p in ledger['players'])}]"]
    for r in ledger.get("rounds", []):
        hands = ", ".join(f"{json.dumps(p)} = {n}" for p, n in r["hands"].items())
        out += ["", "[[rounds]]", f"hands = {{ {hands} }}"]
        if r.get("first_steal"):
            out.append(f"first_steal = {json.dumps(r['first_steal'])}")
    return "\n".join(out) + "\n"


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
        lead = " and ".join(s.winners)
        out += ["", f"{'Winner' if len(s.winners) == 1 else 'Shared lead'}: {lead}"]
    return "\n".join(out)


def ask_round(prompt, echo, players: list[str]) -> dict:
    """One round at the terminal; re-asks a bad line."""
    hands = {}
    for p in players:
        while True:
            line = prompt(f"{p}: cards left in hand", "").strip()
            if line.isdigit():
                hands[p] = int(line)
                break
            echo("  a whole number, 0 or more")
    while True:
        line = prompt("First to play correctly in another's place this round (Enter: nobody)",
                      "").strip()
        if not line:
            return {"hands": hands}
        match = [p for p in players if p.lower() == line.lower()]
        if match:
            return {"hands": hands, "first_steal": match[0]}
        echo(f"  one of: {', '.join(players)}")


def ask_players(prompt, echo) -> list[str]:
    while True:
        names = [n.strip() for n in prompt("Players, in table order (comma-separated)", "")
                 .split(",") if n.strip()]
        if 2 <= len(names) <= 5 and len(set(names)) == len(names):
            return names
        echo("  2 to 5 different names, e.g. Ana, Bo, Cy")


def faults_json(faults: list[rules.Fault]) -> dict:
    return {"game": "coverta", "faults": [f.__dict__ for f in faults]}


def faults_report(faults: list[rules.Fault]) -> str:
    if not faults:
        return "Every checked card keeps its row's rules."
    return "\n".join(f"{f.card} in {f.row}'s row breaks {f.rule}: it is {f.value}, and "
                     f"{f.against} laid just before it is {f.before}" for f in faults)
