"""Score-based findings (issue 53): each seat and faction is also checked on its totals
(her total minus her table-mates' mean, play by play, Student's t), in the report's one
Holm family; a finding says it is one and how rarely luck makes it, apart from the lines
that may be luck."""

import pytest

from companion.playtest import words
from companion.rules import playtest as rules
from companion.rules import stats
from tests.playtest_data import even_plays, planted_plays


def found(summary: dict) -> set:
    return {(f["kind"], f.get("seat"), f.get("faction")) for f in summary["findings"]
            if f["line"] == "finding"}


def test_the_paired_t_test_is_the_textbook_figure():
    t = stats.mean_test([1, 2, 3, 4, 5])  # t = 4.243 on 4 degrees of freedom
    assert t["difference"] == 3 and t["p"] == pytest.approx(0.01324, abs=1e-4)
    assert t["low"] == pytest.approx(1.037, abs=1e-3) and t["n"] == 5
    assert stats.mean_test([2]) is None and stats.mean_test([0, 0])["p"] == 1.0


def test_a_total_is_set_beside_the_mean_of_her_table_mates_in_the_same_play():
    play = rules.Play("1", (rules.Seat(seat=1, faction="a", score=30),
                            rules.Seat(seat=2, faction="b", score=20),
                            rules.Seat(seat=3, faction="c", score=10)))
    d = rules.differences([play], lambda r: r.seat)
    assert d == {1: [(15.0, 30)], 2: [(0.0, 20)], 3: [(-15.0, 10)]}


def test_a_faction_5_points_ahead_over_150_plays_is_found_in_at_least_8_of_10():
    # Measured: 10 of seeds 0-9, 43 of 0-49; on wins alone 28 of 50.
    hits = [seed for seed in range(10) if ("faction_score", None, "otters") in found(
        rules.summary(planted_plays(seed, faction={"otters": 5})))]
    assert len(hits) >= 8, hits


def test_even_histories_flag_anything_in_at_most_1_of_20():
    # Measured: 0 of seeds 0-99 of these table-like plays (the winner the top total).
    flagged = [seed for seed in range(20) if found(rules.summary(planted_plays(seed)))]
    assert len(flagged) <= 1, flagged


def test_a_score_finding_says_it_is_one_and_its_chance_of_luck_in_plain_words():
    s = rules.summary(planted_plays(0, faction={"otters": 5}))
    line = next(f for f in s["findings"] if f["kind"] == "faction_score"
                and f["faction"] == "otters")
    assert line["direction"] == "more" and line["chance"] == line["p_adjusted"] < 0.05
    said = words.sentence(line, "en", factions={"otters": "Otters"})
    assert said.startswith("Version 0.1: the Otters faction scores ")
    assert "A finding: a gap this large comes by chance in fewer than 1 report in " in said
    assert line["mean"] - line["others"] == pytest.approx(line["difference"])
    fr = words.sentence(line, "fr", factions={"otters": "Loutres"})
    assert "C’est un constat\u202f: un écart aussi net ne sort par hasard que dans moins " \
           "d’un bilan sur " in fr


def test_findings_come_first_and_the_lines_that_may_be_luck_last_each_marked():
    s = rules.summary(planted_plays(3, faction={"otters": 5}))
    order = [f["line"] for f in s["findings"]]
    assert order == sorted(order, key=rules.LINES.index) and order[0] == "finding"
    assert {f["line"] for f in s["findings"] if f["kind"].startswith("gap_")} <= {
        "may_be_luck"}
    for f in s["findings"]:
        said = words.sentence(f, "en")
        assert ("A finding:" in said) == (f["line"] == "finding")


@pytest.mark.parametrize("chance, n", [(0.049, 20), (0.019, 50), (0.004, 100),
                                       (0.00099, 1000), (1e-9, 10000)])
def test_the_chance_of_luck_is_said_as_one_report_in_n(chance, n):
    assert words.odds(chance) == n


def test_the_score_checks_join_the_one_holm_family():
    s = rules.summary(even_plays(1))
    # wins: 3 + 4 seats, 4 factions; totals: the same 11; 2 categories
    assert s["checks"] == 2 * (3 + 4 + 4) + 2
