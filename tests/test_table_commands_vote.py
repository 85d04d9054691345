"""Lugvanion's vote and Vengeance's resolution: every number a user can type is bounded by
what the rules allow, and a guild full of one colour is a legal vote (issue 11)."""

import json
import time
import tomllib

import pytest

from companion.files import paths
from companion.rules import lugvanion as vote
from companion.rules import vengeance

ZERO = "0" * 64


# ---- a vote of one colour (RULINGS L5) -----------------------------------------------

def test_a_guild_full_of_one_colour_wins_with_certainty(cli):
    r = cli("lugvanion", "odds", "red=8", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["exact"] == {"red": "1"}
    r = cli("lugvanion", "odds", "red=8", "blue=0", "--json")
    assert json.loads(r.out)["exact"] == {"blue": "0", "red": "1"}


def test_a_one_colour_draw_is_drawn_and_verifies(cli):
    r = cli("lugvanion", "draw", "red=8", "--seed", ZERO, "--json")
    assert r.code == 0, r.err
    d = json.loads(r.out)
    assert d["drawn"] == ["red"] * 5 and d["winner"] == "red" and d["redrawn"] == []
    r = cli("lugvanion", "verify", "--seed", ZERO, "--commitment", d["commitment"], "red=8",
            "--drawn", "red,red,red,red,red")
    assert r.code == 0 and r.out.strip() == "verified"


# ---- bounds --------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["draw", "red=1000000000000", "blue=1", "--allow-any-size"],
    ["draw", "red=10000000", "blue=1", "--allow-any-size"],
    ["odds", "red=10000000", "blue=1", "--allow-any-size"],
    ["odds", "red=" + "9" * 5000, "blue=1", "--allow-any-size"],
    ["odds", "red=100", "--allow-any-size"],
    ["odds", "red=50", "blue=50", "--allow-any-size"],
    ["verify", "--seed", ZERO, "--commitment", ZERO, "red=100000", "--drawn", "red",
     "--allow-any-size"],
    ["odds", "red=²", "blue=6"],
    ["odds", "red=9"],
])
def test_a_bag_beyond_the_bounds_is_refused_at_once_in_one_line(cli, args):
    t = time.process_time()  # CPU, not wall clock: a loaded machine does not fail it
    r = cli("lugvanion", *args)
    assert time.process_time() - t < 1  # computing such a bag: minutes to years
    assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err, r.err


def test_the_largest_bag_allowed_is_answered(cli):
    """Its speed is bench_scoring.py's; here, that it is answered at all."""
    r = cli("lugvanion", "draw", "red=33", "blue=33", "green=33", "--allow-any-size", "--json")
    assert r.code == 0
    r = cli("lugvanion", "odds", "red=25", "blue=25", "green=25", "yellow=24",
            "--allow-any-size", "--json")
    assert r.code == 0 and sum(json.loads(r.out)["odds"].values()) == pytest.approx(1)


def test_help_says_how_big_a_bag_may_be(cli):
    for command in ("odds", "draw", "verify"):
        assert "5 to 99 partisans" in cli("lugvanion", command, "--help").out


def test_a_bag_count_is_bounded_in_the_scorer_too():
    with pytest.raises(vote.ScoreError) as e:
        vote.check_bag({"red": 10**12, "blue": 1}, allow_any_size=True)
    assert e.value.field == "bag.red"
    assert vote.check_bag({"red": 99}, allow_any_size=True) == {"red": 99}


def test_vengeance_counts_are_what_the_box_holds():
    """RULINGS G2, as the kit's data gives them: ritual + transitory objects of each type."""
    data = tomllib.loads((paths.LAYOUTS / "vengeance.toml").read_text(encoding="utf-8"))
    assert vengeance.MOST == {t["id"]: t["ritual"] + t["transitory"] for t in data["types"]}
    assert sum(vengeance.MOST.values()) == 66 + 18


@pytest.mark.parametrize("args,words", [
    (["--herb", "34"], "the game has 33"),
    (["--mineral", "29"], "the game has 28"),
    (["--potion", "24"], "the game has 23"),
    (["--herb", "1000000000000000000000"], "the game has 33"),
    (["--artifact", "9" * 5000 + ":herb"], "numbered 1-13"),
    (["--artifact", "14:herb"], "1-13"),
    (["--artifact", "1\x1b[2J:herb"], '"1\\x1b[2J:herb"'),
    (["--incantation", "99999999999999999999"], "1-13"),
])
def test_vengeance_refuses_what_the_box_cannot_hold(cli, args, words):
    r = cli("vengeance", "resolve", *args)
    assert r.code == 2 and r.err.count("\n") == 1 and words in r.err, r.err
    assert "\x1b" not in r.err


def test_a_full_centre_resolves(cli):
    r = cli("vengeance", "resolve", "--herb", "33", "--mineral", "28", "--potion", "23",
            "--artifact", "13:potion", "--json")
    assert r.code == 0 and json.loads(r.out)["winner"] == "herb"
