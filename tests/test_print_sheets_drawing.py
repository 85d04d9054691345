"""print_sheets.render draws each face through its placement, upright in its own size: a canvas
that only records the transformation in force shows where every face really went."""

import pytest

from companion.press import presets
from companion.press.imposition import plan_grid
from companion.draw.print_sheets import Card, Face, SheetText, render
from companion.text.units import mm

S = presets.sheet_settings()


class Recorder:
    """Keeps the current transformation matrix of the few calls that move the origin;
    every other canvas call is accepted and ignored."""

    def __init__(self):
        self.ctm, self.stack, self.page, self.lines = (1, 0, 0, 1, 0, 0), [], 0, []
        self._code = []  # the operators' list render reads back (a place's, once)

    def transform(self, a, b, c, d, e, f):
        A, B, C, D, E, F = self.ctm
        self.ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                    e * A + f * C + E, e * B + f * D + F)

    def translate(self, x, y):
        self.transform(1, 0, 0, 1, x, y)

    def rotate(self, degrees):
        cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1), -90: (0, -1)}[degrees]
        self.transform(cos, sin, -sin, cos, 0, 0)

    def saveState(self):
        self.stack.append(self.ctm)

    def restoreState(self):
        self.ctm = self.stack.pop()

    def showPage(self):
        self.page += 1

    def line(self, x1, y1, x2, y2):
        self.lines.append((self.page, x1, y1, x2, y2))

    def beginPath(self):
        return self

    def __getattr__(self, name):
        return lambda *a, **k: None


def face(log, side, i):
    def draw(c, w, h, bleed):
        log.append((c.page, side, i, w, h, bleed, c.ctm))
    return Face(draw)


@pytest.mark.parametrize("paper,bleed", [("a4", 0), ("a4", 3), ("letter", 3)])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_each_face_is_drawn_upright_in_its_own_size_through_its_placement(paper, bleed, flip):
    g = plan_grid(*presets.paper_size(paper), *presets.card_size("poker"), S, mm(bleed))
    log = []
    cards = [Card("Cards", face(log, "front", i), face(log, "back", i))
             for i in range(g.per_sheet + 1)]
    c = Recorder()
    pages = render(c, cards, g, flip, SheetText("Game", "bar {length} mm", "{component} {n}"))
    assert pages == 4
    assert len(log) == 2 * len(cards)
    for page, side, i, w, h, bl, ctm in log:
        slot = i % g.per_sheet
        placed = g.front(slot) if side == "front" else g.back(slot, flip)
        assert (w, h, bl) == (g.card_w, g.card_h, g.bleed)
        assert ctm == pytest.approx(placed.matrix)
        assert page == 2 * (i // g.per_sheet) + (side == "back")


def test_crop_marks_are_drawn_on_front_sheets_only_as_the_grid_plans_them():
    g = plan_grid(*presets.paper_size("a4"), *presets.card_size("poker"), S, mm(3))
    c = Recorder()
    render(c, [Card("Cards", Face(lambda *a: None), Face(lambda *a: None))] * 3, g, "long",
           SheetText("Game", "bar {length} mm", "{component} {n}"))
    planned = set(g.crop_marks())
    assert planned <= {m[1:] for m in c.lines if m[0] == 0}
    assert not planned & {m[1:] for m in c.lines if m[0] == 1}  # cut from the fronts
