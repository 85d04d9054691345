"""A designer's own icons: SVG files named in the data,

    [icons]
    potion = "icons/potion.svg"     # beside the data file

drawn as vectors wherever a built-in symbol can be: a symbol element, a bullet's mark,
`:potion:` in a text. An icon named like a built-in symbol ("flame") replaces it. Where
the SVG says `currentColor`, it takes the colour the card gives the symbol; its other
colours are its own. Its text, if any, is in our bundled regular font (below).

An SVG is untrusted input (a file shared in an art pack): it is read as a regular file
of at most 1 MB, inside the data file's folder; then parsed, checked and drawn in a
worker process (companion.files.bounded: a deadline and a memory limit), so whatever lxml,
svglib or reportlab do with a crafted file ends as one line naming it. Refused, naming
the file: a DOCTYPE (entities), anything reaching outside the file (an <image>, a script,
a link to another file or address), more than 5,000 elements, an element of more than
100 attributes, more than 20,000 shapes once its <use> copies are expanded (a few nested
<use> can multiply a small file into millions), a style sheet svglib would take for ever
to match or apply (over 500 selectors or 1,000 declarations, or a selector of over 3
combinators), a drawing of over 10,000 canvas calls, a number out of range (a size of
1e30, nan, inf), or a size too small to fit (under 0.01 pt). Whatever no check foresees
ends at the worker's deadline or memory limit.

Fonts: svglib would open `<font-family>.ttf` from any path the file names, or ask
fontconfig, for each <text>; an icon may use no file but itself, so every family is our
bundled regular font (already embedded and checked for glyphs), never an outside font.

The worker returns the drawing as a flat list of plain values, what reportlab's renderPDF
does to a canvas (see _Recorder); this process replays it on the real canvas through the
canvas's own methods (companion.text.fit watches those), `currentColor` taking the ink.
The list is kept in our cache (companion.files.kept: marshal values, never pickle) by the SVG
bytes' digest and the libraries' versions, so a warm build starts no worker and imports
neither lxml nor svglib."""

import hashlib
import math
from functools import cache
from pathlib import Path

import msgspec
from reportlab.graphics.transform import mmult

from companion.files import bounded, designer_files, kept
from companion.errors import CompanionError, shown

LIMIT = 1_000_000  # bytes: an icon is a few KB; 1 MB leaves room for a detailed one
MAX_SHAPES = 20_000  # elements drawn once <use> copies are counted
MAX_ELEMENTS = 5_000  # in the file: svglib spends about 0.25 ms on each
MAX_ATTRIBUTES = 100  # an element's, its style's declarations counted: SVG has ~60 names
MAX_SELECTORS = 500  # in its style sheets: each is matched against every element
MAX_COMBINATORS = 3  # in one selector: svglib's matching grows as depth ** combinators
MAX_DECLARATIONS = 1_000  # in its style sheets: an exported icon's have a few dozen
MAX_OPS = 10_000  # canvas calls (path points and text characters counted): each card
# that prints the icon replays them all; a detailed icon needs a few hundred
MAX_NUMBER = 1e6  # a coordinate, size or scale: reportlab refuses 1e21, PDF viewers less
MIN_SIZE = 0.01  # pt, an icon's width or height: fitting a smaller one scales it past 1e21
FORMAT = 1  # of the drawing kept: another value draws every icon again
_FORBIDDEN = {"image", "script", "foreignObject", "iframe", "audio", "video"}
_XLINK = "{http://www.w3.org/1999/xlink}href"
_INK = "companion-current-colour"  # what `color` says in the worker: currentColor's ink


class Icon(msgspec.Struct):
    name: str
    path: str
    digest: str  # of the file's bytes: a face's digest follows what the icon prints
    width: float  # the drawing's size, pt
    height: float
    ops: tuple  # the drawing, as canvas calls (_Recorder)

    def draw(self, c, cx: float, cy: float, r: float) -> None:
        """Centred on (cx, cy), fitting the square of side 2 r, as a built-in symbol;
        `currentColor` is the canvas's fill colour. Drawn once per PDF for each ink, as a
        form (companion.draw.forms), and placed; the text fit check is told the shapes
        each placement lays (the same it would see were the drawing made here)."""
        from reportlab.lib import colors

        from companion.draw import forms
        from companion.text import fit

        caller = getattr(c, "_fillColorObj", None)  # what the caller set, as for a symbol
        hexed = caller.hexval()[2:] if hasattr(caller, "hexval") else "000000"
        w, h = self.width, self.height
        if w <= 0 or h <= 0:
            return
        s = 2 * r / max(w, h)
        c.saveState()
        c.translate(cx - w * s / 2, cy - h * s / 2)
        c.scale(s, s)
        forms.place(c, f"Icon{self.digest}{hexed}", _bbox(w, h),
                    lambda c: _replay(c, self.ops, colors.HexColor("#" + hexed)))
        rec = fit.current()
        if rec is not None:
            rec.placed(c, _grounds(self.ops, hexed), fit._rgb(caller))
        c.restoreState()


def _bbox(w: float, h: float) -> tuple:
    """An icon's form's clip, in its own units: its size and a wide margin (a drawing may
    reach out of its viewBox, and did so unclipped when replayed on the page)."""
    k = 100 * max(w, h)
    return -k, -k, w + k, h + k


_GROUNDS: dict = {}


def _grounds(ops: tuple, hexed: str) -> tuple:
    """The filled rects, rounded rects and circles of a drawing, as the text fit check
    (companion.text.fit) watches them: (shape, arguments, the drawing's matrix there, its
    fill as rgb or None where the drawing inherits the caller's), worked out once for each
    drawing and ink."""
    key = (id(ops), hexed)
    if key in _GROUNDS and _GROUNDS[key][0] is ops:
        return _GROUNDS[key][1]
    from reportlab.lib import colors

    from companion.text import fit

    ink = colors.HexColor("#" + hexed)
    out, stack = [], []
    matrix, fill = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), None
    shapes = {"rect": ("rect", 4), "rrect": ("roundRect", 5), "circle": ("circle", 3)}
    for op in ops:
        name = op[0]
        if name == "q":
            stack.append((matrix, fill))
        elif name == "Q":
            if stack:
                matrix, fill = stack.pop()
        elif name == "cm":
            matrix = mmult(matrix, op[1:])  # op, then the matrix
        elif name == "fill":
            fill = fit._rgb(_colour(op[1], ink))
        elif name in shapes and op[-1]:
            shape, n = shapes[name]
            out.append((shape, op[1:1 + n], matrix, fill))
    _GROUNDS[key] = (ops, tuple(out))
    return _GROUNDS[key][1]


def load(data) -> dict[str, Icon]:
    """The icons [icons] names in `data` (a companion.files.data.Fields), read and checked."""
    out = {}
    for name, path in designer_files.named_beside(data, "icons").items():
        if path.suffix.lower() != ".svg":
            raise data.sub("icons").error(name, f"{data.table['icons'][name]} is not an .svg "
                                                "file")
        out[name] = _icon(name, path.resolve())
    return out


def _icon(name: str, path: Path) -> Icon:
    """The icon at `path`: its drawing kept from an earlier run, or worked out in a
    bounded worker (and kept)."""
    raw = designer_files.read_bytes(path, LIMIT, "SVG icon")
    key = _key(raw)
    drawn = kept.read("icons", key)
    if not _valid(drawn):
        _imported()
        drawn = bounded.run(_drawn, raw, str(path), source=str(path), what="SVG icon")
        if not _valid(drawn):  # our recorder's own output: never, unless it has a bug
            raise CompanionError("could not be drawn as an SVG icon", source=str(path))
        kept.keep("icons", key, drawn)
    width, height, ops = drawn
    return Icon(name, str(path), hashlib.sha256(raw).hexdigest()[:16], width, height, ops)


@cache
def _imported() -> None:
    """The worker's libraries imported here, once, when an icon is to be drawn: each
    worker, a fork of this process, then starts with them (importing svglib took each
    one 0.3 s). Importing runs none of their code on a designer's file."""
    from importlib import import_module

    for name in ("svglib.svglib", "tinycss2", "reportlab.graphics.renderPDF"):
        import_module(name)


def _key(raw: bytes) -> str:
    """The cache's name for the drawing of `raw`: what else it depends on included."""
    return hashlib.sha256(_drawn_by().encode() + b"\0" + raw).hexdigest()[:32]


@cache
def _drawn_by() -> str:
    """What an icon's drawing depends on besides its file: our format, the libraries that
    draw it (read from their metadata: neither is imported), the font of its text."""
    from reportlab import Version

    return f"{FORMAT} svglib {_svglib_version()} reportlab {Version} {_font()}"


def _svglib_version() -> str:
    """svglib's version, from its installed metadata's folder name beside it (what
    importlib.metadata reads, without the 10 ms its import costs a build); else from
    importlib.metadata; else unknown: kept for this run only."""
    import os
    from importlib.util import find_spec

    spec = find_spec("svglib")
    if spec is not None and spec.origin:
        site = Path(spec.origin).parent.parent
        found = sorted(site.glob("svglib-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len("svglib-"):-len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("svglib")
    except PackageNotFoundError:
        return f"unknown {os.getpid()}"


def _font() -> str:
    """The bundled regular font: an icon's text is drawn in it, whatever the game's."""
    from companion.press import fonts

    return fonts.register()["regular"]


# ---- in the worker: parse, check, draw ------------------------------------------------

def _drawn(raw: bytes, where: str) -> tuple:
    """(width, height, ops) of the SVG `raw`: run in a bounded worker (companion.files.bounded)."""
    root = _parsed(raw, where)
    _check_tree(root, where)
    return _record(root, where)


def _parsed(raw: bytes, where: str):
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError as e:
        raise CompanionError(f"is not an SVG file: {e}", source=where) from None
    if root is None or etree.QName(root).localname != "svg":
        raise CompanionError("is not an SVG file (its root is not <svg>)", source=where)
    if root.getroottree().docinfo.doctype:
        raise CompanionError("declares a DOCTYPE: an icon needs none (entities are "
                             "refused)", source=where)
    return root


def _check_tree(root, where: str) -> None:
    from lxml import etree

    by_id = {}
    every = [el for el in root.iter() if isinstance(el.tag, str)]  # held: id() names one
    if len(every) > MAX_ELEMENTS:
        raise CompanionError(f"holds {len(every):,} elements, over the {MAX_ELEMENTS:,} an "
                             "icon may: simplify it", source=where)
    styles = []
    for el in every:
        local = etree.QName(el).localname
        if local in _FORBIDDEN:
            raise CompanionError(f"holds an <{local}>: an icon is shapes only", source=where)
        if _attributes(el) > MAX_ATTRIBUTES:
            raise CompanionError(f"has a <{local}> of over {MAX_ATTRIBUTES} attributes (its "
                                 "style's counted), the most an element may: simplify it",
                                 source=where)
        for attr, value in el.attrib.items():
            if etree.QName(attr).localname == "href" and not value.startswith("#"):
                raise CompanionError(f"links to {value[:60]!r}: an icon may only refer to "
                                     "its own parts (#id)", source=where)
            if "url(" in value.replace(" ", "") and "url(#" not in value.replace(" ", ""):
                raise CompanionError(f"refers to {value[:60]!r}: an icon may only refer "
                                     "to its own parts (url(#id))", source=where)
        if local == "style":
            if "@import" in (el.text or ""):
                raise CompanionError("imports a style sheet: an icon may only refer to its "
                                     "own parts", source=where)
            styles.append(el.text or "")
        if el.get("id"):
            by_id[el.get("id")] = el
    _check_styles(styles, where)
    _check_size(root, by_id, where)


def _attributes(el) -> int:
    """An element's attributes, each declaration of its style attribute counted (svglib
    makes each one an attribute)."""
    return len(el.attrib) + (el.get("style") or "").count(";")


def _check_styles(sheets: list[str], where: str) -> None:
    """Refuses style sheets svglib would take for ever to match: cssselect2 backtracks
    through every ancestor at each combinator."""
    import tinycss2

    if sum(sheet.count("{") for sheet in sheets) > MAX_SELECTORS:  # before a long parse
        raise CompanionError(f"has over {MAX_SELECTORS} style rules, the most an icon may: "
                             "simplify it", source=where)
    selectors = declarations = 0
    for sheet in sheets:
        for rule in tinycss2.parse_stylesheet(sheet, skip_comments=True,
                                              skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue
            declarations += tinycss2.serialize(rule.content).count(";") + 1
            if declarations > MAX_DECLARATIONS:  # each one set on every element it matches
                raise CompanionError(f"has over {MAX_DECLARATIONS:,} style declarations, "
                                     "the most an icon may: simplify it", source=where)
            for selector in _split(rule.prelude):
                selectors += 1
                if selectors > MAX_SELECTORS:
                    raise CompanionError(f"has over {MAX_SELECTORS} style selectors, the "
                                         "most an icon may: simplify it", source=where)
                if _combinators(selector) > MAX_COMBINATORS:
                    text = shown(tinycss2.serialize(selector).strip()[:40])
                    raise CompanionError(f"has a style selector of over {MAX_COMBINATORS} "
                                         f"steps ({text}), the most an icon may: simplify "
                                         "it", source=where)


def _split(tokens) -> list[list]:
    """A rule's prelude as its selectors (split at commas)."""
    out = [[]]
    for t in tokens:
        if t.type == "literal" and t.value == ",":
            out.append([])
        else:
            out[-1].append(t)
    return out


def _combinators(tokens) -> int:
    """The combinators in a selector (a space, >, + or ~ between two parts), those inside
    :is(...) and the like counted too."""
    n, gap, started = 0, False, False
    for t in tokens:
        if t.type == "whitespace" or (t.type == "literal" and t.value in ">+~"):
            gap = started
            continue
        if gap:
            n += 1
        gap, started = False, True
        if t.type == "function":
            n += _combinators(t.arguments)
    return n


def _check_size(root, by_id: dict, where: str) -> None:
    """Refuses a file that would draw over MAX_SHAPES elements once its <use> are
    expanded, or that nests too deep."""
    from lxml import etree

    sizes: dict = {}

    def size(el, seen: tuple) -> int:
        if id(el) in sizes:
            return sizes[id(el)]
        if len(seen) > 200:  # libxml2 keeps a file's nesting under 256; <use> chains too
            raise CompanionError("nests its parts over 200 deep: simplify it", source=where)
        n = 1
        href = el.get(_XLINK) or el.get("href")
        if href and etree.QName(el).localname == "use":
            target = by_id.get(href[1:])
            if target is None or target in seen:
                if target is not None:
                    raise CompanionError(f"<use> refers to itself through {href}",
                                         source=where)
            else:
                n += size(target, seen + (target,))
        for child in el:
            if isinstance(child.tag, str):
                n += size(child, seen + (child,))
            if n > MAX_SHAPES:
                break
        if n > MAX_SHAPES:
            raise CompanionError(f"would draw over {MAX_SHAPES:,} shapes once its <use> "
                                 "copies are expanded: simplify it", source=where)
        sizes[id(el)] = n
        return n
    size(root, (root,))


class _Fonts:
    """svglib's font map, for an icon: every family is our bundled regular font, so a
    <text> opens no file and starts no fontconfig (svglib's own map would open
    `/any/path.ttf` the file names)."""

    def __init__(self, name: str):
        self.name = name

    def find_font(self, font_name: str, weight: str = "normal", style: str = "normal"):
        return self.name, True


def _record(root, where: str) -> tuple:
    """(width, height, ops): the checked SVG drawn by svglib and renderPDF onto a
    _Recorder, `currentColor` standing for the ink."""
    import logging

    from reportlab.graphics import renderPDF
    from svglib.svglib import SvgRenderer

    # svglib logs what it skips ("Can't handle color") as raw lines on our stderr: in
    # this worker alone, they go unsaid
    logging.getLogger("svglib").setLevel(logging.CRITICAL + 1)
    font = _font()
    root.set("color", _INK)
    renderer = SvgRenderer(where, font_map=_Fonts(font),
                           external_reference_root=str(Path(where).parent))
    convert = renderer.attrConverter.convertColor
    # currentColor resolves to what `color` says: a colour of our own class marks it
    renderer.attrConverter.convertColor = lambda text: (_ink_class()() if text == _INK
                                                        else convert(text))
    recorder = _Recorder(font)
    try:
        drawing = renderer.render(root)
        size = _number(drawing.width), _number(drawing.height)
        if 0 < max(size) < MIN_SIZE:
            raise bounded.Failed(f"is {max(size):g} pt across: too small to draw (an icon "
                                 f"is {MIN_SIZE:g} pt at the least)")
        drawing.initialFontName = font  # renderPDF starts by setting it: ours
        renderPDF.draw(drawing, recorder, 0, 0)
    except (bounded.Failed, CompanionError, MemoryError, RecursionError):
        raise
    except Exception as e:  # noqa: BLE001 - whatever svglib or reportlab raise on a bad file
        raise bounded.Failed(f"could not be drawn as an SVG icon ({type(e).__name__}: "
                             f"{str(e)[:80]})".replace(": )", ")")) from None
    return (*size, tuple(recorder.ops))


@cache
def _ink_class():
    """The class of the colour svglib gives `currentColor` in the worker."""
    from reportlab.lib import colors

    class Ink(colors.Color):
        """currentColor: the replay gives it the ink."""
    return Ink


def _number(x) -> float:
    """`x`, refused (one line) unless a finite number within MAX_NUMBER."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise bounded.Failed(f"draws with {shown(str(x)[:30])} where a number goes")
    if not math.isfinite(x) or abs(x) > MAX_NUMBER:
        raise bounded.Failed(f"draws with the number {x:g}: an icon's numbers stay within "
                             f"±{MAX_NUMBER:,.0f}")
    return x


def _flag(x, allowed=(0, 1)) -> int:
    """`x`, refused unless one of `allowed` (ints: a flag, a line cap, a text mode)."""
    if isinstance(x, bool):
        x = int(x)
    if type(x) is not int or x not in allowed:
        raise bounded.Failed(f"draws with {shown(str(x)[:30])} where a flag goes")
    return x


class _Recorder:
    """Stands for reportlab's canvas in the worker, for renderPDF: each call it makes is
    kept as plain values (numbers checked, colours as tuples, currentColor as "ink"), and
    made on a real canvas too, so what a canvas refuses fails here, not in the replay.
    A call renderPDF has no business making (an inline image) is refused."""

    def __init__(self, font: str):
        import io

        from reportlab.pdfgen.canvas import Canvas

        self.__dict__.update(ops=[], _real=Canvas(io.BytesIO()), _font=font,
                             _left=MAX_OPS)
        self._real.setFont(font, 10)

    def __getattr__(self, name):
        raise bounded.Failed(f"draws with reportlab's {name}, which an icon may not")

    def _spend(self, cost: int) -> None:
        self.__dict__["_left"] -= cost
        if self._left < 0:
            raise bounded.Failed(f"draws with over {MAX_OPS:,} canvas calls, the most an "
                                 "icon may (every card printing it repeats them): simplify it")

    def _add(self, *op, cost: int = 1) -> None:
        self._spend(cost)
        self.ops.append(op)

    @property
    def _fontname(self):  # renderPDF reads the canvas's font when a size changes
        return self._real._fontname

    @property
    def _fontsize(self):
        return self._real._fontsize

    @property
    def _fillMode(self):
        return self._real._fillMode

    @_fillMode.setter
    def _fillMode(self, value):
        self._add("fillmode", _flag(value))
        self._real._fillMode = value

    def _colour(self, c) -> tuple:
        from reportlab.lib import colors

        alpha = None if getattr(c, "alpha", None) is None else _number(c.alpha)
        if isinstance(c, _ink_class()):
            return ("ink", alpha)
        if isinstance(c, colors.CMYKColor) and not getattr(c, "spotName", None):
            return ("cmyk", *map(_number, (c.cyan, c.magenta, c.yellow, c.black, c.density)),
                    alpha)
        if type(c) is colors.Color:
            return ("rgb", *map(_number, (c.red, c.green, c.blue)), alpha)
        raise bounded.Failed(f"draws with the colour {shown(str(c)[:30])}, which an icon "
                             "may not")

    def saveState(self):
        self._add("q")
        self._real.saveState()

    def restoreState(self):
        self._add("Q")
        self._real.restoreState()

    def transform(self, *m):
        self._add("cm", *map(_number, m))
        self._real.transform(*m)

    def setFillColor(self, c):
        self._add("fill", self._colour(c))
        self._real.setFillColor(c)

    def setStrokeColor(self, c):
        self._add("stroke", self._colour(c))
        self._real.setStrokeColor(c)

    def setLineWidth(self, w):
        self._add("width", _number(w))
        self._real.setLineWidth(w)

    def setLineCap(self, v):
        self._add("cap", _flag(v, (0, 1, 2)))
        self._real.setLineCap(v)

    def setLineJoin(self, v):
        self._add("join", _flag(v, (0, 1, 2)))
        self._real.setLineJoin(v)

    def setDash(self, array=(), phase=0):
        if not isinstance(array, (list, tuple)):  # one number: reportlab's other notation
            array, phase = (array, phase), 0
        array = tuple(map(_number, array))
        self._add("dash", array, _number(phase), cost=1 + len(array))
        self._real.setDash(list(array), phase)

    def setFont(self, name, size, leading=None):
        if name != self._font or leading is not None:
            raise bounded.Failed(f"draws with the font {shown(str(name)[:30])}, not ours")
        self._add("font", _number(size))
        self._real.setFont(name, size)

    def setFillAlpha(self, a):
        self._add("falpha", _number(a))
        self._real.setFillAlpha(a)

    def setStrokeAlpha(self, a):
        self._add("salpha", _number(a))
        self._real.setStrokeAlpha(a)

    def setFillOverprint(self, v):
        self._add("fop", _flag(v))
        self._real.setFillOverprint(v)

    def setStrokeOverprint(self, v):
        self._add("sop", _flag(v))
        self._real.setStrokeOverprint(v)

    def setOverprintMask(self, v):
        self._add("opm", _flag(v))
        self._real.setOverprintMask(v)

    def rect(self, x, y, w, h, stroke=1, fill=0):
        self._add("rect", *map(_number, (x, y, w, h)), _flag(stroke), _flag(fill))
        self._real.rect(x, y, w, h, stroke, fill)

    def roundRect(self, x, y, w, h, radius, stroke=1, fill=0):
        self._add("rrect", *map(_number, (x, y, w, h, radius)), _flag(stroke), _flag(fill))
        self._real.roundRect(x, y, w, h, radius, stroke, fill)

    def circle(self, x, y, r, stroke=1, fill=0):
        self._add("circle", *map(_number, (x, y, r)), _flag(stroke), _flag(fill))
        self._real.circle(x, y, r, stroke, fill)

    def ellipse(self, x1, y1, x2, y2, stroke=1, fill=0):
        self._add("ellipse", *map(_number, (x1, y1, x2, y2)), _flag(stroke), _flag(fill))
        self._real.ellipse(x1, y1, x2, y2, stroke, fill)

    def line(self, x1, y1, x2, y2):
        self._add("line", *map(_number, (x1, y1, x2, y2)))
        self._real.line(x1, y1, x2, y2)

    def beginPath(self):
        return _Path(self, self._real.beginPath())

    def drawPath(self, path, stroke=1, fill=0, fillMode=None):
        self._path(path, stroke, fill, fillMode, 0)
        self._real.drawPath(path.real, stroke, fill, fillMode)

    def clipPath(self, path, stroke=1, fill=0, fillMode=None):
        self._path(path, stroke, fill, fillMode, 1)
        self._real.clipPath(path.real, stroke, fill, fillMode)

    def _path(self, path, stroke, fill, mode, clip: int) -> None:
        if not isinstance(path, _Path):
            raise bounded.Failed("draws a path that is not one")
        self._add("path", tuple(path.segments), _flag(stroke), _flag(fill),
                  None if mode is None else _flag(mode), clip)  # its points paid as added

    def drawString(self, x, y, text, mode=None):
        from companion.press import fonts

        text = str(text)
        missing = fonts.missing_glyphs(self._font, text)
        if missing:
            raise bounded.Failed(f"has a text, {shown(text[:30])}, with characters our font "
                                 f"has no glyph for ({''.join(missing[:10])})")
        self._add("text", _number(x), _number(y), text,
                  None if mode is None else _flag(mode, range(8)), cost=1 + len(text))
        self._real.drawString(x, y, text, mode=mode)

    def linearGradient(self, x0, y0, x1, y1, colours, positions=None, extend=True):
        self._gradient("lgrad", (x0, y0, x1, y1), colours, positions, extend)
        self._real.linearGradient(x0, y0, x1, y1, colours, positions, extend)

    def radialGradient(self, x, y, radius, colours, positions=None, extend=True):
        self._gradient("rgrad", (x, y, radius), colours, positions, extend)
        self._real.radialGradient(x, y, radius, colours, positions, extend)

    def _gradient(self, name, where, colours, positions, extend) -> None:
        self._add(name, *map(_number, where), tuple(map(self._colour, colours)),
                  None if positions is None else tuple(map(_number, positions)),
                  _flag(extend), cost=1 + len(colours))


class _Path:
    """A path being built, for _Recorder: its segments kept, a real path built too."""

    def __init__(self, recorder: _Recorder, real):
        self.recorder, self.real, self.segments = recorder, real, []

    def _add(self, *segment) -> None:
        self.recorder._spend(1)
        self.segments.append(segment)

    def moveTo(self, x, y):
        self._add("m", _number(x), _number(y))
        self.real.moveTo(x, y)

    def lineTo(self, x, y):
        self._add("l", _number(x), _number(y))
        self.real.lineTo(x, y)

    def curveTo(self, x1, y1, x2, y2, x3, y3):
        self._add("c", *map(_number, (x1, y1, x2, y2, x3, y3)))
        self.real.curveTo(x1, y1, x2, y2, x3, y3)

    def close(self):
        self._add("z")
        self.real.close()


# ---- in this process: check what was kept, replay it ----------------------------------

# Each call a drawing may hold: its arguments' kinds. n a number, f a flag (0 or 1),
# j 0 to 2, t a text mode (0 to 7), o a flag or None, a a number or None, k a colour,
# K colours, N numbers, M numbers or None, s a string, P a path's segments.
_ARGS = {"q": "", "Q": "", "cm": "nnnnnn", "fill": "k", "stroke": "k", "width": "n",
         "cap": "j", "join": "j", "dash": "Nn", "font": "n", "falpha": "n", "salpha": "n",
         "fop": "f", "sop": "f", "opm": "f", "fillmode": "f", "rect": "nnnnff",
         "rrect": "nnnnnff", "circle": "nnnff", "ellipse": "nnnnff", "line": "nnnn",
         "path": "Pffof", "text": "nnsT", "lgrad": "nnnnKMf", "rgrad": "nnnKMf"}
_SEGMENTS = {"m": 2, "l": 2, "c": 6, "z": 0}


def _valid(drawn) -> bool:
    """Whether `drawn` is what _drawn returns: (width, height, ops) of known calls with
    arguments of the right kinds, numbers in range, its saved states never restored more
    often than saved. (What our cache kept is checked before it is replayed.)"""
    try:
        width, height, ops = drawn
        if not (_ok_number(width) and _ok_number(height) and isinstance(ops, tuple)
                and not 0 < max(width, height) < MIN_SIZE and len(ops) <= MAX_OPS):
            return False
        depth = 0
        for op in ops:
            kinds = _ARGS[op[0]]
            if len(op) != 1 + len(kinds) or not all(map(_ok, kinds, op[1:])):
                return False
            depth += (op[0] == "q") - (op[0] == "Q")
            if depth < 0:
                return False
        return True
    except (TypeError, ValueError, KeyError, IndexError):
        return False


def _ok_number(x) -> bool:
    return type(x) in (int, float) and math.isfinite(x) and abs(x) <= MAX_NUMBER


def _ok_colour(k) -> bool:
    return (isinstance(k, tuple) and (k[-1] is None or _ok_number(k[-1]))
            and ((k[0] == "ink" and len(k) == 2)
                 or (k[0] == "rgb" and len(k) == 5 and all(map(_ok_number, k[1:4])))
                 or (k[0] == "cmyk" and len(k) == 7 and all(map(_ok_number, k[1:6])))))


def _ok_segment(s) -> bool:
    return (isinstance(s, tuple) and _SEGMENTS.get(s[0]) == len(s) - 1
            and all(map(_ok_number, s[1:])))


def _ok(kind: str, v) -> bool:
    if kind == "n":
        return _ok_number(v)
    if kind in "fjTo":
        allowed = {"f": (0, 1), "j": (0, 1, 2), "T": range(8), "o": (0, 1)}[kind]
        return (v is None and kind in "To") or (type(v) is int and v in allowed)
    if kind == "k":
        return _ok_colour(v)
    if kind == "s":
        return isinstance(v, str)
    if kind in "NM":
        return (v is None and kind == "M") or (isinstance(v, tuple)
                                               and all(map(_ok_number, v)))
    if kind == "K":
        return isinstance(v, tuple) and all(map(_ok_colour, v))
    if kind == "P":
        return isinstance(v, tuple) and all(map(_ok_segment, v))
    return False


def _colour(k: tuple, ink):
    """A kept colour as reportlab's; ("ink", alpha) is `ink`."""
    from reportlab.lib import colors

    if k[0] == "ink":
        return colors.Color(ink.red, ink.green, ink.blue, k[1])
    if k[0] == "cmyk":
        return colors.CMYKColor(*k[1:5], density=k[5], alpha=k[6])
    return colors.Color(*k[1:4], alpha=k[4])


def _path(c, segments, stroke, fill, mode, clip) -> None:
    p = c.beginPath()
    for s in segments:
        {"m": p.moveTo, "l": p.lineTo, "c": p.curveTo, "z": p.close}[s[0]](*s[1:])
    (c.clipPath if clip else c.drawPath)(p, stroke=stroke, fill=fill, fillMode=mode)


def _set_fill_mode(c, v) -> None:
    c._fillMode = v


# How each kept call is made on the canvas: by its own methods, which
# companion.text.fit watches (a filled rect or circle is a ground under a text).
_CALLS = {
    "q": lambda c, ink: c.saveState(),
    "Q": lambda c, ink: c.restoreState(),
    "cm": lambda c, ink, *m: c.transform(*m),
    "fill": lambda c, ink, k: c.setFillColor(_colour(k, ink)),
    "stroke": lambda c, ink, k: c.setStrokeColor(_colour(k, ink)),
    "width": lambda c, ink, w: c.setLineWidth(w),
    "cap": lambda c, ink, v: c.setLineCap(v),
    "join": lambda c, ink, v: c.setLineJoin(v),
    "dash": lambda c, ink, array, phase: c.setDash(list(array), phase),
    "font": lambda c, ink, size: c.setFont(_font(), size),
    "falpha": lambda c, ink, a: c.setFillAlpha(a),
    "salpha": lambda c, ink, a: c.setStrokeAlpha(a),
    "fop": lambda c, ink, v: c.setFillOverprint(v),
    "sop": lambda c, ink, v: c.setStrokeOverprint(v),
    "opm": lambda c, ink, v: c.setOverprintMask(v),
    "fillmode": lambda c, ink, v: _set_fill_mode(c, v),
    "rect": lambda c, ink, x, y, w, h, s, f: c.rect(x, y, w, h, stroke=s, fill=f),
    "rrect": lambda c, ink, x, y, w, h, r, s, f: c.roundRect(x, y, w, h, r, stroke=s, fill=f),
    "circle": lambda c, ink, x, y, r, s, f: c.circle(x, y, r, stroke=s, fill=f),
    "ellipse": lambda c, ink, x1, y1, x2, y2, s, f: c.ellipse(x1, y1, x2, y2, stroke=s,
                                                              fill=f),
    "line": lambda c, ink, *xy: c.line(*xy),
    "path": lambda c, ink, *args: _path(c, *args),
    "text": lambda c, ink, x, y, s, mode: c.drawString(x, y, s, mode=mode),
    "lgrad": lambda c, ink, x0, y0, x1, y1, ks, at, ext: c.linearGradient(
        x0, y0, x1, y1, [_colour(k, ink) for k in ks], None if at is None else list(at), ext),
    "rgrad": lambda c, ink, x, y, r, ks, at, ext: c.radialGradient(
        x, y, r, [_colour(k, ink) for k in ks], None if at is None else list(at), ext),
}


def _replay(c, ops: tuple, ink) -> None:
    """The kept calls made on canvas `c` (checked by _valid), currentColor being `ink`;
    a state the drawing saved and left is restored."""
    depth = 0
    for op in ops:
        _CALLS[op[0]](c, ink, *op[1:])
        depth += (op[0] == "q") - (op[0] == "Q")
    for _ in range(depth):
        c.restoreState()
