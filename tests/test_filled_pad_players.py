"""The filled score pad (`companion score GAME SCORES --pdf`) holds every player up to the
100 a game allows (issue 50): as many pages as it takes, at most 8 players a page, each
page explaining its own players; a name too wide for its column shortened there with a
key (the player's number) that the explanations repeat before the full name; a player
whose explanation cannot fit under the table refused, naming the limit."""

import shutil
import subprocess

import pytest

from companion.errors import CompanionError
from companion.games import filled_pad


def _text(pdf) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler's pdftotext")
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def _pages(pdf) -> int:
    return _text(pdf).count("\f")


def _players(n: int, name="Zorbanelli{i:03d}-Quaxwhistle") -> str:
    return "\n".join(f'[[players]]\nname = "{name.format(i=i)}"\ncreatures = {i % 17}\n'
                     f"pairs = {i % 5}\n" for i in range(1, n + 1))


def test_a_pad_of_100_players_lists_all_100_names(starter, cli, tmp_path):
    scores = tmp_path / "s.toml"
    scores.write_text(_players(100), encoding="utf-8")
    pdf = tmp_path / "pad.pdf"
    r = cli("score", starter, scores, "--pdf", pdf, "--json")
    assert r.code == 0, r.err
    text = _text(pdf)
    found = {w for w in text.split() if w.startswith("Zorbanelli")}
    assert {f"Zorbanelli{i:03d}-Quaxwhistle" for i in range(1, 101)} <= \
        {w.rstrip(":") for w in found}
    assert _pages(pdf) == 13  # 8 players a page
    for i in (1, 57, 100):  # the key before each full name in the explanations
        assert f"{i}. Zorbanelli{i:03d}-Quaxwhistle" in " ".join(text.split())


def test_short_names_are_not_shortened_and_one_page_holds_up_to_8(starter, cli, tmp_path):
    scores = tmp_path / "s.toml"
    scores.write_text(_players(8, "P{i}"), encoding="utf-8")
    pdf = tmp_path / "pad.pdf"
    assert cli("score", starter, scores, "--pdf", pdf).code == 0
    text = _text(pdf)
    assert _pages(pdf) == 1 and "1. P1" not in text and "…" not in text
    assert all(f"P{i}" in text.split() for i in range(1, 9))


def test_every_head_fits_its_column():
    from companion.draw import text

    names = [f"Name{i}-" + "W" * 30 for i in range(12)]
    filled = {"names": names, "scoring": [{"values": list(range(12))}], "faction_rows": [],
              "total": {"values": list(range(12))}, "report": [f"{n}: 1" for n in names],
              "pad_rows": 3}
    room = 40.0
    keys = {i: f"{i + 1}." for i in range(12)}
    sheets = filled_pad.pages(filled, 12, keys, room, (500.0, 400.0))
    assert [len(s["names"]) for s in sheets] == [8, 4]
    for s in sheets:
        for head in s["names"]:
            assert text.width(head, "bold", filled_pad.HEAD_PT) <= room, head
    assert sheets[1]["names"][0].startswith("9. ") and sheets[1]["total"]["values"] == \
        [8, 9, 10, 11]


def test_an_explanation_too_long_for_any_page_is_refused_naming_the_limit():
    filled = {"names": ["Ana"], "scoring": [{"values": [1]}], "faction_rows": [],
              "total": {"values": [1]}, "report": ["Ana: " + "Creatures 1; " * 3000],
              "pad_rows": 3}
    with pytest.raises(CompanionError, match="player 1 does not fit under the pad's table"):
        filled_pad.pages(filled, 1, {}, 100.0, (500.0, 300.0))


def test_a_pad_of_rounds_and_factions_splits_every_row_by_page(starter, cli, tmp_path):
    from tests.test_own_score_pad import TIDE_GAME, TIDEWRIGHT, _scoring

    _scoring(starter, TIDEWRIGHT, TIDE_GAME)
    sides = ("Otters", "Crabs", "Gulls", "Seals")
    scores = tmp_path / "s.toml"
    scores.write_text("\n".join(
        f'[[players]]\nname = "Q{i}"\nfaction = "{sides[i % 4]}"\ncrowns = [{i % 4}, 1, 0]\n'
        f"pearls = [1, {i % 3}, 0]\nboats = [0, 1, {i % 2}]\nhand = [0, 0, {i % 5}]\n"
        for i in range(1, 21)), encoding="utf-8")
    pdf = tmp_path / "pad.pdf"
    r = cli("score", starter, scores, "--pdf", pdf)
    assert r.code == 0, r.err
    text = _text(pdf)
    assert _pages(pdf) == 3  # 8 + 8 + 4
    words = text.split()
    assert all(f"Q{i}" in words or f"Q{i}:" in words or any(w.startswith(f"Q{i}")
                                                          for w in words)
               for i in range(1, 21))
