"""Issue 33's gemfall: `companion new gemfall DIR`, its starter [[scoring]] replaced by
creatures (points), pairs (each) and gems (a majority, 6 / 3, ties shared), with
`rounds = 2` and `tiebreak = ["gems"]` under [game]; and the issue's scores (Ana, Ben and
Cy: 18, 18, 15, Ana winning on gems). Also a richer game file with every kind the scoring
language has, for the phone sheet's tests."""

import contextlib
import io
from pathlib import Path

from companion.cli import main

SCORING = '''[[scoring]]
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
ties = "share"

'''

PLAYERS = [
    {"name": "Ana", "creatures": [5, 4], "pairs": [1, 0], "gems": [3, 2]},
    {"name": "Ben", "creatures": [4, 9], "pairs": [0, 1], "gems": [3, 1]},
    {"name": "Cy", "creatures": [6, 3], "pairs": [1, 1], "gems": [1, 2]},
]

# Every kind, two rounds: values written as lists (sum, lowest), counts for the others,
# worked-out ones (sets, highest of), one that only feeds another (total = false).
RICH = '''[game]
id = "richfall"
name = "Richfall"
credits = "us"
rounds = 2
tiebreak = ["gems", "cards"]

[[scoring]]
id = "cards"
name = { en = "Cards", fr = "Cartes" }
score = "sum"

[[scoring]]
id = "low"
name = { en = "Low card", fr = "Carte basse" }
score = "lowest"
points = 2

[[scoring]]
id = "red"
name = { en = "Red", fr = "Rouge" }
score = "table"
table = [0, 1, 3, 6, 10]

[[scoring]]
id = "blue"
name = { en = "Blue", fr = "Bleu" }
score = "squared"

[[scoring]]
id = "sets"
name = { en = "Sets", fr = "Séries" }
score = "sets"
of = ["red", "blue"]
points = 5

[[scoring]]
id = "best"
name = { en = "Best colour", fr = "Meilleure couleur" }
score = "highest"
of = ["red", "blue"]

[[scoring]]
id = "coins"
name = { en = "Coins", fr = "Pièces" }
score = "most"
most = 3
others = 1

[[scoring]]
id = "mult"
name = { en = "Multiplier", fr = "Multiplicateur" }
score = "points"
total = false

[[scoring]]
id = "shells"
name = { en = "Shells", fr = "Coquillages" }
score = "each"
times = "mult"

[[scoring]]
id = "gems"
name = { en = "Gems", fr = "Gemmes" }
score = "majority"
award = [5, 2, 1]
ties = "full"
'''


def make(folder: Path) -> Path:
    """The issue's gemfall game file, made as a designer makes it."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        with contextlib.suppress(SystemExit):
            main(["new", "gemfall", str(folder / "gemfall")])
    path = folder / "gemfall" / "gemfall.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[[scoring]]")
    end = text.index("\n[", text.rindex("[[scoring]]") + 1)  # the table after the last
    text = text[:start] + SCORING + text[end + 1:]
    head = text.index("[game]\n") + len("[game]\n")
    text = text[:head] + "rounds = 2\ntiebreak = [\"gems\"]\n" + text[head:]
    path.write_text(text, encoding="utf-8")
    return path


def scores_toml(players: list[dict]) -> str:
    """A scores file holding `players` as the CLI reads it."""
    import json

    out = []
    for p in players:
        out.append("[[players]]")
        out += [f"{k} = {json.dumps(v)}" for k, v in p.items()]
    return "\n".join(out) + "\n"
