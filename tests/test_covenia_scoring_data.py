"""Covenia's end scoring as data (issue 33): covenia.toml's [[scoring]], scored by the one
engine (companion/rules/sheet.py) from the figures companion.rules.covenia.figures() reads
off a table, gives the code's points (companion/rules/covenia.py) row for row, and
covenia.score_by() gives the code's whole result (every reason), JSON, report and
score-book lines (en, fr): on the rulebook's worked example, on the scorer tests' tables
and on any legal end state. `companion score covenia` still scores with the code: reading
[[scoring]] at start-up costs 1.28x -> 1.38x of `import click` (the target is 1.3x)."""

import json
import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from companion.files import paths
from companion.rules import covenia, sheet
from companion.score import covenia as words
from tests.test_covenia_scorer import RULEBOOK, end_states, player

ROWS = ("red", "yellow", "green", "blue", "purple", "bonus")
GAME = tomllib.loads((paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8"))
RULES = words.rules()  # what score_by is given (the CLI: not yet)


def test_the_cli_reads_the_files_scoring_as_the_engine_checks_it():
    assert RULES == sheet.rules(GAME["scoring"])
WORDS = words.words()


def both(table):
    code = covenia.score(table)
    players, _ = covenia.parse(table)
    entries = [{**e, "name": str(i)} for i, e in enumerate(covenia.figures(players))]
    data = sheet.score(RULES, entries)  # names apart by case are two players here
    return code, data


def assert_equal(table):
    code, data = both(table)
    assert [p.name for p in data.players] == [str(i) for i in range(len(code.players))]
    data = data._replace(players=[d._replace(name=c.name) for c, d in
                                  zip(code.players, data.players)],
                         winners=[code.players[int(w)].name for w in data.winners])
    assert [p.name for p in data.players] == [p.name for p in code.players]
    for c, d in zip(code.players, data.players):
        assert {r: d.points[r] for r in ROWS} == {r: c.figures[r].points for r in ROWS}, c.name
        assert (d.total, d.rank) == (c.total, c.rank), c.name
    assert data.winners == code.winners
    assert covenia.score_by(RULES, table) == code  # every figure's reason too


def assert_same_words(table):
    code, by_data = covenia.score(table), covenia.score_by(RULES, table)
    assert json.dumps(words.as_json(by_data)) == json.dumps(words.as_json(code))
    for lang in ("en", "fr"):
        assert words.report(by_data, WORDS, lang) == words.report(code, WORDS, lang)
        assert ([words.explain_line(p, WORDS, lang) for p in by_data.players]
                == [words.explain_line(p, WORDS, lang) for p in code.players])


def test_the_data_scores_exactly_the_rows_the_code_does():
    assert [c.id for c in RULES.categories if c.total] == list(ROWS)
    assert RULES.wins == "highest" and RULES.rounds == 1 and RULES.tiebreak == ()


def test_the_rulebook_example_gives_emma_62_from_the_data_too():
    assert_equal(RULEBOOK)
    emma = next(p for p in covenia.score_by(RULES, RULEBOOK).players if p.name == "Emma")
    assert emma.total == 62 and emma.rank == 1
    assert {r: emma.figures[r].points for r in ROWS} == {
        "red": 21, "yellow": 10, "green": 3, "blue": 9, "purple": 9, "bonus": 10}


CASES = {
    "red tie": {"players": [player("A", red=[1, 2]), player("B", red=[3, 4]),
                            player("C", red=[5])], "decks": "AB"},
    "no red": {"players": [player("A", blue=[2]), player("B", green=[3])]},
    "yellow, empty hand": {"players": [player("A", yellow=[2, 5, 9]),
                                       player("B", hand={"red": [1]})]},
    "yellow, lowest of any clan": {"players": [
        player("A", hand={"blue": [8], "purple": [3], "red": [6]}, yellow=[1, 2]),
        player("B")]},
    "green, empty hand": {"players": [player("A", green=[1, 2]), player("B")]},
    "purple and blue": {"players": [player("A", purple=[1, 2, 3, 4], blue=[1, 9]),
                                    player("B")]},
    "bonus, shortest column": {"players": [
        player("A", red=[1, 2], yellow=[1, 2, 3], green=[1, 2], blue=[1, 2, 3],
               purple=[1, 2]), player("B")]},
    "no bonus, a clan missing": {"players": [
        player("A", red=[1], yellow=[1], green=[1], blue=[1]), player("B")]},
    "tied totals": {"players": [player("A", blue=[5]), player("B", blue=[2, 3])]},
    "french clans": {"players": [player("A", hand={"vert": [4]}, rouge=[1, 2], jaune=[3]),
                                 player("B", violet=[5])]},
    "nobody scores": {"players": [player("A"), player("B"), player("C")]},
    "names apart only by case": {"players": [player("Ana", blue=[3]), player("ana", blue=[4]),
                                             player("ANA", blue=[1, 2])], "decks": "AB"},
}


@pytest.mark.parametrize("table", CASES.values(), ids=CASES.keys())
def test_the_scorer_tests_tables_score_the_same_from_the_data(table):
    assert_equal(table)
    assert_same_words(table)


def test_the_rulebook_example_reads_the_same_from_the_data():
    assert_same_words(RULEBOOK)


@st.composite
def red_heavy(draw):
    """End states where red is often tied for the most (its one rule that looks at the
    table) and hands are often empty (yellow's and green's zero): every red card taken out,
    then each player given 0 to 5 reds, often the same count, from her own values."""
    table = draw(end_states())
    top = draw(st.integers(0, 5))
    copies = 1 if table["decks"] == "A" else 2
    players = []
    for i, p in enumerate(table["players"]):
        n = top if draw(st.booleans()) else draw(st.integers(0, top))
        first = (i // copies) * 5 + 1  # two players share a block only with two decks
        area = {c: vs for c, vs in p["area"].items() if c != "red"}
        if n:
            area["red"] = list(range(first, first + n))
        hand = {} if draw(st.booleans()) else {c: vs for c, vs in p["hand"].items()
                                                  if c != "red"}
        players.append({**p, "area": area, "hand": hand})
    return {**table, "players": players}


@settings(max_examples=400, deadline=None)
@given(end_states())
def test_any_legal_end_state_scores_the_same_from_the_data(table):
    assert_equal(table)
    assert_same_words(table)


@settings(max_examples=300, deadline=None)
@given(red_heavy())
def test_red_ties_and_empty_hands_score_the_same_from_the_data(table):
    assert_equal(table)
