"""Opening a PDF canvas the same way everywhere: embedded fonts only, compressed pages,
and print hints (duplex, no scaling) that home printers honour."""

from functools import lru_cache
from operator import attrgetter

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFDictionary
from reportlab.pdfgen.canvas import Canvas

from companion.press import fonts

# ASCII85 around every stream is what makes pictures slow and large (DESIGN.md): off, so a
# JPEG's bytes go into the PDF as they are.
rl_config.useA85 = 0

# A name's PDF spelling, worked out once: reportlab spells every key of every dictionary
# char by char in Python as it saves (each page's forms: a tenth of a 2,000-card kit's
# save, issue 41). The same function, its answers kept.
if not hasattr(pdfdoc.PDFName, "cache_info"):
    pdfdoc.PDFName = lru_cache(maxsize=4096)(pdfdoc.PDFName)

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "none": "Simplex"}


# What a canvas knows of its graphics state (font, colours, line width...), but for its
# matrix and transparency: what the operators written next may depend on. A drawing
# written once and put back again (companion.engine.reused, a sheet's calibration bar)
# is keyed by it where it begins and leaves it as it found it where it ends.
STATE = tuple(a for a in Canvas.STATE_ATTRIBUTES if a not in ("_currentMatrix", "_extgstate"))
state_of = attrgetter(*STATE)


class _Canvas(Canvas):
    """reportlab's canvas, its transparency states named once a document: reportlab names
    them afresh on every page (and a form), so a drawing written on one page and put back
    on another (companion.engine.reused, companion.kit.drawings) would name a state that
    page lacks, or another one. One table of names for the whole document, so a name means
    the same state wherever it is written; each page's and form's resources list the
    states its operators name (each `gs` is a line of its own: reportlab's
    ExtGState.set), whether written there or put back."""

    def init_graphics_state(self):
        ext = self.__dict__.get("_extgstate")
        super().init_graphics_state()
        if ext is not None:
            self._extgstate._c = ext._c

    def _setExtGState(self, obj):
        named = self._extgstate._c
        if not named:
            obj.ExtGState = None
            return
        code = "\n".join(self._code)  # one C-speed search a state, not a Python loop a line
        if " gs" not in code:  # most pages: one search for them all
            obj.ExtGState = None
            return
        states = {n: PDFDictionary(dict((t,))) for t, n in named.items()
                  if f"/{n} gs" in code}
        obj.ExtGState = PDFDictionary(states) if states else None

    def _setXObjects(self, thing):
        """As reportlab's, each form once: a page places a picture's or an icon's form on
        each card, and reportlab names it again each time (the same dictionary)."""
        forms = self._formsinuse
        thing.XObjects = self._doc.xobjDict(dict.fromkeys(forms)) if forms else None


def open_canvas(path, size: tuple[float, float], title: str, author: str,
                duplex: str = "none") -> Canvas:
    # initialFontName: otherwise every page refers to an unembedded Helvetica.
    c = _Canvas(str(path), pagesize=size, initialFontName=fonts.font("regular"),
               pageCompression=1, invariant=1)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("table-companion")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", DUPLEX[duplex])
    return c
