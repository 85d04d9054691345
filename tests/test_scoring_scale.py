"""A designer's game scored in time that grows with its players, not their square
(issue 43): a majority's places and the final places come from one sort (counted
comparisons: twice the players, about twice the work), the same points as the
definition worked out player by player; and what `companion score` accepts is bounded:
over 100 players or 100 categories is one line, exit 2."""

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import scoring
from companion.rules.errors import ScoreError
from tests.test_playtest import ROOT, game  # noqa: F401  (the Tidepool fixture)


class Counted(int):
    """An int that counts the comparisons made on it."""
    made = 0

    def _count(op):
        def compare(self, other):
            Counted.made += 1
            return getattr(int, op)(self, other)
        return compare

    __lt__, __le__, __gt__, __ge__, __eq__ = map(_count, ("__lt__", "__le__", "__gt__",
                                                          "__ge__", "__eq__"))
    __hash__ = int.__hash__


def by_definition(figures, award, ties="share"):
    """A majority worked out player by player as the module's note says it."""
    out = []
    for f in figures:
        tied = sum(1 for g in figures if g == f)
        if f <= 0:
            out.append((0, 0, tied))
            continue
        place = 1 + sum(1 for g in figures if g > f)
        places = [award[p - 1] if p <= len(award) else 0 for p in range(place, place + tied)]
        points = places[0] if tied == 1 or ties == "full" else \
            sum(places) // tied if ties == "share" else 0
        out.append((points, place, tied))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-2, 12), min_size=1, max_size=40),
       st.lists(st.integers(-5, 20), min_size=1, max_size=6),
       st.sampled_from(scoring.TIES))
def test_a_majority_gives_what_its_definition_gives(figures, award, ties):
    assert scoring.majority(figures, tuple(award), ties) == by_definition(figures, tuple(award),
                                                                        ties)


GAME = [{"id": "gems", "score": "majority", "award": [6, 3, 1]},
        {"id": "red", "score": "most", "most": 3, "others": 1},
        {"id": "gold", "score": "points"}]


def comparisons(n: int, monkeypatch) -> int:
    monkeypatch.setattr(scoring, "MOST_PLAYERS", 10 ** 6, raising=False)
    rules = scoring.rules(GAME, tiebreak=["gems"])
    rnd = random.Random(n)
    players = [{"name": f"P{i}", "gems": rnd.randint(0, 4 * n), "red": rnd.randint(0, 4 * n),
                "gold": rnd.randint(0, 4 * n)} for i in range(n)]
    rows = [{k: Counted(v) if k != "name" else v for k, v in p.items()} for p in players]
    monkeypatch.setattr(scoring, "entries", lambda raw, rules, *_, **__: raw)
    Counted.made = 0
    scoring.score(rules, rows)
    return Counted.made


def test_twice_the_players_cost_about_twice_the_comparisons(monkeypatch):
    # Before (issue 43): every player's place counted against every other's, 4 times the
    # comparisons for twice the players (1,000: 1 s of CPU; 2,000: 3.7 s).
    one, two = comparisons(1000, monkeypatch), comparisons(2000, monkeypatch)
    assert two / one < 2.4, (one, two)
    assert one < 60 * 1000  # a few sorts' worth, not a thousand per player


def test_over_100_players_or_categories_are_refused_by_the_rules():
    rules = scoring.rules(GAME)
    with pytest.raises(ScoreError) as e:
        scoring.score(rules, [{"name": f"P{i}"} for i in range(101)])
    assert (e.value.field, e.value.message) == ("players", "101 players: a game has at most 100")
    assert len(scoring.score(rules, [{"name": f"P{i}", "gems": i} for i in range(100)]).players) \
        == 100
    with pytest.raises(ScoreError) as e:
        scoring.rules([{"id": f"c{i}"} for i in range(101)])
    assert e.value.message == "101 score categories: a game has at most 100"


def test_a_scores_file_of_10000_players_is_one_line_and_exit_2(game, tmp_path):  # noqa: F811
    scores = tmp_path / "scores.toml"
    scores.write_text("".join(f'[[players]]\nname = "P{i}"\ncreatures = {i % 7}\n'
                              for i in range(10_000)), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "companion", "score", str(game), str(scores)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [f"companion: {scores}: players: 10,000 players: a game "
                                     "has at most 100"]
