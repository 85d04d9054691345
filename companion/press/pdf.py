"""Opening a PDF canvas the same way everywhere: embedded fonts only, compressed pages,
and print hints (duplex, no scaling) that home printers honour."""

import hashlib
from functools import lru_cache
from operator import attrgetter

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFDictionary
from reportlab.pdfgen.canvas import Canvas, ExtGState

from companion.press import fonts, written

# ASCII85 around every stream is what makes pictures slow and large (DESIGN.md): off, so a
# JPEG's bytes go into the PDF as they are.
rl_config.useA85 = 0

# A name's PDF spelling, worked out once: reportlab spells every key of every dictionary
# char by char in Python as it saves (each page's forms: a tenth of a 2,000-card kit's
# save, issue 41). The same function, its answers kept.
if not hasattr(pdfdoc.PDFName, "cache_info"):
    pdfdoc.PDFName = lru_cache(maxsize=4096)(pdfdoc.PDFName)

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "none": "Simplex"}


def subset_tag(name: bytes, codes) -> bytes:
    """A font subset's tag (PDF 32000-1 9.6.4: six capitals, another for another subset
    in one file), made of the subset itself: its font's name and the characters it holds,
    in their order. The same subset has the same tag in every build."""
    digest = hashlib.sha256(name + b"\0" + repr(list(codes)).encode()).digest()
    return bytes(65 + b % 26 for b in digest[:6])


def _tag_subsets() -> None:
    """reportlab tags each font's subsets by their number (AAAAAA, AAAAAB...), so every
    font's first subset is AAAAAA: while it writes a font's subsets, its numbering
    (ttfonts.SUBSETN, read there at each call) gives subset_tag instead."""
    from reportlab.pdfbase import ttfonts

    if getattr(ttfonts.TTFont.addObjects, "tagged", False):
        return
    plain, number = ttfonts.TTFont.addObjects, ttfonts.SUBSETN
    adding: list = []  # (font, document) being written

    def add_objects(self, doc):
        adding.append((self, doc))
        try:
            plain(self, doc)
        finally:
            adding.pop()

    def tagged(n, *rest):
        if not adding:
            return number(n, *rest)
        font, doc = adding[-1]
        return subset_tag(font.face.name + font.face.subfontNameX, font.state[doc].subsets[n])

    add_objects.tagged = True
    ttfonts.TTFont.addObjects = add_objects
    ttfonts.SUBSETN = tagged


_tag_subsets()


# What a canvas knows of its graphics state (font, colours, line width...), but for its
# matrix and transparency: what the operators written next may depend on. A drawing
# written once and put back again (companion.engine.reused, a sheet's calibration bar)
# is keyed by it where it begins and leaves it as it found it where it ends.
STATE = tuple(a for a in Canvas.STATE_ATTRIBUTES if a not in ("_currentMatrix", "_extgstate"))
state_of = attrgetter(*STATE)


def state_name(state: tuple) -> str:
    """A transparency state's name, made of the state itself (("ca", 0.5): "Gca0.5"):
    the same name for the same state in every document, page and form, and two states
    never one name, whatever was drawn, kept or put back before (issue 49)."""
    key, value = state
    return f"G{key}{str(value).lstrip('/')}"


def shading_name(shading) -> str:
    """A shading's name, the digest of its content (its coordinates, colours, function):
    a gradient is the same object under the same name in any document (issue 49)."""
    return "Sh" + hashlib.sha256(repr(_content(shading)).encode()).hexdigest()[:16]


def _content(obj):
    if isinstance(obj, (list, tuple)):
        return tuple(map(_content, obj))
    if isinstance(obj, dict):
        return tuple(sorted((str(k), _content(v)) for k, v in obj.items()))
    if hasattr(obj, "__dict__"):
        return type(obj).__name__, _content(vars(obj))
    return repr(obj)


class NamedStates(ExtGState):
    """reportlab's transparency states, each named by its content (state_name): reportlab
    names them in the order met ("gRLs0"), another state in another document or page."""

    def set(self, canv, a, v):
        d = self.defaults[a]
        if isinstance(d, bool):
            v, shown = bool(v), self._boolTransform
        elif a in self.pdfNameValues:
            if v not in self.allowed[a]:
                raise ValueError(f"ExtGstate[{a!r}] = {v!r} not in allowed values")
            shown = self._pdfNameTransform
        else:
            shown = self._identityTransform
        if v != self._d.get(a, d) or (a == "op" and self.getValue("OP") != d):
            self._d[a] = v
            t = a, shown(v)
            name = self._c.get(t)
            if name is None:
                name = self._c[t] = state_name(t)
            canv._code.append(f"/{name} gs")


class _Canvas(Canvas):
    """reportlab's canvas, every resource its drawings name named by its content
    (transparency states: state_name; shadings: shading_name; pictures and icons are
    forms named by their digests already), so a drawing written on one page and put back
    on another, or in another document (companion.engine.reused, companion.kit.drawings),
    names what it named when drawn, or nothing at all. Each page's and form's resources
    list what its operators name, and the written page is checked to define every name
    it uses (companion.press.written): a dangling name raises, never a silent page."""

    def init_graphics_state(self):
        ext = self.__dict__.get("_extgstate")
        super().init_graphics_state()
        fresh = NamedStates()
        fresh._c = ext._c if ext is not None else {}
        self._extgstate = fresh

    def _addShading(self, shading):
        name = shading_name(shading)
        if name not in self._doc.idToObject:
            self._doc.Reference(shading, name)
        self._shadingUsed[name] = name
        return name

    def _setShadingUsed(self, page):
        """As reportlab's, then the page checked: the last of its resources set."""
        super()._setShadingUsed(page)
        written.check_page(self, page)

    def _setExtGState(self, obj):
        # its lines joined once, each once (a page repeats most: a picture's Do, a state's
        # gs on every card), for the states' search and the page's check
        # (written.check_page): both ask which names its lines hold, not where
        code = "\n".join(set(self._code))
        self._joined = obj, code
        named = self._extgstate._c
        if not named:
            obj.ExtGState = None
            return
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
