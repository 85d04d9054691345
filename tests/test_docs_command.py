"""The reference from any installation (issue 56): `companion docs` says where README.md
and docs/ are and lists the pages, `companion docs PAGE` prints one; `companion icc FILE`
writes the CMYK profile the pdfx export embeds, which docs/pdfx.md's `--icc` example
uses. That a wheel carries the reference is tests/test_distributions.py's."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_docs_lists_every_page_of_the_reference_with_its_title(cli):
    r = cli("docs")
    assert r.code == 0, r.err
    first, *rows = r.out.splitlines()
    assert first.startswith(f"{ROOT}: README.md and docs/")
    names = {row.split()[0] for row in rows}
    assert names == {"README"} | {p.stem for p in (ROOT / "docs").glob("*.md")}
    assert any(row.split()[0] == "map" and "Where things are" in row for row in rows)


def test_docs_prints_a_page_as_written(cli):
    r = cli("docs", "pdfx")
    assert r.code == 0 and r.out == (ROOT / "docs" / "pdfx.md").read_text(encoding="utf-8")
    assert cli("docs", "README.md").out == (ROOT / "README.md").read_text(encoding="utf-8")


def test_an_unknown_page_is_one_line_naming_the_pages(cli):
    r = cli("docs", "pdf-x")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert '"pdf-x"' in r.err and "pdfx" in r.err and "own-game" in r.err


def test_the_reference_of_an_installed_wheel_is_found_in_its_data_folder(tmp_path,
                                                                            monkeypatch):
    """Installed from a wheel, the package has no docs/ beside it: the reference is under
    the environment's data folder, share/doc/table-companion/ (pyproject's data-files)."""
    import sysconfig

    from companion.files import paths

    installed = tmp_path / paths.DOCS
    (installed / "docs").mkdir(parents=True)
    (installed / "docs" / "map.md").write_text("# Where things are\n", encoding="utf-8")
    monkeypatch.setattr(paths, "__file__", str(tmp_path / "site" / "companion" / "files"
                                               / "paths.py"))
    monkeypatch.setattr(sysconfig, "get_path", lambda name, scheme=None: str(tmp_path))
    assert paths.docs() == installed
    (installed / "docs" / "map.md").unlink()
    assert paths.docs() is None


def test_icc_writes_the_profile_the_pdfx_export_embeds(cli, tmp_path):
    from companion.press import cmyk

    target = tmp_path / "MyPress.icc"
    r = cli("icc", target)
    assert r.code == 0, r.err
    assert target.read_bytes() == cmyk.shipped().read_bytes()
    assert "--icc" in r.out
