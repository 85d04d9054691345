"""docs/scoring-reference.md, written from the scoring rules themselves
(companion/rules/scoring.py: its kinds, the keys each reads and what each key says), so the
reference cannot drift from what the engine reads. `python -m companion.score.reference`
rewrites it; a test fails when the file and the rules disagree."""

import sys
from pathlib import Path

from companion.rules import scoring

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


def text() -> str:
    out = ["# Scoring reference", "",
           "How a game file's `[[scoring]]` tables and `[game]` keys score a game "
           "(`companion score GAMEFILE SCORES`). Written from `companion/rules/scoring.py` "
           "by `python -m companion.score.reference`: do not edit by hand.", "",
           "```toml", EXAMPLE, "```", "",
           "## `[game]`", ""]
    out += [f"- `{key}`: {words}" for key, words in scoring.GAME_HELP.items()]
    out += [f"- `{key}`: {words}" for key, words in scoring.PAD_HELP.items()]
    out += ["", "## Every `[[scoring]]` table", ""]
    out += [f"- `{key}`: {scoring.KEY_HELP[key]}" for key in scoring.COMMON]
    for kind, what in scoring.SCORES.items():
        out += ["", f"## `score = \"{kind}\"`", "", what[0].upper() + what[1:] + "."]
        keys = scoring.KEYS[kind]
        if keys:
            out += [""] + [f"- `{key}`: {scoring.KEY_HELP[key]}" for key in keys]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    TARGET.write_text(text(), encoding="utf-8")
    sys.exit(0)
