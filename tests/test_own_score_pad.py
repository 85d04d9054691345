"""A designer's own score pad and scorer from end to end (issue 43): the printed pad's
words for every kind of category, its columns and rows, the scores file the CLI reads, and
`companion score GAME SCORES --pdf` filling the pad."""

import json

import pytest

from companion.rules import sheet
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
