"""--ink saver: light backs and pale grounds, every text still legible."""

import pytest

from tests.conftest import GAMES


def darkness(pdf, page: int) -> float:
    """Ink on a page: 0 white, 1 black (mean of 1 - grey, rendered at 30 dpi)."""
    import pypdfium2
    from PIL import ImageStat

    im = pypdfium2.PdfDocument(str(pdf))[page].render(scale=30 / 72).to_pil().convert("L")
    return 1 - ImageStat.Stat(im).mean[0] / 255


@pytest.mark.parametrize("game", GAMES)
def test_saver_back_sheets_are_at_most_15_percent_dark(tmp_path, cli, game):
    r = cli("build", game, "--ink", "saver", "--out", tmp_path / "saver")
    assert r.code == 0 and "warning" not in r.err, r.err  # every text keeps its contrast
    assert cli("build", game, "--out", tmp_path / "normal").code == 0
    pdf = "cards.pdf"
    import pypdfium2

    pages = len(pypdfium2.PdfDocument(str(tmp_path / "saver" / pdf)))
    saver = [darkness(tmp_path / "saver" / pdf, i) for i in range(1, pages, 2)]
    normal = [darkness(tmp_path / "normal" / pdf, i) for i in range(1, pages, 2)]
    assert max(saver) <= 0.15, max(saver)
    assert max(normal) > 0.45  # the dark backs it spares


def test_the_guide_says_how_to_save_ink_and_when_it_was_used(tmp_path, cli):
    assert cli("build", "covenia", "--only", "tokens", "--out", tmp_path / "a").code == 0
    assert "--ink saver" in (tmp_path / "a" / "print-guide.txt").read_text()
    assert cli("build", "covenia", "--only", "tokens", "--ink", "saver",
               "--out", tmp_path / "b").code == 0
    assert "Ink saver (--ink saver)" in (tmp_path / "b" / "print-guide.txt").read_text()


def test_an_unknown_ink_is_one_line(tmp_path, cli):
    r = cli("build", "covenia", "--ink", "cheap", "--out", tmp_path / "o")
    assert r.code == 2 and "--ink" in r.err and not (tmp_path / "o").exists()
