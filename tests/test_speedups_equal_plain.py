"""Each shortcut a kit's PDF is written with (issue 41: the 2,000-card build) gives what
the plain way gives: each page naming its forms and transparency states as reportlab's
own code does, a PDF name spelt afresh each time, crop marks drawn on every sheet, a
text's width measured again, a face's boxes from their four corners, every glyph looked
up. A designer's game (pictures, icons, faded grounds, a text too long) is built with
the shortcuts and with each undone, and the PDFs are compared byte for byte."""

from pathlib import Path

from hypothesis import given, strategies as st
from reportlab.graphics.transform import transformPoint
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFDictionary
from reportlab.pdfgen.canvas import Canvas

from companion.draw import print_sheets, text
from companion.press import fonts, pdf, presets
from companion.text import fit


def _plain_states(self, obj):
    """Every state the document named searched for on the page (no one search first)."""
    named = self._extgstate._c
    code = "\n".join(self._code)
    states = {n: PDFDictionary(dict((t,))) for t, n in named.items() if f"/{n} gs" in code}
    obj.ExtGState = PDFDictionary(states) if states else None


def _plain_marks(real, drawn: list):
    def crop_marks(c, grid):
        c.__dict__.pop("_companion_marks", None)  # nothing kept: drawn on every sheet
        drawn.append(len(c._code))
        real(c, grid)
    return crop_marks


def _plain_line(c, s, x, y, role, size, align="left", max_w=None, field=None):
    """companion.draw.text.line as it was before its width was kept (issue 41)."""
    name = fonts.font(role)
    fonts.check(name, s)
    size = max(size, text._floor(c, 0.0))
    if max_w is not None:
        size = text.fit_size(s, role, size, max_w, text._floor(c, 4.0))
    c.setFont(name, size)
    {"center": c.drawCentredString, "right": c.drawRightString}.get(
        align, c.drawString)(x, y, s)
    rec = fit.current()
    if rec is not None:
        w = text.width(s, role, size)
        x0 = x - w / 2 if align == "center" else x - w if align == "right" else x
        rec.record(c, s, field, size, (x0, y - text.DESCENT * size, x0 + w,
                                       y + text.ASCENT * size),
                   max_w is None or w <= max_w + 0.01, "bold" in role)


def _build(tmp: Path, name: str, monkeypatch) -> tuple[bytes, list[str]]:
    from companion import kit
    from tests.test_incremental import designer_game

    data = tmp / "game" / "big.toml"
    if not data.exists():
        designer_game(data.parent, 30)
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp / f"cache-{name}"))
    warnings: list[str] = []
    kit.build(str(data), kit.Options(only=["cards"], out=tmp / name), warn=warnings.append)
    return (tmp / name / "cards.pdf").read_bytes(), warnings


def test_a_kit_written_with_every_shortcut_is_byte_for_byte_the_plain_ones(
        tmp_path, monkeypatch):
    from companion.files import kept

    monkeypatch.setattr(kept, "in_process", None, raising=False)
    fast = _build(tmp_path, "fast", monkeypatch)
    marks: list = []
    with monkeypatch.context() as m:
        m.setattr(pdfdoc, "PDFName", pdfdoc.PDFName.__wrapped__)
        m.setattr(pdf._Canvas, "_setXObjects", Canvas._setXObjects)
        m.setattr(pdf._Canvas, "_setExtGState", _plain_states)
        m.setattr(print_sheets, "crop_marks", _plain_marks(print_sheets.crop_marks, marks))
        m.setattr(text, "line", _plain_line)
        plain = _build(tmp_path, "plain", monkeypatch)
    assert fast == plain
    # what the shortcuts skip is there: states and forms named, sheets marked, a problem
    assert b"/ExtGState" in fast[0] and b"/XObject" in fast[0]
    assert len(marks) == 7  # 66 cards 9-up: crop marks on each of 7 sheets
    assert any("does not fit its box" in w for w in fast[1])


@given(st.text(max_size=40), st.sampled_from(["regular", "bold", "narrow"]))
def test_a_strings_missing_glyphs_are_those_looked_up_one_by_one(s, role):
    name = fonts.font(role)
    have = fonts._glyphs(name)
    assert fonts.missing_glyphs(name, s) == sorted(
        {ch for ch in s if ord(ch) not in have and ch not in "\n\r\t"})


_NUMBER = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)


@given(st.tuples(*[_NUMBER] * 6), st.tuples(*[_NUMBER] * 4))
def test_a_box_on_the_face_is_the_least_and_most_of_its_four_corners(matrix, box):
    """The same floats as applying the matrix to each corner (rounding is monotone)."""
    rec = fit.Recorder(presets.text_limits())
    rec._face = fit._Face("f", (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    rec._last = (rec._face, matrix, matrix)  # the face's matrix is the canvas's
    x0, y0, x1, y1 = box
    corners = [transformPoint(matrix, p) for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    assert rec._to_face_by(matrix, *box) == (min(xs), min(ys), max(xs), max(ys))
