"""Issue 35's `rotate` and `opacity`, on any element of the layout format: `rotate` in
degrees, clockwise, about its box's centre (the fit checks measure a turned text by its
turned box); `opacity` from 1 to 0 (what is under shows through; an element's own colours
cannot make it opaque again; nested opacities multiply). Both checked by the schema, one
line naming the element and the key; at their defaults a kind's digest is as before."""

import json
import math
import re

import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image

from companion.errors import CompanionError
from companion.engine import kinds, schema
from tests.test_layout_engine import drawn, one, px
from tests.test_layout_qr import starter_with


# ---- rotate ---------------------------------------------------------------------------------

def _ink_box(im: Image.Image):
    return im.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()


def test_rotate_turns_a_text_clockwise_about_its_printed_lines_centre():
    text = dict(type="text", text="WWWWWWWW", x=0.5, y=0.5, size=0.1)
    _, flat = drawn(one(**text), "k", {})
    ops, turned = drawn(one(**text, rotate=90), "k", {})
    a, b = _ink_box(flat), _ink_box(turned)
    assert a[2] - a[0] > 3 * (a[3] - a[1])  # wide
    assert b[3] - b[1] > 3 * (b[2] - b[0])  # now tall
    centre = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
    assert abs((b[0] + b[2]) / 2 - centre[0]) < 3 and abs((b[1] + b[3]) / 2 - centre[1]) < 3
    assert re.search(r"^0 -1 1 0 \S+ \S+ cm$", ops, re.M), ops  # x turned down the page


def test_rotate_turns_a_rect_about_its_box_centre():
    _, im = drawn(one(type="rect", x=0.25, y=0.45, w=0.5, h=0.1, fill="red", rotate=90), "k", {})
    # a 100 x 30 bar at the card's centre, turned: 30 x 100
    assert px(im, 100, 150) == (255, 0, 0)
    assert px(im, 100, 110) == (255, 0, 0) and px(im, 60, 150) == (255, 255, 255)


def test_the_fit_check_measures_a_rotated_text_by_its_turned_box(cli, tmp_path):
    long = "A title running down"

    def added(rotate: int) -> str:
        return f'''
[[kinds.creature.elements]]
type = "text"
text = "{long} the card's long side"
x = 0.5
y = 0.5
size = 0.06
rotate = {rotate}
'''
    flat = cli("build", str(starter_with(cli, tmp_path / "a", added(0))), "--out",
               str(tmp_path / "a-kit"))
    turned = cli("build", str(starter_with(cli, tmp_path / "b", added(90))), "--out",
                 str(tmp_path / "b-kit"))
    assert long in flat.err and "past the trim" in flat.err, flat.err  # across: too wide
    assert long not in turned.err, turned.err  # down the card: it fits


# ---- opacity --------------------------------------------------------------------------------

def test_opacity_shows_what_is_under_an_element():
    _, im = drawn({"k": {"elements": [
        {"type": "rect", "fill": "blue"},
        {"type": "rect", "x": 0.25, "y": 0.25, "w": 0.5, "h": 0.5, "fill": "red",
         "opacity": 0.5}]}}, "k", {})
    r, g, b = px(im, 100, 150)
    assert 120 < r < 135 and g == 0 and 120 < b < 135, (r, g, b)
    assert px(im, 10, 10) == (0, 0, 255)


def test_an_elements_own_colours_cannot_make_it_opaque_and_opacities_multiply():
    ops, im = drawn({"k": {"elements": [
        {"type": "corners", "opacity": 0.5, "elements": [
            {"type": "text", "text": "WWW", "x": 0.3, "y": 0.15, "size": 0.15,
             "opacity": 0.5}]}]}}, "k", {})
    dark = im.convert("L").getextrema()[0]
    assert 170 < dark < 205, dark  # black at a quarter: about 191
    assert "/ca" not in ops  # the states are named: gs operators, not inline
    assert re.search(r"/Gca0\.25 gs", ops)  # named by its content (issue 49)


def test_opacity_and_rotate_leave_the_next_element_as_it_was():
    _, im = drawn({"k": {"elements": [
        {"type": "rect", "x": 0, "y": 0, "w": 0.5, "h": 0.5, "fill": "red", "opacity": 0.2,
         "rotate": 45},
        {"type": "rect", "x": 0.5, "y": 0.5, "w": 0.5, "h": 0.5, "fill": "blue"}]}}, "k", {})
    assert px(im, 150, 225) == (0, 0, 255)


# ---- the schema: one line naming the element and the key ----------------------------------

@pytest.mark.parametrize("element,words", [
    (dict(type="text", text="a", rotate="x"), "element 1 (text): rotate: text where a number"),
    (dict(type="rect", opacity=2), "element 1 (rect): opacity: Expected `float` <= 1.0"),
    (dict(type="rect", opacity=-0.1), "element 1 (rect): opacity: Expected `float` >= 0.0"),
    (dict(type="symbol", name="x", rotate=1e300), "element 1 (symbol): rotate: Expected"),
    (dict(type="symbol", name="x", rotate=math.inf), "element 1 (symbol): rotate: Expected"),
    (dict(type="symbol", name="x", rotate=math.nan), "element 1 (symbol): rotate: Expected"),
    (dict(type="rect", opacity=math.nan), "element 1 (rect): opacity: Expected"),
])
def test_a_wrong_rotate_opacity_or_code_is_one_line_naming_the_element_and_key(element, words):
    with pytest.raises(CompanionError) as e:
        kinds.load({"k": {"elements": [element]}}, "game.toml")
    said = str(e.value)
    assert said.startswith("game.toml: kinds.k, ") and words in said and "\n" not in said, said


@settings(max_examples=60, deadline=None)
@given(rotate=st.floats(allow_nan=True, allow_infinity=True),
       opacity=st.floats(allow_nan=True, allow_infinity=True))
def test_any_rotate_and_opacity_draw_or_are_refused_in_words(rotate, opacity):
    table = one(type="rect", x=0.2, y=0.2, w=0.3, h=0.3, fill="red", rotate=rotate,
                opacity=opacity)
    try:
        kinds.load(table, "game.toml")
    except CompanionError as e:
        assert "\n" not in str(e)
        assert not (-360 <= rotate <= 360 and 0 <= opacity <= 1)
        return
    drawn(table, "k", {})


def test_rotate_and_opacity_at_their_defaults_leave_a_kinds_digest_as_it_was():
    k = kinds.load({"k": {"elements": [{"type": "rect"}, {"type": "corners", "elements": [
        {"type": "text", "text": "a"}]}]}}, "game.toml")["k"]
    plain = json.dumps(schema.builtins(k))
    assert "rotate" not in plain and "opacity" not in plain
    turned = kinds.load({"k": {"elements": [{"type": "rect", "rotate": 5}]}}, "g")["k"]
    assert schema.builtins(turned)["elements"][0]["rotate"] == 5
