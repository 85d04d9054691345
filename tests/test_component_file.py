"""A component's `file` is a plain file name in the kit (issue 50): a game file travels
between designers, and building someone's game never writes outside its kit, over the
kit's own files, nor into its staging folder. Anything else is one line naming the game
file and `components.NAME.file`, exit 2, and nothing written anywhere."""

import pytest


def _with_file(game, value: str) -> None:
    text = game.read_text(encoding="utf-8")
    at = "[components.aids]\n"
    assert at in text
    game.write_text(text.replace(at, at + f"file = {value}\n", 1), encoding="utf-8")


def _files(root) -> set:
    return {p.relative_to(root) for p in root.rglob("*")}


@pytest.mark.parametrize("value, said", [
    ('"../../outside-kit.pdf"', "names a folder"),
    ('"/tmp/victim.pdf"', "names a folder"),
    ('"sub/x.pdf"', "names a folder"),
    ('"..\\\\x.pdf"', "names a folder"),
    ('"boxes.pdf"', "the kit's own file of tuck boxes"),
    ('"Boxes"', "the kit's own file of tuck boxes"),
    ('"a\\u0000b.pdf"', "control character"),
    ('"a\\nb.pdf"', "control character"),
    ('".."', "does not start with a dot"),
    ('".hidden.pdf"', "does not start with a dot"),
    ('""', "no file name"),
])
def test_a_file_that_is_not_a_plain_name_is_refused_and_nothing_written(
        starter, cli, tmp_path, value, said):
    _with_file(starter, value)
    victim = tmp_path / "victim-elsewhere.pdf"
    victim.write_bytes(b"mine")
    before = _files(tmp_path)
    r = cli("build", starter, "--out", tmp_path / "out" / "kit", "--draft")
    assert r.code == 2, r.err
    line = r.err.strip()
    assert len(line.splitlines()) == 1
    assert "moth-lanterns.toml" in line and "components.aids.file" in line, line
    assert said in line, line
    assert _files(tmp_path) == before  # nothing written anywhere: no kit, no folder
    assert victim.read_bytes() == b"mine"


def test_a_plain_name_builds_into_the_kit(starter, cli, tmp_path):
    _with_file(starter, '"player aids"')
    r = cli("build", starter, "--out", tmp_path / "kit", "--draft")
    assert r.code == 0, r.err
    assert (tmp_path / "kit" / "player aids.pdf").is_file()
    assert (tmp_path / "kit" / "boxes.pdf").is_file()
