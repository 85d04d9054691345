"""A drawing made once per PDF and placed by reference: a Form XObject.

A designer's icon prints on every card that names it; replaying its drawing at each use
cost a 2,000-card game half its build (issue 36). `place` defines the drawing once in the
canvas's document, the first time it is placed, and every placement is one `Do`: the
form draws in the graphics state of the place it is used (the canvas's matrix, its fill
colour where the drawing sets none), as the drawing made there would.

What reportlab leaves to us (its 5.x beginForm/endForm, read in its source):
- A form may be defined while a page, or another form (a face drawn once per sheet), is
  open: beginForm sets the page's code and resources aside and endForm puts them back,
  its own state saved and restored around it.
- A form's resources hold only the fonts and the forms it places (reportlab: "any
  resource used in a form must be propagated up ... not implemented yet"): its
  transparency states (ExtGState), shadings and colour spaces would be missing. `_define`
  gives the form all it uses.
- Inside a form reportlab takes the transparency in force as PDF's default (alpha 1) and
  leaves out a `gs` that sets it again; a form is placed where the alpha may be another,
  so `_define` makes every one the drawing sets written.
- The text fit check (companion.text.fit) watches the canvas while a face is drawn; a
  form defined in passing draws nowhere on the face: it is defined aside, and the caller
  records what each placement lays under the texts (fit.Recorder.placed)."""

from reportlab.pdfbase.pdfdoc import PDFResourceDictionary
from reportlab.pdfgen.canvas import ExtGState

from companion.press import written
from companion.text import fit

_UNSET = object()  # a transparency value no drawing sets: the first one set is written


def place(c, name: str, bbox: tuple[float, float, float, float], define) -> None:
    """Form `name` drawn at the canvas's current matrix; `define(c)` draws it, once per
    document, in a space whose `bbox` (x0, y0, x1, y1) clips it."""
    if not c.hasForm(name):
        _define(c, name, bbox, define)
    c.doForm(name)


def _define(c, name: str, bbox, define) -> None:
    with fit.aside():
        begin(c, name, bbox)
        define(c)
        end(c, name)


def begin(c, name: str, bbox) -> None:
    """Form `name` begun on `c` (x0, y0, x1, y1): what is drawn until `end` is its drawing
    (a face drawn once and placed on many pages or places: companion.draw.print_sheets, the
    exports' pages)."""
    c.beginForm(name, *bbox)
    c._extgstate._d = dict.fromkeys(ExtGState.defaults, _UNSET)


def end(c, name: str) -> None:
    """The form begun by `begin` ended, given every resource its drawing names."""
    shading, colours = dict(c._shadingUsed), dict(c._colorsUsed)
    code = "\n".join(c._code)  # what the form draws, checked once it is written
    c.endForm()
    doc = c._doc
    form = doc.idToObject[doc.getXObjectName(name)]
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    resources.setShading(shading)  # what its code names (companion.press.written checks)
    resources.setColorSpace(colours)
    form.Resources = resources
    written.check_form(c, name, form, code)
