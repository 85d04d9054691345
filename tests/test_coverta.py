"""Coverta (issue 6): the deck's design, round points, the ledger, and the row check."""

import json
import os
import signal
import subprocess
import sys
import time
import tomllib

import pytest
from hypothesis import given, strategies as st

from companion.files import paths
from companion.rules import coverta as cv
from companion.rules import coverta_rows as rw
from companion.rules.errors import ScoreError

DECK = tomllib.loads((paths.LAYOUTS / "coverta.toml").read_text())["cards"]
BY = {c["code"]: c for c in DECK}


# ---- the deck (V1-V2) ----------------------------------------------------------------

def test_the_deck_has_numbers_1_to_10_four_times():
    assert len(DECK) == 40
    assert cv.balance(DECK).per_number == {n: 4 for n in range(1, 11)}


def test_each_free_feature_splits_20_20_and_2_2_within_every_number():
    b = cv.balance(DECK)
    for f in cv.FEATURES:
        assert sorted(b.feature_split[f].values()) == [20, 20], f
    for f in cv.FREE:
        assert b.within_number[f] == {(2, 2)}, f


def test_every_pair_of_features_is_as_balanced_as_the_numbers_allow():
    b = cv.balance(DECK)
    for pair, counts in b.pairs.items():
        expected = [8, 8, 12, 12] if pair == ("parity", "range") else [10, 10, 10, 10]
        assert sorted(counts.values()) == expected, pair


def test_no_two_cards_share_all_seven_features_and_codes_are_unique():
    assert cv.balance(DECK).distinct
    assert len({c["code"] for c in DECK}) == 40
    assert all(len(c["code"]) <= 3 for c in DECK)  # short enough to type at the table


def test_rule_cards_cover_each_feature_twice_and_background_is_the_joker():
    cards = [(m, f) for f in cv.FEATURES for m in cv.MODES]
    assert len(cards) == 14
    jokers = [c for c in cards if c[1] in cv.JOKERS]
    assert len(jokers) == 2
    assert set(cv.NUMBER_RULES) | set(cv.SYMBOL_RULES) | set(cv.JOKERS) == set(cv.FEATURES)


@given(st.randoms(use_true_random=False), st.integers(2, 5))
def test_the_standard_deal_never_gives_one_player_two_rules_on_one_feature(rnd, players):
    left = [(m, f) for f in cv.NUMBER_RULES for m in cv.MODES]
    right = [(m, f) for f in cv.SYMBOL_RULES for m in cv.MODES]
    rnd.shuffle(left)
    rnd.shuffle(right)
    for p in range(players):
        hand = [left[p], right[p]]
        assert hand[0][1] != hand[1][1]


# ---- round points (V6) ---------------------------------------------------------------

def test_the_issue_example_round():
    assert cv.round_points(["Ana", "Bo", "Cy"], {"Ana": 0, "Bo": 3, "Cy": 5}, "Bo") == {
        "Ana": -1, "Bo": 2, "Cy": 5}


def test_a_tie_for_the_smallest_hand_gives_both_zero():
    assert cv.round_points(["A", "B", "C"], {"A": 2, "B": 2, "C": 4}, None) == {
        "A": 0, "B": 0, "C": 2}


def test_an_emptied_hand_scores_minus_one_and_a_first_steal_another():
    assert cv.round_points(["A", "B"], {"A": 0, "B": 1}, "A") == {"A": -2, "B": 1}


def test_totals_add_up_and_the_lowest_total_wins_ties_sharing():
    s = cv.standings({"players": ["A", "B"], "rounds": [
        {"hands": {"A": 0, "B": 2}}, {"hands": {"A": 3, "B": 0}}]})
    assert s.rounds == [{"A": -1, "B": 2}, {"A": 3, "B": -1}]
    assert s.totals == {"A": 2, "B": 1} and s.winners == ["B"]
    s = cv.standings({"players": ["A", "B"], "rounds": [{"hands": {"A": 1, "B": 1}}]})
    assert s.winners == ["A", "B"]


@pytest.mark.parametrize("table,field", [
    ({"players": ["A", "B"], "rounds": [{"hands": {"A": 1}}]}, "rounds[0].hands.B"),
    ({"players": ["A", "B"], "rounds": [{"hands": {"A": 1, "B": 1, "Z": 2}}]}, "rounds[0].hands.Z"),
    ({"players": ["A", "B"], "rounds": [{"hands": {"A": -1, "B": 1}}]}, "rounds[0].hands.A"),
    ({"players": ["A", "B"], "rounds": [{"hands": {"A": 1, "B": 1}, "first_steal": "Q"}]},
     "rounds[0].first_steal"),
    ({"players": ["A", "A"], "rounds": []}, "players"),
    ({"players": ["A"], "rounds": []}, "players"),
])
def test_bad_ledgers_name_the_round_and_field(table, field):
    with pytest.raises(ScoreError) as e:
        cv.standings(table)
    assert e.value.field == field


def test_score_coverta_json_has_the_agreed_shape(cli, tmp_path):
    f = tmp_path / "l.toml"
    f.write_text('players = ["Ana", "Bo", "Cy"]\n[[rounds]]\nhands = { Ana = 0, Bo = 3, Cy = 5 }\n'
                 'first_steal = "Bo"\n[[rounds]]\nhands = { Ana = 2, Bo = 1, Cy = 1 }\n')
    r = cli("score", "coverta", f, "--json")
    assert r.code == 0
    assert json.loads(r.out) == {"game": "coverta", "players": ["Ana", "Bo", "Cy"],
                                 "rounds": [{"Ana": -1, "Bo": 2, "Cy": 5},
                                            {"Ana": 1, "Bo": 0, "Cy": 0}],
                                 "totals": {"Ana": 0, "Bo": 2, "Cy": 5}, "winners": ["Ana"]}


def test_score_coverta_bad_file_exits_2_naming_round_and_field(cli, tmp_path):
    f = tmp_path / "l.toml"
    f.write_text('players = ["Ana", "Bo"]\n[[rounds]]\nhands = { Ana = 1 }\n')
    r = cli("score", "coverta", f)
    assert r.code == 2 and "rounds[0].hands.Bo" in r.err and len(r.err.strip().splitlines()) == 1


def test_round_adds_to_the_ledger_interactively(cli, tmp_path):
    f = tmp_path / "l.toml"
    r = cli("coverta", "round", f, stdin="Ana, Bo\nx\n0\n3\nZed\nbo\n")
    assert r.code == 0, r.err
    assert "a whole number" in r.err and "one of: Ana, Bo" in r.err
    r = cli("coverta", "round", f, stdin="2\n1\n\n")
    assert r.code == 0
    assert cv.standings(tomllib.loads(f.read_text())).totals == {"Ana": 0, "Bo": 2}


def test_the_ledger_survives_a_kill_between_rounds(tmp_path):
    f = tmp_path / "l.toml"
    f.write_text('players = ["A", "B"]\n\n[[rounds]]\nhands = { "A" = 0, "B" = 4 }\n')
    before = f.read_text()
    p = subprocess.Popen([sys.executable, "-m", "companion", "coverta", "round", str(f)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    p.stdin.write("3\n")  # half a round typed, then the process dies
    p.stdin.flush()
    time.sleep(0.5)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert f.read_text() == before
    assert [x.name for x in tmp_path.iterdir()] == ["l.toml"]


# ---- the row check (V5) --------------------------------------------------------------

def pick(**want):
    """A deck card with these feature values."""
    return next(c["code"] for c in DECK
                if all(cv.features(c)[k] == v for k, v in want.items()))


def one_rule(start, plays, row, rule, marked=()):
    """The V5 check of one rule card alone (a real hand holds two: see check_hands)."""
    laid = [BY[start]] + [BY[c] for c, _ in plays]
    return rw.faults(laid, [r for _, r in plays], {row: [rw.parse_rule(rule, "rule")]},
                     set(marked))


def test_a_card_is_checked_against_the_card_laid_just_before_it_by_anyone():
    start = pick(parity="even")
    bo = pick(parity="odd", shape="square")
    ana_ok = next(c["code"] for c in DECK if cv.features(c)["parity"] == "odd"
                  and c["code"] not in (start, bo))
    faults = one_rule(start, [(bo, "Bo"), (ana_ok, "Ana")], "Ana", "keep:parity")
    assert faults == []  # Ana's odd card follows Bo's odd card, not the even start
    ana_bad = next(c["code"] for c in DECK if cv.features(c)["parity"] == "even"
                   and c["code"] != start)
    faults = one_rule(start, [(bo, "Bo"), (ana_bad, "Ana")], "Ana", "keep:parity")
    assert [(f.card, f.rule, f.against) for f in faults] == [(ana_bad, "keep:parity", bo)]


def test_the_starting_card_is_checked_against_nothing():
    start = pick(shape="square")
    nxt = next(c["code"] for c in DECK if cv.features(c)["shape"] == "circle")
    assert one_rule(start, [(nxt, "Ana")], "Ana", "alternate:shape") == []


def test_a_marked_card_is_skipped_but_still_counts_as_the_card_before():
    codes = [c["code"] for c in DECK]
    start, a1, b1 = codes[0], codes[4], codes[8]
    f = cv.features
    faults = one_rule(start, [(a1, "Ana"), (b1, "Ana")], "Ana", "keep:range", [a1])
    expected = [] if f(BY[b1])["range"] == f(BY[a1])["range"] else [b1]
    assert [x.card for x in faults] == expected
    assert a1 not in [x.card for x in faults]


def test_alternate_and_keep_on_every_feature():
    start = "C01"
    for feature in cv.FEATURES:
        same = next(c["code"] for c in DECK[1:]
                    if cv.features(c)[feature] == cv.features(DECK[0])[feature])
        other = next(c["code"] for c in DECK[1:]
                     if cv.features(c)[feature] != cv.features(DECK[0])[feature])
        assert one_rule(start, [(same, "A")], "A", f"keep:{feature}") == []
        assert one_rule(start, [(other, "A")], "A", f"alternate:{feature}") == []
        assert len(one_rule(start, [(other, "A")], "A", f"keep:{feature}")) == 1


def test_check_rows_checks_both_rules_of_a_hand():
    start = "C01"
    other = next(c for c in DECK[1:] if c["ink"] != DECK[0]["ink"]
                 and c["shape"] != DECK[0]["shape"])["code"]
    faults = rw.check_rows(DECK, start, [(other, "A")], {"A": ["keep:ink", "keep:shape"]})
    assert [x.rule for x in faults] == ["keep:ink", "keep:shape"]


@pytest.mark.parametrize("body,field", [
    ('start = "C01"\nplays = [{ card = "Z99", row = "A" }]\nrules = { A = ["keep:ink", "keep:fill"] }\n',
     "plays[0].card"),
    ('start = "C01"\nplays = [{ card = "C02", row = "A" }, { card = "C02", row = "B" }]\n'
     'rules = { A = ["keep:ink", "keep:fill"] }\n', "plays[1].card"),
    ('start = "C01"\nplays = [{ card = "C02", row = "A" }]\nrules = { A = ["swap:ink", "keep:fill"] }\n',
     "rules.A[0]"),
    ('start = "C01"\nplays = [{ card = "C01", row = "A" }]\nrules = { A = ["keep:ink", "keep:fill"] }\n',
     "plays[0].card"),
    ('start = "C01"\nplays = [{ card = "C02" }]\nrules = { A = ["keep:ink", "keep:fill"] }\n',
     "plays[0].row"),
    ('start = "C01"\nplays = [{ card = "C02", row = "A" }]\nrules = { A = "keep:ink" }\n',
     "rules.A"),
])
def test_check_bad_input_exits_2_with_one_line(cli, tmp_path, body, field):
    f = tmp_path / "row.toml"
    f.write_text(body)
    r = cli("coverta", "check", f)
    assert r.code == 2 and field in r.err and len(r.err.strip().splitlines()) == 1


def test_check_json_lists_each_fault_with_its_rule_and_the_card_before(cli, tmp_path):
    start = "C01"
    f = tmp_path / "row.toml"
    other = next(c["code"] for c in DECK[1:] if c["ink"] != DECK[0]["ink"]
                 and c["fill"] == DECK[0]["fill"])
    f.write_text(f'start = "{start}"\nplays = [{{ card = "{other}", row = "Ana" }}]\n'
                 'rules = { Ana = ["keep:ink", "keep:fill"] }\n')
    r = cli("coverta", "check", f, "--json")
    assert r.code == 0
    assert json.loads(r.out)["faults"] == [{"card": other, "row": "Ana", "rule": "keep:ink",
                                             "against": start, "value": BY[other]["ink"],
                                             "before": DECK[0]["ink"]}]
