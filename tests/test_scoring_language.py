"""The scoring language of a designer's game file (issue 33, first slice): majorities with
their tie rules, rounds, tie-breaks and the kinds Covenia will need (companion/rules/scoring.py),
through `companion score GAMEFILE`; the printed pad and the phone sheet taking them."""

import json
import re
from itertools import permutations

import pytest
from hypothesis import given, strategies as st

from companion.rules import scoring
from companion.rules.errors import ScoreError

from tests.gemfall import SCORING as GEMFALL  # the issue's exact [[scoring]]

SCORES = '''
[[players]]
name = "Ana"
creatures = [5, 4]
pairs = [1, 0]
gems = [3, 2]
[[players]]
name = "Ben"
creatures = [4, 9]
pairs = [0, 1]
gems = [3, 1]
[[players]]
name = "Cy"
creatures = [6, 3]
pairs = [1, 1]
gems = [1, 2]
'''


@pytest.fixture
def gemfall(tmp_path, cli, monkeypatch):
    """The issue's game: `companion new gemfall DIR`, its [[scoring]] replaced, rounds and a
    tie-break under [game]."""
    monkeypatch.chdir(tmp_path)
    r = cli("new", "gemfall", "DIR")
    assert r.code == 0, r.err
    path = tmp_path / "DIR" / "gemfall.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[[scoring]]")
    end = text.index("# Where each component goes")
    text = text[:start] + GEMFALL.lstrip() + text[end:]
    text = text.replace('wins = "highest"', 'wins = "highest"\nrounds = 2\ntiebreak = ["gems"]', 1)
    path.write_text(text, encoding="utf-8")
    (tmp_path / "scores.toml").write_text(SCORES, encoding="utf-8")
    return path


def test_the_issues_gemfall_game_scores_from_the_command_line(gemfall, cli):
    r = cli("score", str(gemfall), "scores.toml", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert {p["name"]: p["total"] for p in out["players"]} == {"Ana": 18, "Ben": 18, "Cy": 15}
    assert out["winners"] == ["Ana"]
    ana, ben, cy = out["players"]
    assert ana["rounds"]["gems"] == [4, 4] and ben["rounds"]["gems"] == [4, 0]
    assert cy["rounds"]["gems"] == [0, 4]
    assert [ana["rank"], ben["rank"], cy["rank"]] == [1, 2, 3]
    assert ana["tiebreak"] == {"gems": 5} and ben["tiebreak"] == {"gems": 4}


def test_the_gemfall_report_explains_rounds_majorities_and_the_tie_break(gemfall, cli):
    r = cli("score", str(gemfall), "scores.toml")
    assert r.code == 0, r.err
    assert "round 1: 3, first with Ben: (6 + 3) / 2 = 4.5, rounded down: 4" in r.out
    assert "round 2: 2, first with Cy: (6 + 3) / 2 = 4.5, rounded down: 4" in r.out
    assert "round 1: 1, third: 0" in r.out
    assert "Ana and Ben tie at 18: Gems breaks it (Ana 5; Ben 4)." in r.out
    assert r.out.strip().endswith("Ana wins.")
    r = cli("score", str(gemfall), "scores.toml", "--lang", "fr")
    assert r.code == 0, r.err
    assert "manche 1\u202f: 3, premier avec Ben\u202f: (6 + 3) / 2 = 4,5, arrondi à 4" in r.out
    assert "arrondi à 4\u202f; manche 2\u202f:" in r.out and "(Ana 5\u202f; Ben 4)" in r.out


def test_the_phone_sheet_takes_rounds(gemfall):
    # It refused them until the phone sheet followed the language (tests/test_serve_own_rounds.py).
    from companion.web.look import own_game
    assert own_game(gemfall).page["rounds"] == 2


@pytest.mark.parametrize("lang, words", [
    ("en", ["gemfall · Score pad", "highest total wins",
            "Tie: the most Gems wins; still tied, the win is shared",
            "R1, R2…: a column per round, added up in the total",
            "places 6 / 3; a tie shares them, rounded down", "count × 1", "points"]),
    ("fr", ["gemfall · Bloc de score", "le plus haut total gagne",
            "Égalité\u202f: le plus de Gems l’emporte\u202f; sinon, victoire partagée",
            "M1, M2…\u202f: une colonne par manche, additionnées dans le total",
            "places 6 / 3\u202f; à égalité, partagées (arrondi inférieur)", "nombre × 1"]),
])
def test_the_gemfall_pad_prints_both_rounds_the_majority_and_the_tie_break(gemfall, cli, tmp_path,
                                                                             lang, words):
    from tests.pdfs import page_texts
    out = tmp_path / f"kit-{lang}"
    r = cli("build", str(gemfall), "--out", str(out), "--lang", lang, "--strict")
    assert r.code == 0, r.err
    pages = page_texts(out / "scorepad.pdf")
    assert len(pages) == 2
    first = pages[0]
    for w in words:
        assert w in first, w
    assert "a tie shares the win" not in first and "victoire partagée." not in first
    r1, r2 = ("R1", "R2") if lang == "en" else ("M1", "M2")
    # each game: a round column for each of the 5 players, under every category's cells
    lines = first.splitlines()
    assert lines.count(r1) == lines.count(r2) == 3 * 5, lines
    assert first.count("Gems\n") >= 3 and first.count("Pairs") == 3


def test_a_majority_alone_prints_its_award_and_tie_rule_on_the_pad(starter, cli, tmp_path):
    from tests.pdfs import page_texts
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('score = "each"              # pairs sharing an icon ...\n'
                                    'points = 1', 'score = "majority"\naward = [5]\nties = "none"'),
                       encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"), "--strict")
    assert r.code == 0, r.err
    first = page_texts(tmp_path / "kit" / "scorepad.pdf")[0]
    assert "places 5; a tie scores nothing" in first
    assert "R1" not in first and "Tie:" not in first  # one round, no tie-break
    assert "highest total wins; a tie shares the win" in first


@pytest.mark.parametrize("edit, field, words", [
    ('ties = "share"', "scoring[2].ties", '"half": share'),
    ("award = [6, 3]", "scoring[2].award", "a list of 1 to 20 whole numbers"),
    ('score = "majority"', "scoring[2].award", 'unknown key for score = "table"'),
    ("rounds = 2", "game.rounds", "not a whole number from 1 to 20"),
    ('tiebreak = ["gems"]', "game.tiebreak", "a list of category ids"),
    ("points = 1", "scoring[1].award", 'unknown key for score = "each"'),
])
def test_a_wrong_key_is_one_line_naming_the_file_the_table_and_the_key(gemfall, cli, edit,
                                                                       field, words):
    new = {'ties = "share"': 'ties = "half"', "award = [6, 3]": "award = []",
           'score = "majority"': 'score = "table"', "rounds = 2": "rounds = 0",
           'tiebreak = ["gems"]': 'tiebreak = ["gold"]', "points = 1": "points = 1\naward = [1]"}
    text = gemfall.read_text(encoding="utf-8")
    assert edit in text
    gemfall.write_text(text.replace(edit, new[edit], 1), encoding="utf-8")
    r = cli("score", str(gemfall), "scores.toml")
    assert r.code == 2 and r.err.count("\n") == 1, r.err
    assert f"gemfall.toml: {field}: " in r.err and words in r.err, r.err


def test_a_scores_file_without_a_figure_a_round_names_the_player_and_category(gemfall, cli):
    (gemfall.parent.parent / "scores.toml").write_text(SCORES.replace("gems = [3, 1]",
                                                                      "gems = 3"))
    r = cli("score", str(gemfall), "scores.toml")
    assert r.code == 2 and "scores.toml: players[1].gems: 3: a list of 2 figures" in r.err


# ---- the kinds, worked by hand --------------------------------------------------------

def _points(game, rows, cid):
    res = scoring.score(game, [{"name": f"P{i}", **r} for i, r in enumerate(rows)])
    return [p.points[cid] for p in res.players]


def _maj(award, ties, figures):
    game = scoring.rules([{"id": "m", "score": "majority", "award": award, "ties": ties}])
    return _points(game, [{"m": f} for f in figures], "m")


@pytest.mark.parametrize("ties, figures, points", [
    # a tie for first
    ("share", [5, 5, 2], [4, 4, 1]), ("full", [5, 5, 2], [6, 6, 1]),
    ("none", [5, 5, 2], [0, 0, 1]),
    # a tie for second
    ("share", [7, 4, 4], [6, 2, 2]), ("full", [7, 4, 4], [6, 3, 3]),
    ("none", [7, 4, 4], [6, 0, 0]),
    # a tie for third, the last place awarded
    ("share", [9, 8, 3, 3], [6, 3, 0, 0]), ("full", [9, 8, 3, 3], [6, 3, 1, 1]),
    ("none", [9, 8, 3, 3], [6, 3, 0, 0]),
    # three-way ties
    ("share", [4, 4, 4], [3, 3, 3]), ("full", [4, 4, 4], [6, 6, 6]),
    ("none", [4, 4, 4], [0, 0, 0]),
    ("share", [8, 2, 2, 2], [6, 1, 1, 1]),
    # a tie past the awarded places, and nothing scores no place
    ("share", [9, 8, 7, 1, 1], [6, 3, 1, 0, 0]), ("full", [9, 8, 7, 1, 1], [6, 3, 1, 0, 0]),
    ("share", [3, 0, 0], [6, 0, 0]),
])
def test_a_majority_by_hand(ties, figures, points):
    assert _maj([6, 3, 1], ties, figures) == points


def test_share_rounds_down():
    assert _maj([5, 2], "share", [1, 1]) == [3, 3]  # (5 + 2) / 2 = 3.5
    assert _maj([5, 2], "share", [1, 1, 1]) == [2, 2, 2]  # (5 + 2 + 0) / 3


def test_the_kinds_covenia_will_need():
    game = scoring.rules([
        {"id": "red", "score": "most", "most": 7, "others": 4},
        {"id": "hand", "score": "lowest", "total": False},
        {"id": "yellow", "score": "each", "times": "hand"},
        {"id": "in_hand", "score": "points", "total": False},
        {"id": "green", "score": "each", "times": "in_hand"},
        {"id": "blue", "score": "sum"},
        {"id": "purple", "score": "squared"},
        {"id": "violet", "score": "table", "table": [0, 1, 3, 6, 10]},
        {"id": "line", "score": "sets", "of": ["red", "yellow", "green", "purple"],
         "points": 10},
        {"id": "weakest", "score": "lowest", "of": ["red", "purple"]},
        {"id": "best", "score": "highest", "of": ["red", "purple"], "points": 2},
    ])
    emma = {"name": "Emma", "red": 3, "hand": [5, 9, 9], "yellow": 2, "in_hand": 3,
            "green": 1, "blue": [4, 5], "purple": 3, "violet": 7}
    laur = {"name": "Laurence", "red": 3, "green": 2, "blue": [6], "violet": 2}
    other = {"name": "Cy", "red": 1}
    res = scoring.score(game, [emma, laur, other])
    e, l_, c = res.players
    assert e.points["red"] == 21 and l_.points["red"] == 21 and c.points["red"] == 4
    assert e.points["yellow"] == 10 and e.points["green"] == 3 and e.points["blue"] == 9
    assert e.points["purple"] == 9 and e.points["violet"] == 10 and l_.points["violet"] == 3
    assert e.points["line"] == 10 and l_.points["line"] == 0  # no yellow: no line
    assert e.points["weakest"] == 3 and e.points["best"] == 6
    assert e.points["hand"] == 5 and e.total == sum(v for k, v in e.points.items()
                                                    if k not in ("hand", "in_hand"))
    from companion.score.scoring_words import say
    labels = {"red": "Red", "hand": "Hand", "in_hand": "In hand", "line": "Line"}
    cats = {c.id: c for c in game.categories}
    assert say(e.reasons["red"][0], cats["red"], labels, "en") \
        == "3, the most at the table with Laurence: 3 × 7 = 21"
    assert say(c.reasons["red"][0], cats["red"], labels, "en") == "1: 1 × 4 = 4"
    assert say(e.reasons["yellow"][0], cats["yellow"], labels, "en") == "2 × 5 (hand) = 10"
    assert say(e.reasons["blue"][0], cats["blue"], labels, "en") == "4 + 5 = 9"
    assert say(e.reasons["hand"][0], cats["hand"], labels, "en") == "lowest of 5, 9, 9: 5"
    assert say(e.reasons["violet"][0], cats["violet"], labels, "en") \
        == "7, past the table's end: 10"
    assert say(e.reasons["line"][0], cats["line"], labels, "en") == \
        "shortest of Red 3, yellow 2, green 1, purple 3: 1; 1 × 10 = 10"


def test_none_at_all_is_not_the_most():
    game = scoring.rules([{"id": "red", "score": "most", "most": 7, "others": 4}])
    res = scoring.score(game, [{"name": "Ana"}, {"name": "Bo"}])
    assert [p.points["red"] for p in res.players] == [0, 0]
    assert res.players[0].reasons["red"][0].key == "others"


@pytest.mark.parametrize("wins, rows, winners, ranks", [
    # equal totals, the first tie-break equal too: the second settles it
    ("highest", [(5, 2, 1), (5, 2, 3), (4, 0, 0)], ["P1"], [2, 1, 3]),
    # every tie-break equal: the win is shared, and the rank
    ("highest", [(5, 2, 1), (5, 2, 1)], ["P0", "P1"], [1, 1]),
    # the lowest total wins; among equal totals the higher figure still breaks the tie
    ("lowest", [(3, 1, 0), (3, 4, 0), (9, 9, 9)], ["P1"], [2, 1, 3]),
])
def test_a_tie_break_goes_through_its_categories_in_order(wins, rows, winners, ranks):
    game = scoring.rules([{"id": "v"}, {"id": "a", "total": False}, {"id": "b", "total": False}],
                       wins, tiebreak=["a", "b"])
    res = scoring.score(game, [{"name": f"P{i}", "v": v, "a": a, "b": b}
                             for i, (v, a, b) in enumerate(rows)])
    assert res.winners == winners and [p.rank for p in res.players] == ranks


def test_a_plain_game_with_a_tie_break_is_taken_by_the_phone(starter):
    from companion.web.look import own_game
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('wins = "highest"', 'wins = "highest"\ntiebreak = ["pairs"]'),
                       encoding="utf-8")
    assert own_game(starter).page["tiebreak"] == ["pairs"]


def test_worked_out_categories_are_not_written():
    game = scoring.rules([{"id": "a"}, {"id": "b"}, {"id": "s", "score": "sets",
                                                    "of": ["a", "b"]}])
    with pytest.raises(ScoreError) as e:
        scoring.score(game, [{"name": "Ana", "s": 3}])
    assert e.value.field == "players[0].s" and "worked out from a, b" in e.value.message


@pytest.mark.parametrize("table, field", [
    ([{"id": "a", "score": "sets", "of": ["z"]}], "scoring[0].of"),
    ([{"id": "a", "score": "sets"}], "scoring[0].of"),
    ([{"id": "a", "score": "most", "most": 7}], "scoring[0].others"),
    ([{"id": "a", "score": "table", "table": [1, 2.5]}], "scoring[0].table[1]"),
    ([{"id": "a"}, {"id": "b", "score": "each", "times": "a", "points": 2}],
     "scoring[1].points"),
    ([{"id": "a", "total": "no"}], "scoring[0].total"),
    ([{"id": "a", "score": "points", "award": [1]}], "scoring[0].award"),
])
def test_a_wrong_table_names_its_position_and_key(table, field):
    with pytest.raises(ScoreError) as e:
        scoring.rules(table)
    assert e.value.field == field


# ---- properties -----------------------------------------------------------------------

AWARD = st.lists(st.integers(0, 20), min_size=1, max_size=5)
FIGURES = st.lists(st.integers(0, 6), min_size=1, max_size=7)


@given(AWARD, st.sampled_from(scoring.TIES), FIGURES)
def test_a_majority_never_gives_more_than_awarded_and_ties_are_symmetric(award, ties, figs):
    points = [p for p, _, _ in scoring.majority(figs, tuple(award), ties)]
    if ties != "full":
        assert sum(points) <= sum(award)
    assert all(p <= max(award) for p in points)
    for i, f in enumerate(figs):
        for j, g in enumerate(figs):
            if f == g:
                assert points[i] == points[j]


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 30)),
                min_size=2, max_size=5), st.sampled_from(scoring.TIES), st.randoms())
def test_permuting_the_players_permutes_the_results(rows, ties, rnd):
    game = scoring.rules([{"id": "m", "score": "majority", "award": [5, 2], "ties": ties},
                        {"id": "r", "score": "most", "most": 3, "others": 1},
                        {"id": "v"}], rounds=2, tiebreak=["m"])
    players = [{"name": f"P{i}", "m": [a, b], "r": [b, a], "v": [c, 0]}
               for i, (a, b, c) in enumerate(rows)]
    first = {p.name: (p.total, p.rank, p.points) for p in scoring.score(game, players).players}
    winners = set(scoring.score(game, players).winners)
    shuffled = list(players)
    rnd.shuffle(shuffled)
    res = scoring.score(game, shuffled)
    assert {p.name: (p.total, p.rank, p.points) for p in res.players} == first
    assert set(res.winners) == winners
    for p in res.players:  # a majority applies in each round, within the award
        assert all(0 <= x <= 5 for x in p.rounds["m"])


def test_the_scoring_reference_in_docs_is_the_one_the_rules_write():
    from companion.rules import scoring as rules
    from companion.score import reference

    assert reference.TARGET.read_text(encoding="utf-8") == reference.text(), \
        "docs/scoring-reference.md is stale: run python -m companion.score.reference"
    for kind, keys in rules.KEYS.items():
        assert f'## `score = "{kind}"`' in reference.text()
        assert all(f"- `{key}`: " in reference.text() for key in keys)


EVERY_KIND = '''
[[scoring]]
id = "creatures"
name = "Creatures"
score = "points"

[[scoring]]
id = "pairs"
name = "Pairs"
score = "each"
points = 2

[[scoring]]
id = "lanterns"
name = "Lanterns"
score = "squared"

[[scoring]]
id = "moths"
name = "Moths"
score = "table"
table = [0, 1, 3, 6, 10]

[[scoring]]
id = "cards"
name = "Cards"
score = "sum"

[[scoring]]
id = "weakest"
name = "Weakest"
score = "lowest"
of = ["pairs", "moths"]

[[scoring]]
id = "best"
name = "Best card"
score = "highest"
points = 2

[[scoring]]
id = "sets"
name = "Sets"
score = "sets"
of = ["lanterns", "moths"]
points = 3

[[scoring]]
id = "flames"
name = "Flames"
score = "most"
most = 2
others = 1

[[scoring]]
id = "gems"
name = "Gems"
score = "majority"
award = [4, 2, 1]
ties = "full"

[[scoring]]
id = "lit"
name = "Lit"
score = "each"
times = "creatures"

'''


@pytest.mark.parametrize("lang, words", [
    ("en", ["lowest total wins", "R1, R2…: a column per round, added up in the total",
            "Tie: the most Pairs wins, then the most Moths wins; still tied, the win is shared",
            "points", "count × 2", "count × count", "by count: 0 → 0, 1 → 1, 2 → 3, 3 → 6, 4+ → 10",
            "values added up", "the lowest of Pairs, Moths", "the highest value × 2",
            "sets of Lanterns, Moths × 3", "the most at the table (a tie too): count × 2, else × 1",
            "places 4 / 2 / 1; a tie: each the best place", "count × Creatures"]),
    ("fr", ["le plus bas total gagne",
            "Égalité\u202f: le plus de Pairs l’emporte, puis le plus de Moths l’emporte\u202f; "
            "sinon, victoire partagée", "nombre × nombre",
            "selon le nombre\u202f: 0 → 0, 1 → 1, 2 → 3, 3 → 6, 4+ → 10", "valeurs additionnées",
            "le plus bas de Pairs, Moths", "la valeur la plus haute × 2",
            "séries de Lanterns, Moths × 3",
            "le plus à la table (égalité comprise)\u202f: nombre × 2, sinon × 1",
            "places 4 / 2 / 1\u202f; à égalité, chacun la meilleure place", "nombre × Creatures"]),
])
def test_the_pad_says_how_every_kind_is_worked_out(starter, cli, tmp_path, lang, words):
    from tests.pdfs import page_texts
    text = starter.read_text(encoding="utf-8")
    start = text.index("[[scoring]]")
    end = text.index("# Where each component goes")
    text = text[:start] + EVERY_KIND.lstrip() + text[end:]
    starter.write_text(text.replace('wins = "highest"', 'wins = "lowest"\nrounds = 3\n'
                                    'tiebreak = ["pairs", "moths"]', 1), encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"), "--lang", lang, "--strict")
    assert r.code == 0, r.err
    first = page_texts(tmp_path / "kit" / "scorepad.pdf")[0]
    for w in words:
        assert w in first, w
    r3 = "R3" if lang == "en" else "M3"
    # eleven categories, the rounds' row and the total: two games a page, each row 7 mm
    assert first.splitlines().count(r3) == 2 * 5
