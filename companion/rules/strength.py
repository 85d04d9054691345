"""Player strength (issue 53): does a seat's or a faction's edge hold once the players'
own strength is counted? A Plackett-Luce model over each play's placings, its log-worth
the sum of a term for the player, one for her seat (per player count) and one for her
faction, fitted by Newton's method (maximum likelihood under a normal prior of sd
1 / sqrt(PRIOR) on every term, as the PlackettLuce R package's `normal` prior: it keeps a
player who always wins finite and splits what the plays cannot tell apart evenly,
leaving its interval wide). A seat's (or faction's) adjusted edge is its term minus the
mean of its kind's terms (the seats of its player count, the factions), as odds against
the average one's, with a 95% interval from the fit's covariance (Wald); it holds when
that interval lies on the finding's side of 1.

Choices, stated once:
- Placings: by total (the way the game is won: companion.rules.arc.wins_by), the winners
  first; a play with no totals ranks its winners before the rest (who then tie, and
  only the winners' stage is counted); equal totals keep their order.
- Fitted only when names repeat: MIN_REPEAT players with MIN_REPEAT plays or more. At
  most MAX_PLAYERS players get a term (those with most plays); the others none (0). A
  model of more than MAX_TERMS terms is not fitted (no finding then says it holds or
  not). A Newton step moves no term more than MAX_STEP."""

import math

from companion.rules.arc import wins_by
from companion.rules.stats import Z

PRIOR = 0.05  # the prior's precision on each term (sd about 4.5 on the log-worth)
MIN_REPEAT = 2
MAX_PLAYERS = 60
MAX_TERMS = 150  # players, seats and factions: past this no fit (its cost grows as the cube)
STEPS = 30
MAX_STEP = 4.0  # the most a term moves in one Newton step (a damped step on wild data)


def _placings(play) -> list[list[int]]:
    """The play's rows in order, best first, as stages: a list of the rows still in
    the running at each stage (the first one is the stage's pick)."""
    rows = list(range(len(play.rows)))
    sign = wins_by(play)
    if sign is not None:
        order = sorted(rows, key=lambda i: (not play.rows[i].won,
                                            -sign * play.rows[i].score))
        return [order[k:] for k in range(len(order) - 1)]
    winners = [i for i in rows if play.rows[i].won]
    if len(winners) != 1:
        return []
    return [winners + [i for i in rows if i != winners[0]]]


def _terms(plays) -> dict:
    """The model's terms: ("player", name), ("seat", players, n), ("faction", f)."""
    seen: dict = {}
    for p in plays:
        for r in p.rows:
            if r.player:
                seen[r.player] = seen.get(r.player, 0) + 1
    kept = sorted((n for n, c in seen.items() if c >= MIN_REPEAT),
                  key=lambda n: (-seen[n], n))[:MAX_PLAYERS]
    terms: dict = {("player", n): None for n in kept}
    for p in plays:
        for r in p.rows:
            if r.seat is not None:
                terms[("seat", len(p.rows), r.seat)] = None
            if r.faction is not None:
                terms[("faction", r.faction)] = None
    return {t: i for i, t in enumerate(terms)}


def _row_terms(play, index: dict) -> list[list[int]]:
    out = []
    for r in play.rows:
        t = [("player", r.player), ("seat", len(play.rows), r.seat), ("faction", r.faction)]
        out.append([index[x] for x in t if x in index])
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b (Gaussian elimination, partial pivoting); a is positive definite here."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def _fit(data: list, size: int) -> tuple[list[float], list[list[float]]]:
    """The terms' estimates and the information matrix (minus the log-posterior's
    Hessian) at them."""
    w = [0.0] * size
    for _ in range(STEPS):
        grad = [-PRIOR * v for v in w]
        info = [[PRIOR if i == j else 0.0 for j in range(size)] for i in range(size)]
        for rows, stages in data:
            eta = [sum(w[t] for t in ts) for ts in rows]
            for stage in stages:
                top = max(eta[i] for i in stage)
                e = [math.exp(eta[i] - top) for i in stage]
                total = sum(e)
                pi = [x / total for x in e]
                mean: dict[int, float] = {}
                for i, p in zip(stage, pi):
                    for t in rows[i]:
                        mean[t] = mean.get(t, 0.0) + p
                for t in rows[stage[0]]:
                    grad[t] += 1.0
                for t, v in mean.items():
                    grad[t] -= v
                for i, p in zip(stage, pi):
                    for t in rows[i]:
                        for u in rows[i]:
                            info[t][u] += p
                for t, v in mean.items():
                    for u, y in mean.items():
                        info[t][u] -= v * y
        step = _solve(info, grad)
        big = max((abs(s) for s in step), default=0.0)
        if big > MAX_STEP:
            step = [s * MAX_STEP / big for s in step]
        w = [a + b for a, b in zip(w, step)]
        if max((abs(s) for s in step), default=0.0) < 1e-8:
            break
    return w, info


def fit(plays: list) -> dict | None:
    """The fitted model: {"terms": {term: estimate}, "players": how many got a term,
    and the means to test a contrast}; None when names do not repeat."""
    index = _terms(plays)
    players = sum(1 for t in index if t[0] == "player")
    if players < MIN_REPEAT or len(index) > MAX_TERMS:
        return None
    data = [(_row_terms(p, index), _placings(p)) for p in plays]
    data = [d for d in data if d[1]]
    if not data:
        return None
    w, info = _fit(data, len(index))
    return {"index": index, "w": w, "info": info, "players": players}


def adjusted(model: dict | None, term: tuple, direction: str | None) -> dict | None:
    """A seat's or faction's edge once player strength is counted: `odds` (its chance
    against the average seat's of its player count, or the average faction's), `low`,
    `high` (95%), and `holds` (the interval on `direction`'s side of 1); None when the
    model lacks the term."""
    if model is None or term not in model["index"]:
        return None
    index = model["index"]
    kin = [i for t, i in index.items() if t[0] == term[0] and t[:-1] == term[:-1]]
    if len(kin) < 2:
        return None
    a = [0.0] * len(index)
    for i in kin:
        a[i] -= 1 / len(kin)
    a[index[term]] += 1.0
    c = sum(x * y for x, y in zip(a, model["w"]))
    var = sum(x * y for x, y in zip(a, _solve(model["info"], a)))
    half = Z * math.sqrt(max(var, 0.0))
    low, high = math.exp(c - half), math.exp(c + half)
    holds = low > 1.0 if direction == "more" else high < 1.0 if direction == "less" else False
    return {"odds": math.exp(c), "low": low, "high": high, "holds": holds}


def apart(plays: list, term: tuple) -> bool:
    """Whether the plays can tell `term` (a seat of a player count, a faction) from its
    players: one of the players who had it also played without it (another seat at that
    player count, another faction). False: they always had it, and no fit can tell."""
    def has(play, row) -> bool:
        if term[0] == "seat":
            return len(play.rows) == term[1] and row.seat == term[2]
        return row.faction == term[1]

    def comparable(play, row) -> bool:
        return len(play.rows) == term[1] if term[0] == "seat" else row.faction is not None

    who = {r.player for p in plays for r in p.rows if r.player and has(p, r)}
    return any(r.player in who and comparable(p, r) and not has(p, r)
               for p in plays for r in p.rows)
