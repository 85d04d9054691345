"""A card list file outside its data file's folder (`../`, an absolute path, a link leading
out) is read, but a copy of the folder would build without it: the build says so once,
and `--strict` refuses it (exit 2, one line, nothing written), as it does a picture
outside the folder (companion/files/spreadsheet.py's read, companion/kit/__init__.py)."""

import pytest

HOW = ("parent", "absolute", "symlink")


def _outside(starter, how: str):
    """The starter's cards.csv moved up a folder and named from its game file `how`; the
    path the build names it by."""
    moved = (starter.parent / "cards.csv").rename(starter.parent.parent / "cards.csv")
    if how == "symlink":
        (starter.parent / "linked.csv").symlink_to(moved)
    where = {"parent": "../cards.csv", "absolute": str(moved), "symlink": "linked.csv"}[how]
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('cards = { sheet = "cards.csv" }',
                                    f'cards = {{ sheet = "{where}" }}', 1), encoding="utf-8")
    return moved if how == "absolute" else starter.parent / where


@pytest.mark.parametrize("how", HOW)
def test_a_card_list_outside_the_folder_is_said_once(starter, cli, tmp_path, how):
    named = _outside(starter, how)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    said = [line for line in r.err.splitlines() if "outside the data file's folder" in line]
    assert len(said) == 1, r.err
    assert said[0].startswith(f"companion: warning: {named}: a card list outside")
    assert f"named by {starter}: cards.sheet" in said[0] and "--strict refuses it" in said[0]


@pytest.mark.parametrize("how", HOW)
def test_strict_refuses_a_card_list_outside_the_folder(starter, cli, tmp_path, how):
    named = _outside(starter, how)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"), "--strict")
    assert r.code == 2, r.err
    assert r.err.count("\n") == 1 and "Traceback" not in r.err
    assert r.err.startswith(f"companion: --strict: {named}: a card list outside the data "
                            "file's folder")
    assert not (tmp_path / "kit").exists()

