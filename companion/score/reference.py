"""docs/scoring-reference.md, written from the scoring rules themselves
(companion/rules/sheet.py: its kinds, the keys each reads and what each key says), so the
reference cannot drift from what the engine reads. `python -m companion.score.reference`
rewrites it; a test fails when the file and the rules disagree."""

import sys
from pathlib import Path

from companion.games import players
from companion.rules import sheet

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "docs" / "scoring-reference.md"

EXAMPLE = '''[game]
rounds = 2
tiebreak = ["gems"]

[[scoring]]
id = "creatures"
name = "Creatures"
score = "points"

[[scoring]]
id = "pairs"
name = "Pairs"
score = "each"
points = 1

[[scoring]]
id = "gems"
name = "Gems"
score = "majority"
award = [6, 3]
ties = "share"'''


# The [game] keys the score pad and the scores file read beyond the scoring language's.
PAD_HELP = {
    "players": "the most players (`players = 4`) or the least and the most (`[2, 4]`), 1 to "
               f"{players.MOST}: the score pad prints a column for each of the most",
    "factions": "the sides players pick (`[\"Otters\", \"Crabs\"]`): a Faction row on the "
                "pad, a choice on each phone, and `faction = \"Otters\"` beside a player's "
                "figures in a scores file",
}


def text() -> str:
    out = ["# Scoring reference", "",
           "How a game file's `[[scoring]]` tables and `[game]` keys score a game "
           "(`companion score GAMEFILE SCORES`). Written from `companion/rules/sheet.py` "
           "by `python -m companion.score.reference`: do not edit by hand.", "",
           "```toml", EXAMPLE, "```", "",
           "## `[game]`", ""]
    out += [f"- `{key}`: {words}" for key, words in sheet.GAME_HELP.items()]
    out += [f"- `{key}`: {words}" for key, words in PAD_HELP.items()]
    out += ["", "## Every `[[scoring]]` table", ""]
    out += [f"- `{key}`: {sheet.KEY_HELP[key]}" for key in sheet.COMMON]
    for kind, what in sheet.SCORES.items():
        out += ["", f"## `score = \"{kind}\"`", "", what[0].upper() + what[1:] + "."]
        keys = sheet.KEYS[kind]
        if keys:
            out += [""] + [f"- `{key}`: {sheet.KEY_HELP[key]}" for key in keys]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    TARGET.write_text(text(), encoding="utf-8")
    sys.exit(0)
