"""Tuck boxes: one a deck in boxes.pdf, sized to the deck, its net closing when folded
(each panel as wide and as high as the edge it folds onto: checked as arithmetic, without
drawing), split in two with a glue strip when too wide for the paper, or said not to fit."""

import json

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pypdf import PdfReader

from companion.press import tuck_box as tb
from companion.text.units import mm

S = tb.settings()
A4, LETTER = (mm(210), mm(297)), (612, 792)


def panels(piece, kind):
    return [r for k, r in piece.panels if k == kind]


def body(pieces):
    """The body panels, in the order they go round the deck, and the glue tabs."""
    out = []
    for p in pieces:
        out += sorted(((k, r) for k, r in p.panels if k in ("front", "side", "back")),
                      key=lambda kr: kr[1].x)
    return out


def assert_closes(box: tb.Box, pieces: list) -> None:
    f = tb.flaps(box, S)
    ring = body(pieces)
    # Round the deck: front, side, back, side; widths W, D, W, D; all the box's height.
    assert [k for k, _ in ring] == ["front", "side", "back", "side"]
    assert [r.w for _, r in ring] == pytest.approx([box.w, box.d, box.w, box.d])
    assert all(r.h == pytest.approx(box.h) for _, r in ring)
    assert sum(r.w for _, r in ring) == pytest.approx(2 * (box.w + box.d))
    for p in pieces:
        # Each lid, hinged on the back, closes the end: as wide as the front's edge it
        # meets, as deep as the sides; its tuck flap goes inside the front.
        for lid in panels(p, "lid"):
            assert lid.w == pytest.approx(box.w) and lid.h == pytest.approx(box.d)
        for tuck in panels(p, "tuck"):
            assert tuck.w < box.w and tuck.h <= box.h / 3 + 1e-9
        # Dust flaps fill the side's width; two, folded in from both sides, never meet.
        for dust in panels(p, "dust"):
            assert dust.w == pytest.approx(box.d) and dust.h <= box.w / 2
        # A glue flap or strip glues inside a panel of at least its width and height.
        for glue in panels(p, "glue"):
            assert glue.w <= box.d and glue.h == pytest.approx(box.h)
        # Every flap hangs on its panel: a lid at each end of each back, a dust flap at
        # each end of each side.
        assert len(panels(p, "lid")) == 2 * len(panels(p, "back")) == len(panels(p, "tuck"))
        assert len(panels(p, "dust")) == 2 * len(panels(p, "side"))
        # The outline is closed and holds every panel.
        xs, ys = [x for x, _ in p.cut], [y for _, y in p.cut]
        assert p.cut[0] == p.cut[-1]
        for _, r in p.panels:
            assert min(xs) - 1e-6 <= r.x and r.right <= max(xs) + 1e-6
            assert min(ys) - 1e-6 <= r.y and r.top <= max(ys) + 1e-6
    # Glued: the whole net has one glue flap; in two pieces, one more strip joins them.
    assert sum(len(panels(p, "glue")) for p in pieces) == len(pieces)
    assert f.glue > 0


def test_a_poker_deck_of_100_gets_a_box_30_mm_deep_that_closes():
    box = tb.box_for((mm(63.5), mm(88.9)), 100, S.card_thickness, S.clearance, S)
    assert box.d == pytest.approx(mm(30)) and box.w > mm(63.5) and box.h > mm(88.9)
    plan = tb.plan(box, A4, S)
    assert plan.fits and not plan.split
    assert_closes(box, plan.pieces)


@hsettings(max_examples=60, deadline=None)
@given(w=st.integers(30, 130), h=st.integers(30, 130), cards=st.integers(1, 400),
       split=st.booleans())
def test_every_net_closes(w, h, cards, split):
    box = tb.box_for((mm(w), mm(h)), cards, S.card_thickness, S.clearance, S)
    assert box.d >= cards * S.card_thickness - 1e-9
    assert_closes(box, tb.pieces(box, tb.flaps(box, S), split))


def test_a_net_too_wide_for_the_paper_is_split_in_two_with_a_glue_strip():
    box = tb.box_for((mm(70), mm(120)), 150, S.card_thickness, S.clearance, S)  # tarot
    whole = tb.pieces(box, tb.flaps(box, S))[0]
    assert tb.place(whole, A4, S.margin) is None
    plan = tb.plan(box, A4, S)
    assert plan.split and plan.fits
    first, second = plan.pieces
    assert [k for k, _ in body([first])] == ["front", "side"]
    assert [k for k, _ in body([second])] == ["back", "side"]
    assert len(panels(first, "glue")) == 2  # the glue flap and the strip
    assert_closes(box, plan.pieces)


def test_each_piece_of_a_split_box_says_which_it_is(tmp_path, cli):
    r = cli("build", "covenia", "--card-size", "tarot", "--only", "cards", "--out", tmp_path)
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [(b["pieces"], b["fits"]) for b in manifest["boxes"]] == [(2, True)]
    pages = PdfReader(tmp_path / "boxes.pdf").pages
    assert ["piece 1 of 2" in p.extract_text() for p in pages] == [True, False]
    assert ["piece 2 of 2" in p.extract_text() for p in pages] == [False, True]


def test_a_box_too_big_even_in_two_is_said_not_to_fit():
    box = tb.box_for((mm(200), mm(280)), 300, S.card_thickness, S.clearance, S)
    plan = tb.plan(box, A4, S)
    assert plan.split and not plan.fits


def test_a_box_per_deck_in_the_kit(tmp_path, kits):
    out, manifest = kits("covenia", "a4", "en")
    boxes = manifest["boxes"]
    assert [b["component"] for b in boxes] == ["clan-cards"]  # 5 temple cards: no deck
    for b in boxes:
        count = next(c["count"] for f in manifest["files"] for c in f["components"]
                     if c["id"] == b["component"])
        assert b["cards"] == count
        assert b["inner_mm"][2] >= 0.3 * b["cards"]
        assert b["inner_mm"][0] > 63.5 and b["inner_mm"][1] > 88.9
    pdf = PdfReader(out / "boxes.pdf")
    assert len(pdf.pages) == 1
    assert manifest["files"][-1] == {"path": "boxes.pdf", "pages": 1, "duplex": "none",
                                     "card_size": None, "components": []}
    assert [(b["path"], b["page"], b["pieces"], b["fits"]) for b in boxes] == [
        ("boxes.pdf", 1, 1, True)]
    words = pdf.pages[0].extract_text()
    assert "Covenia" in words and "Clan cards" in words and "100 cards" in words
    assert "COVENIA" in words  # the clan cards' own back, on the box's back
    guide = (out / "print-guide.txt").read_text(encoding="utf-8")
    assert "boxes.pdf (1 page)" in guide
    assert "Clan cards: 100 cards, inside 65 × 90.4 × 30 mm" in guide


def test_the_game_file_sets_the_card_thickness_and_a_component_asks_for_a_box(
        tmp_path, cli, starter):
    text = starter.read_text(encoding="utf-8")
    text = text.replace('id_else = "aid"\n', 'id_else = "aid"\nbox = true\n')
    starter.write_text(text + '\n[boxes]\ncard_thickness = "0.5mm"\n', encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit", "--lang", "fr")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    by = {b["component"]: b for b in manifest["boxes"]}
    assert by["cards"]["cards"] == 15 and by["cards"]["inner_mm"][2] == 8.0  # the floor
    assert by["aids"]["cards"] == 4
    words = PdfReader(tmp_path / "kit" / "boxes.pdf").pages[0].extract_text()
    assert "15 cartes" in words
    thick = starter.read_text(encoding="utf-8").replace('"0.5mm"', '"1mm"')
    starter.write_text(thick, encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit2")
    manifest = json.loads((tmp_path / "kit2" / "manifest.json").read_text())
    assert next(b for b in manifest["boxes"] if b["component"] == "cards")[
        "inner_mm"][2] == 15.0


@pytest.mark.parametrize("table,field", [
    ('card_thickness = "5mm"', "boxes.card_thickness"),
    ('card_thickness = "0mm"', "boxes.card_thickness"),
    ('card_thickness = "thin"', "boxes.card_thickness"),
    ('clearance = "50mm"', "boxes.clearance"),
    ('lid = "3mm"', "boxes.lid"),
])
def test_bad_box_settings_are_one_line_exit_2(tmp_path, cli, starter, table, field):
    starter.write_text(starter.read_text(encoding="utf-8") + f"\n[boxes]\n{table}\n",
                       encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert field in r.err
    assert not (tmp_path / "kit").exists()


def test_a_kit_without_decks_has_no_boxes(tmp_path, cli):
    r = cli("build", "covenia", "--only", "temple,aids", "--out", tmp_path)
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert "boxes" not in manifest and not (tmp_path / "boxes.pdf").exists()


def test_a_components_box_is_true_or_false(tmp_path, cli, starter):
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('id_else = "aid"\n', 'id_else = "aid"\nbox = "yes"\n'),
                       encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "components.aids.box" in r.err


def test_box_false_leaves_a_deck_without_a_box(tmp_path, cli, starter):
    text = starter.read_text(encoding="utf-8")
    assert text.count('\nid = "title"') == 1  # [components.cards]
    starter.write_text(text.replace('\nid = "title"', '\nbox = false\nid = "title"'),
                       encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    assert "boxes" not in manifest and not (tmp_path / "kit" / "boxes.pdf").exists()


def test_a_component_may_put_its_cards_in_anothers_box(tmp_path, cli, starter):
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('id_else = "aid"\n', 'id_else = "aid"\nbox = "cards"\n'),
                       encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    (box,) = manifest["boxes"]
    assert (box["component"], box["components"], box["cards"]) == (
        "cards", ["cards", "aids"], 19)
    assert box["inner_mm"][2] >= 0.3 * 19
    words = PdfReader(tmp_path / "kit" / "boxes.pdf").pages[0].extract_text()
    assert "Cards + Player aids" in words and "19 cards" in words
    # built without the box it joins, a component's cards get a box of their own
    r = cli("build", starter, "--only", "aids", "--out", tmp_path / "aids")
    manifest = json.loads((tmp_path / "aids" / "manifest.json").read_text())
    assert [(b["component"], b["cards"]) for b in manifest["boxes"]] == [("aids", 4)]


@pytest.mark.parametrize("aids,cards", [
    ('"nope"', None), ('"aids"', None), ('"cards"', '"aids"'), ('"cards"', "false"),
    ("3", None)])
def test_a_box_naming_no_box_is_refused(tmp_path, cli, starter, aids, cards):
    text = starter.read_text(encoding="utf-8")
    text = text.replace('id_else = "aid"\n', f'id_else = "aid"\nbox = {aids}\n')
    if cards:
        text = text.replace('\nid = "title"', f'\nbox = {cards}\nid = "title"')
    starter.write_text(text, encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "components.aids.box" in r.err or "components.cards.box" in r.err
    assert not (tmp_path / "kit").exists()
