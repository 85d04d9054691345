"""Player strength (issue 53): a seat's or faction's finding says whether it holds once
the players' own strength is counted (a Plackett-Luce fit with the seat and faction
terms), and `companion playtest plan` seats a table so that each player sits each seat,
and plays each faction, as evenly as the games allow."""

import json
import math
import subprocess
import sys
from collections import Counter

import pytest

from companion.rules import playtest as rules
from companion.rules import strength
from tests.playtest_data import planted_plays
from tests.test_playtest import ROOT, game  # noqa: F401


def seat_1_findings(s: dict) -> list[dict]:
    return [f for f in s["findings"] if f["kind"] in ("seat", "seat_score")
            and f["seat"] == 1 and f["line"] == "finding"]


@pytest.mark.parametrize("seed", range(4))
def test_seat_1_made_by_the_strongest_player_sitting_there_is_flagged_raw_not_adjusted(seed):
    # Ana is 15 points a game stronger and takes seat 1 whenever she plays: seat 1 wins
    # more, raw; once her strength is counted (her plays elsewhere show it), it does not.
    s = rules.summary(planted_plays(seed, skill={"Ana": 15}, first="Ana"))
    named = seat_1_findings(s)
    assert named, [f["kind"] for f in s["findings"]]
    for f in named:
        a = f["skill_adjusted"]
        assert not a["holds"] and a["low"] < 1 < a["high"]


@pytest.mark.parametrize("seed", range(4))
def test_a_real_seat_1_edge_with_the_players_rotated_holds_once_adjusted(seed):
    s = rules.summary(planted_plays(seed, seat={1: 6}, skill={"Ana": 15}))
    named = seat_1_findings(s)
    assert named
    for f in named:
        a = f["skill_adjusted"]
        assert a["holds"] and 1 < a["low"] <= a["odds"] <= a["high"]


def test_the_finding_says_plainly_when_it_does_not_hold():
    from companion.playtest import words

    s = rules.summary(planted_plays(0, skill={"Ana": 15}, first="Ana"))
    f = seat_1_findings(s)[0]
    assert words.sentence(f, "en").endswith(
        "it does not hold: the players who sat there may just have been stronger.")
    assert words.sentence(f, "fr").endswith(
        "le constat ne tient plus\u202f: les joueurs assis là étaient peut-être simplement "
        "plus forts.")


def test_a_seat_its_players_never_left_is_said_to_be_beyond_telling():
    from companion.playtest import words

    s = rules.summary(planted_plays(0, seat={1: 8}, seating=lambda k, n: [
        "Ana", "Bo", "Cy", "Di"][:n]))  # the same player in each seat, every play
    f = seat_1_findings(s)[0]
    assert f["skill_adjusted"]["apart"] is False and not f["skill_adjusted"]["holds"]
    assert words.sentence(f, "en").endswith("these plays cannot tell: the players who sat "
                                            "there never sat elsewhere (companion playtest "
                                            "plan rotates them).")


def test_without_repeated_names_nothing_is_adjusted():
    plays = [rules.Play(p.id, tuple(rules.Seat(seat=r.seat, faction=r.faction, score=r.score,
                                               won=r.won) for r in p.rows), p.version)
             for p in planted_plays(0, seat={1: 8})]
    s = rules.summary(plays)
    assert seat_1_findings(s) and all("skill_adjusted" not in f for f in s["findings"])
    assert strength.fit(plays) is None


def test_the_fit_recovers_a_planted_players_strength_as_the_strongest():
    model = strength.fit(planted_plays(1, skill={"Bo": 12}, plays=200))
    players = {t[1]: model["w"][i] for t, i in model["index"].items() if t[0] == "player"}
    assert max(players, key=players.get) == "Bo"
    assert all(math.isfinite(v) for v in model["w"])


def plan(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "playtest", "plan", *map(
        str, args)], capture_output=True, text=True, cwd=ROOT)


def test_a_plan_for_4_players_over_12_games_seats_each_in_each_seat_3_times(game):  # noqa: F811
    r = plan(game, "--players", "Ana,Bo,Cy,Di", "--games", "12", "--json")
    assert r.returncode == 0, r.stderr
    games = json.loads(r.stdout)["games"]
    assert len(games) == 12 and all(len(g) == 4 for g in games)
    seats = Counter((x["player"], x["seat"]) for g in games for x in g)
    assert set(seats.values()) == {3} and len(seats) == 16
    assert all(sorted(x["seat"] for x in g) == [1, 2, 3, 4] for g in games)


def test_a_plan_for_3_players_and_4_factions_over_12_games(game):  # noqa: F811
    r = plan(game, "--players", "Ana,Bo,Cy", "--games", "12", "--factions",
             "reef,kelp,dune,moor", "--json")
    assert r.returncode == 0, r.stderr
    games = json.loads(r.stdout)["games"]
    played = Counter((x["player"], x["faction"]) for g in games for x in g)
    assert set(played.values()) == {3} and len(played) == 12
    seats = Counter((x["player"], x["seat"]) for g in games for x in g)
    assert set(seats.values()) == {4}
    assert all(len({x["faction"] for x in g}) == 3 for g in games)  # none shared
    pairs = Counter((x["seat"], x["faction"]) for g in games for x in g)
    assert set(pairs.values()) == {3} and len(pairs) == 12  # no seat tied to a faction


def test_a_plan_with_as_many_factions_as_seats_does_not_tie_a_seat_to_a_faction(game):  # noqa: F811
    r = plan(game, "--players", "Ana,Bo,Cy,Di", "--games", "16", "--json")
    games = json.loads(r.stdout)["games"]  # the game file's four factions
    pairs = Counter((x["seat"], x["faction"]) for g in games for x in g)
    assert len(pairs) == 16 and set(pairs.values()) == {4}
    played = Counter((x["player"], x["faction"]) for g in games for x in g)
    assert set(played.values()) == {4}


def test_a_plan_is_printed_game_by_game_and_bad_input_is_one_line(game):  # noqa: F811
    r = plan(game, "--players", "Ana,Bo,Cy", "--games", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("Game 1: seat 1 Ana (")
    for args, said in ((("--players", "Ana,Ana,Bo", "--games", "3"), "Ana"),
                       (("--players", "Ana", "--games", "3"), "--players"),
                       (("--players", "Ana,Bo", "--games", "0"), "--games"),
                       (("--players", "Ana,Bo,Cy", "--games", "3", "--factions", "reef,kelp"),
                        "--factions")):
        r = plan(game, *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and said in r.stderr, r.stderr


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion.rules.plan import plan as planned  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, 6).map(lambda extra: n + extra if extra else 0),
    st.integers(1, 40))))
def test_any_plan_seats_everyone_evenly_and_deals_factions_apart(case):
    n, f, games = case
    players = [f"P{i}" for i in range(n)]
    factions = [f"F{k}" for k in range(f)] or None
    schedule = planned(players, games, factions)
    assert len(schedule) == games
    seats = Counter((x["player"], x["seat"]) for g in schedule for x in g)
    counts = [seats[(p, s)] for p in players for s in range(1, n + 1)]
    assert max(counts) - min(counts) <= 1  # a cyclic Latin square
    for g in schedule:
        assert sorted(x["seat"] for x in g) == list(range(1, n + 1))
        if factions:
            assert len({x["faction"] for x in g}) == n
    if factions:
        dealt = Counter((x["player"], x["faction"]) for g in schedule for x in g)
        per = [dealt[(p, k)] for p in players for k in factions]
        assert max(per) - min(per) <= 1


def test_a_model_past_its_bound_is_not_fitted():
    plays = [rules.Play(str(k), tuple(rules.Seat(seat=s + 1, faction=f"f{(k + s) % 100}",
                                                 score=s, won=s == 0, player=f"p{k % 70 + s}")
                                      for s in range(3))) for k in range(400)]
    assert strength.fit(plays) is None  # 60 players kept, 3 seats, 100 factions: 163 terms
