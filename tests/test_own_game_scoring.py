"""Scoring a designer's own game from its file's score categories ([[scoring]]): the
kit's score pad, `companion score GAMEFILE FILE`, and the scorer's rules (companion/rules/scoring.py)
checked on open-ended numbers."""

import json

import pytest
from hypothesis import given, strategies as st

from companion.rules import scoring
from companion.rules.errors import ScoreError
from tests.pdfs import page_texts


def _edit(starter, old, new):
    text = starter.read_text(encoding="utf-8")
    assert old in text, old
    starter.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_kit_prints_a_score_pad_of_the_games_categories(starter, cli, tmp_path):
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    pages = page_texts(tmp_path / "kit" / "scorepad.pdf")
    assert len(pages) == 2
    first = pages[0]
    for words in ("Moth Lanterns · Score pad", "Creatures", "Pairs", "count × 1", "Total",
                  "highest total wins", "Player 5", "1 / 2"):
        assert words in first, words
    assert first.count("Creatures") == 3  # three games a page
    guide = (tmp_path / "kit" / "print-guide.txt").read_text()
    assert "scorepad.pdf (2 pages)" in guide and "You get: 6 × Score-pad games." in guide
    assert guide.index("cards.pdf") < guide.index("scorepad.pdf")  # the pad last


def test_the_games_own_pad_settings_and_lowest_wins_in_french(starter, cli, tmp_path):
    _edit(starter, 'wins = "highest"', 'wins = "lowest"')
    starter.write_text(starter.read_text(encoding="utf-8") + "\n[scorepad]\nplayers = 3\n"
                    "games_per_page = 2\n", encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"), "--lang", "fr")
    assert r.code == 0, r.err
    first = page_texts(tmp_path / "kit" / "scorepad.pdf")[0]
    assert "le plus bas total gagne" in first and "Créatures" in first
    assert "Joueur·se 3" in first and "Joueur·se 4" not in first
    assert first.count("Créatures") == 2


def test_a_game_without_categories_prints_no_pad(starter, cli, tmp_path):
    text = starter.read_text(encoding="utf-8")
    start = text.index("[[scoring]]")
    end = text.index("# Where each component goes")
    starter.write_text(text[:start] + text[end:], encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert not (tmp_path / "kit" / "scorepad.pdf").exists()


@pytest.mark.parametrize("old, new, field, words", [
    ('score = "each"', 'score = "double"', "scoring[1].score", '"double" is none of'),
    ('points = 1', 'points = 1.5', "scoring[1].points", "not a whole number"),
    ('id = "pairs"', 'id = "creatures"', "scoring[1].id", "names two categories"),
    ('wins = "highest"', 'wins = "most"', "game.wins", "highest, lowest"),
])
def test_a_wrong_category_is_one_line_naming_the_game_file_and_field(starter, cli, tmp_path, old,
                                                                     new, field, words):
    _edit(starter, old, new)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and not (tmp_path / "kit").exists()
    assert r.err.count("\n") == 1 and f"{starter.name}: {field}: " in r.err and words in r.err


def test_score_a_game_file_from_the_command_line(starter, cli, tmp_path):
    scores = tmp_path / "scores.toml"
    scores.write_text('[[players]]\nname = "Ana"\ncreatures = 9\npairs = 2\n'
                      '[[players]]\nname = "Bo"\ncreatures = 12\npairs = 1\n')
    r = cli("score", str(starter), str(scores))
    assert r.code == 0, r.err
    assert "Pairs" in r.out and "2 × 1 = 2" in r.out and r.out.strip().endswith("Bo wins.")
    r = cli("score", str(starter), str(scores), "--json", "--lang", "fr")
    assert json.loads(r.out)["players"][1] == {
        "name": "Bo", "written": {"creatures": 12, "pairs": 1},
        "points": {"creatures": 12, "pairs": 1}, "total": 13, "rank": 1}
    scores.write_text('[[players]]\nname = "Ana"\nsharks = 2\n')
    r = cli("score", str(starter), str(scores))
    assert r.code == 2 and "scores.toml: players[0].sharks: unknown category" in r.err


GAME = scoring.rules([{"id": "gold", "score": "points"}, {"id": "gems", "score": "each",
                                                        "points": 3},
                    {"id": "sets", "score": "squared"}])
NUMBERS = st.fixed_dictionaries({"gold": st.integers(-100, 100), "gems": st.integers(0, 50),
                                 "sets": st.integers(0, 20)})


@given(st.lists(NUMBERS, min_size=1, max_size=6), st.sampled_from(scoring.WINS))
def test_totals_ranks_and_winners_follow_the_categories(rows, wins):
    starter = scoring.Rules(GAME.categories, wins)
    players = [{"name": f"P{i}", **r} for i, r in enumerate(rows)]
    result = scoring.score(starter, players)
    totals = [r["gold"] + 3 * r["gems"] + r["sets"] ** 2 for r in rows]
    assert [p.total for p in result.players] == totals
    best = max(totals) if wins == "highest" else min(totals)
    assert result.winners == [f"P{i}" for i, t in enumerate(totals) if t == best]
    for p in result.players:
        beaten_by = sum((t > p.total) if wins == "highest" else (t < p.total) for t in totals)
        assert p.rank == 1 + beaten_by


@pytest.mark.parametrize("entry, field", [
    ({"name": "Ana", "gems": -1}, "players[0].gems"),
    ({"name": "Ana", "gold": 10 ** 7}, "players[0].gold"),
    ({"name": "Ana", "gold": "3"}, "players[0].gold"),
    ({"name": " "}, "players[0]"),
])
def test_a_wrong_number_names_its_player_and_category(entry, field):
    with pytest.raises(ScoreError) as e:
        scoring.score(GAME, [entry])
    assert e.value.field == field
