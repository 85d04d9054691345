import pytest
from hypothesis import given, settings, strategies as st

from companion import presets
from companion.errors import CompanionError
from companion.imposition import plan_grid
from companion.units import mm

S = presets.sheet_settings()
M = S.printable_margin


def grid(paper="a4", card="poker", bleed=0.0):
    return plan_grid(*presets.paper_size(paper), *presets.card_size(card), S, bleed)


def inside_printable(r, g):
    return (r.x >= M - 1e-6 and r.y >= M - 1e-6 and r.right <= g.page_w - M + 1e-6
            and r.top <= g.page_h - M + 1e-6)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_fit_on_a4_and_letter(paper):
    g = grid(paper)
    assert (g.cols, g.rows) == (3, 3)


def test_a4_poker_positions_are_the_centred_3x3_grid():
    g = grid("a4")
    xs = sorted({round(g.front(i).box.x / mm(1), 2) for i in range(9)})
    assert xs == [9.75, 73.25, 136.75]  # (210 - 3 x 63.5) / 2, then one card width apart
    assert g.front(0).box.top > g.front(3).box.top  # slot 0 is the top row


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "bridge", "euro", "mini-euro", "mini-usa", "tarot", "square"])
def test_every_card_and_the_band_sit_inside_printable_margins(paper, card):
    g = grid(paper, card)
    assert g.per_sheet >= 1
    for i in range(g.per_sheet):
        assert inside_printable(g.front(i).box, g)
    assert inside_printable(g.band, g)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_long_flip_backs_mirror_exactly(paper):
    g = grid(paper)
    for i in range(g.per_sheet):
        f, b = g.front(i), g.back(i, "long")
        assert f.box.x + b.box.x + g.card_w == pytest.approx(g.page_w)
        assert b.box.y == pytest.approx(f.box.y)
        assert not b.turned


def test_short_flip_backs_are_the_sheet_turned_half_a_turn():
    g = grid("letter")
    for i in range(g.per_sheet):
        f, b = g.front(i), g.back(i, "short")
        assert b.box.x == pytest.approx(f.box.x)
        assert f.box.y + b.box.y + g.card_h == pytest.approx(g.page_h)
        assert b.turned


def test_cards_share_cut_lines_without_bleed():
    g = grid("a4")
    assert g.front(1).box.x == pytest.approx(g.front(0).box.right)
    assert len(g.cut_xs()) == g.cols + 1 and len(g.cut_ys()) == g.rows + 1


def test_crop_marks_stand_on_every_cut_line_outside_cards_and_inside_margins():
    for paper in ("a4", "letter"):
        g = grid(paper)
        marks = g.crop_marks()
        o = g.outer
        for x in g.cut_xs():
            vertical = [m for m in marks if m[0] == m[2] == x]
            assert len(vertical) == 2  # above and below the grid
        for y in g.cut_ys():
            assert len([m for m in marks if m[1] == m[3] == y]) == 2
        for x1, y1, x2, y2 in marks:
            for x, y in ((x1, y1), (x2, y2)):
                assert M - 1e-6 <= x <= g.page_w - M + 1e-6
                assert M - 1e-6 <= y <= g.page_h - M + 1e-6
                assert not (o.x < x < o.right and o.y < y < o.top)  # never over a card
            assert abs(x2 - x1) + abs(y2 - y1) >= S.crop_min - 1e-6


def test_bleed_keeps_each_card_its_own_bleed_and_fits_fewer():
    g = grid("a4", bleed=mm(3))
    assert g.per_sheet < 9
    assert g.front(1).box.x - g.front(0).box.right == pytest.approx(mm(6))
    assert len(g.cut_xs()) == 2 * g.cols


def test_a_card_larger_than_the_paper_is_an_error_naming_the_option():
    with pytest.raises(CompanionError) as e:
        plan_grid(*presets.paper_size("a4"), mm(300), mm(300), S)
    assert e.value.field == "--card-size" and "does not fit" in e.value.message


def test_unknown_paper_and_card_names_are_errors():
    with pytest.raises(CompanionError):
        presets.paper_size("a5")
    with pytest.raises(CompanionError):
        presets.card_size("jumbo")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["a4", "letter"]), st.floats(20, 190), st.floats(20, 270),
       st.sampled_from([0.0, 2.0, 3.0]), st.sampled_from(["long", "short"]))
def test_any_card_that_fits_stays_inside_margins_and_never_overlaps(paper, w, h, bleed, flip):
    try:
        g = plan_grid(*presets.paper_size(paper), mm(w), mm(h), S, mm(bleed))
    except CompanionError:
        return
    boxes = [g.front(i).box for i in range(g.per_sheet)]
    for i, a in enumerate(boxes):
        assert inside_printable(a, g)
        assert inside_printable(g.back(i, flip).box, g)
        for b in boxes[i + 1:]:
            assert a.right <= b.x + 1e-6 or b.right <= a.x + 1e-6 or \
                a.top <= b.y + 1e-6 or b.top <= a.y + 1e-6
    band = g.band
    o = g.outer
    assert band.top <= o.y + 1e-6 or band.right <= o.x + 1e-6
