"""Gutterfold sheets (issue 52): each card's front and back on one page, mirrored about
the dashed fold line, in the manifest's places and in the PDF's drawn lines."""

import json

import pytest

from companion.press import presets
from companion.text.units import mm
from tests.drawn_lines import pages as drawn_pages

TOLERANCE = mm(0.05)


def _build(cli, game, out, *args):
    r = cli("build", game, "--layout", "gutterfold", "--out", out, *args)
    assert r.code == 0, r.err
    return json.loads((out / "manifest.json").read_text())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_front_and_back_mirror_about_the_fold(cli, tmp_path, starter, paper):
    out = tmp_path / "kit"
    manifest = _build(cli, starter, out, "--paper", paper)
    page_w, _ = presets.paper_size(paper)
    folded = [f for f in manifest["files"] if f.get("layout") == "gutterfold"]
    assert folded and all(f["duplex"] == "none" for f in folded)
    for entry in folded:
        by_card = {}
        for p in entry["places"]:
            by_card.setdefault(p["card"], {})[p["side"]] = p
        for card, sides in by_card.items():
            front, back = sides["front"], sides["back"]
            assert front["page"] == back["page"]
            # the manifest: the back is the front mirrored about the page's middle
            assert abs(back["x"] + back["w"] - (page_w - front["x"])) < TOLERANCE, card
            assert abs(back["y"] - front["y"]) < TOLERANCE
            assert (back["w"], back["h"]) == (front["w"], front["h"])
        # the PDF: the dashed fold line, and every card's clip mirrored about it
        pages = drawn_pages(out / entry["path"])
        assert len(pages) == entry["pages"]
        for n, drawn in enumerate(pages, 1):
            folds = [d for d in drawn if d["dash"] and d["kind"] == "path"
                     and abs(d["points"][0][0] - d["points"][-1][0]) < 1e-6]
            assert len(folds) == 1
            x = folds[0]["points"][0][0]
            assert abs(x - page_w / 2) < TOLERANCE
            placed = [p for p in entry["places"] if p["page"] == n]
            clips = [d["points"] for d in drawn if d["kind"] == "re" and d["paint"] == "clip"
                     and any(abs(d["size"][0] - w) < 0.01 and abs(d["size"][1] - h) < 0.01
                             for w, h in [(p["w"], p["h"]) for p in placed]
                             + [(p["h"], p["w"]) for p in placed])]
            boxes = [(min(q[0] for q in c), min(q[1] for q in c), max(q[0] for q in c),
                      max(q[1] for q in c)) for c in clips]
            fronts = [b for b in boxes if b[2] <= x + TOLERANCE]
            backs = [b for b in boxes if b[0] >= x - TOLERANCE]
            assert len(fronts) == len(backs) == len(placed) // 2
            for b in fronts:
                mirrored = (2 * x - b[2], b[1], 2 * x - b[0], b[3])
                assert any(max(abs(u - v) for u, v in zip(mirrored, other)) < TOLERANCE
                           for other in backs), (n, b)


def test_a_card_too_big_for_half_the_paper_is_one_line(cli, tmp_path, starter):
    r = cli("build", starter, "--layout", "gutterfold", "--card-size", "100x150mm",
            "--out", tmp_path / "kit")
    assert r.code == 2
    assert "does not fit on half the A4 sheet" in r.err and "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_the_guide_says_fold_and_cut(cli, tmp_path, starter):
    out = tmp_path / "kit"
    _build(cli, starter, out, "--lang", "fr")
    assert "Pliez chaque feuille" in (out / "print-guide.txt").read_text()


def test_hexes_and_discs_fold_too(cli, tmp_path):
    from tests.test_shapes import SHAPED, _game

    out = tmp_path / "kit"
    manifest = _build(cli, _game(cli, tmp_path, SHAPED), out, "--only", "tiles,coins")
    (entry,) = [f for f in manifest["files"] if f.get("layout") == "gutterfold"]
    page_w, _ = presets.paper_size("a4")
    fronts = [p for p in entry["places"] if p["side"] == "front"]
    backs = {(p["card"], p["page"]): p for p in entry["places"] if p["side"] == "back"}
    assert fronts and len(backs) == len(fronts)
    for f in fronts:
        b = backs[f["card"], f["page"]]
        assert abs(b["x"] + b["w"] - (page_w - f["x"])) < TOLERANCE and b["y"] == f["y"]
    # each front's cut line is its shape: a hexagon (six corners) among the outlines
    drawn = drawn_pages(out / entry["path"])[0]
    outlines = [d for d in drawn if d["kind"] == "path" and d["paint"] == "S"
                and d["ops"] and d["ops"][-1] == ("Z",)]
    assert any(len(d["local"]) == 6 for d in outlines)


def test_where_each_card_lies_for_an_errata_is_its_folded_front(cli, tmp_path, starter):
    """The manifest's `place` (what a later errata crops the old face from) counts one page
    a sheet in a gutterfold file, where the back is beside its front."""
    m = _build(cli, starter, tmp_path / "kit", "--layout", "gutterfold")
    for f in m["files"]:
        if f.get("layout") != "gutterfold":
            continue
        fronts = {p["card"]: p for p in f["places"] if p["side"] == "front"}
        placed = {c["id"]: c["place"] for c in m["cards"] if c.get("place", {}).get(
            "file") == f["path"]}
        assert placed and set(placed) <= set(fronts)
        for card, place in placed.items():
            front = fronts[card]
            assert place["page"] == front["page"] <= f["pages"], (card, place, front)
            assert place["box"] == [front["x"], front["y"], front["w"], front["h"]]
