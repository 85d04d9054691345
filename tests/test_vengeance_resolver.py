"""companion/rules/vengeance.py and `companion vengeance resolve` (RULINGS G3)."""

import json

import pytest
from hypothesis import given, strategies as st

from companion.rules.errors import ScoreError
from companion.rules.vengeance import MOST, TYPES, resolve


def test_rulebook_example_herb_wins_after_artifacts_12_and_4():
    r = resolve({"herb": 1, "mineral": 1, "potion": 2}, [(4, "mineral"), (12, "potion")])
    assert [(s.number, s.type, s.removed) for s in r.order] == [(12, "potion", 2), (4, "mineral", 1)]
    assert r.counts == {"herb": 1, "mineral": 0, "potion": 0}
    assert r.removed == {"herb": 0, "mineral": 1, "potion": 2}
    assert r.winner == "herb"


def test_two_herb_against_two_mineral_gives_mineral():
    assert resolve({"herb": 2, "mineral": 2}).winner == "mineral"


def test_equal_potion_and_mineral_gives_potion():
    assert resolve({"mineral": 3, "potion": 3, "herb": 3}).winner == "potion"
    assert resolve({"mineral": 1, "potion": 1}).winner == "potion"


def test_the_most_numerous_type_wins_without_a_tie():
    assert resolve({"herb": 3, "mineral": 2, "potion": 1}).winner == "herb"


def test_artifacts_act_from_the_highest_number_down_whatever_order_they_are_given():
    r = resolve({"herb": 2, "mineral": 1, "potion": 1},
                [(2, "herb"), (13, "potion"), (7, "mineral")])
    assert [s.number for s in r.order] == [13, 7, 2]


def test_incantations_act_first_highest_first_then_artifacts():
    r = resolve({"herb": 1}, [(5, "herb")], [3, 11])
    assert [(s.kind, s.number) for s in r.order] == [
        ("incantation", 11), ("incantation", 3), ("artifact", 5)]


def test_an_artifact_with_nothing_left_to_remove_is_discarded():
    r = resolve({"potion": 2}, [(9, "potion"), (3, "herb")])
    assert r.order[0].removed == 2 and not r.order[0].discarded
    assert r.order[1].discarded and r.order[1].removed == 0
    assert r.winner is None


def test_everything_removed_means_no_winner_and_another_turn():
    r = resolve({"herb": 1, "mineral": 1}, [(8, "herb"), (6, "mineral")])
    assert r.counts == {"herb": 0, "mineral": 0, "potion": 0} and r.winner is None


def test_an_empty_centre_has_no_winner():
    assert resolve({}).winner is None


@pytest.mark.parametrize("counts,artifacts,incantations,field", [
    ({"gold": 1}, [], [], "gold"),
    ({"herb": -1}, [], [], "herb"),
    ({"herb": 1}, [(3, "herb"), (3, "potion")], [], "artifact"),
    ({"herb": 1}, [(14, "herb")], [], "artifact"),
    ({"herb": 1}, [(0, "herb")], [], "artifact"),
    ({"herb": 1}, [(2, "stone")], [], "artifact"),
    ({"herb": 1}, [], [7, 7], "incantation"),
])
def test_bad_input_names_the_field(counts, artifacts, incantations, field):
    with pytest.raises(ScoreError) as e:
        resolve(counts, artifacts, incantations)
    assert e.value.field == field


@given(st.fixed_dictionaries({t: st.integers(0, MOST[t]) for t in TYPES}),
       st.lists(st.tuples(st.integers(1, 13), st.sampled_from(TYPES)), max_size=6,
                unique_by=lambda a: a[0]))
def test_the_winner_is_always_a_most_numerous_type_left(counts, artifacts):
    r = resolve(counts, artifacts)
    assert all(r.counts[t] == 0 for _, t in artifacts)
    assert sum(r.removed.values()) + sum(r.counts.values()) == sum(counts.values())
    if r.winner:
        assert r.counts[r.winner] == max(r.counts.values()) > 0
    else:
        assert sum(r.counts.values()) == 0


def test_cli_json_has_the_agreed_keys_and_the_rulebook_answer(cli):
    r = cli("vengeance", "resolve", "--herb", "1", "--mineral", "1", "--potion", "2",
            "--artifact", "12:potion", "--artifact", "4:mineral", "--json")
    assert r.code == 0
    got = json.loads(r.out)
    assert set(got) == {"order", "removed", "counts", "winner"} and got["winner"] == "herb"
    assert [s["number"] for s in got["order"]] == [12, 4]


def test_cli_says_when_nothing_is_left(cli):
    r = cli("vengeance", "resolve", "--potion", "1", "--artifact", "5:potion")
    assert r.code == 0 and "another turn" in r.out


@pytest.mark.parametrize("args", [
    ["--herb", "-1"], ["--artifact", "14:herb"], ["--artifact", "3:herb", "--artifact", "3:potion"],
    ["--artifact", "3:gold"], ["--incantation", "0"], ["--artifact", "potion"], ["--herb", "x"],
])
def test_cli_bad_input_exits_2_with_one_line(cli, args):
    r = cli("vengeance", "resolve", *args)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


@pytest.mark.parametrize("text,read", [("12:potion", (12, "potion")),
                                       (" 4 : Mineral ", (4, "mineral"))])
def test_an_artifact_is_read_as_written_at_the_table(text, read):
    from companion.rules.vengeance import artifact

    assert artifact(text) == read


@pytest.mark.parametrize("text", ["12:", "abc", "1234:herb", ":potion", "12 potion"])
def test_an_artifact_not_written_number_colon_type_is_refused_with_its_code(text):
    from companion.rules.errors import ScoreError
    from companion.rules.vengeance import artifact

    with pytest.raises(ScoreError) as e:
        artifact(text)
    assert e.value.field == "artifact" and e.value.code == "vengeance.not_an_artifact"
    assert "is not NUMBER:TYPE" in e.value.message
