"""`companion init`: an installed user's way to the data behind a kit."""

import pytest

from companion.files import paths


def test_init_copies_the_bundled_data_and_the_copy_builds_the_same_kit(tmp_path, cli,
                                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("init", "lugvanion")
    assert r.code == 0, r.err
    copy = tmp_path / "lugvanion" / "lugvanion.toml"
    assert copy.read_bytes() == paths.layout("lugvanion.toml").read_bytes()  # comments too
    assert "companion build lugvanion --data" in r.out
    a = cli("build", "lugvanion", "--only", "aids", "--out", tmp_path / "a")
    b = cli("build", "lugvanion", "--only", "aids", "--out", tmp_path / "b", "--data", copy)
    assert a.code == b.code == 0
    for f in (tmp_path / "a").iterdir():
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name


def test_init_never_overwrites_an_edited_copy(tmp_path, cli):
    (tmp_path / "covenia.toml").write_text("# my edits\n")
    r = cli("init", "covenia", tmp_path)
    assert r.code == 2 and "already exists" in r.err
    assert (tmp_path / "covenia.toml").read_text() == "# my edits\n"


def test_init_of_an_unknown_game_writes_nothing(tmp_path, cli):
    r = cli("init", "chess", tmp_path / "x")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
@pytest.mark.parametrize("game", ["covenia", "lugvanion", "coverta", "vengeance"])
def test_init_with_sheets_then_build_reproduces_the_default_kit(tmp_path, cli, game, kind):
    r = cli("init", game, tmp_path / "proto", "--spreadsheets", kind)
    assert r.code == 0, r.err
    toml = (tmp_path / "proto" / f"{game}.toml").read_text(encoding="utf-8")
    assert "spreadsheet = " in toml and toml.startswith("#")  # lists moved out, comments kept
    from companion.files import paths

    bundled = paths.layout(f"{game}.toml").read_text(encoding="utf-8")
    guides = [ln for ln in bundled.splitlines() if ln.startswith("#")]
    assert [ln for ln in guides if ln not in toml.splitlines()] == []  # every guide line
    sheets = list((tmp_path / "proto").glob(f"*.{kind}"))
    assert sheets
    a = cli("build", game, "--out", tmp_path / "a")
    b = cli("build", game, "--out", tmp_path / "b", "--data", tmp_path / "proto" / f"{game}.toml")
    assert a.code == b.code == 0, b.err
    for f in (tmp_path / "a").glob("*.pdf"):
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name
