"""Our own RGB PDF (as companion.export.face_pages draws it, reportlab's operators) made PDF/X-1a:
every colour CMYK, nothing transparent, an output intent. pikepdf rewrites what reportlab
cannot write: it reads each page's operators, forms drawn in place (their operators put
into the page, so one pass sees everything in the order it prints), and writes them again.
A form drawn again in the state it was converted in (a kept drawing on many faces) is
converted once and put back (`_Recording`, `_Trace`).

Colour: each `rg`/`RG` colour, each RGB picture, each gradient's colours turned into CMYK
by companion.press.cmyk (LittleCMS, the profile of the output intent); pure black is black
ink alone.

Transparency (an opacity, a picture's alpha, a soft mask, a blend mode) is flattened, a
mark at a time in the order they print:
- a flat colour at a constant opacity over a flat ground (the last thing printed under it
  is one opaque rectangle of one colour that covers it, nothing else between): printed
  opaque in the colour a viewer shows, the two mixed in RGB, then turned into CMYK;
- anything else (over a picture or a gradient, a picture with alpha, a soft mask, a blend
  mode): the region it covers is rendered as the RGB page shows it there (pdfium, at the
  shop's resolution) and printed as a CMYK picture, placed over what was printed under it
  (which stays, vector, outside the region) as soon as the page's clip allows. Text and
  lines printed after it stay vector: only what lies under a transparent mark, or within
  its region before the picture can be placed, is in the picture.

`convert` returns the new PDF's bytes and what it did on each page; it raises Unsupported
for an operator it does not know how to convert (the export refuses, writes nothing)."""

import io
import math
import zlib
from datetime import datetime, timezone

import msgspec
from reportlab.graphics.transform import inverse, mmult, transformPoint

from companion.press import ink
from companion.press.cmyk import Converter

PDFX_VERSION = "PDF/X-1a:2003"
MAX_FORM_DEPTH = 12


class Unsupported(Exception):
    """What this converter cannot turn into PDF/X-1a (a colour space, an operator)."""


class Intent(msgspec.Struct, frozen=True):
    """The output intent: the printing condition and the profile that characterises it."""
    condition: str  # OutputConditionIdentifier, e.g. "CGATS TR 003"
    info: str  # a human description of the condition
    registry: str = "http://www.color.org"


class PageReport(msgspec.Struct):
    blended: int = 0  # marks printed opaque in their mixed colour (flat over flat)
    regions: int = 0  # regions printed as CMYK pictures


# ---- geometry --------------------------------------------------------------------------

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _inverse(m):
    if abs(m[0] * m[3] - m[1] * m[2]) < 1e-12:
        raise Unsupported("a singular matrix")
    return inverse(m)


def _box(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _meet(a, b):
    if a is None:
        return b
    if b is None:
        return a
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _overlap(a, b) -> bool:
    return a is not None and b is not None and a[0] < b[2] and b[0] < a[2] and \
        a[1] < b[3] and b[1] < a[3]


def _inside(inner, outer, slack=0.01) -> bool:
    return outer[0] <= inner[0] + slack and outer[1] <= inner[1] + slack and \
        inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack


def _grow(box, by):
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _upright(m) -> bool:
    return abs(m[1]) < 1e-9 and abs(m[2]) < 1e-9


# ---- the graphics state ----------------------------------------------------------------

class State(msgspec.Struct):
    ctm: tuple = IDENTITY
    fill: tuple | None = (0.0, 0.0, 0.0)  # RGB 0..1, None: not an RGB or grey colour
    stroke: tuple | None = (0.0, 0.0, 0.0)
    fill_space: str = "/DeviceGray"  # what sc/scn set
    stroke_space: str = "/DeviceGray"
    ca: float = 1.0
    CA: float = 1.0
    masked: bool = False  # a soft mask or a blend mode other than Normal
    clip: tuple | None = None  # the clip's box on the page, None: the page
    clip_exact: bool = True  # the clip is that box exactly (rectangles only)
    width: float = 1.0
    font_size: float = 0.0
    leading: float = 0.0
    render: int = 0

    def copy(self) -> "State":
        return msgspec.structs.replace(self)


class Item(msgspec.Struct):
    """A mark printed: where it is on the page, and what a mark over it may know of it."""
    box: tuple
    at: int  # its place in the operators written
    flat: tuple | None = None  # an opaque rectangle of one RGB colour: that colour
    transparent: bool = False
    render: int = 0  # a text's rendering mode, put back after it is dropped


class _Names:
    """Resources of the page written: one name an object, two dictionaries (what the RGB
    page uses, for rendering regions, and the CMYK one)."""

    def __init__(self):
        self.rgb = {"/Font": {}, "/XObject": {}, "/ExtGState": {}, "/Shading": {}}
        self.cmyk = {"/Font": {}, "/XObject": {}, "/ExtGState": {}, "/Shading": {}}
        self.by_obj: dict[tuple, str] = {}

    def name(self, kind: str, obj, converted, key=None) -> str:
        """`key`: what makes two objects one (their content), else the object itself."""
        key = (kind, key or (obj.objgen if obj.is_indirect else id(obj)))
        got = self.by_obj.get(key)
        if got is None:
            prefix = {"/Font": "F", "/XObject": "X", "/ExtGState": "G", "/Shading": "Sh"}[kind]
            got = self.by_obj[key] = f"/{prefix}{len(self.rgb[kind]) + 1}"
            self.rgb[kind][got] = obj
            self.cmyk[kind][got] = converted
        return got


class _Recording:
    """A form's walk as recorded: the operators it wrote (both streams), their states, the
    marks, the resources it named, and the page's state after it."""

    def __init__(self, page, res):
        self.base = len(res)  # resources from outside the form: the last `base`
        self.start = len(page.ops)
        self.items = len(page.items)
        self.stack = list(page.stack)
        self.blended = page.report.blended
        self.lookups: list = []  # (kind, name, what the page's resources gave)
        self.names: list = []  # (kind, obj, converted, key, name, its operator's place)
        self.pure = True
        self.text = False  # a BT: where the text is after it is the form's

    def named(self, page, call) -> None:
        if page.path:  # a name inside a path: marks inserted before it would move it
            self.pure = False
        self.names.append(call + (len(page.ops) - self.start,))

    def done(self, page) -> "_Trace | None":
        """The trace, or None when what was written depends on more than its key (what
        is under a mark, a state popped from outside the form, inserted marks)."""
        n = self.start
        if not self.pure or page.path or page.clipping or page.in_text or \
                len(page.stack) != len(self.stack) or \
                any(a is not b for a, b in zip(page.stack, self.stack)) or \
                page.report.blended != self.blended or \
                len(page.ops) != len(page.rgb_ops) or len(page.ops) != len(page.safe):
            return None
        items = [msgspec.structs.replace(i, at=i.at - n) for i in page.items[self.items:]]
        return _Trace(page.ops[n:], page.rgb_ops[n:], page.safe[n:], items, self.lookups,
                      self.names, page.st.copy(), (page.tm, page.tlm) if self.text else None)


class _Trace(msgspec.Struct):
    ops: list
    rgb_ops: list
    safe: list
    items: list
    lookups: list
    names: list
    st: State
    text: tuple | None  # (tm, tlm) after it, or None: the form has no BT

    def fits(self, page, res) -> bool:
        """The page's resources give what they gave when it was recorded."""
        for kind, name, was in self.lookups:
            got = _find(res, kind, name)
            if got is None or _ident(got) != was:
                return False
        return True

    def replay(self, page) -> None:
        n = len(page.ops)
        ops, rgb = self.ops, self.rgb_ops
        for kind, obj, converted, key, old, at in self.names:
            new = page.names.name(kind, obj, converted, key)
            if new != old:
                if ops is self.ops:
                    ops, rgb = list(ops), list(rgb)
                ins = ops[at]
                again = page.pk.ContentStreamInstruction(
                    [page.pk.Name(new)] + list(ins.operands)[1:], ins.operator)
                ops[at] = again
                if rgb[at] is ins:
                    rgb[at] = again
        page.ops.extend(ops)
        page.rgb_ops.extend(rgb)
        page.safe.extend(self.safe)
        page.items.extend(msgspec.structs.replace(i, at=i.at + n) for i in self.items)
        page.st = self.st.copy()
        if self.text is not None:
            page.tm, page.tlm = self.text
        page._ins = None


# ---- one page --------------------------------------------------------------------------

class _Page:
    def __init__(self, pdf, page, conv: Converter, cache: dict):
        import pikepdf

        self.pk = pikepdf
        self.pdf, self.page, self.conv, self.cache = pdf, page, conv, cache
        self.names = _Names()
        self.rgb_ops: list = []  # the page as drawn, forms in place (rendered for regions)
        self.ops: list = []  # the same, converted; one to one with rgb_ops
        self.safe: list = []  # per operator: (depth, ctm, clip, exact) after it, or None
        self.items: list[Item] = []
        self.depth = 0
        self.report = PageReport()
        self.path: list = []  # the path being built: its points on the page
        self.path_start = 0
        self.path_rect = True  # one upright rectangle
        self.clipping = False
        self.in_text = False
        self.tm = IDENTITY
        self.tlm = IDENTITY
        self._ins = None  # (instruction, its operands, its operator's name) being read
        self._rec: _Recording | None = None  # a form's walk being recorded

    # the two streams
    def emit(self, rgb, cmyk=None):
        self.rgb_ops.append(rgb)
        self.ops.append(rgb if cmyk is None else cmyk)
        quiet = not self.in_text and not self.path
        self.safe.append((self.depth, self.st.ctm, self.st.clip, self.st.clip_exact)
                         if quiet else None)

    def op(self, operands, name):
        """An instruction: the one being read when nothing in it changed, else a new one."""
        ins = self._ins
        if ins is not None and operands is ins[1] and name == ins[2]:
            return ins[0]
        P = self.pk
        return P.ContentStreamInstruction(list(operands), P.Operator(name))

    # colour
    def _cmyk(self, rgb):
        """A colour set: as text, lines and small marks print it (a near-black as black
        ink alone); a large area in it is given the rich black where it is painted."""
        return [round(v, 4) for v in self.conv.ink(rgb)]

    def run(self):
        self.st = State()
        self.stack: list[State] = []
        self.walk(self.page.obj, (self.page.obj.get("/Resources", self.pk.Dictionary()),
                                  self.cache["names"]), 0)
        return self

    def walk(self, content, resources, depth):
        P = self.pk
        if depth > MAX_FORM_DEPTH:
            raise Unsupported("forms nested too deep")
        for ins in self._parsed(content):
            if isinstance(ins, P.ContentStreamInlineImage):
                raise Unsupported("an inline image")
            operands, name = ins.operands, str(ins.operator)
            self._ins = (ins, operands, name)  # `op` gives it back as it is, unchanged
            handler = _HANDLERS.get(name)
            if handler is None:
                self.emit(ins)
            else:
                handler(self, operands, name, resources, depth)
        self._ins = None

    def _parsed(self, content):
        """A content stream's instructions; a form's parsed once a document (the faces'
        kept drawings are forms drawn on many pages)."""
        P = self.pk
        if isinstance(content, P.Stream) and content.is_indirect and \
                str(content.get("/Subtype")) == "/Form":
            key = ("parsed", content.objgen)
            got = self.cache.get(key)
            if got is None:
                got = self.cache[key] = list(P.parse_content_stream(content))
            return got
        return P.parse_content_stream(content)

    # state
    def op_q(self, operands, name, res, depth):
        self.stack.append(self.st.copy())
        self.depth += 1
        self.emit(self.op(operands, name))

    def op_Q(self, operands, name, res, depth):
        if self.stack:
            self.st = self.stack.pop()
            self.depth -= 1
        self.emit(self.op(operands, name))

    def op_cm(self, operands, name, res, depth):
        m = tuple(float(v) for v in operands)
        self.st.ctm = mmult(self.st.ctm, m)
        self.emit(self.op(operands, name))

    def op_w(self, operands, name, res, depth):
        self.st.width = float(operands[0])
        self.emit(self.op(operands, name))

    def op_gs(self, operands, name, res, depth):
        gs = self.find(res, "/ExtGState", operands[0])
        if gs is None:
            raise Unsupported(f"an unknown graphics state {operands[0]}")
        if "/ca" in gs:
            self.st.ca = float(gs.ca)
        if "/CA" in gs:
            self.st.CA = float(gs.CA)
        if "/SMask" in gs:
            self.st.masked = str(gs.SMask) != "/None"
        if "/BM" in gs:
            bm = gs.BM
            bm = str(bm[0]) if isinstance(bm, self.pk.Array) and len(bm) else str(bm)
            self.st.masked = self.st.masked or bm not in ("/Normal", "/Compatible")
        key = ("gs", _content(gs))
        clean = self.cache.get(key)
        if clean is None:
            clean = self.pk.Dictionary({k: v for k, v in gs.items()
                                        if k not in ("/ca", "/CA", "/SMask", "/BM", "/AIS",
                                                     "/TR", "/TR2")})
            clean = self.cache[key] = self.pdf.make_indirect(clean)
        n = self.name("/ExtGState", gs, clean, key)
        self.emit(self.op([_name(self.pk, n)], name))

    # colour
    def op_rg(self, operands, name, res, depth):
        rgb = tuple(float(v) for v in operands)
        if name == "rg":
            self.st.fill, self.st.fill_space = rgb, "/DeviceRGB"
        else:
            self.st.stroke, self.st.stroke_space = rgb, "/DeviceRGB"
        self.emit(self.op(operands, name), self.op(self._cmyk(rgb), "k" if name == "rg" else "K"))

    op_RG = op_rg

    def op_g(self, operands, name, res, depth):
        v = float(operands[0])
        if name == "g":
            self.st.fill, self.st.fill_space = (v, v, v), "/DeviceGray"
        else:
            self.st.stroke, self.st.stroke_space = (v, v, v), "/DeviceGray"
        self.emit(self.op(operands, name))

    op_G = op_g

    def op_k(self, operands, name, res, depth):
        if name == "k":
            self.st.fill, self.st.fill_space = None, "/DeviceCMYK"
        else:
            self.st.stroke, self.st.stroke_space = None, "/DeviceCMYK"
        within = [round(v, 4) for v in ink.limit(operands, self.conv.rules.limit - 0.0004)]
        self.emit(self.op(operands, name), self.op(within, name))

    op_K = op_k

    def op_cs(self, operands, name, res, depth):
        space = str(operands[0])
        if space not in ("/DeviceRGB", "/DeviceGray", "/DeviceCMYK"):
            raise Unsupported(f"the colour space {space}")
        if name == "cs":
            self.st.fill_space = space
        else:
            self.st.stroke_space = space
        out = "/DeviceCMYK" if space == "/DeviceRGB" else space
        self.emit(self.op(operands, name), self.op([_name(self.pk, out)], name))

    op_CS = op_cs

    def op_sc(self, operands, name, res, depth):
        fill = name in ("sc", "scn")
        space = self.st.fill_space if fill else self.st.stroke_space
        values = tuple(float(v) for v in operands)
        if space == "/DeviceRGB" and len(values) == 3:
            colour, out = values, self._cmyk(values)
        elif space == "/DeviceGray" and len(values) == 1:
            colour, out = values * 3, list(operands)
        elif space == "/DeviceCMYK" and len(values) == 4:
            colour, out = None, list(operands)
        else:
            raise Unsupported(f"a colour {list(values)} in {space}")
        if fill:
            self.st.fill = colour
        else:
            self.st.stroke = colour
        self.emit(self.op(operands, name), self.op(out, name))

    op_SC = op_scn = op_SCN = op_sc

    # paths
    def _point(self, x, y):
        self.path.append(transformPoint(self.st.ctm, (float(x), float(y))))

    def _begin(self):
        if not self.path:
            self.path_start = len(self.ops)
            self.path_rect = True
            self.path_rects = 0

    def op_m(self, operands, name, res, depth):
        self._begin()
        self.path_rect = False
        self._point(*operands)
        self.emit(self.op(operands, name))

    def op_l(self, operands, name, res, depth):
        self._begin()
        self.path_rect = False
        for i in range(0, len(operands), 2):
            self._point(operands[i], operands[i + 1])
        self.emit(self.op(operands, name))

    op_c = op_v = op_y = op_l

    def op_re(self, operands, name, res, depth):
        self._begin()
        x, y, w, h = (float(v) for v in operands)
        for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            self._point(px, py)
        self.path_rects += 1
        self.path_rect = self.path_rect and self.path_rects == 1 and _upright(self.st.ctm)
        self.emit(self.op(operands, name))

    def op_h(self, operands, name, res, depth):
        self.emit(self.op(operands, name))

    def op_W(self, operands, name, res, depth):
        self.clipping = True
        self.emit(self.op(operands, name))

    op_W_star = op_W

    def op_n(self, operands, name, res, depth):
        self._end_path()
        self.emit(self.op(operands, name))

    def _end_path(self):
        if self.clipping and self.path:
            box = _box(self.path)
            self.st.clip_exact = self.st.clip_exact and self.path_rect and \
                (self.st.clip is None or _inside(self.st.clip, box) or _upright(self.st.ctm))
            self.st.clip = _meet(self.st.clip, box) or (box[0], box[1], box[0], box[1])
        self.clipping = False
        self.path = []

    def op_f(self, operands, name, res, depth):
        if not self.path:
            self.emit(self.op(operands, name))
            return
        fills = name in ("f", "F", "f*", "B", "B*", "b", "b*")
        strokes = name in ("S", "s", "B", "B*", "b", "b*")
        box = _box(self.path)
        if strokes:
            box = _grow(box, self._stroke_reach())
        box = _meet(box, self.st.clip)
        start, rect = self.path_start, self.path_rect
        flat_rect = fills and not strokes and rect and self.st.clip_exact
        self._end_path()
        if box is None:  # clipped away
            self.emit(self.op(operands, name))
            return
        alpha = [a for a, on in ((self.st.ca, fills), (self.st.CA, strokes)) if on]
        transparent = self.st.masked or any(a < 1.0 for a in alpha)
        if not transparent:
            rich = self._rich(box, fills, strokes)
            if rich is not None:  # a large near-black area: the shop's rich black
                self.ops.insert(start, self.op(rich, "k"))
                self.rgb_ops.insert(start, None)
                self.safe.insert(start, None)
                self.emit(self.op(operands, name))
                self._restore_colour(True)
            else:
                self.emit(self.op(operands, name))
            self.items.append(Item(box, len(self.ops) - 1,
                                   self.st.fill if flat_rect else None, False))
            return
        colour = self.st.fill if fills else self.st.stroke
        ground = self._ground(box)
        single = (fills != strokes) and not self.st.masked and colour is not None
        if single and ground is not None:
            a = alpha[0]
            mixed = tuple(a * c + (1 - a) * g for c, g in zip(colour, ground))
            k = "k" if fills else "K"
            # the mixed colour before the path (a colour may not be set inside one), the
            # colour in force after it
            self.ops.insert(start, self.op(self._cmyk(mixed), k))
            self.rgb_ops.insert(start, None)  # nothing there: keeps the two one to one
            self.safe.insert(start, None)
            self.emit(self.op(operands, name))
            self._restore_colour(fills)
            self.report.blended += 1
            self.items.append(Item(box, len(self.ops) - 1, mixed if flat_rect else None,
                                   False))
            return
        self.emit(self.op(operands, name))
        self.items.append(Item(box, len(self.ops) - 1, None, True))

    op_F = op_f_star = op_B = op_B_star = op_b = op_b_star = op_S = op_s = op_f

    def _rich(self, box, fills: bool, strokes: bool):
        """The rich black for a fill of a near-black over a large area (ink.LARGE_AREA),
        or None."""
        if not fills or strokes or self.st.fill is None or self.st.fill_space != "/DeviceRGB":
            return None
        w, h = box[2] - box[0], box[3] - box[1]
        if w * h < ink.LARGE_AREA or min(w, h) < ink.LARGE_SIDE:
            return None
        rich = self.conv.area(self.st.fill)
        return None if rich is None else [round(v, 4) for v in rich]

    def _restore_colour(self, fills: bool):
        colour = self.st.fill if fills else self.st.stroke
        space = self.st.fill_space if fills else self.st.stroke_space
        if colour is not None and space == "/DeviceRGB":
            self.ops.append(self.op(self._cmyk(colour), "k" if fills else "K"))
        elif colour is not None:
            self.ops.append(self.op([colour[0]], "g" if fills else "G"))
        else:
            raise Unsupported("a transparent mark in a CMYK colour")
        self.rgb_ops.append(None)
        self.safe.append(None)

    def _stroke_reach(self) -> float:
        a, b, c, d, _, _ = self.st.ctm
        scale = math.sqrt(max(abs(a * d - b * c), 1e-12))
        return max(self.st.width, 1.0) * scale  # mitres and caps: a whole width

    def _ground(self, box):
        """The colour under `box` if the last mark under it is one opaque flat rectangle
        covering it (and no other mark since touches it); else None."""
        if self._rec is not None:  # what is under a form's mark is the page's
            self._rec.pure = False
        for item in reversed(self.items):
            if _overlap(item.box, box):
                if item.flat is not None and not item.transparent and _inside(box, item.box):
                    return item.flat
                return None
        return None

    # text
    def _text_read(self):
        """A text operator reading where the text is: outside BT, that is where the page
        left it, so what a form writes then is not its own."""
        if self._rec is not None and not self.in_text:
            self._rec.pure = False

    def op_BT(self, operands, name, res, depth):
        if self._rec is not None:
            self._rec.text = True
        self.in_text = True
        self.tm = self.tlm = IDENTITY
        self.emit(self.op(operands, name))

    def op_ET(self, operands, name, res, depth):
        self.in_text = False
        self.emit(self.op(operands, name))

    def op_Tm(self, operands, name, res, depth):
        self.tm = self.tlm = tuple(float(v) for v in operands)
        self.emit(self.op(operands, name))

    def op_Td(self, operands, name, res, depth):
        self._text_read()
        tx, ty = float(operands[0]), float(operands[1])
        if name == "TD":
            self.st.leading = -ty
        self.tm = self.tlm = mmult(self.tlm, (1, 0, 0, 1, tx, ty))
        self.emit(self.op(operands, name))

    op_TD = op_Td

    def op_TL(self, operands, name, res, depth):
        self.st.leading = float(operands[0])
        self.emit(self.op(operands, name))

    def op_T_star(self, operands, name, res, depth):
        self._text_read()
        self.tm = self.tlm = mmult(self.tlm, (1, 0, 0, 1, 0, -self.st.leading))
        self.emit(self.op(operands, name))

    def op_Tr(self, operands, name, res, depth):
        self.st.render = int(operands[0])
        self.emit(self.op(operands, name))

    def op_Tf(self, operands, name, res, depth):
        font = self.find(res, "/Font", operands[0])
        if font is None:
            raise Unsupported(f"an unknown font {operands[0]}")
        self.st.font_size = float(operands[1])
        n = self.name("/Font", font, font)
        self.emit(self.op([_name(self.pk, n), operands[1]], name))

    def op_Tj(self, operands, name, res, depth):
        self._text_read()
        if name in ("'", '"'):
            self.tm = self.tlm = mmult(self.tlm, (1, 0, 0, 1, 0, -self.st.leading))
        text = operands[-1]
        if isinstance(text, self.pk.Array):
            glyphs = sum(len(bytes(t)) for t in text if isinstance(t, self.pk.String))
        else:
            glyphs = len(bytes(text))
        s = self.st.font_size
        m = mmult(self.st.ctm, self.tm)
        # a box sure to hold the glyphs: an em a glyph across, from below the descenders
        # to above the accents
        corners = [transformPoint(m, (x, y)) for x in (-0.2 * s, (glyphs + 0.5) * s)
                   for y in (-0.4 * s, 1.2 * s)]
        self.tm = mmult(self.tm, (1, 0, 0, 1, glyphs * s * 0.6, 0))  # about where it ends
        box = _meet(_box(corners), self.st.clip)
        if self.st.render in (3, 7) or box is None:
            self.emit(self.op(operands, name))
            return
        fills = self.st.render in (0, 2, 4, 6)
        strokes = self.st.render in (1, 2, 5, 6)
        alpha = [a for a, on in ((self.st.ca, fills), (self.st.CA, strokes)) if on]
        transparent = self.st.masked or any(a < 1.0 for a in alpha)
        if not transparent:
            self.emit(self.op(operands, name))
            self.items.append(Item(box, len(self.ops) - 1))
            return
        ground = self._ground(box)
        if self.st.render == 0 and self.st.fill is not None and ground is not None \
                and not self.st.masked:
            a = alpha[0]
            mixed = tuple(a * c + (1 - a) * g for c, g in zip(self.st.fill, ground))
            self.ops.append(self.op(self._cmyk(mixed), "k"))
            self.rgb_ops.append(None)
            self.safe.append(None)
            self.emit(self.op(operands, name))
            self._restore_colour(True)
            self.report.blended += 1
            self.items.append(Item(box, len(self.ops) - 1))
            return
        self.emit(self.op(operands, name))
        self.items.append(Item(box, len(self.ops) - 1, None, True, self.st.render))

    op_TJ = op_Tj

    def op_quote(self, operands, name, res, depth):
        self.op_Tj(operands, name, res, depth)

    op_dquote = op_quote

    # pictures, forms, gradients
    def op_Do(self, operands, name, res, depth):
        x = self.find(res, "/XObject", operands[0])
        if x is None:
            raise Unsupported(f"an unknown object {operands[0]}")
        sub = str(x.get("/Subtype"))
        if sub == "/Form":
            self._form(x, res, depth)
            return
        if sub != "/Image":
            raise Unsupported(f"an object of type {sub}")
        box = _meet(_box([transformPoint(self.st.ctm, (u, v)) for u in (0, 1) for v in (0, 1)]),
                    self.st.clip)
        masked = "/SMask" in x or ("/Mask" in x and not bool(x.get("/ImageMask", False)))
        transparent = self.st.masked or self.st.ca < 1.0 or masked
        n = self.name("/XObject", x, _Lazy(x))
        self.emit(self.op([_name(self.pk, n)], name))
        if box is not None:
            self.items.append(Item(box, len(self.ops) - 1, None, transparent))

    def _form(self, form, res, depth):
        """A form drawn in place. A form drawn again in the same state (a kept drawing on
        many faces) is converted once: its walk recorded, then put back with the page's
        own resource names and places."""
        key = self._form_key(form, depth)
        if key is not None:
            trace = self.cache.get(key)
            if trace is not None and trace.fits(self, res):
                trace.replay(self)
                return
            self._rec = _Recording(self, res)
        try:
            self._form_walk(form, res, depth)
            if key is not None:
                trace = self._rec.done(self)
                if trace is not None:
                    self.cache[key] = trace
        finally:
            if key is not None:
                self._rec = None

    def _form_key(self, form, depth):
        """What a form's conversion depends on, or None when it is not to be kept: within
        another form being recorded, inside a path or text, or a direct object."""
        if self._rec is not None or self.path or self.clipping or self.in_text or \
                not form.is_indirect:
            return None
        return ("form", form.objgen, msgspec.structs.astuple(self.st), self.depth, depth)

    def _form_walk(self, form, res, depth):
        P = self.pk
        self.op_q([], "q", None, depth)
        m = form.get("/Matrix")
        if m is not None:
            self.op_cm([float(v) for v in m], "cm", None, depth)
        bbox = [float(v) for v in form.get("/BBox", [0, 0, 0, 0])]
        self.op_re([bbox[0], bbox[1], bbox[2] - bbox[0], bbox[3] - bbox[1]], "re", None, depth)
        self.op_W([], "W", None, depth)
        self.op_n([], "n", None, depth)
        # a form without a resource of its own takes its page's (as PDF 1.x allowed)
        self.walk(form, (form.get("/Resources", P.Dictionary()),) + res, depth + 1)
        self.op_Q([], "Q", None, depth)

    def find(self, res: tuple, kind: str, name):
        """A named resource (`_find`); one found outside the recorded form's own
        resources noted in its recording (another page may name another object so)."""
        got = _find(res, kind, name)
        if self._rec is not None and got is not None and \
                _find(res[:len(res) - self._rec.base], kind, name) is None:
            self._rec.lookups.append((kind, str(name), _ident(got)))
        return got

    def name(self, kind: str, obj, converted, key=None) -> str:
        """The page's name for a resource (`_Names.name`), noted in the form being
        recorded with the place of the operator that will carry it."""
        n = self.names.name(kind, obj, converted, key)
        if self._rec is not None:
            self._rec.named(self, (kind, obj, converted, key, n))
        return n

    def op_sh(self, operands, name, res, depth):
        sh = self.find(res, "/Shading", operands[0])
        if sh is None:
            raise Unsupported(f"an unknown gradient {operands[0]}")
        n = self.name("/Shading", sh, self._shading(sh))
        box = self.st.clip or _page_box(self.page)
        self.emit(self.op([_name(self.pk, n)], name))
        transparent = self.st.masked or self.st.ca < 1.0
        self.items.append(Item(box, len(self.ops) - 1, None, transparent))

    def _shading(self, sh):
        key = ("sh", sh.objgen if sh.is_indirect else id(sh))
        got = self.cache.get(key)
        if got is not None:
            return got
        space = str(sh.get("/ColorSpace"))
        if space in ("/DeviceCMYK", "/DeviceGray"):
            got = sh
        elif space == "/DeviceRGB":
            fn = sh.get("/Function")
            if fn is None or isinstance(fn, self.pk.Array):
                raise Unsupported("a gradient without one function")
            t0, t1 = (float(v) for v in fn.get("/Domain", [0, 1]))
            samples = 256
            data = bytearray()
            for i in range(samples):
                t = t0 + (t1 - t0) * i / (samples - 1)
                data += bytes(round(v * 255) for v in self.conv.colour(_evaluate(fn, t)))
            sampled = self.pk.Stream(self.pdf, zlib.compress(bytes(data)))
            sampled.FunctionType = 0
            sampled.Domain = [t0, t1]
            sampled.Range = [0, 1] * 4
            sampled.Size = [samples]
            sampled.BitsPerSample = 8
            sampled.Filter = self.pk.Name.FlateDecode
            got = self.pk.Dictionary({k: v for k, v in sh.items()
                                      if k not in ("/ColorSpace", "/Function", "/Background")})
            got.ColorSpace = self.pk.Name.DeviceCMYK
            got.Function = sampled
            got = self.pdf.make_indirect(got)
        else:
            raise Unsupported(f"a gradient in {space}")
        self.cache[key] = got
        return got

    def op_BI(self, operands, name, res, depth):
        raise Unsupported("an inline image")

    def op_d0(self, operands, name, res, depth):
        raise Unsupported("a Type 3 glyph")

    op_d1 = op_d0


_HANDLERS = {}  # an operator's name -> its _Page method (op_NAME)


def _handlers() -> None:
    for attr in dir(_Page):
        if attr.startswith("op_"):
            name = attr[3:].replace("_star", "*").replace("dquote", '"').replace("quote", "'")
            _HANDLERS[name] = getattr(_Page, attr)


_handlers()


def _content(obj):
    """A direct object's own text (two graphics states alike are one, however many copies
    the RGB PDF has: a kept drawing's states are copies), or the object when it refers to
    others."""
    import re

    text = bytes(obj.unparse(resolved=True))
    if re.search(rb"\d+ \d+ R", text):
        return obj.objgen if obj.is_indirect else id(obj)
    return text


def _find(resources: tuple, kind: str, name):
    """A named resource, from the innermost dictionary that has it."""
    for res in resources:
        got = res.get(kind, {}).get(str(name))
        if got is not None:
            return got
    return None


def _ident(obj):
    """What tells one resource from another: its object number, or its own text."""
    return obj.objgen if obj.is_indirect else bytes(obj.unparse(resolved=True))


def _named(pdf) -> dict:
    """Every named resource of the document's pages, by kind: where a name is looked up
    last. A reportlab canvas names its graphics states for the whole document, so a form
    drawn on many pages may name a state its own resources lack (they were taken when the
    form began); the first page naming it gives it."""
    out: dict = {}
    for page in pdf.pages:
        res = page.obj.get("/Resources", {})
        for kind in ("/ExtGState", "/Font", "/XObject", "/Shading"):
            for n, obj in res.get(kind, {}).items():
                out.setdefault(kind, {}).setdefault(n, obj)
    return out


def _name(pk, n: str):
    return pk.Name(n)


def _page_box(page):
    return tuple(float(v) for v in page.obj.get("/MediaBox"))


class _Lazy:
    """A picture converted only when the written page keeps it."""

    def __init__(self, obj):
        self.obj = obj


def _evaluate(fn, t: float) -> tuple:
    kind = int(fn.FunctionType)
    d0, d1 = (float(v) for v in fn.get("/Domain", [0, 1]))
    t = min(max(t, d0), d1)
    if kind == 2:
        c0 = [float(v) for v in fn.get("/C0", [0])]
        c1 = [float(v) for v in fn.get("/C1", [1])]
        n = float(fn.N)
        x = t ** n
        return tuple(a + x * (b - a) for a, b in zip(c0, c1))
    if kind == 3:
        fns = list(fn.Functions)
        bounds = [float(v) for v in fn.get("/Bounds", [])]
        encode = [float(v) for v in fn.Encode]
        edges = [d0] + bounds + [d1]
        i = 0
        while i < len(bounds) and t >= bounds[i]:
            i += 1
        lo, hi = edges[i], edges[i + 1]
        e0, e1 = encode[2 * i], encode[2 * i + 1]
        u = e0 if hi == lo else e0 + (t - lo) * (e1 - e0) / (hi - lo)
        return _evaluate(fns[i], u)
    raise Unsupported(f"a gradient function of type {kind}")


# ---- regions ---------------------------------------------------------------------------

def _regions(page: _Page, dpi: float):
    """The transparent marks left after blending, grouped where their boxes overlap; each
    group's box snapped outwards to whole pixels at `dpi`."""
    boxes = [[_grow(i.box, 0.5), [i]] for i in page.items if i.transparent]
    merged = True
    while merged:
        merged = False
        for a in range(len(boxes)):
            for b in range(a + 1, len(boxes)):
                if _overlap(boxes[a][0], boxes[b][0]):
                    x, y = boxes[a][0], boxes[b][0]
                    boxes[a][0] = (min(x[0], y[0]), min(x[1], y[1]), max(x[2], y[2]),
                                   max(x[3], y[3]))
                    boxes[a][1] += boxes[b][1]
                    del boxes[b]
                    merged = True
                    break
            if merged:
                break
    x0, y0, x1, y1 = _page_box(page.page)
    out = []
    s = dpi / 72.0
    for box, items in boxes:
        box = _meet(box, (x0, y0, x1, y1))
        if box is None:
            continue
        px = (math.floor((box[0] - x0) * s), math.floor((y1 - box[3]) * s),
              math.ceil((box[2] - x0) * s), math.ceil((y1 - box[1]) * s))
        out.append((px, items))
    return out


def _render(page: _Page, upto: int, dpi: float):
    """The RGB page as drawn up to operator `upto`, rendered whole at `dpi` (pdfium)."""
    import pikepdf
    import pypdfium2 as pdfium

    ops = [o for o in page.rgb_ops[:upto + 1] if o is not None]
    depth = page.safe[upto][0]
    ops += [page.op([], "Q")] * depth
    tmp = pikepdf.Pdf.new()
    res = pikepdf.Dictionary({k: pikepdf.Dictionary(v) for k, v in page.names.rgb.items() if v})
    content = pikepdf.Stream(page.pdf, pikepdf.unparse_content_stream(ops))
    d = page.pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=page.page.obj.MediaBox, Resources=res,
        Contents=content))
    tmp.pages.append(pikepdf.Page(d))
    buf = io.BytesIO()
    tmp.save(buf)
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        bitmap = doc[0].render(scale=dpi / 72.0, fill_color=(255, 255, 255, 255))
        return bitmap.to_pil().convert("RGB")
    finally:
        doc.close()


def _flatten(page: _Page, dpi: float) -> None:
    """Each region drawn as a CMYK picture over its marks (which are dropped), placed at
    the first point after its last mark where the clip is a rectangle holding it."""
    import pikepdf

    regions = _regions(page, dpi)
    if not regions:
        return
    x0, y0, x1, y1 = _page_box(page.page)
    s = dpi / 72.0
    drop: set[int] = set()
    renders: dict[int, int] = {}
    inserts: dict[int, list] = {}
    full = None
    for (l, t, r, b), items in regions:
        box = (x0 + l / s, y1 - b / s, x0 + r / s, y1 - t / s)
        last = max(i.at for i in items)
        at = next((k for k in range(last, len(page.ops)) if page.safe[k] is not None
                   and (page.safe[k][2] is None or (page.safe[k][3]
                                                    and _inside(box, page.safe[k][2])))),
                  None)
        if at is None:
            at = len(page.ops) - 1
            while page.safe[at] is None:
                at -= 1
        picture = _render(page, at, dpi).crop((l, t, r, b))
        cmyk = page.conv.picture(picture)
        image = pikepdf.Stream(page.pdf, zlib.compress(cmyk.tobytes(), 6))
        image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        image.Width, image.Height = cmyk.size
        image.ColorSpace = pikepdf.Name.DeviceCMYK
        image.BitsPerComponent = 8
        image.Filter = pikepdf.Name.FlateDecode
        n = page.names.name("/XObject", image, image)
        ctm = page.safe[at][1]
        place = mmult(_inverse(ctm), (box[2] - box[0], 0, 0, box[3] - box[1], box[0], box[1]))
        inserts.setdefault(at, []).extend([
            page.op([], "q"), page.op([round(v, 6) for v in place], "cm"),
            page.op([pikepdf.Name(n)], "Do"), page.op([], "Q")])
        for i in items:
            drop.add(i.at)
            renders[i.at] = i.render
        page.report.regions += 1
    out = []
    for k, instruction in enumerate(page.ops):
        if k in drop:
            name = str(instruction.operator)
            if name in ("Do", "sh"):
                instruction = None
            elif name in ("Tj", "TJ", "'", '"'):
                out.append(page.op([3], "Tr"))  # unseen: the picture shows it
                out.append(instruction)
                instruction = page.op([renders[k]], "Tr")
            else:  # a path: ended unpainted, any clip it sets kept
                instruction = page.op([], "n")
        if instruction is not None:
            out.append(instruction)
        out.extend(inserts.get(k, []))
    page.ops = out


# ---- the document ----------------------------------------------------------------------

def convert(data: bytes, conv: Converter, intent: Intent, title: str, dpi: float,
            created: datetime | None = None,
            order: list[int] | None = None) -> tuple[bytes, list[PageReport]]:
    """Our RGB PDF (bytes) as PDF/X-1a:2003 (bytes), and what was flattened on each of its
    pages. `order`: the pages of the file written, as indexes of the pages given (a face
    printed on many pages converted once)."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    cache: dict = {"names": _named(pdf)}
    images: dict = {}
    reports = []
    for page in pdf.pages:
        p = _Page(pdf, page, conv, cache).run()
        _flatten(p, dpi)
        resources = pikepdf.Dictionary()
        used = {str(o.operands[0]) for o in p.ops if str(o.operator) in ("Do", "gs", "Tf", "sh")}
        for kind, entries in p.names.cmyk.items():
            entries = {n: obj for n, obj in entries.items() if n in used}
            if not entries:
                continue
            d = pikepdf.Dictionary()
            for n, obj in entries.items():
                if isinstance(obj, _Lazy):
                    obj = _image(pdf, obj.obj, conv, images)
                d[n] = obj
            resources[kind] = d
        page.obj.Resources = resources
        page.obj.Contents = pikepdf.Stream(pdf, pikepdf.unparse_content_stream(p.ops))
        if "/Group" in page.obj:
            del page.obj["/Group"]
        reports.append(p.report)
    if order is not None:
        _order(pdf, order)
    _document(pdf, conv, intent, title, created)
    buf = io.BytesIO()
    pdf.remove_unreferenced_resources()
    pdf.save(buf, force_version="1.4", compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.disable, deterministic_id=True)
    return buf.getvalue(), reports


def ordered(data: bytes, order: list[int]) -> bytes:
    """A converted PDF (its pages the distinct faces) with its pages in `order`, each an
    index of its pages: the page tree written in one pass, a page printed again a copy of
    its dictionary (its content and resources shared). Everything else is kept."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    _order(pdf, order)
    buf = io.BytesIO()
    pdf.save(buf, force_version="1.4", compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.disable, deterministic_id=True)
    return buf.getvalue()


def _order(pdf, order: list[int]) -> None:
    """The document's page tree made `order` (indexes of its pages), in one pass."""
    import pikepdf

    distinct = [p.obj for p in pdf.pages]
    root = pdf.Root.Pages
    used: set[int] = set()
    kids = []
    for i in order:
        page = distinct[i]
        if i in used:  # printed again: its own page object, the same content
            page = pdf.make_indirect(pikepdf.Dictionary({k: v for k, v in page.items()}))
        used.add(i)
        page.Parent = root
        kids.append(page)
    root.Kids = pikepdf.Array(kids)
    root.Count = len(kids)


def _image(pdf, obj, conv: Converter, done: dict):
    """An image as PDF/X-1a takes it: RGB (or indexed RGB) turned CMYK; grey and CMYK kept."""
    import pikepdf
    from pikepdf import PdfImage

    key = obj.objgen
    if key in done:
        return done[key]
    space = obj.get("/ColorSpace")
    if bool(obj.get("/ImageMask", False)) or str(space) in ("/DeviceGray", "/DeviceCMYK"):
        done[key] = obj
        return obj
    im = PdfImage(obj).as_pil_image()
    cmyk = conv.picture(im.convert("RGB"))
    new = pikepdf.Stream(pdf, zlib.compress(cmyk.tobytes(), 6))
    new.Type, new.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    new.Width, new.Height = cmyk.size
    new.ColorSpace = pikepdf.Name.DeviceCMYK
    new.BitsPerComponent = 8
    new.Filter = pikepdf.Name.FlateDecode
    if "/Interpolate" in obj:
        new.Interpolate = obj.Interpolate
    done[key] = new = pdf.make_indirect(new)
    return new


def _document(pdf, conv: Converter, intent: Intent, title: str, created) -> None:
    import pikepdf

    when = (created or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime(
        "D:%Y%m%d%H%M%SZ")
    profile = pikepdf.Stream(pdf, conv.profile.data)
    profile.N = 4
    oi = pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(intent.condition),
        OutputCondition=pikepdf.String(intent.info),
        Info=pikepdf.String(conv.profile.description),
        DestOutputProfile=pdf.make_indirect(profile))
    if intent.registry:  # a condition registered there; "Custom" is known by its profile
        oi.RegistryName = pikepdf.String(intent.registry)
    pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(oi)])
    for key in ("/Metadata", "/ViewerPreferences", "/OpenAction", "/AA", "/Names",
                "/AcroForm", "/Outlines"):
        if key in pdf.Root and key != "/ViewerPreferences":
            del pdf.Root[key]
    info = pdf.docinfo
    old = {k: info[k] for k in ("/Author", "/Creator", "/Subject") if k in info}
    for k in list(info.keys()):
        del info[k]
    for k, v in old.items():
        info[k] = v
    info["/Title"] = pikepdf.String(title)
    info["/CreationDate"] = pikepdf.String(when)
    info["/ModDate"] = pikepdf.String(when)
    info["/Trapped"] = pikepdf.Name("/False")
    info["/GTS_PDFXVersion"] = pikepdf.String(PDFX_VERSION)
    info["/Producer"] = pikepdf.String("table-companion (reportlab, pikepdf, LittleCMS)")
