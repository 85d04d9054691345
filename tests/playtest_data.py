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


TIDEWRIGHT = ("otters", "herons", "voles", "newts")


def fixed_history(game: str = "tidepool", seed: int = 43, plays: int = 80) -> str:
    """Version 0.1, where seat 1 wins 31 of 40 3-player games (77%) and 22 of 40
    4-player ones (55%), then 0.2, which fixed it: 15 of 40 (37%) and 10 of 40 (25%).
    Four factions (TIDEWRIGHT) dealt at random; the winner's creatures a little higher."""
    rnd = random.Random(seed)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(HEADER)
    pid = 0
    half = plays // 2
    for version, firsts in (("0.1", {3: 31, 4: 22}), ("0.2", {3: 15, 4: 10})):
        for players in (3, 4):
            n = half
            won = firsts[players] * half // 40
            winners = [1] * won + [2 + i % (players - 1) for i in range(n - won)]
            rnd.shuffle(winners)
            for win in winners:
                pid += 1
                factions = rnd.sample(TIDEWRIGHT, players)
                for s in range(1, players + 1):
                    c, p = rnd.randint(4, 20) + (6 if s == win else 0), rnd.randint(0, 5)
                    w.writerow([pid, "2026-11-01T20:00:00Z", game, f"P{s}", c + p,
                                int(s == win), "", "", version, s, factions[s - 1],
                                rnd.randint(30, 70), c, p])
    return out.getvalue()


def even_plays(seed: int, plays: int = 150, version: str = "0.1") -> list:
    """Even, random plays (issue 43): 3 or 4 players, one winner drawn evenly among the
    seats, four factions (TIDEWRIGHT) dealt at random, two categories drawn alike for
    everyone. Nothing in them is apart from even: every finding is a false alarm."""
    from companion.rules.playtest import Play, Seat

    rnd = random.Random(seed)
    out = []
    for k in range(plays):
        players = rnd.choice((3, 4))
        factions = rnd.sample(TIDEWRIGHT, players)
        win = rnd.randrange(players)
        rows = tuple(Seat(seat=s + 1, faction=factions[s], score=rnd.randint(10, 40),
                          won=s == win, figures={"creatures": rnd.randint(0, 9),
                                                 "pairs": rnd.randint(0, 5)})
                     for s in range(players))
        out.append(Play(str(k + 1), rows, version, rnd.randint(30, 90)))
    return out


PLAYERS = ("Ana", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal")


def planted_plays(seed: int, plays: int = 150, faction: dict | None = None,
                  seat: dict | None = None, counts: tuple = (3, 4), rounds: int = 5,
                  version: str = "0.1", skill: dict | None = None,
                  seating=None, first: str | None = None) -> list:
    """Plays as a table makes them (issue 53): 3 or 4 players (`counts`), four factions
    (TIDEWRIGHT) dealt at random, `rounds` rounds of about 8 points each (sd 5: a total of 40, sd 11) whose
    running totals each row keeps, the winner the highest total (ties shared). Planted:
    `faction` {id: points more a play}, `seat` {n: points more}, `skill` {name: points
    more}; players drawn from PLAYERS, or seated by seating(k, players) -> names in
    seat order; `first` takes seat 1 in every play she is in. With nothing planted,
    every finding is a false alarm."""
    from companion.rules.playtest import Play, Seat

    rnd = random.Random(seed)
    out = []
    for k in range(plays):
        n = rnd.choice(counts)
        factions = rnd.sample(TIDEWRIGHT, n)
        names = seating(k, n) if seating else rnd.sample(PLAYERS, n)
        if first in names:
            names.remove(first)
            names.insert(0, first)
        running = []
        for s in range(n):
            edge = ((faction or {}).get(factions[s], 0) + (seat or {}).get(s + 1, 0)
                    + (skill or {}).get(names[s], 0)) / rounds
            total, kept = 0, []
            for _ in range(rounds):
                total += max(0, round(rnd.gauss(8 + edge, 5)))
                kept.append(total)
            running.append(tuple(kept))
        best = max(r[-1] for r in running)
        rows = tuple(Seat(seat=s + 1, faction=factions[s], score=running[s][-1],
                          won=running[s][-1] == best, rounds=running[s] if rounds > 1 else (),
                          player=names[s])
                     for s in range(n))
        out.append(Play(str(k + 1), rows, version, rnd.randint(30, 90)))
    return out


def as_csv(plays: list, game: str = "tidepool") -> str:
    """Plays as the table's history.csv writes them (round:N columns when they kept
    rounds)."""
    rounds = max((len(r.rounds) for p in plays for r in p.rows), default=0)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["id", "date", "game", "player", "score", "won", "version", "seat", "faction",
                "minutes", *(f"round:{k}" for k in range(1, rounds + 1))])
    for p in plays:
        for r in p.rows:
            w.writerow([p.id, "2026-12-01T20:00:00Z", game, r.player or "", r.score,
                        int(r.won), p.version, r.seat or "", r.faction or "",
                        "" if p.minutes is None else p.minutes,
                        *r.rounds, *([""] * (rounds - len(r.rounds)))])
    return out.getvalue()
