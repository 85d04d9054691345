"""`companion export` at the command line: bad input is one line naming the field, exit
status 2 and nothing written; a failure while writing leaves the previous export whole."""

import errno
import json

import pytest

from companion import export as exports

BAD = [
    (["covenia", "jpeg"], "FORMAT"),
    (["covenia", "png", "--dpi", "71"], "--dpi"),
    (["covenia", "png", "--dpi", "1201"], "--dpi"),
    (["covenia", "png", "--dpi", "0"], "--dpi"),
    (["covenia", "png", "--dpi", "many"], "--dpi"),
    (["covenia", "png", "--shop", "kinkos"], "--shop"),
    (["covenia", "png", "--shop", "tgc", "--card-size", "euro"], "--card-size"),
    (["covenia", "png", "--shop", "mpc", "--card-size", "square"], "--card-size"),
    (["covenia", "png", "--shop", "mpc", "--card-size", "63x88mm"], "--card-size"),
    (["covenia", "png", "--shop", "tgc", "--dpi", "600"], "--dpi"),
    (["covenia", "png", "--shop", "tgc", "--bleed", "3mm"], "--bleed"),
    (["covenia", "tts", "--dpi", "300"], "--dpi"),
    (["covenia", "preview", "--bleed", "3mm"], "--bleed"),
    (["covenia", "cards-pdf", "--shop", "tgc"], "--shop"),
    (["covenia", "png", "--bleed", "3"], "--bleed"),
    (["covenia", "png", "--bleed", "11mm"], "--bleed"),
    (["covenia", "png", "--card-size", "1000x1000mm", "--dpi", "1200"], "--dpi"),
    (["covenia", "png", "--only", "scorebook"], "--only"),
    (["covenia", "png", "--only", "dice"], "--only"),
    (["covenia", "png", "--lang", "de"], "--lang"),
    (["chess", "png"], "GAME"),
    (["all", "png", "--data", "x.toml"], "--data"),
]


def one_line(r) -> bool:
    lines = r.err.strip().splitlines()
    return r.code == 2 and len(lines) == 1 and "Traceback" not in r.err


@pytest.mark.parametrize("args,field", BAD)
def test_bad_input_is_one_line_naming_the_field_exit_2_and_nothing_written(tmp_path, cli,
                                                                           args, field):
    out = tmp_path / "out" / "export"
    r = cli("export", *args, "--out", out)
    assert one_line(r), r.err
    assert field in r.err
    assert not (tmp_path / "out").exists()


def test_bad_input_leaves_an_earlier_export_untouched(tmp_path, cli):
    out = tmp_path / "p"
    assert cli("export", "coverta", "preview", "--only", "memo", "--out", out).code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    r = cli("export", "coverta", "png", "--dpi", "5000", "--only", "memo", "--out", out)
    assert one_line(r)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_failure_while_writing_is_one_line_and_keeps_the_earlier_export(tmp_path, cli,
                                                                         monkeypatch):
    out = tmp_path / "p"
    assert cli("export", "coverta", "png", "--dpi", "72", "--out", out).code == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "faces.pdf")

    monkeypatch.setattr("companion.export.raster.run", full)
    r = cli("export", "coverta", "png", "--dpi", "100", "--out", out)
    assert one_line(r) and "No space left on device" in r.err
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert not [p for p in tmp_path.iterdir() if ".staging-" in p.name]  # nothing left aside


def test_a_folder_of_someone_elses_files_is_refused(tmp_path, cli):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    r = cli("export", "coverta", "preview", "--out", out)
    assert one_line(r) and "--out" in r.err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_export_writes_a_manifest_listing_every_file(tmp_path, cli):
    out = tmp_path / "c"
    r = cli("export", "coverta", "cards-pdf", "--only", "memo,aids", "--out", out)
    assert r.code == 0, r.err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format"] == "cards-pdf" and manifest["game"] == "coverta"
    assert manifest["files"] == sorted(p.relative_to(out).as_posix()
                                       for p in out.rglob("*") if p.is_file())
    assert "guide.txt" in manifest["files"]
    assert f"{out}/" in r.out and "memo (2 cards)" in r.out


def test_the_default_folder_is_in_the_kit_and_survives_a_build(tmp_path, cli, monkeypatch):
    """Exports go to output/GAME/FORMAT; a build replaces output/GAME whole but keeps the
    exports in it, before or after the kit was built."""
    monkeypatch.chdir(tmp_path)
    assert cli("export", "coverta", "preview", "--only", "memo").code == 0
    assert (tmp_path / "output" / "coverta" / "preview" / "memo.png").is_file()
    assert cli("build", "coverta", "--only", "memo").code == 0
    assert (tmp_path / "output" / "coverta" / "manifest.json").is_file()
    assert (tmp_path / "output" / "coverta" / "preview" / "memo.png").is_file()
    assert cli("build", "coverta", "--only", "rules").code == 0
    assert (tmp_path / "output" / "coverta" / "preview" / "memo.png").is_file()
    assert cli("export", "coverta", "png", "--only", "memo").code == 0
    assert (tmp_path / "output" / "coverta" / "preview" / "memo.png").is_file()
    assert exports.default_out("coverta", "png") == tmp_path / "output" / "coverta" / "png"


def test_all_games_each_in_their_own_folder(tmp_path, cli):
    r = cli("export", "all", "preview", "--only", "aids", "--out", tmp_path / "all")
    assert r.code == 0, r.err
    assert sorted(p.name for p in (tmp_path / "all").iterdir() if p.is_dir()) == sorted(
        ["covenia", "lugvanion", "vengeance", "coverta"])


def test_french_guides_and_faces(tmp_path, cli):
    out = tmp_path / "fr"
    assert cli("export", "coverta", "tts", "--lang", "fr", "--only", "memo", "--out", out).code == 0
    assert "copiez" in (out / "guide.txt").read_text()
    assert json.loads((out / "manifest.json").read_text())["lang"] == "fr"
