"""Issue 56: a newcomer's mistakes named where they were made. A colour typo in [game] is
named at `game.accent`, not at each element using it; a CSV's unclosed quote is named as
such, at its row; a bag's colour that is no team's is refused with the nearest team; a
game's folder stands for the game file named after it."""

import pytest


def _replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_colour_typo_in_game_is_named_where_it_was_written(starter, cli, tmp_path):
    _replace(starter, 'accent = "#1D6F8C"', 'accent = "#1D6F8"')
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2, r.err
    assert 'game.accent: "#1D6F8" is not a colour' in r.err, r.err
    assert "kinds." not in r.err and len(r.err.strip().splitlines()) == 1


def test_an_unclosed_quote_in_a_csv_is_named_at_its_row(starter, cli, tmp_path):
    cards = starter.parent / "cards.csv"
    lines = cards.read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2].replace(",", ',"', 1)
    cards.write_text("\n".join(lines), encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2, r.err
    assert "cards.csv, row 3" in r.err and "never closes" in r.err, r.err
    assert "blank" not in r.err


def test_quotes_that_close_and_texts_over_several_lines_still_read(starter, cli, tmp_path):
    cards = starter.parent / "cards.csv"
    lines = cards.read_text(encoding="utf-8").split("\n")
    cells = lines[2].split(",")
    cells[2] = '"Regrows what ""it"" loses,\nslowly."'
    lines[2] = ",".join(cells)
    cards.write_text("\n".join(lines), encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err


@pytest.mark.parametrize("word, said", [("blu", "did you mean blue?"),
                                        ("purple", "Lugvanion's are blue, green, red, yellow")])
def test_a_bag_colour_that_is_no_team_is_refused_not_counted(cli, word, said):
    r = cli("lugvanion", "odds", "red=3", f"{word}=2", "green=2", "yellow=1")
    assert r.code == 2 and said in r.err and "BAG" in r.err, r.err


def test_a_bag_may_name_the_teams_in_french(cli):
    english = cli("lugvanion", "odds", "red=3", "blue=2", "green=2", "yellow=1", "--json")
    french = cli("lugvanion", "odds", "rouge=3", "bleu=2", "vert=2", "jaune=1", "--json")
    assert french.code == 0 and french.out == english.out


def test_a_games_folder_builds_the_game_file_named_after_it(starter, cli, tmp_path):
    r = cli("build", str(starter.parent) + "/", "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert (tmp_path / "kit" / "cards.pdf").is_file()


def test_a_folder_without_its_game_file_names_what_it_holds(starter, cli, tmp_path):
    starter.rename(starter.parent / "other.toml")
    r = cli("build", str(starter.parent), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "is a folder: give its game file" in r.err, r.err
    assert "moth-lanterns/other.toml" in r.err


def test_a_colour_name_one_typo_away_names_the_games_colour(starter, cli, tmp_path):
    _replace(starter, 'fill = "accent"', 'fill = "acent"')
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and '"acent" is not a colour' in r.err, r.err
    assert r.err.rstrip().endswith("did you mean accent?"), r.err
