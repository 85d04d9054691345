"""A game is a game file (issue 22): a path to one works wherever a bundled game's name
does, a game with no code of ours is drawn from its file alone, and the bundled games are
found as the files of companion/layouts/ that hold a [game] table (no list of games in the code)."""

import json
import shutil
from pathlib import Path

import pytest

from companion import games
from tests.pdfs import page_texts
from tests.watching import watching

GAME = Path(__file__).parent / "data" / "games" / "mygame.toml"


@pytest.fixture
def mygame(tmp_path):
    folder = tmp_path / "mygame"
    folder.mkdir()
    shutil.copy(GAME, folder / "mygame.toml")
    return folder / "mygame.toml"


def test_the_bundled_games_are_the_layouts_files_with_a_game_table():
    assert sorted(games.bundled()) == ["covenia", "coverta", "lugvanion", "vengeance"]
    assert all(games.find(g).module is not None for g in games.bundled())


def test_a_game_file_builds_by_its_path_into_output_its_id(mygame, cli, tmp_path,
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("build", str(mygame))
    assert r.code == 0, r.err
    out = tmp_path / "output" / "mygame"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "mygame"
    assert [c["id"] for c in manifest["cards"]] == ["cards/fox", "cards/fox-2", "cards/owl"]
    texts = " ".join(page_texts(out / "cards.pdf"))
    assert "Fox" in texts and "Steal a card." in texts and "My Game" in texts


def test_a_game_file_in_french_and_exported_by_its_path(mygame, cli, tmp_path):
    r = cli("build", str(mygame), "--lang", "fr", "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert "Renard" in " ".join(page_texts(tmp_path / "kit" / "cards.pdf"))
    r = cli("export", str(mygame), "tts", "--out", str(tmp_path / "tts"))
    assert r.code == 0, r.err
    assert list((tmp_path / "tts").glob("*.json"))


@pytest.mark.parametrize("body,words", [
    ("[cards]\nx = 1\n", "no [game] table"),
    ('[game]\nid = "../x"\nname = "X"\n', 'game.id: "../x": letters, digits'),
])
def test_a_file_that_is_no_game_is_one_line(tmp_path, cli, body, words):
    path = tmp_path / "g.toml"
    path.write_text(body, encoding="utf-8")
    r = cli("build", str(path), "--out", str(tmp_path / "o"))
    assert r.code == 2 and words in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1


def test_an_unknown_name_lists_the_games_and_says_a_path_works(cli, tmp_path):
    r = cli("build", "mygame", "--out", str(tmp_path / "o"))
    assert r.code == 2 and "unknown game \"mygame\"" in r.err and "game file's path" in r.err


def test_init_copies_only_a_bundled_game(cli, tmp_path, mygame):
    r = cli("init", str(mygame), str(tmp_path / "copy"))
    assert r.code == 2 and "companion new NAME" in r.err, r.err


def test_a_game_written_in_german_builds_in_german_our_words_in_english(mygame, cli,
                                                                           tmp_path):
    """The game's own texts in any language its file is written in (`--lang de`); the
    sheets' own words and the print guide, which we have in English and French only,
    print in English, and a note says so once."""
    text = mygame.read_text(encoding="utf-8")
    text = text.replace('fr = "Renard" }', 'fr = "Renard", de = "Fuchs" }')
    text = text.replace('fr = "Volez une carte." }', 'fr = "Volez une carte.", de = "Stiehl eine Karte." }')
    text = text.replace('fr = "Hibou" }', 'fr = "Hibou", de = "Eule" }')
    text = text.replace('fr = "Regardez la carte du dessus." }', 'fr = "Regardez la carte du dessus.", de = "Sieh die oberste Karte an." }')
    text = text.replace('fr = "My Game : un jeu d’Ada." }', 'fr = "My Game : un jeu d’Ada.", de = "My Game: ein Spiel von Ada." }')
    game = tmp_path / "game" / "mygame.toml"
    game.parent.mkdir()
    game.write_text(text, encoding="utf-8")
    r = cli("build", str(game), "--lang", "de", "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    pages = " ".join(page_texts(tmp_path / "kit" / "cards.pdf"))
    assert "Fuchs" in pages and "Stiehl eine Karte." in pages and "Fox" not in pages
    assert "print at 100%" in pages  # the sheet's own caption, in English
    assert r.err.count('no "de" translation: they print in English') == 1
    guide = (tmp_path / "kit" / "print-guide.txt").read_text(encoding="utf-8")
    assert guide.startswith("My Game: print-and-play kit, print guide")
    assert "My Game: ein Spiel von Ada." in guide
    # A text of the game's own missing in that language is the designer's to write.
    game.write_text(text.replace(', de = "Eule"', ""), encoding="utf-8")
    r = cli("build", str(game), "--lang", "de", "--out", str(tmp_path / "kit2"))
    assert r.code == 2 and 'cards[1].title: has no "de" text' in r.err, r.err


@pytest.mark.parametrize("lang", ["deutsch", "e1", ""])
def test_a_language_code_is_two_or_three_letters(mygame, cli, tmp_path, lang):
    r = cli("build", str(mygame), "--lang", lang, "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "--lang: " in r.err and "is not a language code" in r.err


def test_a_language_code_in_capitals_is_read_in_small_letters(mygame, cli, tmp_path):
    r = cli("build", str(mygame), "--lang", "DE", "--out", str(tmp_path / "kit"))
    assert r.code == 2 and 'has no "de" text' in r.err, r.err


def test_watch_mode_says_a_warning_once_not_at_every_rebuild(mygame, tmp_path):
    """The back's name is under 4.5:1 (a warning at 14.4 pt: not large text, as WCAG
    counts it); a rebuild that keeps it says so in one line, and shows only what is new."""
    mygame.write_text(mygame.read_text(encoding="utf-8").replace("size = 0.1\n", "size = 0.08\n"),
                      encoding="utf-8")
    with watching(str(mygame), "--out", str(tmp_path / "kit")) as w:
        n = w.wait_for("watching")
        assert sum("warning: " in line and "contrast" in line for line in w.lines[:n]) == 1
        mygame.write_text(mygame.read_text(encoding="utf-8").replace('"Fox"', '"Vixen"'),
                          encoding="utf-8")
        m = w.wait_for("watching", w.wait_for("rebuilding", n))
        assert not any("contrast" in line for line in w.lines[n:m])
        assert any("1 warning as before" in line for line in w.lines[n:m])
