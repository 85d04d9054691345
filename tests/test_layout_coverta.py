"""Coverta drawn by the layout engine: every card face and back comes from
companion/layouts/coverta.toml, games/coverta.py draws no card (only the score sheet), the pages are
those drawn by hand before the port, and what the engine took on for it: a text's
smaller suffix (a number's suit mark), a square symbol, a nested card's fields from a
table (a rule card's example), and components whose cards the game derives."""

import ast
import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from reportlab.lib.colors import HexColor

from companion import kit
from companion.errors import CompanionError
from companion.engine import face as face_mod, kinds
from companion.engine.face import Engine
from companion.press.pdf import open_canvas

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
W, H = 200.0, 300.0
PALETTE = {"ink": HexColor("#000000"), "paper": HexColor("#FFFFFF"),
           "red": HexColor("#FF0000"), "blue": HexColor("#0000FF")}


def engine(table: dict) -> Engine:
    return Engine(kinds.load(table, "test.toml"), PALETTE, {}, "test.toml")


def ops_of(table: dict, kind: str, fields: dict) -> str:
    c = open_canvas(io.BytesIO(), (W, H), "t", "")
    engine(table).face(kind, fields).draw(c, W, H, 0)
    return "\n".join(c._code)


def texts_at(ops: str) -> list[tuple[float, float, float, str]]:
    """(x, y, size, text) of each string drawn (reportlab's BT 1 0 0 1 x y Tm /F size Tf
    ... (s) Tj)."""
    return [(float(m[1]), float(m[2]), float(m[3]), m[4]) for m in re.finditer(
        r"BT 1 0 0 1 ([-\d.]+) ([-\d.]+) Tm /\S+ ([\d.]+) Tf .*?\((.*?)\) Tj", ops)]


# ---- the kit: every face is the engine's -----------------------------------------------------

def test_every_card_face_and_back_of_the_kit_is_drawn_by_the_engine():
    prepared = kit.prepare("coverta", kit.Options())
    cards = [card for f in prepared.files for comp in getattr(f, "components", [])
             for card in comp.cards]
    assert len(cards) == 40 + 14 + 2 + 5 + 1  # the set-up card
    for card in cards:
        for side in (card.front, card.back):
            assert side.digest is not None and side.digest.func is face_mod._digest, card.id


def test_an_older_data_file_without_kinds_components_or_backs_builds_the_same_cards(
        tmp_path, cli, kits):
    text = (ROOT / "companion/layouts/coverta.toml").read_text(encoding="utf-8")
    old = text[:text.index("# ---- card kinds drawn by the layout engine")]
    assert not re.search(r"(?m)^\[(kinds|components|backs)\.", old)
    (tmp_path / "old.toml").write_text(old, encoding="utf-8")
    r = cli("build", "coverta", "--data", tmp_path / "old.toml", "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    now, _ = kits("coverta", "a4", "en")
    a, b = (pdfium.PdfDocument(p / "cards.pdf") for p in (tmp_path / "kit", now))
    assert len(a) == len(b)
    for i in (0, 10, 13):
        assert _close(a[i].render(scale=30 / 72).to_pil().convert("RGB"),
                      b[i].render(scale=30 / 72).to_pil().convert("RGB")) == 0


def test_a_text_a_card_prints_missing_from_the_data_is_one_line(tmp_path, cli):
    text = (ROOT / "companion/layouts/coverta.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^example_ok = .*\n", "", text, count=1)
    (tmp_path / "c.toml").write_text(text, encoding="utf-8")
    r = cli("build", "coverta", "--data", tmp_path / "c.toml", "--out", tmp_path / "o")
    assert r.code == 2 and "texts.example_ok: missing" in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1 and not (tmp_path / "o").exists()


def _close(a: Image.Image, b: Image.Image) -> float:
    return ImageStat.Stat(ImageChops.difference(a, b).convert("L")).mean[0]


@pytest.mark.parametrize("page", [9, 11, 13, 14])  # numbers and rules, rules, memo and aids, backs
def test_kit_pages_match_the_pages_drawn_by_hand_before_the_port(kits, page):
    folder, _ = kits("coverta", "a4", "en")
    now = pdfium.PdfDocument(folder / "cards.pdf")[page - 1].render(scale=30 / 72).to_pil()
    before = Image.open(DATA / "pages" / f"coverta-cards-{page}.png").convert("RGB")
    assert _close(now.convert("RGB"), before) < 0.5


# ---- what the engine took on for Coverta ---------------------------------------------------

def test_a_suffix_follows_its_text_level_with_its_top_and_the_two_are_centred_as_one():
    el = {"type": "text", "text": "{n}", "x": 0.5, "y": 0.5, "size": 0.2, "font": "bold",
          "suffix": {"text": "{s}", "size": 0.1, "gap": 0.05}}
    (nx, ny, ns, n), (sx, sy, ss, s) = texts_at(ops_of({"k": {"elements": [el]}}, "k",
                                                       {"n": 7, "s": "S"}))
    from companion.draw import text

    nw, sw = text.width("7", "bold", 40), text.width("S", "bold", 20)
    assert (n, s, ns, ss) == ("7", "S", 40, 20)
    assert nx == pytest.approx(100 - (nw + 10 + sw) / 2, abs=0.01)
    assert sx == pytest.approx(nx + nw + 10, abs=0.01)
    assert sy == pytest.approx(ny + 0.73 * 20, abs=0.01)  # its top level with the text's


def test_only_the_text_shrinks_to_leave_its_suffix_room_in_max_w():
    el = {"type": "text", "text": "{n}", "size": 0.3, "font": "bold", "max_w": 0.4,
          "suffix": {"text": "S", "size": 0.1, "gap": 0.02}}
    (nx, _, ns, _), (sx, _, ss, _) = texts_at(ops_of({"k": {"elements": [el]}}, "k",
                                                     {"n": 10}))
    from companion.draw import text

    assert ss == 20 and ns < 60
    assert text.width("10", "bold", ns) + 4 + text.width("S", "bold", 20) == \
        pytest.approx(80, abs=0.01)
    assert nx == pytest.approx(60, abs=0.01)


def test_a_square_takes_its_sides_from_the_width_and_may_name_a_field():
    el = {"type": "circle", "shape": "{shape}", "x": 0.5, "y": 0.5, "r": 0.1, "fill": "red"}
    assert "80 130 40 40 re" in ops_of({"k": {"elements": [el]}}, "k", {"shape": "square"})
    assert " re" not in ops_of({"k": {"elements": [el]}}, "k", {"shape": "circle"})
    with pytest.raises(CompanionError) as e:
        ops_of({"k": {"elements": [el]}}, "k", {"shape": "star"})
    assert "'star' is not circle or square" in e.value.line()
    with pytest.raises(CompanionError) as e:
        kinds.load({"k": {"elements": [dict(el, shape="squar")]}}, "test.toml")
    assert "shape: 'squar' is not one of circle, square (did you mean square?)" in e.value.line()


def test_a_nested_card_takes_its_fields_from_a_table_each_of_a_repeat():
    table = {"inner": {"elements": [{"type": "rect", "fill": "{tint}"}]},
             "outer": {"elements": [{"type": "card", "kind": "inner", "repeat": "pair",
                                     "of": "item", "step": {"x": 0.5}, "x": 0, "y": 0,
                                     "w": 0.5, "h": 0.5}]}}
    ops = ops_of(table, "outer", {"pair": [{"tint": "#FF0000"}, {"tint": "#0000FF"}]})
    assert ops.index("1 0 0 rg") < ops.index("0 0 1 rg")
    with pytest.raises(CompanionError) as e:
        ops_of(table, "outer", {"pair": ["red"]})
    assert "of = 'item': not a table field" in e.value.line()


def test_a_suffix_with_an_unknown_key_is_one_line_naming_it():
    with pytest.raises(CompanionError) as e:
        kinds.load({"k": {"elements": [{"type": "text", "text": "1",
                                        "suffix": {"text": "S", "sise": 1}}]}}, "test.toml")
    assert "(text): sise: unknown field (did you mean size?) (fields: text, size, gap, field)" \
        in e.value.line(), e.value.line()


def test_a_mark_beside_a_shape_is_placed_in_its_radii_whatever_the_card():
    el = {"type": "circle", "x": 0.5, "y": 0.5, "r": 0.1, "fill": "blue",
          "mark": {"name": "sun", "x": 1.5, "y": 1.0, "r": 0.05, "colour": "red"}}
    ops = ops_of({"k": {"elements": [el]}}, "k", {})
    # the sun's disc round (100 + 1.5 * 20, 150 - 20), of radius 0.5 * 10 (symbols.sun),
    # its path starting at its right: (135, 130)
    assert ops.index("0 0 1 rg") < ops.index("1 0 0 rg")
    assert re.search(r"\n135 130 m", ops), ops
    with pytest.raises(CompanionError) as e:
        kinds.load({"k": {"elements": [dict(el, mark={"name": "sun", "x": float("nan")})]}},
                   "test.toml")
    assert "\n" not in e.value.line() and "mark.x" in e.value.line(), e.value.line()
