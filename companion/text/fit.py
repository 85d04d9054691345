"""Every text drawn on a card is measured as it is drawn: its size in points, whether it
fits its box, where it lies on the card and what colour it sits on. A build reads the
measures back as problems (too small, overflowing, too near the trim, low contrast),
reports them, and with --strict refuses to write the kit.

Drawing code does not change for this: companion.draw.text records each string, and the
recorder notes the filled shapes (grounds) drawn on the card by watching the canvas while
a face is drawn. Coordinates are the face's own: points from its trim's lower-left."""

from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

import msgspec
from reportlab.graphics.transform import inverse, mmult, transformPoint

from companion.scoped import Scoped

_recorder: ContextVar["Recorder | None"] = ContextVar("fit_recorder", default=None)

LEGACY_FLOOR = 4.5  # off the cards (sheets, score book, QR card): shrink no further than this


class Limits(msgspec.Struct, frozen=True):
    """What every text on a card must keep (companion/layouts/presets.toml, [text])."""
    floor: float  # smallest size, pt
    safe: float  # distance from the trim, pt
    contrast: float  # WCAG ratio for ordinary text
    contrast_large: float  # for large text: bold of large_size and more, or any of
    large_size: float  # large_size_regular and more (WCAG's "large scale": 14 pt bold,
    large_size_regular: float = 18.0  # 18 pt)

    def contrast_for(self, size: float, bold: bool) -> float:
        """The WCAG ratio a text of `size` points needs (AA: 4.5:1, 3:1 when large)."""
        large = size >= self.large_size_regular - 0.01 or (bold and size >= self.large_size - 0.01)
        return self.contrast_large if large else self.contrast


class Measure(msgspec.Struct):
    face: str
    field: str
    text: str
    size: float  # as printed, pt
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 on the face
    fits: bool
    bold: bool
    ink: tuple[float, float, float]
    ground: tuple[float, float, float] | None
    exempt: bool = False
    apart: int = 0  # texts of one box that must not overlap share a number (0: none)


class Problem(msgspec.Struct, frozen=True):
    face: str
    field: str
    text: str
    what: str

    def line(self, game: str, lang: str) -> str:
        snippet = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"{game} · {self.face} · {self.field} · {lang}: {self.what} (“{snippet}”)"


class _Face(msgspec.Struct):
    label: str
    inverse: tuple  # canvas matrix -> face coordinates
    grounds: list = msgspec.field(default_factory=list)  # (x0, y0, x1, y1, rgb), drawing order


class Recorder:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.measures: list[Measure] = []
        self.sizes: dict[str, tuple[float, float]] = {}  # face label -> (w, h)
        self._face: _Face | None = None
        self._exempt = 0
        self._kept: dict = {}  # measurements by their inputs (kept)
        # symbols drawn on cards: (face label, name, box, its drawing, texts drawn before)
        self.symbols: list[tuple[str, str, tuple, int, int]] = []
        self._starts: list[int] = []  # each drawing of a face: the texts drawn before it
        self._drawn = -1  # the drawing under way
        self._last: tuple = (None, None, None)  # (face, canvas matrix, _relative's)
        self._apart = 0  # the box whose texts are drawn now must lie apart (0: none)

    # ---- around each face ----------------------------------------------------------

    def wrap(self, draw, label: str, paper: tuple | None = None):
        """A face's draw function that records what it prints under `label`; `paper`: the
        colour under all it draws (a page's white sheet), else only the grounds it draws."""
        def recorded(c, w, h, bleed):
            # not a generator's context manager: once a face, 2,000 a kit (issue 41)
            outer = self._begin(c, label, w, h)
            try:
                if paper is not None:
                    self._face.grounds.append((0.0, 0.0, w, h, paper))
                draw(c, w, h, bleed)
            finally:
                self._end(c, outer)
        return recorded

    def _begin(self, c, label: str, w: float, h: float) -> tuple:
        """A face begun on `c`: its filled shapes watched (grounds); what `_end` takes."""
        outer = self._face, self._drawn
        self._face = _Face(label, inverse(c._currentMatrix))
        self._drawn = len(self._starts)
        self._starts.append(len(self.measures))
        self.sizes[label] = (w, h)
        rect, round_rect, circle = c.rect, c.roundRect, c.circle
        c.rect = lambda x, y, w_, h_, stroke=1, fill=0, *a, **k: self._ground(
            c, fill, "rect", (x, y, w_, h_)) or rect(x, y, w_, h_, stroke, fill, *a, **k)
        c.roundRect = lambda x, y, w_, h_, r, stroke=1, fill=0, *a, **k: self._ground(
            c, fill, "roundRect", (x, y, w_, h_, r)) or \
            round_rect(x, y, w_, h_, r, stroke, fill, *a, **k)
        c.circle = lambda x, y, r, stroke=1, fill=0, *a, **k: self._ground(
            c, fill, "circle", (x, y, r)) or circle(x, y, r, stroke, fill, *a, **k)
        return outer

    def _end(self, c, outer: tuple) -> None:
        del c.rect, c.roundRect, c.circle  # the class's own methods again
        self._face, self._drawn = outer

    @contextmanager
    def apart(self):
        """Texts drawn inside (a table's label cell: a name and its legend) must lie apart:
        two whose lines overlap are a problem (its row too short for them). The
        box's number is random: kept with the measures, it never matches another box's."""
        import secrets

        outer, self._apart = self._apart, secrets.randbits(62) + 1
        try:
            yield
        finally:
            self._apart = outer

    @contextmanager
    def exempt(self):
        """Texts drawn inside are not held to the limits (e.g. a card drawn small as an
        example on another card)."""
        self._exempt += 1
        try:
            yield
        finally:
            self._exempt -= 1

    @contextmanager
    def aside(self):
        """What is drawn inside is drawn away from the face (a form defined once, placed
        later): neither its grounds nor its texts are recorded; each placement records
        what it lays (`placed`)."""
        face, self._face = self._face, None
        try:
            yield
        finally:
            self._face = face

    def _ground(self, c, fill, shape: str, args: tuple) -> None:
        if fill and self._face is not None:
            box = self._to_face_by(c._currentMatrix, *_shape_box(shape, *args))
            self._face.grounds.append((*box, _rgb(c._fillColorObj)))

    def placed(self, c, grounds, inherited) -> None:
        """The grounds of a drawing placed at the canvas's current matrix (a form): each
        (shape, its arguments, the drawing's matrix where it is drawn, its fill as rgb or
        None for `inherited`, the fill where it is placed): as if drawn here."""
        if self._face is None:
            return
        here = c._currentMatrix
        for shape, args, matrix, rgb in grounds:
            box = self._to_face_by(mmult(here, matrix), *_shape_box(shape, *args))
            self._face.grounds.append((*box, inherited if rgb is None else rgb))

    def kept(self, key, work):
        """What `work()` returns for the inputs `key`, worked out once in this build: a
        text's measurement (its lines, the size it fits its box at) is the same on every
        card that prints it in the same box."""
        if key not in self._kept:
            self._kept[key] = work()
        return self._kept[key]

    # ---- texts ---------------------------------------------------------------------

    def on_card(self) -> bool:
        return self._face is not None and not self._exempt

    def floor(self, c) -> float:
        """The smallest size allowed, in the canvas's current units."""
        if not self.on_card():
            return LEGACY_FLOOR
        return self.limits.floor / _scale(self._relative(c._currentMatrix))

    def record(self, c, text: str, field: str | None, size: float,
               box: tuple[float, float, float, float], fits: bool, bold: bool) -> None:
        if self._face is None or not text.strip():
            return
        x0, y0, x1, y1 = self._to_face(c, *box)
        m = self._relative(c._currentMatrix)
        ink = _rgb(c._fillColorObj)
        self.measures.append(Measure(
            self._face.label, field or "text", text, size * _scale(m), (x0, y0, x1, y1), fits,
            bold, ink, self._ground_under((x0, y0, x1, y1), ink),
            exempt=bool(self._exempt), apart=self._apart))

    def symbol(self, c, name: str, x: float, y: float, r: float) -> None:
        """A symbol `name` drawn at (x, y), of radius r: a text it covers, or one it lies
        under that overflows its box, or the stamp over it, is a problem."""
        if self._face is None or self._exempt:
            return
        k = 0.8 * r  # its drawing, not the corners of its square
        self.symbols.append((self._face.label, name, self._to_face(c, x - k, y - k, x + k, y + k),
                             self._drawn, len(self.measures)))

    def gradient(self, c, box: tuple, ends: tuple, start, end) -> None:
        """A linear gradient laid over `box` (x, y, w, h in the canvas's units): from
        `start` at ends[0] to `end` at ends[1] (points), each colour extended beyond."""
        if self._face is None:
            return
        x, y, w, h = box
        m = self._relative(c._currentMatrix)
        a, b = (transformPoint(m, p) for p in ends)
        start, end = _rgb(start), _rgb(end)
        self._face.grounds.append((*self._to_face_by(c._currentMatrix, x, y, x + w, y + h),
                                   _mix(start, end, 0.5), (a, b, start, end)))

    def _ground_under(self, box, ink=None):
        """The colour under a text's box (its centre's ground); on a gradient, the colour
        of the part under the box that stands out least from `ink`."""
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for ground in reversed(self._face.grounds):
            x0, y0, x1, y1, rgb = ground[:5]
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                if len(ground) > 5 and ink is not None:
                    return _least_apart(ground[5], box, ink)
                return rgb
        return None

    def _relative(self, matrix):
        last = self._last
        if last[0] is self._face and last[1] is matrix:  # a face's texts mostly share one
            return last[2]
        rel = mmult(self._face.inverse, matrix)
        self._last = (self._face, matrix, rel)
        return rel

    def _to_face(self, c, x0, y0, x1, y1):
        return self._to_face_by(c._currentMatrix, x0, y0, x1, y1)

    def _to_face_by(self, matrix, x0, y0, x1, y1):
        """The box of the box's four corners on the face: as reportlab's transformPoint
        gives each corner, the least and most of each sum its least and most terms'
        (rounding is monotone: the same floats)."""
        a, b, c, d, e, f = self._relative(matrix)
        ax, cy = (a * x0, a * x1), (c * y0, c * y1)
        bx, dy = (b * x0, b * x1), (d * y0, d * y1)
        return (min(ax) + min(cy) + e, min(bx) + min(dy) + f,
                max(ax) + max(cy) + e, max(bx) + max(dy) + f)

    # ---- verdict -------------------------------------------------------------------

    def problems(self) -> list[Problem]:
        lim, out, seen = self.limits, [], set()
        out += self._stamps_over_texts(seen)
        out += self._texts_and_symbols(seen)
        out += self._over_each_other(seen)
        for m in self.measures:
            if m.exempt:
                continue
            whats = []
            if m.size < lim.floor - 0.01:
                whats.append(f"{m.size:.1f} pt, under the {lim.floor:g} pt floor")
            if not m.fits:
                whats.append("does not fit its box")
            w, h = self.sizes[m.face]
            x0, y0, x1, y1 = m.box
            near = min(x0, y0, w - x1, h - y1)
            if near < -0.01:  # a line too wide for the card runs off it
                past = -int(near / (72 / 25.4) * 10) / 10
                whats.append(f"runs {past:.1f} mm past the trim")
            elif near < lim.safe - 0.01:
                shown_mm = int(near / (72 / 25.4) * 10) / 10  # 2.98 shows as 2.9, not 3.0
                whats.append(f"{shown_mm:.1f} mm from the trim, under "
                             f"{lim.safe / (72 / 25.4):g} mm")
            if m.ground is not None:
                ratio = _contrast(tuple(m.ink), tuple(m.ground))
                need = lim.contrast_for(m.size, m.bold)
                if ratio < need - 0.005:
                    whats.append(f"contrast {ratio:.2f}:1, under {need:g}:1")
            for what in whats:
                key = (m.face, m.field, m.text, what)
                if key not in seen:
                    seen.add(key)
                    out.append(Problem(m.face, m.field, m.text, what))
        return out


    def safe_zone(self, safe: float, who: str) -> list[Problem]:
        """Each text nearer the trim than `safe` (points): a shop's safe zone (`who`
        names it), held apart from the build's own limit (presets.toml's safe_zone)."""
        out, seen = [], set()
        for m in self.measures:
            if m.exempt or m.face not in self.sizes:
                continue
            w, h = self.sizes[m.face]
            x0, y0, x1, y1 = m.box
            near = min(x0, y0, w - x1, h - y1)
            if near < safe - 0.01:
                shown_mm = int(near / (72 / 25.4) * 100) / 100  # 3.099 shows as 3.09
                zone = f"{safe / (72 / 25.4):.3f}".rstrip("0").rstrip(".")
                what = (f"{shown_mm:.2f} mm from the trim, inside the safe zone {who} asks "
                        f"({zone} mm)")
                key = (m.face, m.field, m.text)
                if key not in seen:
                    seen.add(key)
                    out.append(Problem(m.face, m.field, m.text, what))
        return out

    def _stamps_over_texts(self, seen: set) -> list[Problem]:
        """A version stamp (field "stamp") must leave every text of its face clear: the
        game's `stamp_corner` says where its cards leave room."""
        out, stamps, texts = [], [], {}
        for m in self.measures:  # each face's texts apart: linear in the number of faces
            if m.field == "stamp":
                stamps.append(m)
            else:
                texts.setdefault(m.face, []).append(m)
        for s in stamps:
            for m in texts.get(s.face, ()):
                if not _overlap(s.box, m.box):
                    continue
                key = (m.face, m.field, m.text, "stamp")
                if key not in seen:
                    seen.add(key)
                    out.append(Problem(m.face, m.field, m.text, "under the version stamp "
                                       "(set [game] stamp_corner where the cards leave room)"))
        return out

    def _over_each_other(self, seen: set) -> list[Problem]:
        """Texts of one box drawn `apart` whose lines overlap."""
        boxes: dict = {}
        for m in self.measures:
            if m.apart and not m.exempt:
                boxes.setdefault((m.face, m.apart), []).append(m)
        out = []
        for drawn in boxes.values():
            for i, a in enumerate(drawn):
                for b in drawn[i + 1:]:
                    if not _overlap(a.box, b.box):  # their lines, ascent to descent
                        continue
                    snippet = b.text if len(b.text) <= 30 else b.text[:27] + "..."
                    what = f"printed over {b.field} (“{snippet}”): its box is too short"
                    key = (a.face, a.field, a.text, what)
                    if key not in seen:
                        seen.add(key)
                        out.append(Problem(a.face, a.field, a.text, what))
        return out

    def _texts_and_symbols(self, seen: set) -> list[Problem]:
        """A symbol drawn over a text hides it; a text that overflows its box onto a
        symbol drawn before it runs over it (a text that fits its box may lie on a symbol
        drawn behind it on purpose); the version stamp over a symbol. Named by the card,
        the text's field and the symbol."""
        out = []
        for face, name, box, drawn, before in self.symbols:
            first = self._starts[drawn]
            last = self._starts[drawn + 1] if drawn + 1 < len(self._starts) else len(self.measures)
            for n in range(first, last):  # the texts of the same drawing of the face
                m = self.measures[n]
                # the line's core: clear of descenders and accents, whichever way up it is
                x0, y0, x1, y1 = m.box
                core = (x0, y0 + 0.2 * m.size, x1, y1 - 0.2 * m.size)
                if m.face != face or m.exempt or not _overlap(box, core):
                    continue
                if m.field == "stamp":
                    what = (f"the version stamp over the symbol {name} (set [game] "
                            "stamp_corner where the cards leave room)")
                elif n < before:
                    what = f"under the symbol {name}, drawn over it"
                elif not m.fits:
                    what = f"does not fit its box and runs over the symbol {name}"
                else:
                    continue
                key = (m.face, m.field, m.text, what)
                if key not in seen:
                    seen.add(key)
                    out.append(Problem(m.face, m.field, m.text, what))
        return out


def _shape_box(shape: str, x, y, *rest) -> tuple:
    """The part of a filled shape a text over it is taken to sit on (x0, y0, x1, y1):
    a rect whole, a rounded rect less its corners, a circle's inner square."""
    if shape == "rect":
        w, h = rest
        return x, y, x + w, y + h
    if shape == "roundRect":
        w, h, r = rest
        return x + r * 0.3, y + r * 0.3, x + w - r * 0.3, y + h - r * 0.3
    (r,) = rest
    return x - r * 0.7, y - r * 0.7, x + r * 0.7, y + r * 0.7


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def recording(limits: Limits) -> Scoped:
    return Scoped(_recorder, Recorder(limits))


def current() -> Recorder | None:
    return _recorder.get()


def kept(key, work):
    """See Recorder.kept; worked out each time when no build is recording."""
    rec = current()
    return work() if rec is None else rec.kept(key, work)


def aside():
    """See Recorder.aside; nothing to do when no build is recording."""
    from contextlib import nullcontext

    rec = current()
    return rec.aside() if rec is not None else nullcontext()


def apart():
    """See Recorder.apart; nothing to do when no build is recording."""
    from contextlib import nullcontext

    rec = current()
    return rec.apart() if rec is not None else nullcontext()


def exempt():
    """See Recorder.exempt; nothing to do when no build is recording."""
    from contextlib import nullcontext

    rec = current()
    return rec.exempt() if rec is not None else nullcontext()


# ---- colour and matrix arithmetic ---------------------------------------------------

def luminance(rgb) -> float:
    def lin(v):
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def gradient(c, box: tuple, ends: tuple, start, end) -> None:
    """A linear gradient drawn on `c` (companion.engine.elements): a ground under the
    texts drawn over it, each measured against its least contrasting part."""
    rec = _recorder.get()
    if rec is not None:
        rec.gradient(c, box, ends, start, end)


def contrast(a, b) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=4096)
def _contrast(a: tuple, b: tuple) -> float:
    """contrast(a, b), worked out once for each pair: a kit's texts use a few inks on a
    few grounds, each measured on every card."""
    return contrast(a, b)


def _mix(a: tuple, b: tuple, t: float) -> tuple[float, float, float]:
    return tuple(x + (y - x) * t for x, y in zip(a, b))


def _least_apart(gradient: tuple, box: tuple, ink: tuple) -> tuple[float, float, float]:
    """Of a linear gradient's colours under `box` (at its corners, its centre, and where
    the gradient's own ends fall inside it), the one of least contrast with `ink`."""
    (ax, ay), (bx, by), start, end = gradient
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    x0, y0, x1, y1 = box
    ts = {0.0, 1.0} if not length else {
        min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / length))
        for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2))}
    lo, hi = min(ts), max(ts)  # the stretch of the gradient under the box, its ends
    colours = [_mix(start, end, t) for t in (lo, hi, (lo + hi) / 2)]
    return min(colours, key=lambda g: contrast(ink, g))


def _rgb(colour) -> tuple[float, float, float]:
    if hasattr(colour, "rgb"):
        return tuple(colour.rgb())
    if isinstance(colour, (tuple, list)) and len(colour) >= 3:
        return tuple(float(v) for v in colour[:3])
    return (0.0, 0.0, 0.0)


def _scale(m) -> float:
    a, b, c, d, _, _ = m
    return abs(a * d - b * c) ** 0.5
