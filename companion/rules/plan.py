"""A rotation plan for playtests (issue 53): who sits where, with which faction, game by
game, so that each player sits each seat, and plays each faction, as evenly as the games
allow, and no seat stays tied to one faction. Plain data in and out.

Seats: a cyclic Latin square: in game g (from 0), player i (in the order given, n
players) sits seat (i + g) mod n + 1, so over n games each player sits each seat once.
Factions: player i plays faction (i + c) mod F of the F factions (all different at one
table), the shift c chosen game by game (greedily, the smallest on a tie): first the one
that keeps each player's count of each faction most even (the sum of squares of the
counts), then each seat's count of each faction. Over F games each player then plays
each faction once (3 players, 4 factions, 12 games: each faction 3 times, each seat
meeting each faction 3 times)."""


def plan(players: list[str], games: int, factions: list[str] | None = None) -> list[list[dict]]:
    """The games, each a list of {seat, player, faction} in seat order (faction None
    without factions)."""
    n, f = len(players), len(factions or [])
    played: dict = {}  # (player i, faction k) -> games
    met: dict = {}  # (seat, faction k) -> games
    out = []
    for g in range(games):
        seats = [(i + g) % n for i in range(n)]
        shift = 0
        if f:
            def cost(c: int, g=g, seats=seats) -> tuple:
                return (sum(2 * played.get((i, (i + c) % f), 0) for i in range(n)),
                        sum(2 * met.get((seats[i], (i + c) % f), 0) for i in range(n)), c)
            shift = min(range(f), key=cost)
            for i in range(n):
                k = (i + shift) % f
                played[(i, k)] = played.get((i, k), 0) + 1
                met[(seats[i], k)] = met.get((seats[i], k), 0) + 1
        table = [{"seat": seats[i] + 1, "player": name,
                  "faction": factions[(i + shift) % f] if f else None}
                 for i, name in enumerate(players)]
        out.append(sorted(table, key=lambda x: x["seat"]))
    return out
