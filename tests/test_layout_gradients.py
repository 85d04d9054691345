"""Issue 35's linear gradients as fills: `gradient = { start, end, angle }` on a rect (its
fill, rounded or not, its outline over it) and on a background (the card and its bleed,
or a token's disc; paled by --ink saver unless `cue`), from one colour to the other
across the shape along `angle` (clockwise from left to right, as `rotate`). Checked by the
schema, one line naming the element and the key; absent, a kind's digest is as before."""

import json
import math

import pytest

from companion.errors import CompanionError
from companion.engine import kinds, schema
from tests.test_layout_engine import drawn, one, px


def _close(a, b, tol=40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.mark.parametrize("angle,first,last", [
    (0, (10, 150), (190, 150)),  # left to right
    (90, (100, 10), (100, 290)),  # top to bottom
    (180, (190, 150), (10, 150)),  # right to left
    (-90, (100, 290), (100, 10)),  # bottom to top
])
def test_a_rects_gradient_runs_from_its_start_colour_to_its_end_along_its_angle(
        angle, first, last):
    _, im = drawn(one(type="rect", gradient={"start": "red", "end": "blue", "angle": angle}),
                  "k", {})
    assert _close(px(im, *first), (255, 0, 0)), px(im, *first)
    assert _close(px(im, *last), (0, 0, 255)), px(im, *last)
    mid = px(im, 100, 150)
    assert _close(mid, (128, 0, 128), 30), mid  # half way: half of each


def test_a_gradient_fills_only_its_rect_rounded_and_its_outline_prints_over_it():
    ops, im = drawn(one(type="rect", x=0.25, y=0.25, w=0.5, h=0.5, radius=0.1,
                        stroke="ink", stroke_width="4pt",
                        gradient={"start": "red", "end": "blue", "angle": 0}), "k", {})
    assert px(im, 10, 10) == (255, 255, 255) and px(im, 190, 290) == (255, 255, 255)
    assert px(im, 52, 77) == (255, 255, 255)  # the rounded corner, outside the path
    assert _close(px(im, 100, 150), (128, 0, 128), 30)
    assert px(im, 50, 150) == (0, 0, 0)  # the outline, over the gradient
    assert " sh" in ops  # a smooth shading, not bands of flat colour


def test_a_backgrounds_gradient_covers_the_card_and_its_bleed():
    import io

    from companion.press.pdf import open_canvas
    from tests.test_layout_engine import engine

    face = engine(one(type="background", fill="paper",
                      gradient={"start": "red", "end": "blue"})).face("k", {})
    c = open_canvas(io.BytesIO(), (218, 318), "test", "")
    face.draw(c, 200, 300, 9.0)
    ops = "\n".join(c._code)
    assert "-9 -9 218 318 re" in ops and " sh" in ops, ops  # clipped to card and bleed


@pytest.mark.parametrize("gradient,words", [
    ({"start": "red"}, "gradient.end: missing (every gradient needs it)"),
    ({"start": "red", "end": "blue", "angle": 400}, "gradient.angle: Expected `float` <= 360"),
    ({"start": "red", "end": "blue", "angle": math.nan}, "gradient.angle: Expected"),
    ({"start": "red", "end": "blue", "turn": 3}, "turn: unknown field"),
])
def test_a_wrong_gradient_is_one_line_naming_the_element_and_key(gradient, words):
    with pytest.raises(CompanionError) as e:
        kinds.load(one(type="rect", gradient=gradient), "game.toml")
    said = str(e.value)
    assert said.startswith("game.toml: kinds.k, element 1 (rect)") and words in said, said
    assert "\n" not in said


def test_a_gradients_unknown_colour_stops_the_face_in_words():
    from companion.engine.bind import BindError

    with pytest.raises((BindError, CompanionError)) as e:
        drawn(one(type="rect", gradient={"start": "red", "end": "nosuch"}), "k", {})
    assert "nosuch" in str(e.value) and "\n" not in str(e.value)


def test_no_gradient_leaves_a_kinds_digest_as_it_was():
    k = kinds.load(one(type="rect", fill="red"), "g")["k"]
    assert "gradient" not in json.dumps(schema.builtins(k))
    g = kinds.load(one(type="rect", gradient={"start": "a", "end": "b"}), "g")["k"]
    assert schema.builtins(g)["elements"][0]["gradient"]["end"] == "b"


@pytest.mark.parametrize("cue,paled", [(False, True), (True, False)])
def test_ink_saver_pales_a_backgrounds_gradient_unless_it_is_a_cue(cue, paled):
    from companion.draw import card

    table = one(type="background", fill="paper", cue=cue,
                gradient={"start": "red", "end": "red"})
    with card.ink_saver(True):
        _, im = drawn(table, "k", {})
    r, g, b = px(im, 100, 150)
    assert (g > 100) == paled and r > 240, (r, g, b)


# ---- the contrast check over a gradient (issue 49) ------------------------------------

def _contrast_warnings(tmp_path, name: str, **band) -> list[str]:
    """The contrast warnings of a designer's game whose creatures' title (`paper`) lies on
    a gradient band (tests/edit_sequences_game.py) of `band`'s colours and angle."""
    from companion.kit import Options, build
    from tests.edit_sequences_game import Game, write

    folder = tmp_path / name
    write(folder, Game(**band))
    said: list[str] = []
    build(str(folder / "tide.toml"), Options(out=tmp_path / f"{name}-kit"), warn=said.append)
    return [w for w in said if "contrast" in w]


def test_a_paper_title_on_a_dark_gradient_band_is_no_contrast_problem_even_strict(tmp_path):
    """A dark band (accent to night) under a paper title: once read as the paper under
    the band, "contrast 1.00:1", and --strict failed."""
    from companion.kit import Options, build
    from tests.edit_sequences_game import Game, write

    assert _contrast_warnings(tmp_path, "dark", band_start="accent", band_end="night") == []
    write(tmp_path / "strict", Game(band_start="accent", band_end="night"))
    build(str(tmp_path / "strict" / "tide.toml"), Options(out=tmp_path / "s", strict=True))


def test_a_paper_title_over_the_light_end_of_a_gradient_is_a_contrast_problem(tmp_path):
    """Measured against what lies under it: a band all light, or dark at the left and
    light at the right under a title that runs across it, is low contrast; the same band
    turned dark at the right alone is not (a left-aligned title in the band's left part)."""
    from companion.errors import CompanionError
    from companion.kit import Options, build
    from tests.edit_sequences_game import Game, write

    light = _contrast_warnings(tmp_path, "light", band_start="paper", band_end="sand")
    assert any("“Hermit Crab”" in w and "contrast 1.0" in w for w in light), light
    across = _contrast_warnings(tmp_path, "across", band_start="night", band_end="paper",
                                band_angle=0)
    assert any("“Hermit Crab”" in w for w in across), across
    write(tmp_path / "strict", Game(band_start="paper", band_end="sand"))
    with pytest.raises(CompanionError, match="contrast"):
        build(str(tmp_path / "strict" / "tide.toml"), Options(out=tmp_path / "s", strict=True))
    assert _contrast_warnings(tmp_path, "vertical", band_start="night", band_end="accent",
                              band_angle=90) == []


def test_a_gradients_least_contrasting_part_under_a_text_is_its_ground():
    from companion.text import fit

    black, white = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    gradient = ((0.0, 0.0), (100.0, 0.0), black, white)  # black at x 0, white at x 100
    assert fit._least_apart(gradient, (0, 0, 10, 10), white) == pytest.approx(black, abs=0.11)
    assert fit._least_apart(gradient, (0, 0, 100, 10), white) == white  # over its white end
    assert fit._least_apart(gradient, (0, 0, 100, 10), black) == black
    assert fit._least_apart(gradient, (-50, 0, -10, 10), white) == black  # extended beyond
