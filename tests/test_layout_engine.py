"""The layout engine (issue 21): a card kind is data. Each element is checked where it
lands, in the PDF's drawing operations and on a rendered picture; then markup and inline
icons, `when`, `repeat`, `extends`, nested cards, placeholders, every validation error,
the digest that draws nothing, and the Vengeance demon, the first kind the engine draws,
against the pages drawn by hand before it."""

import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image, ImageChops, ImageStat
from reportlab.lib.colors import HexColor

from companion.errors import CompanionError
from companion.engine import elements, kinds
from companion.engine.bind import Placeholder
from companion.engine.face import Engine
from companion.press.pdf import open_canvas

W, H = 200.0, 300.0  # a test card, in points
PALETTE = {"ink": HexColor("#000000"), "paper": HexColor("#FFFFFF"),
           "red": HexColor("#FF0000"), "blue": HexColor("#0000FF")}
DATA = Path(__file__).parent / "data"


def engine(table: dict, shared: dict | None = None, icons: dict | None = None) -> Engine:
    return Engine(kinds.load(table, "test.toml"), PALETTE, shared or {}, "test.toml",
                  icons=icons or {})


def drawn(table: dict, kind: str, fields: dict, pic=None,
          icons: dict | None = None) -> tuple[str, Image.Image]:
    """(the PDF operators the face emits, the face rendered at 72 dpi)."""
    face = engine(table, icons=icons).face(kind, fields, pic)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "face.pdf"
        c = open_canvas(path, (W, H), "test", "")
        face.draw(c, W, H, 0.0)
        ops = "\n".join(c._code)
        c.showPage()
        c.save()
        page = pdfium.PdfDocument(path.read_bytes())[0]
        return ops, page.render(scale=1).to_pil().convert("RGB")


def px(im: Image.Image, x: float, y_from_top: float) -> tuple:
    return im.getpixel((int(x), int(y_from_top)))


def one(**element) -> dict:
    return {"k": {"elements": [element]}}


# ---- each element where it lands ------------------------------------------------------------

def test_a_rect_lands_in_its_box_fractions_of_the_card_y_from_the_top():
    ops, im = drawn(one(type="rect", x=0.1, y=0.2, w=0.3, h=0.4, fill="red"), "k", {})
    assert "20 120 60 120 re" in ops  # x 0.1*200, y 300-(0.2+0.4)*300, w 60, h 120
    assert px(im, 50, 150) == (255, 0, 0) and px(im, 150, 150) == (255, 255, 255)


def test_lengths_with_units_are_absolute_and_inset_frames_the_card():
    ops, _ = drawn(one(type="rect", inset="10mm", fill="blue"), "k", {})
    assert re.search(r"28\.34646 28\.34646 143\.3071 243\.3071 re", ops), ops


def test_a_length_may_be_worked_out_and_name_the_other_axis_with_w_or_h():
    """A band under a frame: its top a fraction of the width ("0.1 * w" = 20 pt down), its
    height a fraction of the height less that ("0.5 - 0.1 * w" = 150 - 20 pt)."""
    ops, _ = drawn(one(type="rect", x=0.1, y="0.1 * w", w="1 - 2 * 0.1", h="0.5 - 0.1 * w",
                       fill="red"), "k", {})
    assert "20 150 160 130 re" in ops, ops


@given(a=st.floats(-3, 3, allow_nan=False), k=st.floats(0.1, 3))
@settings(max_examples=200, deadline=None)
def test_a_worked_out_length_is_its_arithmetic(a, k):
    from companion.engine.bind import length

    scope = {"card.w": 200.0, "card.h": 300.0, "a": a}
    got = length(f"{{a}} - {k!r} * 0.5 * h / w + min(0.1, {k!r})", 200, scope)
    assert got == pytest.approx(a * 200 - k * 0.5 * 300 + min(0.1, k) * 200, abs=1e-6)


@pytest.mark.parametrize("bad,words", [("2 ** 3", "is not a length"),
                                       ("0.2 +", "is not a length"),
                                       ("1 / 0", "divides by zero"),
                                       ("12", "from -10 to 10")])
def test_a_wrong_length_is_refused_in_words(bad, words):
    from companion.engine.bind import BindError, length

    with pytest.raises(BindError, match=re.escape(words)):
        length(bad, 200, {"card.w": 200.0, "card.h": 300.0})


def test_a_table_lays_its_header_rows_cells_and_grid_in_its_box():
    """Two rows under a header, two value columns after a label column of half the width:
    each row 100 pt high, each value column 50 pt wide; a cell fills its own box and
    prints the row's value for its column; a thicker line above the `strong` row."""
    rows = [{"name": "a", "colour": "red", "values": ["1", "2"]},
            {"name": "b", "colour": "blue", "values": ["3", "4"], "total": True}]
    ops, im = drawn(one(
        type="table", rows=["{items}"], columns=2, label_w=0.5, grid="ink", strong="row.total",
        column_head=[{"type": "text", "text": "P{column}", "x": 0.5, "y": 0.5, "size": 0.2}],
        label=[{"type": "text", "text": "{row.name}", "x": 0.1, "y": 0.5, "size": 0.1,
                "align": "left"}],
        cell=[{"type": "rect", "x": 0.1, "y": 0.1, "w": 0.8, "h": 0.8, "fill": "{row.colour}"},
              {"type": "text", "text": "{value}", "x": 0.5, "y": 0.5, "size": 0.2}]),
        "k", {"items": rows})
    assert px(im, 125, 150) == (255, 0, 0) and px(im, 175, 250) == (0, 0, 255)
    assert px(im, 50, 150) == (255, 255, 255)  # the label column holds no cell
    for word in ("(P1)", "(P2)", "(a)", "(b)", "(1)", "(4)"):
        assert word in ops, word
    for y in (300, 200, 100, 0):  # above the header, between the rows, under the last
        assert f"0 {y} m 200 {y} l" in ops, y
    assert "1.2 w\nn 0 100 m 200 100 l" in ops  # the strong row's line
    assert "150 300 m 150 0 l" in ops  # down the side of a value column


def test_a_table_of_a_number_of_rows_numbers_them_and_draws_labels_over_the_cells():
    """rows = ["{rounds}"] with rounds = 3: three rows, each label printing its number; a
    row's label is drawn after its cells, so its outline shows whole over their edge."""
    ops, im = drawn(one(
        type="table", rows=["{rounds}"], columns=1, label_w=0.5, head_h=0, row_h=0.25,
        cell=[{"type": "rect", "fill": "blue"}],
        label=[{"type": "text", "text": "R{number}", "x": 0.5, "y": 0.5, "size": 0.1},
               {"type": "rect", "x": 0.9, "w": 0.2, "fill": "red"}]),
        "k", {"rounds": 3})
    assert [w for w in ("(R1)", "(R2)", "(R3)", "(R4)") if w in ops] == ["(R1)", "(R2)", "(R3)"]
    assert px(im, 105, 30) == (255, 0, 0)  # the label's box reaches over the cell's edge
    assert px(im, 150, 30) == (0, 0, 255) and px(im, 150, 250) == (255, 255, 255)


def test_a_table_names_a_missing_row_source_in_words():
    with pytest.raises(CompanionError, match="rows: '{nothing}' is not a list, a table or a number"):
        drawn(one(type="table", rows=["{nothing}"]), "k", {})


def test_a_circle_a_line_and_a_dash():
    ops, im = drawn({"k": {"elements": [
        {"type": "circle", "x": 0.5, "y": 0.5, "r": 0.1, "fill": "blue"},
        {"type": "line", "x1": 0, "y1": 0.1, "x2": 1, "y2": 0.1, "stroke": "red",
         "stroke_width": "2pt", "dash": [3, 1]}]}}, "k", {})
    assert px(im, 100, 150) == (0, 0, 255) and px(im, 100, 110) == (255, 255, 255)
    assert "[3 1] 0 d" in ops and "0 270 m 200 270 l" in ops


def test_a_text_line_sits_on_its_baseline_and_shrinks_to_its_width():
    ops, _ = drawn(one(type="text", text="{name}", x=0.5, y=0.1, size=0.1, max_w=0.2,
                       font="bold"), "k", {"name": "A rather long name"})
    m = re.search(r"/F[\d+]+ ([\d.]+) Tf", ops)
    assert m and float(m.group(1)) < 20  # 0.1 of 200 pt, shrunk to fit 40 pt
    assert re.search(r"1 0 0 1 [\d.]+ 270 Tm", ops), ops  # baseline 0.1 from the top


def test_a_text_block_wraps_inside_its_box():
    ops, _ = drawn(one(type="textblock", text="one two three four five six seven",
                       x=0.1, y=0.1, w=0.3, h=0.5, size=0.06, align="left"), "k", {})
    lines = re.findall(r"1 0 0 1 20 ([\d.]+) Tm", ops)
    assert len(lines) >= 3, ops  # wrapped, each line from the box's left edge


def test_a_symbol_badge_and_picture_window_edge():
    ops, im = drawn({"k": {"elements": [
        {"type": "symbol", "name": "sun", "x": 0.25, "y": 0.25, "r": 0.1, "colour": "red"},
        {"type": "badge", "text": "7", "x": 0.75, "y": 0.75, "r": 0.1, "fill": "blue"}]}},
        "k", {})
    assert px(im, 50, 75) == (255, 0, 0)
    assert px(im, 150 - 15, 225) == (0, 0, 255)  # the badge's disc, left of its text


def test_corners_draw_twice_the_second_upside_down():
    ops, im = drawn(one(type="corners", elements=[
        {"type": "rect", "x": 0, "y": 0, "w": 0.1, "h": 0.1, "fill": "red"}]), "k", {})
    assert px(im, 5, 5) == (255, 0, 0) and px(im, 195, 295) == (255, 0, 0)
    assert "-1 0 0 -1 200 300 cm" in ops or "cm" in ops


# ---- markup ---------------------------------------------------------------------------------

def test_bold_and_italic_markup_change_font_and_slant_and_icons_draw_inline():
    ops, im = drawn(one(type="text", text="Gain **two** *now* :sun:", x=0.05, y=0.5,
                        size=0.08, align="left"), "k", {})
    fonts = set(re.findall(r"/(F[\d+]+) [\d.]+ Tf", ops))
    assert len(fonts) == 2  # regular and bold
    assert re.search(r"1 0 \.2 1 [\d.]+ 150 cm", ops), ops  # italic: slanted
    assert "(two)" in ops and "(now)" in ops and "**" not in ops and ":sun:" not in ops


def test_an_unpaired_star_prints_as_it_is():
    ops, _ = drawn(one(type="text", text="5* rating", x=0.5, y=0.5), "k", {})
    assert "(5* rating)" in ops


def test_markup_in_a_wrapped_block_keeps_words_together():
    ops, _ = drawn(one(type="textblock", text="**Bold words** then plain ones :moon: end",
                       x=0.1, y=0.1, w=0.5, h=0.6, size=0.07), "k", {})
    assert "(Bold)" in ops and "(words)" in ops and "(end)" in ops


# ---- when, repeat, vars, extends, nested ------------------------------------------------------

def test_when_draws_an_element_only_where_its_condition_holds():
    table = one(type="rect", fill="red", when='deck == "B" and value > 5')
    assert " re" in drawn(table, "k", {"deck": "B", "value": 7})[0]
    assert " re" not in drawn(table, "k", {"deck": "A", "value": 7})[0]
    assert " re" not in drawn(table, "k", {"deck": "B", "value": 2})[0]


def test_repeat_over_a_list_moves_each_item_by_step_and_names_it():
    _, im = drawn(one(type="rect", repeat="teams", step={"x": 0.25}, x=0, y=0, w=0.2,
                      h=0.1, fill="{item.colour}"), "k",
                  {"teams": [{"colour": "#FF0000"}, {"colour": "#0000FF"}]})
    assert px(im, 20, 15) == (255, 0, 0) and px(im, 70, 15) == (0, 0, 255)
    assert px(im, 120, 15) == (255, 255, 255)


def test_vars_fill_a_text_that_the_data_wrote_with_braces():
    ops, _ = drawn(one(type="text", text="{when}", repeat="types", vars={"type": "{item.name}"}),
                   "k", {"when": "When {type} wins", "types": [{"name": "Herb"}]})
    assert "(When Herb wins)" in ops


def test_extends_replace_and_remove_by_id():
    table = {"base": {"elements": [{"type": "rect", "id": "ground", "fill": "red"},
                                   {"type": "circle", "id": "dot", "fill": "blue"}]},
             "child": {"extends": "base", "replace": {"ground": {"type": "rect", "fill": "blue"}},
                       "remove": ["dot"],
                       "elements": [{"type": "text", "text": "x"}]}}
    k = kinds.load(table, "t.toml")["child"]
    assert [type(e).__name__ for e in k.elements] == ["Rect", "Text"]
    assert k.elements[0].fill == "blue"


def test_a_card_drawn_small_inside_another():
    table = {"inner": {"elements": [{"type": "rect", "fill": "{tint}"}]},
             "outer": {"elements": [{"type": "card", "kind": "inner", "x": 0.5, "y": 0.5,
                                     "w": 0.5, "h": 0.5, "fields": {"tint": "#0000FF"}}]}}
    _, im = drawn(table, "outer", {})
    assert px(im, 150, 225) == (0, 0, 255) and px(im, 50, 75) == (255, 255, 255)


def test_a_placeholder_draws_the_hatched_to_come_box():
    table = {"k": {"placeholder": {"word": "{texts.to_come}", "ink": "red"},
                   "elements": [{"type": "textblock", "text": "{name}"}]}}
    face = engine(table, {"texts.to_come": "TO COME"}).face("k", {"name": Placeholder("Name")})
    c = open_canvas(io.BytesIO(), (W, H), "t", "")
    face.draw(c, W, H, 0)
    ops = "\n".join(c._code)
    assert "(TO COME)" in ops and "(Name)" in ops and "[2.5 1.5] 0 d" in ops


# ---- validation ------------------------------------------------------------------------------

ERRORS = {
    "unknown field": ({"k": {"elements": [{"type": "rect", "fil": "red"}]}},
                      "test.toml: kinds.k, element 1 (rect): fil: unknown field (did you mean fill?)"),
    "unknown type": ({"k": {"elements": [{"type": "txt", "text": "a"}]}},
                     "type: 'txt' is not an element type (did you mean text?)"),
    "missing field": ({"k": {"elements": [{"type": "symbol"}]}},
                      "element 1 (symbol): name: missing"),
    "wrong value type": ({"k": {"elements": [{"type": "rect", "x": [1]}]}},
                         "element 1 (rect): x: a list where a number or text is wanted"),
    "misspelt kind key": ({"k": {"elemnts": []}}, "kinds.k: elemnts: unknown field (did you mean elements?)"),
    "bad font": ({"k": {"elements": [{"type": "text", "text": "a", "font": "bolt"}]}},
                 "font: 'bolt' is not one of regular, bold, narrow, narrow-bold (did you mean bold?)"),
    "bad condition": ({"k": {"elements": [{"type": "rect", "when": "__import__('os')"}]}},
                      "when: "),
    "unknown extends": ({"k": {"extends": "bse"}, "base": {}}, "kinds.k.extends: no kind 'bse' (did you mean base?)"),
    "extends cycle": ({"a": {"extends": "b"}, "b": {"extends": "a"}}, "cannot extend itself"),
    "remove unknown id": ({"b": {"elements": [{"type": "rect", "id": "ground"}]},
                           "k": {"extends": "b", "remove": ["grund"]}},
                          "b has no element with id 'grund' (did you mean ground?)"),
    "nested field": ({"k": {"elements": [{"type": "corners", "elements": [
        {"type": "text", "text": "x", "sise": 1}]}]}},
        "element 1 (corners), element 1 (text): sise: unknown field (did you mean size?)"),
    "nested kind": ({"k": {"elements": [{"type": "card", "kind": "rul"}]}, "rule": {}},
                    "kind: no kind 'rul' (did you mean rule?)"),
}


@pytest.mark.parametrize("case", ERRORS, ids=list(ERRORS))
def test_a_layout_error_is_one_line_naming_file_kind_element_and_field(case):
    table, words = ERRORS[case]
    with pytest.raises(CompanionError) as e:
        kinds.load(table, "test.toml")
    line = e.value.line()
    assert words in line and line.startswith("test.toml: kinds.") and "\n" not in line, line


def test_a_value_wrong_only_for_one_card_names_the_kind_and_the_card():
    face = engine(one(type="symbol", name="{sym}")).face("k", {"sym": "dragon"},
                                                             label="demons/01")
    with pytest.raises(CompanionError) as e:
        face.draw(open_canvas(io.BytesIO(), (W, H), "t", ""), W, H, 0)
    assert "kinds.k, card demons/01: unknown symbol \"dragon\"" in e.value.line()


# ---- digests ---------------------------------------------------------------------------------

def test_a_face_digest_draws_nothing_and_follows_only_what_the_kind_names(monkeypatch):
    table = one(type="text", text="{name} {texts.a}", colour="red")
    e = engine(table, {"texts.a": "A", "texts.b": "B"})
    base = e.face("k", {"name": "x"}).digest(W, H, 0)
    monkeypatch.setattr(elements, "draw_all", lambda *a: pytest.fail("drawn for a digest"))
    assert e.face("k", {"name": "x"}).digest(W, H, 0) == base
    assert e.face("k", {"name": "y"}).digest(W, H, 0) != base
    assert engine(table, {"texts.a": "A", "texts.b": "C"}).face(
        "k", {"name": "x"}).digest(W, H, 0) == base  # texts.b is printed nowhere here
    assert engine(table, {"texts.a": "Z", "texts.b": "B"}).face(
        "k", {"name": "x"}).digest(W, H, 0) != base
    assert e.face("k", {"name": "x"}).digest(W, H, 3) != base  # another bleed


def test_a_face_digest_stays_what_earlier_builds_wrote():
    """--changed-since compares with the digests of an earlier build's manifest: the same
    face keeps its digest from one version to the next (these were written when issue 49
    made a digest the whole resolved input: the language, every colour and icon; a size
    read as floats, as a build gives it)."""
    e = engine(one(type="text", text="{name} {texts.a}", colour="red"),
               {"texts.a": "A", "texts.b": "B"})
    assert e.face("k", {"name": "x", "more": {"deep": 1}}).digest(W, H, 0) == "ebfe5d2b7a4c4b85"
    assert e.face("k", {"name": "é"}).digest(W, H, 3) == "c5583e9f84e27b9d"


_SIZES_IN_TURN = """
import sys
sys.path.insert(0, sys.argv[1])
from tests.test_layout_engine import engine, one
e = engine(one(type="text", text="{name}"))
sizes = [(123, 321, 0), (123.0, 321.0, 0.0)]
print(*[e.face("k", {"name": "x"}).digest(*s) for s in sizes[::int(sys.argv[2])]])
"""


def test_a_face_digest_does_not_depend_on_the_sizes_the_process_met_before():
    """A size given as whole numbers (123, 321, 0) or as floats is one size: its digest the
    same whichever the process met first (a cache taking 0 and 0.0 for one key once
    wrote the first one met into every later digest: the pin above changed with the
    tests run before it)."""
    root = str(Path(__file__).resolve().parents[1])
    runs = [subprocess.run([sys.executable, "-c", _SIZES_IN_TURN, root, step],
                           capture_output=True, text=True, check=True, cwd=root).stdout.split()
            for step in ("1", "-1")]
    assert len(set(runs[0] + runs[1])) == 1, runs


# ---- the kits: pages drawn by the engine match those drawn by hand -----------------------------

def _close(a: Image.Image, b: Image.Image) -> float:
    return ImageStat.Stat(ImageChops.difference(a, b).convert("L")).mean[0]


@pytest.mark.parametrize("game,page", [("vengeance", 1), ("vengeance", 2), ("covenia", 1),
                                       ("covenia", 2), ("lugvanion", 1), ("lugvanion", 2),
                                       ("coverta", 1), ("coverta", 2)])
def test_kit_pages_match_the_pages_drawn_before_the_engine(kits, game, page):
    """Low-resolution pictures of representative pages, kept from before each port
    (tests/data/pages): the engine must draw them as the hand-written faces did."""
    folder, _ = kits(game, "a4", "en")
    now = pdfium.PdfDocument(folder / "cards.pdf")[page - 1].render(scale=30 / 72).to_pil()
    before = Image.open(DATA / "pages" / f"{game}-cards-{page}.png").convert("RGB")
    assert _close(now.convert("RGB"), before) < 0.5


@pytest.mark.parametrize("game,file", [("covenia", "scorebook"), ("coverta", "scoresheet")])
def test_score_pages_match_the_pages_drawn_before_the_engine(kits, game, file):
    """The score book and the score sheet, tables in the engine now, as drawn by hand."""
    folder, _ = kits(game, "a4", "en")
    now = pdfium.PdfDocument(folder / f"{file}.pdf")[0].render(scale=30 / 72).to_pil()
    before = Image.open(DATA / "pages" / f"{game}-{file}-1.png").convert("RGB")
    assert _close(now.convert("RGB"), before) < 0.5


def test_the_filled_score_page_matches_the_page_drawn_before_the_engine(cli, tmp_path):
    """`score covenia --pdf`: the rulebook's worked example on the score book's page."""
    pdf = tmp_path / "s.pdf"
    assert cli("score", "covenia", str(DATA / "covenia-rulebook.toml"), "--pdf", str(pdf)).code == 0
    now = pdfium.PdfDocument(pdf)[0].render(scale=30 / 72).to_pil()
    before = Image.open(DATA / "pages" / "covenia-filled-1.png").convert("RGB")
    assert _close(now.convert("RGB"), before) < 0.5


def test_the_reference_in_docs_is_the_one_the_schema_writes():
    from companion.engine import reference

    assert reference.TARGET.read_text(encoding="utf-8") == reference.text(), \
        "docs/layout-reference.md is stale: run python -m companion.engine.reference"
    for cls in ("background", "rect", "circle", "line", "text", "textblock", "symbol",
                "picture", "badge", "corners", "card"):
        assert f'## `type = "{cls}"`' in reference.text()


# ---- any layout: drawn, or refused in one line ------------------------------------------------

from hypothesis import HealthCheck  # noqa: E402

from companion.engine import schema  # noqa: E402

_VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**6, 10**6),
    st.sampled_from(["3mm", "-2mm", "1e9mm", "0", "nan", "inf", "1e9", "{name}", "{nope}", "{n:>300}", "red",
                     "mix(red, blue, 0.5)", "mix(red)", "#FFF", "{item.colour}", "", "{",
                     "not art", "n > 2", "teams", "x ==", "**b** *i* :sun: :nope:"]),
    st.text(max_size=12), st.booleans(), st.lists(st.floats(-5, 5), max_size=3))
_FIELDS = sorted({f for cls in schema.ELEMENTS for f in cls.__struct_fields__} | {"type"})


@st.composite
def _elements(draw):
    el = {"type": draw(st.sampled_from([schema.kind_of_class(c) for c in schema.ELEMENTS]
                                       + ["txt"]))}
    keys = draw(st.lists(st.sampled_from(_FIELDS), max_size=6, unique=True))
    if draw(st.booleans()):  # a stroked outline with a dash: their checks meet
        keys += [k for k in ("stroke", "dash", "stroke_width") if k not in keys]
    for key in keys:
        if key != "type":
            el[key] = draw(_VALUES)
    return el


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(elements=st.lists(_elements(), max_size=4))
def test_any_layout_draws_or_is_refused_in_one_line(elements):
    table = {"k": {"elements": elements}}
    fields = {"name": "Ana", "n": 3, "teams": [{"colour": "#FF0000"}]}
    try:
        face = engine(table).face("k", fields)
        c = open_canvas(io.BytesIO(), (W, H), "t", "")
        face.draw(c, W, H, 0)
        face.digest(W, H, 0)
        ops = "\n".join(c._code)
        assert "nan" not in ops and "inf" not in ops, ops  # no broken number in the PDF
    except CompanionError as e:
        assert "\n" not in e.line() and e.line().startswith("test.toml: kinds.k"), e.line()
