"""Lugvanion drawn by the layout engine (issue 21): games/lugvanion.py draws nothing, every
face of the kit is an engine face, its pages match those drawn by hand before the port,
and what the port added to the engine: lengths worked out ("1 - {band} - 0.045 * w"), a
repeat's count, odd and even and its condition item by item, `ink_saver` in conditions,
a field naming "A or B" colours, backs shared by a template id, and older data files."""

import ast
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from companion import kit
from companion.draw import card as grounds
from companion.errors import CompanionError
from companion.engine import bind, face as face_mod
from companion.engine.bind import BindError
from tests.conftest import build_kit
from tests.test_layout_engine import drawn, engine

ROOT = Path(__file__).resolve().parents[1]
PAGES = Path(__file__).parent / "data" / "pages"


def _kit(opts: kit.Options | None = None) -> kit.Kit:
    return kit.prepare("lugvanion", opts or kit.Options())


# ---- the game's module draws nothing; the engine draws every face ---------------------------

def test_every_face_and_back_of_the_kit_is_an_engine_face():
    faces = [f for cf in _kit().files for comp in cf.components for card in comp.cards
             for f in (card.front, card.back)]
    assert len(faces) == 2 * (32 + 4 + 3 + 8 + 12 + 4 + 1 + 44 + 40)
    assert all(f.draw.func is face_mod._draw for f in faces)


def test_a_team_shares_one_back_keyed_by_its_id():
    chars = next(c for c in _kit().files[0].components if c.id == "characters")
    backs = {id(card.back): card.back for card in chars.cards}
    assert sorted(b.key for b in backs.values()) == [
        "back-team-blue", "back-team-green", "back-team-red", "back-team-yellow"]


def test_an_unknown_guild_or_circle_or_a_cost_not_in_gold_is_one_line(tmp_path):
    text = (ROOT / "companion/layouts/lugvanion.toml").read_text(encoding="utf-8")
    for old, new, word in (('guild = "forge"', 'guild = "smithy"', "unknown guild"),
                           ('circle = "blades"', 'circle = "knives"', "unknown circle"),
                           ("{ gold = 3,", '{ gold = "x",', "costs[2].gold: must be int")):
        path = tmp_path / "lugvanion.toml"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(CompanionError) as e:
            _kit(kit.Options(data=path))
        assert word in str(e.value) and "\n" not in str(e.value)


def test_an_older_data_file_without_kinds_components_or_backs_draws_the_same_faces(tmp_path):
    text = (ROOT / "companion/layouts/lugvanion.toml").read_text(encoding="utf-8")
    older = text[:text.index("# ---- card kinds drawn by the layout engine")]
    path = tmp_path / "lugvanion.toml"
    path.write_text(older, encoding="utf-8")

    def digests(k):
        return [(card.id, card.front.digest(180, 250, 0), card.back.digest(180, 250, 0))
                for cf in k.files for comp in cf.components for card in comp.cards]
    assert digests(_kit(kit.Options(data=path))) == digests(_kit())


# ---- the pages: as drawn by hand before the port --------------------------------------------

@pytest.fixture(scope="module")
def saver_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("lugvanion-saver")
    build_kit("lugvanion", out, "--ink", "saver")
    return out


@pytest.mark.parametrize("name,file,page", [
    ("lugvanion-cards-9", "cards", 9), ("lugvanion-cards-11", "cards", 11),
    ("lugvanion-cards-13", "cards", 13), ("lugvanion-cards-14", "cards", 14),
    ("lugvanion-tokens-1", "tokens", 1), ("lugvanion-saver-cards-2", "cards", 2)])
def test_pages_match_those_drawn_before_the_engine(kits, saver_kit, name, file, page):
    """Circles and bounties, bounties and objectives, the aids' two sides, the tokens,
    and the team backs with --ink saver (an outline on white)."""
    folder = saver_kit if "saver" in name else kits("lugvanion", "a4", "en")[0]
    now = pdfium.PdfDocument(folder / f"{file}.pdf")[page - 1].render(scale=30 / 72).to_pil()
    before = Image.open(PAGES / f"{name}.png").convert("RGB")
    diff = ImageChops.difference(now.convert("RGB"), before).convert("L")
    assert ImageStat.Stat(diff).mean[0] < 0.5


# ---- what the port added to the engine ------------------------------------------------------

def test_a_length_may_be_worked_out_with_the_cards_width_and_height():
    card = {bind.CARD_W: 100.0, bind.CARD_H: 200.0}
    assert bind.length("1 - 0.1 - 0.05 * w", 200.0, card) == pytest.approx(200 - 20 - 5)
    assert bind.length("0.3 * h", 100.0, card) == pytest.approx(60)
    assert bind.length("min(0.06, 0.17 / 3)", 200.0, card) == pytest.approx(0.17 / 3 * 200)
    assert bind.length("(1 - {a}) / {n}", 200.0, {**card, "a": 0.2, "n": 8}) == \
        pytest.approx(20)
    assert bind.length("1.2 * {f}", 100.0, {"f": 0.045}) == pytest.approx(5.4)  # as before
    assert bind.length("3mm", 100.0) == pytest.approx(8.504, abs=0.01)
    assert bind.length("0.5 - -0.25", 100.0) == pytest.approx(75)


@pytest.mark.parametrize("bad,words", [
    ("0.5 * w", "only in a card's lengths"), ("1 / 0", "divides by zero"),
    ("__import__('os')", "not a length"), ("2 ** 3", "not a length"),
    ("12", "not a fraction"), ("0.1 +", "not a length")])
def test_a_bad_worked_out_length_is_one_line(bad, words):
    with pytest.raises(BindError) as e:
        bind.length(bad, 100.0, {})
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_repeat_names_its_count_odd_and_even_and_its_condition_holds_item_by_item():
    table = {"k": {"elements": [
        {"type": "rect", "repeat": "rows", "step": {"y": "1 / {count}"}, "x": 0, "y": 0,
         "w": 1, "h": "1 / {count}", "fill": "red", "when": "odd"},
        {"type": "rect", "repeat": "rows", "step": {"y": "1 / {count}"}, "x": 0, "y": 0,
         "w": 0.5, "h": "1 / {count}", "fill": "blue", "when": "item.blue"}]}}
    rows = [{"blue": False}, {"blue": True}, {"blue": False}, {"blue": False}]
    ops, im = drawn(table, "k", {"rows": rows})
    assert ops.count(" re") == 3  # rows 1 and 3 red, row 2 half blue
    assert im.getpixel((150, 30)) == (255, 0, 0)  # row 1 (of 300 pt: 75 a row)
    assert im.getpixel((150, 110)) == (255, 255, 255)  # row 2: even, unshaded
    assert im.getpixel((50, 110)) == (0, 0, 255)
    assert im.getpixel((150, 190)) == (255, 0, 0)  # row 3


def test_a_repeat_over_a_missing_list_is_skipped_where_its_condition_fails():
    table = {"k": {"elements": [{"type": "rect", "repeat": "rows", "fill": "red",
                                 "when": "golden"}]}}
    ops, _ = drawn(table, "k", {"golden": False})
    assert " re" not in ops
    with pytest.raises(CompanionError, match="not a list field"):
        drawn(table, "k", {"golden": True})


def test_a_condition_may_name_the_ink_mode():
    table = {"k": {"elements": [{"type": "rect", "fill": "red", "when": "not ink_saver"},
                                {"type": "rect", "fill": "blue", "when": "ink_saver"}]}}
    assert drawn(table, "k", {})[1].getpixel((100, 100)) == (255, 0, 0)
    with grounds.ink_saver(True):
        assert drawn(table, "k", {})[1].getpixel((100, 100)) == (0, 0, 255)


def test_a_field_naming_a_colour_or_another_falls_back_as_written():
    table = {"k": {"elements": [{"type": "rect", "fill": "{c}"}]}}
    assert drawn(table, "k", {"c": "nothing or blue"})[1].getpixel((100, 100)) == (0, 0, 255)


def test_a_back_with_a_template_id_is_shared_by_the_cards_it_names(tmp_path):
    from companion.engine import components
    from companion.files.data import Fields

    e = engine({"b": {"elements": [{"type": "rect", "fill": "{team.colour}"}]}})
    spec = Fields({"each": True, "kind": "b", "id": "team-{team.id}"}, "test.toml")
    shared: dict = {}
    faces = [components._each_back(spec, {"team": {"id": t, "colour": "red"}}, e, None,
                                   "chars", f"{t}-{n}", 1, "x", None, shared)
             for t in ("red", "blue") for n in range(3)]
    assert len({id(f) for f in faces}) == 2 and faces[0] is faces[2]
    assert faces[0].key == "back-team-red" and faces[3].key == "back-team-blue"


def _ops(face, w=180.0, h=252.0) -> str:
    import tempfile

    from companion.press.pdf import open_canvas

    with tempfile.TemporaryDirectory() as folder:
        c = open_canvas(Path(folder) / "f.pdf", (w, h), "test", "")
        face.draw(c, w, h, 0.0)
        return "\n".join(c._code)


@pytest.mark.parametrize("old,new,component", [
    ("name = { y = 0.285,", "name = { y = 0.3,", "characters"),  # [layout.character]
    ("top = 0.115", "top = 0.2", "aids")])  # [layout.reference]: the aid's back
def test_a_designers_layout_edits_still_move_things(tmp_path, old, new, component):
    text = (ROOT / "companion/layouts/lugvanion.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "lugvanion.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def first(k):
        comp = next(c for f in k.files for c in f.components if c.id == component)
        return comp.cards[0]
    before, after = first(_kit()), first(_kit(kit.Options(data=path)))
    side = "front" if component == "characters" else "back"
    a, b = getattr(before, side), getattr(after, side)
    assert a.digest(180, 252, 0) != b.digest(180, 252, 0)
    assert _ops(a) != _ops(b)
