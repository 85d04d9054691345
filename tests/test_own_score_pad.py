"""A designer's own score pad and scorer from end to end (issue 43): the printed pad's
words for every kind of category, its columns and rows, the scores file the CLI reads, and
`companion score GAME SCORES --pdf` filling the pad."""

import json

import pytest

from companion.rules import sheet
from tests.pdfs import page_texts


def _edit(game, old, new):
    text = game.read_text(encoding="utf-8")
    assert old in text, old
    game.write_text(text.replace(old, new, 1), encoding="utf-8")


def _scoring(game, scoring: str, game_keys: str = ""):
    """The game file with its [[scoring]] replaced, and keys added under [game]."""
    text = game.read_text(encoding="utf-8")
    start, end = text.index("[[scoring]]"), text.index("# Where each component goes")
    text = text[:start] + scoring.lstrip() + "\n" + text[end:]
    game.write_text(text.replace("[game]\n", "[game]\n" + game_keys, 1), encoding="utf-8")


def _pad(cli, game, out, *args) -> str:
    r = cli("build", str(game), "--out", str(out), *args)
    assert r.code == 0, r.err
    return page_texts(out / "scorepad.pdf")[0]


def test_an_each_category_with_its_points_left_to_the_default_builds(starter, cli, tmp_path):
    _edit(starter, "points = 1                  # ... 1 point each\n", "")
    assert "count × 1" in _pad(cli, starter, tmp_path / "kit", "--strict")
    assert "nombre × 1" in _pad(cli, starter, tmp_path / "fr", "--strict", "--lang", "fr")
