"""End to end: a Covenia build with 3 mm bleed turns its cards to fit 8 a sheet on A4 and
6 on Letter, and its tokens keep a gap between their bleeds."""

import json
import re
import tomllib

import pytest
from pypdf import PdfReader

from companion.files import paths
from companion.press import presets
from companion.text.units import mm


def backs_drawn(page) -> int:
    """How many repeated backs (PDF forms) a page paints."""
    return len(re.findall(rb"/\S+ Do\b", page.get_contents().get_data()))


@pytest.mark.parametrize("paper,per_sheet", [("a4", 8), ("letter", 6)])
def test_covenia_with_3mm_bleed_prints_8_cards_a_sheet_on_a4_and_6_on_letter(
        tmp_path, cli, paper, per_sheet):
    r = cli("build", "covenia", "--bleed", "3mm", "--paper", paper, "--out", tmp_path)
    assert r.code == 0, r.err
    cards = next(f for f in json.loads((tmp_path / "manifest.json").read_text())["files"]
                 if f["path"] == "cards.pdf")
    count = sum(c["count"] for c in cards["components"])
    assert cards["pages"] == 2 * -(-count // per_sheet)
    pdf = PdfReader(tmp_path / "cards.pdf")
    assert backs_drawn(pdf.pages[1]) == per_sheet  # the first sheet's backs: all full
    assert f"{per_sheet} " in (tmp_path / "print-guide.txt").read_text()


def cut_xs(page) -> list[float]:
    """The x of every vertical crop mark on a front page, left to right (the marks are
    drawn first, in one saved state)."""
    marks = page.get_contents().get_data().split(b"Q")[0]
    lines = re.findall(rb"n ([\d.]+) [\d.]+ m ([\d.]+) [\d.]+ l S", marks)
    return sorted({round(float(a), 2) for a, b in lines if a == b})


@pytest.mark.parametrize("bleed", [0, 3])
def test_lugvanion_tokens_keep_a_gap_between_their_bleeds_only_with_bleed(tmp_path, cli, bleed):
    r = cli("build", "lugvanion", "--only", "tokens", "--bleed", f"{bleed}mm", "--out", tmp_path)
    assert r.code == 0, r.err
    size = presets.parse_size(tomllib.loads(
        (paths.LAYOUTS / "lugvanion.toml").read_text())["tokens"]["size"])[0]
    xs = cut_xs(PdfReader(tmp_path / "tokens.pdf").pages[0])
    steps = [b - a for a, b in zip(xs, xs[1:])]
    if bleed:  # each token's two cut lines, then its bleed, the gap, the next one's bleed
        gap = 2 * mm(bleed) + presets.sheet_settings().token_gap
        assert steps == pytest.approx([size, gap] * (len(xs) // 2 - 1) + [size], abs=0.02)
    else:  # tokens share cut lines
        assert steps == pytest.approx([size] * (len(xs) - 1), abs=0.02)
