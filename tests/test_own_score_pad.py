"""A designer's own score pad and scorer from end to end (issue 43): the printed pad's
words for every kind of category, its columns and rows, the scores file the CLI reads, and
`companion score GAME SCORES --pdf` filling the pad."""

import json

import pytest

from companion.rules import scoring
from tests.pdfs import page_texts


def _edit(game, old, new):
    text = game.read_text(encoding="utf-8")
    assert old in text, old
    game.write_text(text.replace(old, new, 1), encoding="utf-8")


def _scoring(game, scoring: str, game_keys: str = ""):
    """The game file with its [[scoring]] replaced, and keys added under [game]."""
    text = game.read_text(encoding="utf-8")
    start, end = text.index("[[scoring]]"), text.index("# Where each component goes")
    text = text[:start] + scoring.lstrip() + "\n" + text[end:]
    game.write_text(text.replace("[game]\n", "[game]\n" + game_keys, 1), encoding="utf-8")


def _pad(cli, game, out, *args) -> str:
    r = cli("build", str(game), "--out", str(out), *args)
    assert r.code == 0, r.err
    return page_texts(out / "scorepad.pdf")[0]


def test_an_each_category_with_its_points_left_to_the_default_builds(starter, cli, tmp_path):
    _edit(starter, "points = 1                  # ... 1 point each\n", "")
    assert "count × 1" in _pad(cli, starter, tmp_path / "kit", "--strict")
    assert "nombre × 1" in _pad(cli, starter, tmp_path / "fr", "--strict", "--lang", "fr")


def _tops(pdf, word: str, page: int = 0) -> list[float]:
    """Where `word` lies on a page: the top of each time it is printed, from the page's top
    (points)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        p = doc[page]
        height, text = p.get_height(), p.get_textpage()
        found, search = [], text.search(word, match_case=True, match_whole_word=True)
        while (hit := search.get_next()) is not None:
            found.append(height - text.get_charbox(hit[0])[3])
        return sorted(found)
    finally:
        doc.close()


TIDEWRIGHT = '''
[[scoring]]
id = "crowns"
name = { en = "Crowns", fr = "Couronnes" }
score = "majority"
award = [6, 3]

[[scoring]]
id = "pearls"
name = { en = "Pearls", fr = "Perles" }
score = "table"
table = [0, 1, 3, 6, 10]

[[scoring]]
id = "boats"
name = { en = "Boats", fr = "Bateaux" }
score = "most"
most = 3
others = 1

[[scoring]]
id = "hand"
name = { en = "Cards in hand", fr = "Cartes en main" }
score = "points"
total = false
'''
TIDE_GAME = 'rounds = 3\ntiebreak = ["crowns", "pearls"]\nfactions = ["Otters", "Crabs", "Gulls", "Seals"]\n'


@pytest.mark.parametrize("lang, words", [("en", "points · not in the total"),
                                         ("fr", "points · hors du total")])
def test_a_category_left_out_of_the_total_says_so_on_its_pad_row(starter, cli, tmp_path, lang,
                                                                 words):
    _scoring(starter, TIDEWRIGHT, TIDE_GAME)
    first = _pad(cli, starter, tmp_path / "kit", "--strict", "--lang", lang)
    assert words in first
    assert first.count("not in the total" if lang == "en" else "hors du total") == 3  # one a game
    from companion.web.look import own_game
    hand = own_game(starter).page["categories"][3]
    assert hand["how"] == {"en": "points · not in the total", "fr": "points · hors du total"}


def test_the_faction_row_lies_above_the_rounds_columns(starter, cli, tmp_path):
    _scoring(starter, TIDEWRIGHT, TIDE_GAME)
    _pad(cli, starter, tmp_path / "kit", "--strict")
    pdf = tmp_path / "kit" / "scorepad.pdf"
    faction, r1 = _tops(pdf, "Faction"), _tops(pdf, "R1")
    crowns = _tops(pdf, "Crowns")[1:]  # after the tie-break's line
    assert len(faction) == len(crowns) == 3
    for game in range(3):  # each game: its Faction row, then R1 R2 R3, then the categories
        heads = [t for t in r1 if faction[game] < t < crowns[game]]
        assert len(heads) == 5, (faction, r1, crowns)


# ---- the words: the pad's legend lines and the scorer's explanations -----------------

def _legend(category: dict, lang: str) -> str:
    from companion.score.scoring_words import legend_text, words
    c = scoring.rules([category]).categories[0]
    return legend_text(c, {}, words(), lang)


@pytest.mark.parametrize("category, en, fr", [
    ({"id": "p", "score": "table", "table": [0, 1, 3, 6, 10]},
     "by count: 0 → 0, 1 → 1, 2 → 3, 3 → 6, 4+ → 10",  # the first for 0, the last and past it
     "selon le nombre\u202f: 0 → 0, 1 → 1, 2 → 3, 3 → 6, 4+ → 10"),
    ({"id": "b", "score": "most", "most": 3, "others": 1},
     "the most at the table (a tie too): count × 3, else × 1",
     "le plus à la table (égalité comprise)\u202f: nombre × 3, sinon × 1"),
])
def test_the_pad_says_where_a_table_starts_and_ends_and_that_a_tie_for_most_counts(category,
                                                                                    en, fr):
    assert _legend(category, "en") == en and _legend(category, "fr") == fr


def _said(game, rows, cid, lang="en", player=0, k=0):
    from companion.score.scoring_words import say
    res = scoring.score(game, [{"name": n, **r} for n, r in zip(("Ana", "Ben", "Cy"), rows)])
    c = next(c for c in game.categories if c.id == cid)
    return say(res.players[player].reasons[cid][k], c, {cid: "Crowns"}, lang)


def test_a_shared_majority_says_its_share_was_rounded_down():
    game = scoring.rules([{"id": "c", "score": "majority", "award": [6, 3]}])
    assert _said(game, [{"c": 3}, {"c": 3}], "c") == \
        "3, first with Ben: (6 + 3) / 2 = 4.5, rounded down: 4"
    assert _said(game, [{"c": 3}, {"c": 3}], "c", "fr") == \
        "3, premier avec Ben\u202f: (6 + 3) / 2 = 4,5, arrondi à 4"
    three = scoring.rules([{"id": "c", "score": "majority", "award": [5, 2]}])
    assert _said(three, [{"c": 1}, {"c": 1}, {"c": 1}], "c").endswith(
        "(5 + 2 + 0) / 3 = 2.33…, rounded down: 2")
    even = scoring.rules([{"id": "c", "score": "majority", "award": [6, 2]}])
    assert _said(even, [{"c": 3}, {"c": 3}], "c") == "3, first with Ben: (6 + 2) / 2 = 4"


def test_an_explanation_never_takes_the_category_for_a_unit():
    game = scoring.rules([{"id": "c", "score": "majority", "award": [6, 3]},
                        {"id": "m", "score": "most", "most": 3, "others": 1}])
    said = [_said(game, [{"c": 1, "m": 1}, {"c": 2}], cid) for cid in ("c", "m")]
    assert said == ["1, second: 3", "1, the most at the table: 1 × 3 = 3"]
    assert _said(game, [{"c": 0}, {"c": 2}], "c") == "0: no place"
    assert "crowns" not in " ".join(said).lower()


@pytest.mark.parametrize("gender, words", [(None, "aucun\u202f: 0"), ("m", "aucun\u202f: 0"),
                                           ("f", "aucune\u202f: 0")])
def test_french_agrees_with_a_categorys_gender(gender, words):
    cat = {"id": "s", "score": "sum", **({"gender": gender} if gender else {})}
    assert _said(scoring.rules([cat]), [{}], "s", "fr") == words
    assert _said(scoring.rules([cat]), [{}], "s", "en") == "none: 0"


def test_a_wrong_gender_names_its_key():
    from companion.rules.errors import ScoreError
    with pytest.raises(ScoreError) as e:
        scoring.rules([{"id": "s", "gender": "x"}])
    assert e.value.field == "scoring[0].gender"


@pytest.mark.parametrize("figures, line", [
    # the first tie-break decides: it alone is named
    ([(5, 1), (4, 9)], "Ana and Ben tie at 10: Crowns breaks it (Ana 5; Ben 4)."),
    # the first is equal: both are named
    ([(5, 1), (5, 2)], "Ana and Ben tie at 10: Crowns, Pearls breaks it (Ana 5, 1; Ben 5, 2)."),
    # neither breaks it
    ([(5, 1), (5, 1)], "Ana and Ben tie at 10; Crowns, Pearls does not break it "
                       "(Ana 5, 1; Ben 5, 1): they share the place."),
])
def test_the_tie_break_line_names_the_categories_that_decided(figures, line):
    from companion.score.scoring_words import tiebreaks
    game = scoring.rules([{"id": "v"}, {"id": "c", "total": False}, {"id": "p", "total": False}],
                       tiebreak=["c", "p"])
    res = scoring.score(game, [{"name": n, "v": 10, "c": c, "p": p}
                             for n, (c, p) in zip(("Ana", "Ben"), figures)])
    assert tiebreaks(game, res, {"c": "Crowns", "p": "Pearls"}, "en") == [line]


# ---- the scores file -------------------------------------------------------------------

TIDE_SCORES = '''
[[players]]
name = "Ana"
faction = "otters"
crowns = [3, 2, 0]
pearls = [1, 5, 0]
boats = [2, 1, 1]
hand = [0, 0, 4]
[[players]]
name = "Ben"
faction = "Crabs"
crowns = [3, 1, 1]
pearls = [2, 3, 1]
boats = [2, 0, 0]
hand = [0, 0, 2]
[[players]]
name = "Cy"
crowns = [0, 0, 0]
'''


def test_a_scores_file_gives_each_players_faction_as_the_phones_record_it(starter, cli, tmp_path):
    _scoring(starter, TIDEWRIGHT, TIDE_GAME)
    scores = tmp_path / "scores.toml"
    scores.write_text(TIDE_SCORES, encoding="utf-8")
    r = cli("score", str(starter), str(scores), "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert [p["faction"] for p in out["players"]] == ["Otters", "Crabs", None]
    r = cli("score", str(starter), str(scores))
    assert r.code == 0 and "\nAna (Otters)\n" in r.out and "\nCy\n" in r.out, r.err
    scores.write_text(TIDE_SCORES.replace('"Crabs"', '"Owls"'), encoding="utf-8")
    r = cli("score", str(starter), str(scores))
    assert r.code == 2 and r.err.count("\n") == 1
    assert 'scores.toml: players[1].faction: "Owls" is none of the game\'s factions' in r.err


# ---- a category scored once in a game of rounds -------------------------------------

ONCE = [{"id": "gems", "score": "majority", "award": [6, 3]},
        {"id": "crowns", "score": "majority", "award": [10, 4], "rounds": 1},
        {"id": "hand", "score": "points", "rounds": 1, "total": False}]


def test_a_category_scored_once_takes_one_figure_and_scores_once_at_the_end():
    game = scoring.rules(ONCE, rounds=3, tiebreak=["hand"])
    assert [c.rounds for c in game.categories] == [3, 1, 1]
    res = scoring.score(game, [
        {"name": "Ana", "gems": [1, 2, 0], "crowns": 4, "hand": 2},
        {"name": "Ben", "gems": [2, 1, 3], "crowns": 4, "hand": 5}])
    ana, ben = res.players
    assert ana.rounds["gems"] == [3, 6, 0] and ana.rounds["crowns"] == [7]  # (10 + 4) / 2
    assert ana.written["crowns"] == 4 and ana.figures["hand"] == 2
    assert ana.total == 9 + 7 and ben.total == 15 + 7
    with pytest.raises(scoring.ScoreError) as e:  # a list where one figure is written
        scoring.score(game, [{"name": "Ana", "crowns": [0, 0, 4]}])
    assert e.value.field == "players[0].crowns"


@pytest.mark.parametrize("table, field", [
    ([{"id": "a", "rounds": 2}], "scoring[0].rounds"),
    ([{"id": "a", "rounds": 1.0}], "scoring[0].rounds"),
    ([{"id": "a", "rounds": True}], "scoring[0].rounds"),
    ([{"id": "a", "rounds": 1}, {"id": "b", "score": "sets", "of": ["a"]}], "scoring[1].of"),
    ([{"id": "a", "rounds": 1}, {"id": "b", "score": "each", "times": "a"}], "scoring[1].times"),
])
def test_a_categorys_rounds_is_one_or_the_games_and_reads_its_like(table, field):
    with pytest.raises(scoring.ScoreError) as e:
        scoring.rules(table, rounds=3)
    assert e.value.field == field


def test_a_category_scored_once_on_the_command_line_the_pad_and_the_phones(starter, cli,
                                                                           tmp_path):
    _scoring(starter, TIDEWRIGHT.replace("total = false", "total = false\nrounds = 1"),
             TIDE_GAME)
    scores = tmp_path / "scores.toml"
    scores.write_text(TIDE_SCORES.replace("hand = [0, 0, 4]", "hand = 4")
                      .replace("hand = [0, 0, 2]", "hand = 2"), encoding="utf-8")
    r = cli("score", str(starter), str(scores), "--json")
    assert r.code == 0, r.err
    cli_json = json.loads(r.out)
    assert cli_json["players"][0]["written"]["hand"] == 4
    assert cli_json["players"][0]["rounds"]["hand"] == [4]
    r = cli("score", str(starter), str(scores))
    assert "   at the end: 4 (not added to the total)" in r.out, r.out
    for lang, words in (("en", "points · once, at the end · not in the total"),
                        ("fr", "points · une fois, à la fin · hors du total")):
        assert words in _pad(cli, starter, tmp_path / lang, "--strict", "--lang", lang)
    from tests.test_serve_own_game import table
    with table(tmp_path, starter) as (client, api):
        for p in TIDE_SCORES.split("[[players]]")[1:]:
            import tomllib
            entry = tomllib.loads(p.replace("hand = [0, 0, 4]", "hand = 4")
                                  .replace("hand = [0, 0, 2]", "hand = 2"))
            r = client.put(f"{api}/games/moth-lanterns/players/{entry.pop('name')}", json=entry)
            assert r.status_code == 200, r.text
        state = client.get(f"{api}/games/moth-lanterns").json()
    assert state["score"] == {**cli_json, "players": [
        {k: v for k, v in p.items() if k != "faction"} for p in cli_json["players"]]}


# ---- the pad's columns -----------------------------------------------------------------

@pytest.mark.parametrize("players, columns", [("4", 4), ("[2, 4]", 4), ("[3, 6]", 6)])
def test_the_games_players_set_the_pads_columns(starter, cli, tmp_path, players, columns):
    _edit(starter, "[game]\n", f"[game]\nplayers = {players}\n")
    first = _pad(cli, starter, tmp_path / "kit", "--strict")
    assert f"Player {columns}" in first and f"Player {columns + 1}" not in first


def test_the_pads_own_players_come_before_the_games(starter, cli, tmp_path):
    _edit(starter, "[game]\n", "[game]\nplayers = [2, 4]\n")
    starter.write_text(starter.read_text(encoding="utf-8") + "\n[scorepad]\nplayers = 3\n",
                       encoding="utf-8")
    first = _pad(cli, starter, tmp_path / "kit", "--strict")
    assert "Player 3" in first and "Player 4" not in first


@pytest.mark.parametrize("players", ["0", "13", "[4, 2]", "[1, 2, 3]", '"four"', "2.5", "true"])
def test_a_wrong_player_count_is_one_line_naming_the_key(starter, cli, tmp_path, players):
    _edit(starter, "[game]\n", f"[game]\nplayers = {players}\n")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and r.err.count("\n") == 1 and not (tmp_path / "kit").exists()
    assert "moth-lanterns.toml: game.players: " in r.err, r.err


# ---- the filled pad --------------------------------------------------------------------

@pytest.mark.parametrize("lang, words", [
    ("en", ["Moth Lanterns · Score pad", "Ana wins.", "Otters", "Crabs",
            "Ana (Otters): Crowns 10 (round 1: 3, first with Ben: (6 + 3) / 2 = 4.5, "
            "rounded down: 4"]),
    ("fr", ["Moth Lanterns · Bloc de score", "Ana l’emporte.", "Otters",
            "Ana (Otters)\u202f: Couronnes 10 (manche 1\u202f: 3, premier avec Ben\u202f: "
            "(6 + 3) / 2 = 4,5, arrondi à 4"]),
])
def test_the_filled_pad_holds_each_players_points_and_total(starter, cli, tmp_path, lang, words):
    _scoring(starter, TIDEWRIGHT, TIDE_GAME)
    scores = tmp_path / "scores.toml"
    scores.write_text(TIDE_SCORES, encoding="utf-8")
    pdf = tmp_path / "filled.pdf"
    r = cli("score", str(starter), str(scores), "--pdf", str(pdf), "--lang", lang, "--json")
    assert r.code == 0, r.err
    totals = {p["name"]: p["total"] for p in json.loads(r.out)["players"]}
    pages = page_texts(pdf)
    assert len(pages) == 1
    text = pages[0].replace("\n", " ")  # the reasons wrap
    for w in words:
        assert w in text, w
    lines = pages[0].splitlines()
    assert lines.index("Ana") < lines.index("Ben") < lines.index("Cy")  # the columns' heads
    # the total row: each player's total, in their column's order (the label drawn last)
    total_at = lines.index("Total")
    assert lines[total_at - 3:total_at] == [str(totals[n]) for n in ("Ana", "Ben", "Cy")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["filled.pdf", "moth-lanterns",
                                                          "scores.toml"]  # nothing left aside


def test_the_filled_pad_is_written_only_from_scores_that_score(starter, cli, tmp_path):
    _scoring(starter, TIDEWRIGHT, TIDE_GAME)
    scores = tmp_path / "scores.toml"
    scores.write_text(TIDE_SCORES.replace("crowns = [0, 0, 0]", "crowns = [0, 0]"),
                      encoding="utf-8")
    pdf = tmp_path / "filled.pdf"
    pdf.write_bytes(b"kept")
    r = cli("score", str(starter), str(scores), "--pdf", str(pdf))
    assert r.code == 2 and r.err.count("\n") == 1 and "players[2].crowns" in r.err
    assert pdf.read_bytes() == b"kept"
    r = cli("score", str(starter), str(scores), "--paper", "letter")
    assert r.code == 2 and "--paper: goes with --pdf" in r.err


def test_the_filled_pad_says_a_name_its_font_cannot_print(starter, cli, tmp_path):
    scores = tmp_path / "scores.toml"
    scores.write_text('[[players]]\nname = "Ana \U0001F9A6"\ncreatures = 3\n', encoding="utf-8")
    r = cli("score", str(starter), str(scores), "--pdf", str(tmp_path / "f.pdf"), "--paper",
            "letter")
    assert r.code == 0 and "prints as" in r.err, r.err
    assert "a character of a name that the bundled font cannot print" in \
        page_texts(tmp_path / "f.pdf")[0]


# ---- many categories -------------------------------------------------------------------

MANY = "".join(f'[[scoring]]\nid = "c{i}"\nname = "Category {i}"\nscore = "each"\npoints = 2\n\n'
               for i in range(17))


def test_seventeen_categories_fit_fewer_games_a_page(starter, cli, tmp_path):
    _scoring(starter, MANY)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"), "--strict")
    assert r.code == 0, r.err
    pages = page_texts(tmp_path / "kit" / "scorepad.pdf")
    assert [p.count("Category 16") for p in pages] == [1, 1]  # a game a page
    assert "You get: 2 × Score-pad games." in (tmp_path / "kit" / "print-guide.txt").read_text()


def test_rows_too_short_for_their_words_fail_strict_from_a_cold_or_a_kept_build(
        starter, cli, tmp_path):
    _scoring(starter, MANY)
    starter.write_text(starter.read_text(encoding="utf-8")
                       + "\n[scorepad]\ngames_per_page = 3\n", encoding="utf-8")
    for out in ("cold", "kept"):  # the second draws from the kept pages
        r = cli("build", str(starter), "--out", str(tmp_path / out), "--strict")
        assert r.code == 2 and "scoring.name · en: printed over scoring.legend" in r.err, r.err
    r = cli("build", str(starter), "--out", str(tmp_path / "warned"))
    assert r.code == 0 and "printed over scoring.legend" in r.err
