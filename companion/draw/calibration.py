"""The duplex calibration sheet: its front's main scales and words, its back's verniers,
drawn in the front frame through the flip so that, seen through the paper from the front,
they lie on the main scales (companion/press/calibration.py has the geometry)."""

from companion.draw import text
from companion.press import calibration as cal
from companion.text.units import mm


class Words:
    """The sheet's words in one language (layouts/calibration.toml [words])."""

    def __init__(self, words, lang: str, paper_name: str, flip: str):
        t = lambda key: words.text(key, lang)  # noqa: E731
        self.front_title, self.back_title = t("front_title"), t("back_title")
        self.setup = t("setup").format(paper=paper_name, flip=t(flip))
        self.steps = words.text_list("steps", lang)
        self.across, self.up, self.back_note = t("across"), t("up"), t("back_note")


def _scale_frame(c, s: cal.Scale) -> None:
    """The scale's own frame: u along its axis from its 0, v across (front lines at
    v > 0, back lines at v < 0): a scale up is one across turned a quarter."""
    c.translate(s.x, s.y)
    if s.axis == "y":
        c.rotate(90)


def front_scale(c, s: cal.Scale, v: cal.Vernier, name: str) -> None:
    c.saveState()
    _scale_frame(c, s)
    c.setLineWidth(v.line_width)
    for i, u in cal.main_lines(v):
        c.line(u, 0, u, v.long_tick if i % 5 == 0 else v.tick)
        if i % 2 == 0 and abs(i) <= v.reach:
            text.line(c, str(i), u, v.long_tick + mm(0.8), "regular", v.label_size,
                      align="center")
    # the place's name before the scale
    first = cal.main_lines(v)[0][1]
    text.line(c, name, first - mm(2), mm(1), "bold", v.label_size * 1.6, align="right")
    c.restoreState()


def back_scale(c, s: cal.Scale, v: cal.Vernier) -> None:
    c.saveState()
    _scale_frame(c, s)
    c.setLineWidth(v.line_width)
    for j, u in cal.vernier_lines(v):
        c.line(u, 0, u, -(v.long_tick if j == 0 else v.tick))
    text.line(c, "0", 0, -v.long_tick - mm(0.8) - v.label_size * 0.7, "regular",
              v.label_size, align="center")
    c.restoreState()


def _words_block(c, lines: list[str], page_w: float, top: float, size: float) -> None:
    x, w = mm(25), page_w - mm(50)
    for line in lines:
        top -= text.block(c, line, x, top, w, mm(40), "regular", size) + size * 0.5


def render(c, page_w: float, page_h: float, flip: str, words: Words) -> None:
    """The two pages: the front (main scales, words), the back (verniers)."""
    v = cal.vernier()
    all_scales = cal.scales(page_w, page_h)
    top = page_h * 0.72
    text.line(c, words.front_title, page_w / 2, top, "bold", 14, align="center")
    _words_block(c, [words.setup] + words.steps, page_w, top - mm(8), 9)
    for s in all_scales:
        front_scale(c, s, v, s.place + (" " + (words.across if s.axis == "x" else words.up)))
    c.showPage()
    text.line(c, words.back_title, page_w / 2, page_h * 0.62, "bold", 12, align="center")
    _words_block(c, [words.back_note], page_w, page_h * 0.62 - mm(8), 9)
    c.saveState()
    c.transform(*cal.flip_matrix(flip, page_w, page_h))  # drawn as seen from the front
    for s in all_scales:
        back_scale(c, s, v)
    c.restoreState()
    c.showPage()
