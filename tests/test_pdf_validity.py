"""The kit's PDFs checked by the tools printers and prepress use (poppler, qpdf)."""

import subprocess

import pytest


def run(*cmd: str) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("fixture", ["kit_a4_en", "kit_letter_fr"])
def test_every_pdf_passes_qpdf_check(request, fixture):
    out, manifest = request.getfixturevalue(fixture)
    for f in manifest["files"]:
        assert "No syntax or stream encoding errors" in run("qpdf", "--check", str(out / f["path"]))


@pytest.mark.parametrize("fixture", ["kit_a4_en", "kit_letter_fr"])
def test_pdffonts_lists_only_embedded_subset_fonts(request, fixture):
    out, manifest = request.getfixturevalue(fixture)
    for f in manifest["files"]:
        rows = run("pdffonts", str(out / f["path"])).splitlines()[2:]
        assert rows, f["path"]
        for row in rows:
            cols = row.split()
            assert cols[-5:-3] == ["yes", "yes"], row  # emb, sub
            assert "Helvetica" not in row


def test_pages_render_to_images_with_poppler(kit_a4_en, tmp_path):
    out, _ = kit_a4_en
    run("pdftoppm", "-r", "20", "-png", "-f", "1", "-l", "2", str(out / "cards.pdf"),
        str(tmp_path / "p"))
    assert len(list(tmp_path.glob("p-*.png"))) == 2
