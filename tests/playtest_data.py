"""A generated history.csv with planted biases (issue 34): 240 plays of 4 players, seat 1
winning 108 of them (45%), the faction "reef" winning 60 of the 120 plays of version
0.3 and 30 of the 120 of version 0.4 (its fix), the other seats and factions sharing
the rest evenly. Rows of another game and quoted cells (as the table writes them) are
mixed in; a spreadsheet's reader must skip and unquote them."""

import csv
import io
import random

FACTIONS = ("reef", "kelp", "dune", "moor")
CATEGORIES = ("creatures", "pairs")
HEADER = ["id", "date", "game", "player", "score", "won", "guilds", "governor",
          "version", "seat", "faction", "minutes", *(f"score:{c}" for c in CATEGORIES)]


def history(plays: int = 240, game: str = "tidepool", seed: int = 34) -> str:
    """The CSV text. With 240 plays the counts are exact: seat 1 wins 108, seats 2-4 44
    each; reef wins 60 in 0.3 and 30 in 0.4 (and sits at each seat at random)."""
    rnd = random.Random(seed)
    half = plays // 2
    first = round(plays * 0.45)
    rest = plays - first
    winners = [1] * first + [2 + i % 3 for i in range(rest)]
    rnd.shuffle(winners)
    reef_wins = set(rnd.sample(range(half), half // 2)) | set(
        half + i for i in rnd.sample(range(plays - half), (plays - half) // 4))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(HEADER)
    for k in range(plays):
        pid = 2 * k + 1
        version = "0.3" if k < half else "0.4"
        win = winners[k]
        others = [s for s in (1, 2, 3, 4) if s != win]
        if k in reef_wins:
            reef_at = win
        else:
            reef_at = rnd.choice(others)
        rest_factions = list(FACTIONS[1:])
        rnd.shuffle(rest_factions)
        faction = {reef_at: "reef"}
        for s in (1, 2, 3, 4):
            if s != reef_at:
                faction[s] = rest_factions.pop()
        minutes = rnd.randint(35, 80) + (10 if version == "0.3" else 0)
        totals = {}
        for s in (1, 2, 3, 4):
            c = rnd.randint(4, 20)
            p = rnd.randint(0, 5)
            totals[s] = (c, p)
        best = max(c + p for c, p in totals.values())
        lead = rnd.randint(1, 8)
        c, p = totals[win]
        totals[win] = (best - p + lead, p)
        for s in (1, 2, 3, 4):
            name = "=Eve" if s == 2 and k % 7 == 0 else f"P{s}"
            c, p = totals[s]
            w.writerow([pid, f"2026-11-{1 + k % 28:02d}T20:00:00Z", game,
                        "'" + name if name[0] == "=" else name, c + p, int(s == win), "", "",
                        version, s, faction[s], minutes, c, p])
        if k % 10 == 0:  # another game at the same table: skipped
            for s in (1, 2, 3):
                w.writerow([pid + 1, "2026-11-01T22:00:00Z", "coverta", f"P{s}", 10 * s,
                            int(s == 3), "", "", "", s, "", 20, "", ""])
    return out.getvalue()
