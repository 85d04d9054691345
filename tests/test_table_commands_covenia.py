"""`companion score covenia`: --save checks before it writes, writes TOML that reads back
(any name), refuses what is not text at the prompt, names every bad field (issue 11)."""

import json
import tomllib
from pathlib import Path

import pytest

RULEBOOK = Path(__file__).parent / "data" / "covenia-rulebook.toml"
TYPED = ["2", "Zoé🎲", "Laurence", "", "1 4 6", "2,8", "3", "4 5", "1 2 3",
         "yellow 5, green 9, purple 9", "5", "", "4 7", "6", "", "r3"]


def test_save_writes_nothing_when_the_file_does_not_score(tmp_path, cli):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\nname = "A"\narea = { red = [12] }\n[[players]]\nname = "B"\n')
    out = tmp_path / "out.toml"
    out.write_text("# last week's game\n")
    r = cli("score", "covenia", bad, "--save", out)
    assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err
    assert out.read_text() == "# last week's game\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml", "out.toml"]


@pytest.mark.parametrize("body", [
    'players = 5\n', 'players = [1, 2]\n', '[[players]]\nname = 5\n[[players]]\nname = "B"\n',
    '[[players]]\nname = "A"\narea = 3\n[[players]]\nname = "B"\n',
    '[[players]]\nname = "A"\nhand = { red = "3" }\n[[players]]\nname = "B"\n',
    'decks = 1979-05-27\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n',
])
def test_save_of_a_file_of_the_wrong_shape_exits_2_without_writing(tmp_path, cli, body):
    f = tmp_path / "game.toml"
    f.write_text(body)
    out = tmp_path / "out.toml"
    r = cli("score", "covenia", f, "--save", out)
    assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err
    assert not out.exists()


@pytest.mark.parametrize("pdf_args", [("--pdf", "s.pdf", "--paper", "legal"),
                                      ("--pdf", "no-such-folder/s.pdf")])
def test_save_keeps_its_old_file_when_the_pdf_beside_it_fails(tmp_path, cli, monkeypatch,
                                                              pdf_args):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out.toml"
    out.write_text("# last week's game\n")
    r = cli("score", "covenia", RULEBOOK, "--save", out, *pdf_args)
    assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err, r.err
    assert out.read_text() == "# last week's game\n"


def test_save_copies_a_file_that_scores_and_it_scores_the_same(tmp_path, cli):
    out = tmp_path / "copy.toml"
    r = cli("score", "covenia", RULEBOOK, "--save", out, "--json")
    assert r.code == 0
    assert cli("score", "covenia", out, "--json").out == r.out


def test_an_emoji_name_typed_in_round_trips_through_the_saved_file(tmp_path, cli):
    save = tmp_path / "game.toml"
    r = cli("score", "covenia", "--save", save, "--json", stdin="\n".join(TYPED) + "\n")
    assert r.code == 0, r.err
    assert tomllib.loads(save.read_text(encoding="utf-8"))["players"][0]["name"] == "Zoé🎲"
    again = cli("score", "covenia", save, "--json")
    assert again.code == 0 and again.out == r.out
    assert json.loads(again.out)["players"][0]["name"] == "Zoé🎲"


@pytest.mark.parametrize("bad", ["\ud83c", "Zo\udce9", "Emma\x1b[2J", "A\x00"])
def test_a_name_that_is_not_plain_text_is_asked_again(tmp_path, cli, bad):
    save = tmp_path / "game.toml"
    lines = TYPED[:1] + [bad] + TYPED[1:]
    r = cli("score", "covenia", "--save", save, stdin="\n".join(lines) + "\n")
    assert r.code == 0, r.err
    assert "not plain text" in r.err
    tomllib.loads(save.read_text(encoding="utf-8"))


@pytest.mark.parametrize("bad", ["1 ² 6", "1 ٣", "yellow ²", "9" * 5000, "1 40", "y 5 ☃"])
def test_values_typed_are_ascii_numbers_1_to_10_and_bad_lines_are_asked_again(tmp_path,
                                                                               cli, bad):
    lines = TYPED[:4] + [bad] + TYPED[4:]
    if bad.startswith(("y", "yellow")):  # a bad hand line: put it where the hand is asked
        lines = TYPED[:9] + [bad] + TYPED[9:]
    r = cli("score", "covenia", "--json", stdin="\n".join(lines) + "\n")
    assert r.code == 0, r.err
    assert "Traceback" not in r.err and "invalid literal" not in r.err
    assert json.loads(r.out)["players"][0]["total"] == 62


def test_messages_show_values_as_toml_and_escape_control_characters(tmp_path, cli):
    f = tmp_path / "game.toml"
    f.write_text('decks = 07:32:00\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n')
    r = cli("score", "covenia", f)
    assert r.code == 2 and "07:32:00 is not a deck choice" in r.err and "datetime" not in r.err
    f.write_text('[[players]]\nname = "A"\narea = { "r\\u001b[2Jd" = [1] }\n'
                 '[[players]]\nname = "B\\u0007"\n')
    r = cli("score", "covenia", f)
    assert r.code == 2 and "\x1b" not in r.err and "r\\x1b[2Jd" in r.err
    f.write_text('[[players]]\nname = "A"\n[[players]]\nname = "B\\u0007"\n')
    r = cli("score", "covenia", f)
    assert r.code == 2 and 'players[1].name: "B\\x07": a name cannot hold' in r.err


def test_unknown_fields_are_named(tmp_path, cli):
    f = tmp_path / "game.toml"
    f.write_text('[[players]]\nname = "A"\nhadn = { red = [3] }\n[[players]]\nname = "B"\n')
    r = cli("score", "covenia", f)
    assert r.code == 2 and 'players[0] "A".hadn: unknown field' in r.err
