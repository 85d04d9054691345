"""The arc of a game (issue 53): from each player's running total after each round, lead
changes, the round from which the winner led for good, comebacks with their 95% Wilson
intervals, the final spread and the length by player count; the leader-after-round-1
check joins the report's Holm family; the report draws it on a page of its own."""

import json
import random

import pytest

from companion.rules import arc as arcs
from companion.rules import playtest as rules
from companion.rules.stats import wilson
from tests.playtest_data import as_csv, planted_plays
from tests.test_playtest import game, pages, pdf_text, run  # noqa: F401


def play(k: int, running: list[list], minutes: int = 60, version: str = "0.1"):
    """A play from each player's running totals; the winner the highest final total."""
    best = max(r[-1] for r in running)
    return rules.Play(str(k), tuple(rules.Seat(seat=s + 1, score=r[-1], won=r[-1] == best,
                                               rounds=tuple(r), player=f"P{s + 1}")
                                    for s, r in enumerate(running)), version, minutes)


def first_leader_wins(seed: int, plays: int = 60) -> list:
    """Player 1 scores 10 a round, the others 0 to 9: she leads from round 1 and wins."""
    rnd = random.Random(seed)
    out = []
    for k in range(plays):
        n = rnd.choice((3, 4))
        rows = [[10 * (j + 1) for j in range(5)]]
        for _ in range(n - 1):
            t, kept = 0, []
            for _ in range(5):
                t += rnd.randint(0, 9)
                kept.append(t)
            rows.append(kept)
        out.append(play(k + 1, rows))
    return out


def test_when_the_leader_after_round_1_always_wins_no_lead_is_ever_lost():
    a = rules.summary(first_leader_wins(1))["arc"]
    assert a["games"] == 60 and a["lead_changes"] == {"mean": 0.0, "games": {"0": 60}}
    assert a["led_for_good"] == {"1": 60}
    first = [c for c in a["comeback"] if c["round"] == 1]
    assert first and sum(c["games"] for c in first) == 60
    for c in a["comeback"]:
        assert c["won"] == 0 and c["rate"] == 0.0 and c["low"] == 0.0
        assert c["high"] == pytest.approx(wilson(0, c["games"])[1]) and c["high"] > 0
    assert a["leader_wins"][0] == {**a["leader_wins"][0], "round": 1, "games": 60, "won": 60}


def changing(k: int, changes: int, rounds: int = 6) -> list[list]:
    """Three players whose leader changes exactly `changes` times: P1 leads, then P2 and
    P1 take turns over the last `changes` rounds."""
    leaders = [0] * (rounds - changes) + [(i + 1) % 2 for i in range(changes)]
    return [[10 * (j + 1) + (5 if leaders[j] == s else s) for j in range(rounds)]
            for s in range(3)]


@pytest.mark.parametrize("planted", [(0, 1, 2, 3), (2, 2, 2, 2), (0, 0, 0, 4)])
def test_planted_lead_changes_give_the_planted_mean(planted):
    plays = [play(i + 1, changing(i, c)) for i, c in enumerate(planted * 5)]
    assert [arcs.lead_changes([list(r.rounds) for r in p.rows]) for p in plays] == \
        list(planted * 5)
    a = arcs.arc(plays)
    assert a["lead_changes"]["mean"] == pytest.approx(sum(planted) / len(planted))
    assert sum(a["lead_changes"]["games"].values()) == len(plays)


def test_a_tied_round_has_no_leader_and_changes_nothing():
    rows = [[5, 10, 20], [3, 10, 15], [1, 2, 3]]  # round 2: P1 and P2 tie
    assert arcs.lead_changes(rows) == 0
    assert arcs.led_for_good(rows, 0) == 1  # alone, shared, alone: from round 1
    assert arcs.led_for_good([[1, 10, 20], [3, 10, 15]], 0) == 2
    assert arcs.led_for_good([[1, 9], [5, 2]], 0) == 2


def test_a_game_won_by_the_lowest_total_leads_with_the_lowest():
    rows = [[2, 4, 5], [5, 6, 9], [1, 8, 12]]  # P1 lowest at the end; P3 led round 1
    best = min(r[-1] for r in rows)
    p = rules.Play("1", tuple(rules.Seat(seat=s + 1, score=r[-1], won=r[-1] == best,
                                         rounds=tuple(r)) for s, r in enumerate(rows)))
    a = arcs.arc([p])
    assert a["lead_changes"]["mean"] == 1 and a["led_for_good"] == {"2": 1}
    assert a["spread"]["last"]["median"] == 7 and a["spread"]["second"]["median"] == 4


def test_spread_and_length_by_player_count():
    plays = [play(1, [[10, 30], [5, 20], [1, 12]], 40), play(2, [[3, 8], [2, 6]], 30),
             play(3, [[3, 9], [2, 3]], 50)]
    a = arcs.arc(plays)
    assert a["spread"]["last"]["median"] == 6 and a["spread"]["second"]["max"] == 10
    assert a["spread"]["second_share"]["max"] == pytest.approx(6 / 9)
    assert a["minutes"]["2"]["median"] == 40 and a["minutes"]["3"]["n"] == 1
    assert arcs.arc([rules.Play("9", (rules.Seat(score=3, won=True),
                                      rules.Seat(score=1)))]) is None


def test_a_runaway_leader_is_a_finding_in_the_one_holm_family():
    s = rules.summary(first_leader_wins(2))
    line = next(f for f in s["findings"] if f["kind"] == "arc_runaway")
    assert line["line"] == "finding" and line["p_adjusted"] < 0.05
    assert line["bound"] == pytest.approx(line["even"] + arcs.RUNAWAY)
    even = rules.summary(planted_plays(0))
    assert [f["kind"] for f in even["findings"]].count("no_runaway") == 1
    assert even["checks"] == rules.summary(planted_plays(0, rounds=1))["checks"] + 1


def test_the_arc_is_in_the_json_and_on_a_page_in_en_and_fr(game, tmp_path):  # noqa: F811
    csv = tmp_path / "history.csv"
    csv.write_text(as_csv(planted_plays(2)), encoding="utf-8")
    r = run(game, csv, "--out", tmp_path / "en", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    a = s["arc"]
    assert a["games"] == 150 and set(a) >= {"lead_changes", "led_for_good", "comeback",
                                           "spread", "minutes", "leader_wins"}
    assert set(a["comeback"][0]) >= {"round", "behind_by", "games", "won", "low", "high"}
    text = " ".join(pdf_text(s["report"]).split())
    assert "The arc of a game" in text and "Lead changes: " in text
    assert "How often the leader after each round wins" in text
    assert "Comebacks: how often a lead was still lost" in text
    r = run(game, csv, "--out", tmp_path / "fr", "--json", "--lang", "fr")
    s = json.loads(r.stdout)
    text = " ".join(pdf_text(s["report"]).split())
    assert "Le déroulé d’une partie" in text and "Changements de meneur" in text
    assert pages(s["report"]) == s["pages"]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

RUNS = st.integers(2, 5).flatmap(lambda n: st.integers(2, 6).flatmap(
    lambda k: st.lists(st.lists(st.lists(st.integers(0, 9), min_size=k, max_size=k),
                                min_size=n, max_size=n), min_size=1, max_size=12)))


@settings(max_examples=150, deadline=None)
@given(RUNS)
def test_any_arc_counts_each_game_once_and_stays_within_its_rounds(games):
    plays = []
    for k, points in enumerate(games):
        running = [[sum(p[:j + 1]) for j in range(len(p))] for p in points]
        plays.append(play(k + 1, running))
    a = arcs.arc(plays)
    rounds = len(games[0][0])
    assert a["games"] == len(plays) == sum(a["lead_changes"]["games"].values())
    assert 0 <= a["lead_changes"]["mean"] <= max(len(p[0]) for p in games) - 1
    assert sum(a["led_for_good"].values()) <= len(plays)
    for c in a["comeback"]:
        assert 0 <= c["won"] <= c["games"] and c["low"] <= c["rate"] <= c["high"]
        per_round = sum(x["games"] for x in a["comeback"] if x["round"] == c["round"])
        assert per_round <= len(plays)
    assert rounds >= 2
