"""Covenia's end scoring is data (issue 33): covenia.toml's [[scoring]], scored by the one
engine (companion/rules/scoring.py) from the figures companion.rules.covenia.figures() reads
off a table, is what `companion score covenia` and the phones score with. Here it is held
to a plain reading of the rulebook ("End of Game", RULINGS C2-C8) written out below, on
the rulebook's worked example, the scorer tests' tables and any legal end state; and the
explanations take their multipliers from the file, not from the code."""

import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from companion.files import paths
from companion.rules import covenia, scoring
from companion.score import covenia as words
from tests.test_covenia_scorer import RULEBOOK, end_states, player

ROWS = ("red", "yellow", "green", "blue", "purple", "bonus")
GAME_TEXT = (paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8")
RULES = words.rules()


def test_the_cli_reads_the_files_scoring_as_the_engine_checks_it():
    assert RULES == scoring.rules(tomllib.loads(GAME_TEXT)["scoring"])


def by_the_rulebook(table) -> list[dict]:
    """Each player's rows, total, rank and win, worked out as the rulebook says."""
    players, _ = covenia.parse(table)
    count = [{c: len(p.area.get(c, ())) for c in covenia.CLANS} for p in players]
    most = max(n["red"] for n in count)
    out = []
    for p, n in zip(players, count):
        hand = [v for _, v in p.hand]
        rows = {"red": n["red"] * (7 if n["red"] == most else 4),
                "yellow": n["yellow"] * min(hand, default=0),
                "green": n["green"] * len(hand),
                "blue": sum(p.area.get("blue", ())),
                "purple": n["purple"] ** 2,
                "bonus": 10 * min(n.values())}
        out.append({"name": p.name, "rows": rows, "total": sum(rows.values())})
    best = max(o["total"] for o in out)
    for o in out:
        o["rank"] = 1 + sum(x["total"] > o["total"] for x in out)
        o["won"] = o["total"] == best  # C8: a tie shares the win
    return out


def assert_scores_as_the_rulebook(table):
    got = covenia.score(table, RULES)
    want = by_the_rulebook(table)
    assert [p.name for p in got.players] == [w["name"] for w in want]
    for p, w in zip(got.players, want):
        assert {r: p.points[r] for r in ROWS} == w["rows"], p.name
        assert (p.total, p.rank) == (w["total"], w["rank"]), p.name
    assert got.winners == [w["name"] for w in want if w["won"]]


def test_the_file_writes_the_six_rows_of_the_score_book():
    assert [c.id for c in RULES.categories if c.total] == list(ROWS)
    assert RULES.wins == "highest" and RULES.rounds == 1 and RULES.tiebreak == ()


def test_the_rulebook_example_gives_emma_62_from_the_data():
    assert_scores_as_the_rulebook(RULEBOOK)
    emma = next(p for p in words.score(RULEBOOK).players if p.name == "Emma")
    assert emma.total == 62 and emma.rank == 1


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
def test_the_scorer_tests_tables_score_as_the_rulebook_says(table):
    assert_scores_as_the_rulebook(table)


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


@settings(max_examples=300, deadline=None)
@given(end_states())
def test_any_legal_end_state_scores_as_the_rulebook_says(table):
    assert_scores_as_the_rulebook(table)


@settings(max_examples=200, deadline=None)
@given(red_heavy())
def test_red_ties_and_empty_hands_score_as_the_rulebook_says(table):
    assert_scores_as_the_rulebook(table)


def test_a_changed_multiplier_in_the_file_changes_the_points_and_their_words(tmp_path):
    """The explanations print the file's multipliers: a designer who makes the most reds
    worth 8, the others 3 and a row 12 reads those numbers, in both languages."""
    text = GAME_TEXT.replace("most = 7\nothers = 4", "most = 8\nothers = 3")
    text = text.replace('of = ["red", "yellow", "green", "blue_cards", "purple"]\npoints = 10',
                        'of = ["red", "yellow", "green", "blue_cards", "purple"]\npoints = 12')
    assert text.count("most = 8") == 1 and text.count("points = 12") == 1
    game = tmp_path / "covenia.toml"
    game.write_text(text, encoding="utf-8")
    table = {"players": [player("A", red=[1, 2], yellow=[1], green=[1], blue=[1], purple=[1]),
                         player("B", red=[3])]}
    result = words.score(table, game)
    a, b = result.players
    assert (a.points["red"], b.points["red"]) == (16, 3)
    assert a.points["bonus"] == 12
    data = words.words()
    en, fr = (words.report(result, data, lang) for lang in ("en", "fr"))
    assert "2 × 8 = 16" in en and "1 × 3 = 3" in en and "1 × 12 = 12" in en
    assert "2 × 8 = 16" in fr and "1 × 3 = 3" in fr and "1 × 12 = 12" in fr


# Every way a row is explained, in both languages, as the words read before Covenia was
# worded from the engine's reasons (issue 56): a tie and a shortfall for red, an empty hand
# for yellow and green, nothing counted in every row, a bonus and none.
EVERY_WORDING = {"decks": "AB", "players": [
    player("A", {"blue": [8], "red": [3]}, red=[1, 2], yellow=[2, 5], green=[1], blue=[4, 5],
           purple=[1, 2, 3]),
    player("B", red=[3, 4], yellow=[1], green=[2, 3]),
    player("C", red=[5]),
    player("D", {"green": [7]})]}
NONE_EN = ["no red card: 0", "no yellow card: 0", "no green card: 0", "no blue card: 0",
           "no purple card: 0"]
NONE_FR = [f"aucune carte du clan {c} → 0" for c in ("rouge", "jaune", "vert", "bleu", "violet")]
SAID = {
    "en": [["2 red, tied for the most: 2 × 7 = 14", "2 yellow, lowest in hand 3: 2 × 3 = 6",
            "1 green, 2 in hand: 1 × 2 = 2", "blue values 4 + 5 = 9",
            "3 purple, squared: 3 × 3 = 9",
            "rows of all five clans = shortest column (green) = 1: 1 × 10 = 10"],
           ["2 red, tied for the most: 2 × 7 = 14", "1 yellow, but an empty hand: 0",
            "2 green, 0 in hand: 2 × 0 = 0", *NONE_EN[3:],
            "no row of all five clans (no blue/purple card): 0"],
           ["1 red, short of the most (2): 1 × 4 = 4", *NONE_EN[1:],
            "no row of all five clans (no yellow/green/blue/purple card): 0"],
           [*NONE_EN, "no row of all five clans (no red/yellow/green/blue/purple card): 0"]],
    "fr": [["rouges\u202f: 2, à égalité en tête → 2 × 7 = 14",
            "jaunes\u202f: 2, plus petite carte en main 3 → 2 × 3 = 6",
            "vertes\u202f: 1, main de 2 → 1 × 2 = 2", "valeurs bleues 4 + 5 = 9",
            "violettes\u202f: 3, au carré → 3 × 3 = 9",
            "lignes des cinq clans = colonne la plus courte (vert) = 1 → 1 × 10 = 10"],
           ["rouges\u202f: 2, à égalité en tête → 2 × 7 = 14",
            "jaunes\u202f: 1, mais main vide → 0", "vertes\u202f: 2, main de 0 → 2 × 0 = 0",
            *NONE_FR[3:], "aucune ligne des cinq clans (pas de carte du clan bleu/violet) → 0"],
           ["rouges\u202f: 1, le maximum est 2 → 1 × 4 = 4", *NONE_FR[1:],
            "aucune ligne des cinq clans (pas de carte du clan jaune/vert/bleu/violet) → 0"],
           [*NONE_FR, "aucune ligne des cinq clans (pas de carte du clan "
                      "rouge/jaune/vert/bleu/violet) → 0"]]}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_reason_the_engine_gives_reads_in_covenias_own_words(lang):
    data = words.words()
    result = words.score(EVERY_WORDING)
    assert [[words.explain(p.reasons[row][0], row, data, lang) for row in ROWS]
            for p in result.players] == SAID[lang]
    emma = next(p for p in words.score(RULEBOOK).players if p.name == "Emma")
    assert words.explain(emma.reasons["red"][0], "red", data, lang) == {
        "en": "3 red, the most at the table: 3 × 7 = 21",
        "fr": "rouges\u202f: 3, le plus de la table → 3 × 7 = 21"}[lang]


def test_the_words_are_keyed_by_the_kinds_of_reason_each_row_gives():
    """[score]'s row words name the kinds [[scoring]] scores the row with (and their
    variants), and its `columns` name a clan for each count the bonus reads: no key of
    Covenia's own to translate into."""
    score = words.words().table["score"]
    kinds = {c.id: c for c in RULES.categories}
    given = {"most": {"most", "most_with", "others"}, "each": {"times", "times_zero"}}
    for row in ROWS:
        said = set(score.get(row, {}))
        c = kinds[row]
        assert said <= given.get(c.score, {c.score}) | {"none"}, row
        assert said, row
    assert list(score["columns"]) == list(kinds["bonus"].of)
    assert set(score["columns"].values()) == set(covenia.CLANS)
