import pytest
from hypothesis import given, settings, strategies as st

from companion.press import imposition, presets
from companion.errors import CompanionError
from companion.press.imposition import Placed, Rect, plan_grid
from companion.text.units import mm

S = presets.sheet_settings()
M = S.printable_margin
PAPERS = ["a4", "letter"]
CARDS = ["poker", "bridge", "euro", "mini-euro", "mini-usa", "tarot", "square"]
TOL = 1e-6


def grid(paper="a4", card="poker", bleed=0.0, spaced=False):
    return plan_grid(*presets.paper_size(paper), *presets.card_size(card), S, bleed, spaced)


def inside_printable(r, g):
    return (r.x >= M - TOL and r.y >= M - TOL and r.right <= g.page_w - M + TOL
            and r.top <= g.page_h - M + TOL)


def with_bleed(r, bleed):
    return Rect(r.x - bleed, r.y - bleed, r.w + 2 * bleed, r.h + 2 * bleed)


def overlaps(a, b):
    """Whether two rectangles share more than an edge."""
    return a.x < b.right - TOL and b.x < a.right - TOL and a.y < b.top - TOL and b.y < a.top - TOL


def touches(mark, r, clear=0.0):
    """Whether a horizontal or vertical segment comes within `clear` of rectangle r."""
    x1, y1, x2, y2 = mark
    return (min(x1, x2) < r.right + clear - TOL and max(x1, x2) > r.x - clear + TOL
            and min(y1, y2) < r.top + clear - TOL and max(y1, y2) > r.y - clear + TOL)


def length(mark):
    x1, y1, x2, y2 = mark
    return abs(x2 - x1) + abs(y2 - y1)


def paper_flip(x, y, g, flip):
    """Where a point of the front page lies on the back page once the sheet is turned over."""
    return (g.page_w - x, y) if flip == "long" else (x, g.page_h - y)


# Cards per sheet: (count, how the cards lie, count with cards upright only), worked out by
# hand from the data: cards and bleed 5 mm in from the edge, plus 0.5 mm so that a crop
# mark starts inside that margin; on the band's side 5 + 5.5 (band) + 0.5 + 3 (mark) + 0.5
# = 14.5 mm. A4 with 3 mm bleed, poker: upright 2 x 69.5 in 190 wide (band left) by
# 3 x 94.9 in 286 high = 6; turned, 2 x 94.9 = 189.8 in 190 by 4 x 69.5 = 278 in 286 = 8.
COUNTS = {
    ("a4", 0): {"poker": (9, 0, 9), "bridge": (10, 90, 9), "euro": (9, 0, 9),
                "mini-euro": (16, 0, 16), "mini-usa": (18, 90, 16), "tarot": (4, 0, 4),
                "square": (8, 0, 8)},
    ("a4", 3): {"poker": (8, 90, 6), "bridge": (9, 0, 9), "euro": (8, 90, 6),
                "mini-euro": (10, 90, 9), "mini-usa": (16, 0, 16), "tarot": (4, 0, 4),
                "square": (6, 0, 6)},
    ("letter", 0): {"poker": (9, 0, 9), "bridge": (9, 0, 9), "euro": (8, 90, 6),
                    "mini-euro": (15, 90, 12), "mini-usa": (18, 90, 16), "tarot": (4, 0, 4),
                    "square": (6, 0, 6)},
    ("letter", 3): {"poker": (6, 90, 4), "bridge": (8, 90, 6), "euro": (6, 0, 6),
                    "mini-euro": (12, 0, 12), "mini-usa": (12, 0, 12), "tarot": (4, 0, 4),
                    "square": (6, 0, 6)},
}
CASES = [(p, c, b) for p in PAPERS for c in CARDS for b in (0, 3)]


@pytest.mark.parametrize("paper,card,bleed", CASES)
def test_cards_per_sheet_take_the_better_of_upright_and_turned(paper, card, bleed, monkeypatch):
    count, rotation, upright = COUNTS[paper, bleed][card]
    g = grid(paper, card, mm(bleed))
    assert (g.per_sheet, g.rotation) == (count, rotation)
    monkeypatch.setattr(imposition, "TURNS", (0,))
    assert grid(paper, card, mm(bleed)).per_sheet == upright


@pytest.mark.parametrize("paper,count", [("a4", 8), ("letter", 6)])
def test_poker_with_3mm_bleed_turns_to_fit_more(paper, count):
    g = grid(paper, "poker", mm(3))
    assert g.per_sheet == count and g.rotation == 90
    assert (g.box_w, g.box_h) == (g.card_h, g.card_w)  # lying on its side
    assert g.front(0).size == (g.card_w, g.card_h)  # but drawn upright, then turned


@pytest.mark.parametrize("paper", PAPERS)
def test_nine_poker_cards_fit_on_a4_and_letter_without_bleed(paper):
    g = grid(paper)
    assert (g.cols, g.rows, g.rotation) == (3, 3, 0)


def test_a4_poker_positions_are_the_centred_3x3_grid():
    g = grid("a4")
    xs = sorted({round(g.front(i).box.x / mm(1), 2) for i in range(9)})
    assert xs == [9.75, 73.25, 136.75]  # (210 - 3 x 63.5) / 2, then one card width apart
    assert g.front(0).box.top > g.front(3).box.top  # slot 0 is the top row


@pytest.mark.parametrize("paper,card,bleed", CASES)
def test_every_card_with_its_bleed_and_the_band_sit_inside_printable_margins(paper, card,
                                                                          bleed):
    g = grid(paper, card, mm(bleed))
    boxes = [with_bleed(g.front(i).box, g.bleed) for i in range(g.per_sheet)]
    for i, a in enumerate(boxes):
        assert inside_printable(a, g)
        assert not overlaps(a, g.band)
        assert not any(overlaps(a, b) for b in boxes[i + 1:])
    assert inside_printable(g.band, g)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_placement_maps_the_upright_card_exactly_onto_its_box(rotation):
    w, h = mm(63.5), mm(88.9)
    box = Rect(mm(10), mm(20), h, w) if rotation % 180 else Rect(mm(10), mm(20), w, h)
    p = Placed(box, rotation)
    assert p.size == (w, h)
    corners = sorted((round(x, 6), round(y, 6)) for x, y in
                     (p.to_sheet(u, v) for u in (0, w) for v in (0, h)))
    assert corners == sorted((round(x, 6), round(y, 6)) for x in (box.x, box.right)
                             for y in (box.y, box.top))
    # The card's top edge faces up, left, down, right as it turns anticlockwise.
    top = p.to_sheet(w / 2, h)
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    direction = {0: (0, 1), 90: (-1, 0), 180: (0, -1), 270: (1, 0)}[rotation]
    assert ((top[0] - cx) * direction[0] + (top[1] - cy) * direction[1]) > 0


# Backs, by arithmetic: a point (u, v) of a card's front, taken through the front's
# placement and the paper's flip, must land where the back's placement puts the back's
# point (w - u, v): corners coincide, and once cut the card turns over about its own
# upright axis (back's top behind front's top), as unturned long and short flips always did.
@pytest.mark.parametrize("paper,card,bleed", CASES)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_back_lies_exactly_behind_its_front_the_right_way_up(paper, card, bleed, flip):
    g = grid(paper, card, mm(bleed))
    w, h = g.card_w, g.card_h
    for i in range(g.per_sheet):
        front, back = g.front(i), g.back(i, flip)
        assert back.size == (w, h)
        for u, v in [(0, 0), (w, 0), (0, h), (w, h), (0.2 * w, 0.7 * h)]:
            x, y = paper_flip(*front.to_sheet(u, v), g, flip)
            assert back.to_sheet(w - u, v) == (pytest.approx(x), pytest.approx(y))


def test_upright_backs_turn_as_before_and_turned_backs_follow_the_flip():
    g = grid("a4")
    assert g.rotation == 0
    assert g.back(0, "long").rotation == 0  # mirrored columns
    assert g.back(0, "short").rotation == 180  # the sheet turned half a turn
    t = grid("a4", bleed=mm(3))
    assert t.rotation == 90
    assert t.back(0, "long").rotation == 270
    assert t.back(0, "short").rotation == 90
    f, b = t.front(0).box, t.back(0, "long").box
    assert f.x + b.x + f.w == pytest.approx(t.page_w) and b.y == pytest.approx(f.y)


def test_cards_share_cut_lines_without_bleed():
    g = grid("a4")
    assert g.front(1).box.x == pytest.approx(g.front(0).box.right)
    assert len(g.cut_xs()) == g.cols + 1 and len(g.cut_ys()) == g.rows + 1


def test_bleed_keeps_each_card_its_own_bleed():
    g = grid("a4", "bridge", bleed=mm(3))
    assert g.front(1).box.x - g.front(0).box.right == pytest.approx(mm(6))
    assert len(g.cut_xs()) == 2 * g.cols


def test_tokens_keep_a_gap_between_their_bleeds_only_with_bleed():
    g = plan_grid(*presets.paper_size("a4"), mm(38), mm(38), S, mm(3), spaced=True)
    between = g.front(1).box.x - g.front(0).box.right
    assert between == pytest.approx(2 * mm(3) + S.token_gap) and S.token_gap >= mm(1)
    below = g.front(0).box.y - g.front(g.cols).box.top
    assert below == pytest.approx(2 * mm(3) + S.token_gap)
    butted = plan_grid(*presets.paper_size("a4"), mm(38), mm(38), S, 0.0, spaced=True)
    assert butted.gap == 0 and butted.front(1).box.x == pytest.approx(butted.front(0).box.right)
    cards = plan_grid(*presets.paper_size("a4"), mm(38), mm(38), S, mm(3))
    assert cards.gap == 0


def check_marks(g):
    """Both ends of every cut line marked; every mark long enough, on the paper, starting
    inside the printable margin, crop_gap clear of every card's bleed and of the band."""
    s = g.settings
    marks = g.crop_marks()
    for x in g.cut_xs():
        assert len([m for m in marks if m[0] == m[2] == x]) == 2  # above and below the grid
    for y in g.cut_ys():
        assert len([m for m in marks if m[1] == m[3] == y]) == 2  # left and right
    boxes = [with_bleed(g.front(i).box, g.bleed) for i in range(g.per_sheet)]
    for mark in marks:
        x1, y1, x2, y2 = mark
        assert length(mark) >= s.crop_min - TOL
        assert 0 <= min(x1, x2) and max(x1, x2) <= g.page_w + TOL
        assert 0 <= min(y1, y2) and max(y1, y2) <= g.page_h + TOL
        # The end next to the cut prints on a printer that loses the outer margin.
        assert inside_printable(Rect(x1, y1, 0, 0), g)
        assert not any(touches(mark, b, s.crop_gap - TOL) for b in boxes)
        assert not touches(mark, g.band, s.crop_gap - TOL)


@pytest.mark.parametrize("paper,card,bleed", CASES)
def test_crop_marks_are_long_clear_of_cards_and_band_and_start_inside_the_margin(paper, card,
                                                                               bleed):
    check_marks(grid(paper, card, mm(bleed)))


def test_crop_marks_are_at_least_3mm_long_and_half_a_point_wide():
    assert S.crop_min >= mm(3) - TOL and S.crop_width >= 0.5
    shortest = min(length(m) for p, c, b in CASES for m in grid(p, c, mm(b)).crop_marks())
    assert shortest >= mm(3) - TOL


def test_a_card_larger_than_the_paper_is_an_error_naming_the_option():
    with pytest.raises(CompanionError) as e:
        plan_grid(*presets.paper_size("a4"), mm(300), mm(300), S)
    assert e.value.field == "--card-size" and "does not fit" in e.value.message


def test_unknown_paper_and_card_names_are_errors():
    with pytest.raises(CompanionError):
        presets.paper_size("a5")
    with pytest.raises(CompanionError):
        presets.card_size("jumbo")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAPERS), st.floats(10, 210), st.floats(10, 210),
       st.floats(0, 10), st.booleans(), st.sampled_from(["long", "short"]))
def test_any_card_that_fits_keeps_every_invariant(paper, w, h, bleed, spaced, flip):
    try:
        g = plan_grid(*presets.paper_size(paper), mm(w), mm(h), S, mm(bleed), spaced)
    except CompanionError:
        return
    boxes = [with_bleed(g.front(i).box, g.bleed) for i in range(g.per_sheet)]
    for i, a in enumerate(boxes):
        assert inside_printable(a, g)
        assert inside_printable(with_bleed(g.back(i, flip).box, g.bleed), g)
        assert not overlaps(a, g.band)
        for b in boxes[i + 1:]:
            assert not overlaps(a, b)
            if spaced and bleed:  # tokens: token_gap of paper between bleeds
                half = S.token_gap / 2 - TOL
                assert not overlaps(with_bleed(a, half), with_bleed(b, half))
    assert inside_printable(g.band, g)
    check_marks(g)
    front, back = g.front(g.per_sheet - 1), g.back(g.per_sheet - 1, flip)
    for u, v in [(0, 0), (g.card_w, 0), (0, g.card_h), (0.3 * g.card_w, 0.8 * g.card_h)]:
        x, y = paper_flip(*front.to_sheet(u, v), g, flip)
        assert back.to_sheet(g.card_w - u, v) == (pytest.approx(x), pytest.approx(y))
    # Turning is tried both ways, so a card lying on its side fits as many.
    assert plan_grid(*presets.paper_size(paper), mm(h), mm(w), S, mm(bleed),
                     spaced).per_sheet == g.per_sheet
