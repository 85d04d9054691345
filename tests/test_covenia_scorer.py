"""companion/rules/covenia.py: the rulebook's example and RULINGS C3-C8, one test each."""

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.rules.covenia import CLANS, parse
from companion.score.covenia import ROWS, score  # covenia.toml's [[scoring]], as the CLI scores
from companion.rules.errors import ScoreError

RULEBOOK = tomllib.loads((Path(__file__).parent / "data" / "covenia-rulebook.toml").read_text())


def player(name, hand=None, **area):
    return {"name": name, "area": area, "hand": hand or {}}


def points(result, name):
    return next(p for p in result.players if p.name == name)


def test_rulebook_example_gives_emma_62_line_by_line():
    emma = points(score(RULEBOOK), "Emma")
    got = {row: emma.points[row] for row in ROWS}
    assert got == {"red": 21, "yellow": 10, "green": 3, "blue": 9, "purple": 9, "bonus": 10}
    assert emma.total == 62 and emma.rank == 1
    # The reasons are the scoring language's: each row's kind and its numbers.
    reasons = {row: emma.reasons[row][0] for row in ROWS}
    assert reasons["red"] == ("most", {"n": 3, "each": 7, "with": [], "top": 3,
                                       "points": 21})
    assert reasons["yellow"] == ("times", {"n": 2, "by": 5, "times": "hand", "points": 10})
    assert reasons["green"] == ("times", {"n": 1, "by": 3, "times": "hand_size", "points": 3})
    assert reasons["blue"].key == "sum" and reasons["blue"].numbers["values"] == [4, 5]
    assert reasons["purple"].key == "squared" and reasons["purple"].numbers["n"] == 3
    bonus = reasons["bonus"]
    assert bonus.key == "sets" and bonus.numbers["n"] == 1
    assert [k for k, v in bonus.numbers["of"].items() if v == 1] == ["green"]


def test_a_second_green_card_would_have_given_emma_ten_more():
    table = {**RULEBOOK, "players": [dict(RULEBOOK["players"][0]), RULEBOOK["players"][1]]}
    table["players"][0]["area"] = {**table["players"][0]["area"], "green": [3, 6]}
    emma = points(score(table), "Emma")
    assert emma.points["bonus"] == 20  # (and green itself: 2 x 3 = 6)


def test_red_tie_gives_every_leader_seven_per_card():
    r = score({"players": [player("A", red=[1, 2]), player("B", red=[3, 4]),
                           player("C", red=[5])], "decks": "AB"})
    assert [p.points["red"] for p in r.players] == [14, 14, 4]
    assert r.players[0].reasons["red"][0].numbers["with"] == ["B"]  # tied for the most
    assert r.players[2].reasons["red"][0].key == "others"


def test_nobody_with_red_means_zero_red_for_everyone():
    r = score({"players": [player("A", blue=[2]), player("B", green=[3])]})
    assert [p.points["red"] for p in r.players] == [0, 0]


def test_yellow_with_an_empty_hand_scores_zero():
    r = score({"players": [player("A", yellow=[2, 5, 9]), player("B", hand={"red": [1]})]})
    a = points(r, "A")
    assert a.points["yellow"] == 0 and a.reasons["yellow"][0].numbers["by"] == 0


def test_yellow_uses_the_lowest_hand_card_of_any_clan():
    r = score({"players": [player("A", {"blue": [8], "red": [3]}, yellow=[2, 5]), player("B")]})
    assert points(r, "A").points["yellow"] == 6


def test_green_with_an_empty_hand_scores_zero():
    r = score({"players": [player("A", green=[1, 2, 3]), player("B")]})
    assert points(r, "A").points["green"] == 0


def test_purple_is_squared_and_blue_is_the_sum():
    r = score({"players": [player("A", purple=[1, 2, 3, 4], blue=[2, 9]), player("B")]})
    a = points(r, "A")
    assert (a.points["purple"], a.points["blue"]) == (16, 11)


def test_bonus_is_limited_by_the_shortest_column():
    area = {"red": [1, 2, 3], "yellow": [1, 2], "green": [1, 2, 3, 4], "blue": [7, 8],
            "purple": [5, 6, 9]}
    r = score({"players": [player("A", **area), player("B")]})
    assert points(r, "A").points["bonus"] == 20
    of = points(r, "A").reasons["bonus"][0].numbers["of"]
    assert [k for k, v in of.items() if v == 2] == ["yellow", "blue_cards"]


def test_a_missing_clan_means_no_bonus_at_all():
    r = score({"players": [player("A", red=[1], yellow=[1], green=[1], blue=[1]), player("B")]})
    assert points(r, "A").points["bonus"] == 0


def test_tied_totals_share_the_win_and_the_rank():
    r = score({"players": [player("A", blue=[9]), player("B", blue=[9]), player("C", blue=[3])],
               "decks": "AB"})
    assert r.winners == ["A", "B"]
    assert [p.rank for p in r.players] == [1, 1, 3]


def test_french_clan_names_are_read_as_the_english_ones():
    r = score({"players": [player("A", {"jaune": [4]}, rouge=[1, 2], violet=[3]), player("B")]})
    a = points(r, "A")
    assert (a.points["red"], a.points["purple"]) == (14, 1)


def test_decks_default_to_one_for_two_players_and_both_for_more():
    assert score({"players": [player("A"), player("B")]}).decks == "A"
    assert score({"players": [player("A"), player("B"), player("C")]}).decks == "AB"


@pytest.mark.parametrize("count, decks", [(2, "AB"), (2, "ab"), (3, "A"), (4, "B")])
def test_decks_that_do_not_suit_the_players_are_refused(count, decks):
    """Two players take one deck, A or B; three or four shuffle both (rulebook set-up, C1)."""
    with pytest.raises(ScoreError) as e:
        score({"players": [player(x) for x in "ABCD"[:count]], "decks": decks})
    assert (e.value.field, e.value.code) == ("decks", "covenia.decks_for_players")
    assert e.value.params["n"] == count


def test_a_phone_table_of_four_scores_its_first_two_entries_with_both_decks():
    """Both decks suit four players seated, while two have entered; two seated do not."""
    two = [player("A"), player("B")]
    assert parse({"players": two, "decks": "AB"}, seated=4)[1] == "AB"
    with pytest.raises(ScoreError):
        parse({"players": two, "decks": "AB"}, seated=2)
    with pytest.raises(ScoreError):  # three entered with one deck: seated or not
        parse({"players": two + [player("C")], "decks": "A"}, seated=2)


def test_two_players_may_choose_either_deck_and_four_both():
    assert score({"players": [player("A"), player("B")], "decks": "B"}).decks == "B"
    assert score({"players": [player(x) for x in "ABCD"], "decks": "ab"}).decks == "AB"


@pytest.mark.parametrize("table,field", [
    ({"players": [player("A")]}, "players"),
    ({"players": [player(x) for x in "ABCDE"]}, "players"),
    ({"players": [player("A", red=[0]), player("B")]}, 'players[0] "A".area.red'),
    ({"players": [player("A", red=[11]), player("B")]}, 'players[0] "A".area.red'),
    ({"players": [player("A", red=[4, 2]), player("B")]}, 'players[0] "A".area.red'),
    ({"players": [player("A", red=[4, 4]), player("B"), player("C")], "decks": "AB"},
     'players[0] "A".area.red'),
    ({"players": [player("A", orange=[1]), player("B")]}, 'players[0] "A".area.orange'),
    ({"players": [player("A", red=[5]), player("B", {"red": [5]})]}, 'players[1] "B".hand.red'),
    ({"players": [player("A", red=[5]), player("B", red=[5]), player("C", {"red": [5]})],
      "decks": "AB"}, 'players[2] "C".hand.red'),
    ({"players": [player("A"), player("A")]}, 'players[1] "A".name'),
    ({"players": [player("A"), player("B")], "decks": "C"}, "decks"),
    ({"players": [player("A", red=["5"]), player("B")]}, 'players[0] "A".area.red'),
    ({"players": [player("A", red=[True]), player("B")]}, 'players[0] "A".area.red'),
    ({"players": [{"area": {}}, player("B")]}, "players[0].name"),
])
def test_bad_input_names_the_player_and_field(table, field):
    with pytest.raises(ScoreError) as e:
        score(table)
    assert e.value.field == field


@st.composite
def end_states(draw):
    n = draw(st.integers(2, 4))
    decks = "A" if n == 2 else "AB"
    pool = [(c, v) for c in CLANS for v in range(1, 11)] * (1 if n == 2 else 2)
    pool = draw(st.permutations(pool))
    players, at = [], 0
    for i in range(n):
        k, h = draw(st.integers(0, 15)), draw(st.integers(0, 6))
        area, hand = {}, {}
        for clan, v in pool[at:at + k]:
            column = area.setdefault(clan, [])
            (hand.setdefault(clan, []) if v in column else column).append(v)
        for clan, v in pool[at + k:at + k + h]:
            hand.setdefault(clan, []).append(v)
        at += k + h
        players.append({"name": f"P{i}", "area": {c: sorted(vs) for c, vs in area.items()},
                        "hand": hand})
    return {"decks": decks, "players": players}


@settings(max_examples=300, deadline=None)
@given(end_states())
def test_any_legal_end_state_scores_and_the_total_is_the_sum_of_its_parts(table):
    r = score(table)
    for p in r.players:
        assert p.total == sum(p.points[row] for row in ROWS)
        assert all(p.points[row] >= 0 for row in ROWS)
        assert p.rank == 1 + sum(q.total > p.total for q in r.players)
    assert r.winners == [p.name for p in r.players if p.rank == 1]
