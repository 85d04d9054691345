"""The kits' PDFs checked by the tools printers and prepress use (poppler, qpdf)."""

import subprocess

import pytest

from tests import needs
from tests.conftest import GAMES


def run(name: str, *args: str) -> str:
    return subprocess.run([needs.tool(name), *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "fr")])
def test_every_pdf_passes_qpdf_check(kits, game, paper, lang):
    out, manifest = kits(game, paper, lang)
    for f in manifest["files"]:
        assert "No syntax or stream encoding errors" in run("qpdf", "--check", str(out / f["path"]))


@pytest.mark.parametrize("game", GAMES)
def test_pdffonts_lists_only_embedded_subset_fonts(kits, game):
    out, manifest = kits(game)
    for f in manifest["files"]:
        rows = run("pdffonts", str(out / f["path"])).splitlines()[2:]
        assert rows, f["path"]
        for row in rows:
            cols = row.split()
            assert cols[-5:-3] == ["yes", "yes"], row  # emb, sub
            assert "Helvetica" not in row


@pytest.mark.parametrize("game", GAMES)
def test_pages_render_to_images_with_poppler(kits, game, tmp_path):
    out, _ = kits(game)
    run("pdftoppm", "-r", "20", "-png", "-f", "1", "-l", "2", str(out / "cards.pdf"),
        str(tmp_path / "p"))
    assert len(list(tmp_path.glob("p-*.png"))) == 2
