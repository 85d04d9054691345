"""The command line on terminals and systems unlike the developer's: output that is not
UTF-8, and messages that carry control characters from the user's files."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EMMA = (Path(__file__).parent / "data" / "covenia-rulebook.toml").read_text(encoding="utf-8")


def run(args, encoding, tmp_path, stdin=None):
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONUTF8": "0"}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          env=env, cwd=tmp_path, input=stdin, timeout=60)


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
@pytest.mark.parametrize("args", [
    ["lugvanion", "odds", "red=3", "blue=2", "green=2", "yellow=1"],  # bars of █
    ["score", "covenia", "game.toml", "--lang", "fr"],               # é, narrow spaces
    ["serve", "--help"],
])
def test_output_that_is_not_utf8_never_crashes_the_command(args, encoding, tmp_path):
    (tmp_path / "game.toml").write_text(EMMA, encoding="utf-8")
    r = run(args, encoding, tmp_path)
    assert r.returncode == 0, r.stderr.decode(encoding, "replace")
    assert b"Traceback" not in r.stderr and r.stdout


def test_control_characters_in_a_file_are_escaped_in_the_message(tmp_path):
    (tmp_path / "game.toml").write_text('"\\u001b[2J\\u001b[31mred" = 1\n', encoding="utf-8")
    r = run(["score", "covenia", "game.toml"], "utf-8", tmp_path)
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "\x1b" not in err and len(err.strip().splitlines()) == 1, err


def test_toml_times_are_shown_as_written_not_as_python_reprs(tmp_path, cli):
    from companion.files import paths

    data = paths.layout("covenia.toml").read_text(encoding="utf-8")
    (tmp_path / "d.toml").write_text(data.replace('colour = "#C0392B"', "colour = 07:32:00", 1),
                                     encoding="utf-8")
    r = cli("build", "covenia", "--data", tmp_path / "d.toml", "--out", tmp_path / "o")
    assert r.code == 2 and "07:32:00" in r.err and "datetime" not in r.err, r.err


def test_a_file_nested_thousands_deep_is_one_line_not_a_recursion_error(tmp_path, cli):
    (tmp_path / "deep.toml").write_text("a" + ".a" * 5000 + " = 1\n")
    (tmp_path / "arrays.toml").write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    for name in ("deep.toml", "arrays.toml"):
        r = cli("score", "covenia", tmp_path / name)
        assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
        assert "nested" in r.err and "Recursion" not in r.err


@pytest.mark.parametrize("key", ['a' + '.a' * 40, '"x" . ' * 40 + '"y"', "a.'b'." * 20 + "c"])
def test_a_dotted_key_too_long_is_refused_before_the_toml_parser_sees_it(key, monkeypatch):
    # tomllib's cost grows with the square of a key's parts: 100,000 parts took 12 GB.
    from companion.files import data
    from companion.errors import CompanionError

    def parser_must_not_run(text):
        raise AssertionError("parsed")

    monkeypatch.setattr(data.tomllib, "loads", parser_must_not_run)
    with pytest.raises(CompanionError, match="nested over 32 levels"):
        data.parse_toml(f"{key} = 1\n", "deep.toml")


def test_texts_with_dots_are_not_taken_for_dotted_keys():
    from companion.files import data

    text = 'a = "' + "Draw. Play. " * 40 + '"\nb.c.d = "1.2.3.4.5.6.7.8"\n'
    assert data.parse_toml(text, "t.toml")["b"]["c"]["d"] == "1.2.3.4.5.6.7.8"


def test_a_long_word_or_number_is_read_once_not_once_per_letter(tmp_path):
    # Guards against a hang (a check quadratic in a word's length took hours on 1 MB),
    # with a limit thousands of times what it takes.
    for body in ("x = " + "1" * 990_000, "a" * 990_000 + " = 1", "a-b-" * 240_000 + " = 1"):
        (tmp_path / "big.toml").write_text(body)
        r = subprocess.run([sys.executable, "-m", "companion", "score", "covenia",
                            str(tmp_path / "big.toml")], capture_output=True, text=True,
                           timeout=60, cwd=tmp_path)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_number_too_long_for_python_is_one_line(tmp_path, cli):
    (tmp_path / "n.toml").write_text("decks = " + "1" * 5000 + "\n")
    r = cli("score", "covenia", tmp_path / "n.toml")
    assert r.code == 2 and "n.toml: not valid TOML" in r.err and "Traceback" not in r.err
