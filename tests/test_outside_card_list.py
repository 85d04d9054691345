"""A card list file outside its data file's folder (`../`, an absolute path, a link leading
out) is refused as a font or an icon outside it is (issue 41), `--strict` or not: a copy
of the folder would build without it. One line naming the game file and the field, exit 2,
nothing written (companion/files/spreadsheet.py's read)."""

import pytest

HOW = ("parent", "absolute", "symlink")


def _outside(starter, how: str) -> str:
    """The starter's cards.csv moved up a folder and named from its game file `how`: the
    name the game file gives it."""
    moved = (starter.parent / "cards.csv").rename(starter.parent.parent / "cards.csv")
    if how == "symlink":
        (starter.parent / "linked.csv").symlink_to(moved)
    where = {"parent": "../cards.csv", "absolute": str(moved), "symlink": "linked.csv"}[how]
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('cards = { spreadsheet = "cards.csv" }',
                                    f'cards = {{ spreadsheet = "{where}" }}', 1), encoding="utf-8")
    return where


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("how", HOW)
def test_a_card_list_outside_the_folder_is_refused_as_a_font_is(starter, cli, tmp_path, how,
                                                                strict):
    named = _outside(starter, how)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"), *(["--strict"] * strict))
    assert r.code == 2, r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err
    assert r.err.startswith(f"companion: {starter}: cards.spreadsheet: {named} is outside the data "
                            "file's folder: keep card lists beside it"), r.err
    assert not (tmp_path / "kit").exists()


def test_a_font_outside_the_folder_is_refused_in_the_same_words(starter, cli, tmp_path):
    (tmp_path / "f.ttf").write_bytes(b"not read")
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text + '\n[fonts]\ntitle = "../f.ttf"\n', encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and r.err.count("\n") == 1, r.err
    assert f"{starter}: fonts.title: ../f.ttf is outside the data file's folder" in r.err
