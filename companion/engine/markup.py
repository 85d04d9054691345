"""Text with light markup: **bold**, *italic* and :icon: (a symbol drawn at the text's
size, in its colour), in a line that shrinks to its width or a block that wraps and
shrinks to its box, never under the card's floor, each measured for the text-limit report
as companion.draw.text measures plain text. Text with no markup goes through
companion.draw.text itself, so it prints exactly as before.

Bold is the font's bold role ("regular" -> "bold", "narrow" -> "narrow-bold"); italic is
the upright face slanted (the bundled fonts have no italic). A game's font family ([fonts]
body = { regular = ..., bold = ..., italic = ..., bold_italic = ... }) prints them in its
own faces (companion.press.fonts.face).

A span changes the colour, size or font of a part of a text: `[Fire](colour=red)`,
`[3](size=1.4 font=title)`, `[**Rare**](colour=#B8860B, size=0.8)`, as a link is written
in Markdown: the words in brackets, then in brackets `colour=` (a colour of the game or
"#RRGGBB"), `size=` (times the text's size, from 0.5 to 2) and `font=` (a font role),
separated by spaces or commas. Its words may hold **bold**, *italic* and :icons: (a pair
of stars opens and closes inside the span, or outside it). A line holding a larger span
stands that much lower; the text-limit report measures a text at its smallest span's size.
A `*` or `:` that opens nothing prints as it is; `\\*` prints a star. A text holds at most MAX_ICONS icons: each
is a drawing of its own (a text of thousands took minutes to lay out and draw)."""

import re
from contextvars import ContextVar

import msgspec
from reportlab.pdfbase.pdfmetrics import stringWidth

from companion.scoped import Scoped
from companion.press import fonts
from companion.text import fit
from companion.draw import symbols, text as plain
from companion.engine import bind, undefined

SLANT = 0.2  # italic: x moves by this much of y
ICON_WIDTH = 1.05  # an icon's advance, in sizes
MAX_ICONS = 300  # in one text: a card shows a few dozen at the very most
_TOKEN = re.compile(r"\\\*|\*\*|\*|:([a-z][a-z0-9_-]*):")
# a span: [words](colour=red size=1.2 font=title)
_SPAN = re.compile(r"\[([^\[\]\n]+)\]\(\s*((?:colou?r|size|font)\s*=[^()\n]*)\)")
_SPAN_KEY = re.compile(r"(colou?r|size|font)\s*=\s*([^\s,]+)")
SPAN_SIZES = (0.5, 2.0)  # a span's size, times its text's
_colouring: ContextVar = ContextVar("span_colours", default=None)


class Run(msgspec.Struct, frozen=True):
    text: str  # a word or part of one, or an icon's name
    bold: bool = False
    italic: bool = False
    icon: bool = False
    space_before: bool = False  # a breakable space comes before it
    colour: str | None = None  # a span's colour, as written
    scale: float = 1.0  # a span's size, times the text's
    font: str | None = None  # a span's font role


def colouring(resolve):
    """Spans' colours resolved by `resolve` (a colour's name -> a colour) within the block:
    the element drawing a text knows the game's colours."""
    return Scoped(_colouring, resolve)


def _style(words: str) -> dict:
    """A span's style from its `colour=... size=... font=...`; a wrong one a BindError."""
    out = {}
    for key, value in _SPAN_KEY.findall(words):
        key = "colour" if key.startswith("colo") else key
        if key == "size":
            try:
                scale = float(value)
            except ValueError:
                scale = float("nan")
            if not SPAN_SIZES[0] <= scale <= SPAN_SIZES[1]:
                raise bind.BindError(f"span ({words}): size={value} is not a number from "
                                     f"{SPAN_SIZES[0]:g} to {SPAN_SIZES[1]:g} (times the "
                                     "text's size)")
            out["scale"] = scale
        elif key == "font":
            try:
                fonts.font(value)
            except Exception:  # noqa: BLE001 - fonts' own error: worded for the span
                raise bind.BindError(f"span ({words}): font={value} is no font role") from None
            out["font"] = value
        else:
            out["colour"] = value
    left = _SPAN_KEY.sub("", words).replace(",", " ").strip()
    if left:
        raise bind.BindError(f"span ({words}): {left!r} is not colour=, size= or font=")
    return out


def has_markup(s: str) -> bool:
    """Whether `s` holds a paired * or **, an escaped star or a known :icon: (else it is
    drawn as plain text, exactly as before markup existed)."""
    if "*" in s and ("\\*" in s or any(_closers(para) for para in s.split("\n"))):
        return True
    if "](" in s and _SPAN.search(s):
        return True
    return ":" in s and any(symbols.known(m.group(1)) for m in _TOKEN.finditer(s)
                            if m.group(1))


def note_icons(s: str) -> None:
    """Each `:name:` in `s` that is no icon, noted (companion.engine.undefined) while a
    build notes names nothing defines: it prints as written."""
    if ":" in s and undefined.active():
        for m in _TOKEN.finditer(s):
            if m.group(1) and not symbols.known(m.group(1)):
                undefined.icon(m.group(1), symbols.names())


def runs(s: str) -> list[list[Run]]:
    """Paragraphs of runs: the text split at plain spaces (a no-break space holds), each
    piece with its style; an icon is a run of its own."""
    paragraphs = []
    for para in s.split("\n"):
        out: list[Run] = []
        bold = italic = False
        space = False
        pending = ""
        style: dict = {}

        def flush():
            nonlocal pending, space
            if pending:
                out.append(Run(pending, bold, italic, False, space, **style))
                pending, space = "", False

        def words(chunk: str):
            nonlocal pending, space
            parts = chunk.split(" ")
            for i, part in enumerate(parts):
                if i > 0:
                    flush()
                    space = True
                pending += part
        for chunk, style in _chunks(para):
            closers = _closers(chunk)
            pos = 0
            for m in _TOKEN.finditer(chunk):
                words(chunk[pos:m.start()])
                tok = m.group(0)
                if tok == "\\*":
                    pending += "*"
                elif tok == "**" and (bold or m.start() in closers):
                    flush()
                    bold = not bold
                elif tok == "*" and (italic or m.start() in closers):
                    flush()
                    italic = not italic
                elif m.group(1) and symbols.known(m.group(1)):
                    flush()
                    out.append(Run(m.group(1), bold, italic, True, space, **style))
                    space = False
                else:
                    pending += tok
                pos = m.end()
            words(chunk[pos:])
            flush()  # a span's words end with it
        paragraphs.append(out)
    return paragraphs


def _chunks(para: str) -> list[tuple[str, dict]]:
    """A paragraph's parts outside and inside spans, each with its style."""
    if "](" not in para:
        return [(para, {})]
    out, pos = [], 0
    for m in _SPAN.finditer(para):
        if m.start() > pos:
            out.append((para[pos:m.start()], {}))
        out.append((m.group(1), _style(m.group(2))))
        pos = m.end()
    if pos < len(para) or not out:
        out.append((para[pos:], {}))
    return out


def _capped(paragraphs: list[list[Run]], field: str | None) -> list[list[Run]]:
    """`paragraphs`, refused if they hold over MAX_ICONS icons: a BindError, which the
    face drawing them names (the data entry of `field`, else the kind and the card)."""
    n = sum(r.icon for para in paragraphs for r in para)
    if n > MAX_ICONS:
        raise bind.BindError(f"{'the text ' + field if field else 'a text'} holds {n:,} "
                             f"icons, over the {MAX_ICONS} one text may hold", field=field)
    return paragraphs


def _closers(para: str) -> set[int]:
    """Where a * or ** opens a span that a later one closes (an unpaired star prints)."""
    opens = set()
    for mark in ("**", "*"):
        pattern = re.escape(mark)
        starts = [m.start() for m in re.finditer(rf"(?<![\\*]){pattern}(?!\*)", para)]
        for a, _ in zip(starts[::2], starts[1::2]):
            opens.add(a)
    return opens


def _width(r: Run, base: str, size: float) -> float:
    size *= r.scale
    if r.icon:
        return size * ICON_WIDTH
    return stringWidth(r.text, fonts.face(r.font or base, r.bold, r.italic)[0], size)


def _scale(line: list[Run], pick=max) -> float:
    """The largest (or smallest) span's size in a line, times the text's."""
    return pick((r.scale for r in line), default=1.0)


def _lines(paragraphs, base: str, size: float, max_w: float) -> list[list[Run]]:
    space = stringWidth(" ", fonts.font(base), size)
    out = []
    for para in paragraphs:
        line, used = [], 0.0
        widths = [_width(r, base, size) for r in para]
        # a line breaks before a word only: the runs glued to it ("(" and an icon,
        # "**2**:coin:") go with it; glued[i]: the width of runs i... up to the next space
        glued = widths + [0.0]
        for i in range(len(para) - 2, -1, -1):
            if not para[i + 1].space_before:
                glued[i] += glued[i + 1]
        for i, r in enumerate(para):
            w = widths[i]
            gap = space if (line and r.space_before) else 0.0
            if line and r.space_before and used + gap + glued[i] > max_w:
                out.append(line)
                line, used, gap = [], 0.0, 0.0
            line.append(r)
            used += gap + w
        out.append(line)
    return out


def _line_width(line: list[Run], base: str, size: float) -> float:
    space = stringWidth(" ", fonts.font(base), size)
    return sum(_width(r, base, size) + (space if i and r.space_before else 0.0)
               for i, r in enumerate(line))


def _draw_line(c, line: list[Run], x: float, y: float, base: str, size: float) -> None:
    space = stringWidth(" ", fonts.font(base), size)
    for i, r in enumerate(line):
        if i and r.space_before:
            x += space
        w = _width(r, base, size)
        name, slanted = (None, r.italic) if r.icon else \
            fonts.face(r.font or base, r.bold, r.italic)
        at = size * r.scale
        c.saveState()
        c.translate(x, y)
        if slanted:
            c.transform(1, 0, SLANT, 1, 0, 0)
        if r.colour is not None:
            resolve = _colouring.get()
            if resolve is None:
                raise bind.BindError(f"span (colour={r.colour}): no colours here")
            c.setFillColor(resolve(r.colour))
        if r.icon:
            symbols.draw(c, r.text, w / 2, at * 0.33, at * 0.42)
        else:
            fonts.check(name, r.text)
            c.setFont(name, at)
            c.drawString(0, 0, r.text)
        c.restoreState()
        x += w


def line(c, s: str, x: float, y: float, role: str, size: float, align: str = "left",
         max_w: float | None = None, field: str | None = None) -> None:
    """As companion.draw.text.line, with markup."""
    note_icons(s)
    if not has_markup(s):
        plain.line(c, s, x, y, role, size, align, max_w, field)
        return
    paragraphs = _capped(runs(s.replace("\n", " ")), field)
    one = paragraphs[0]
    w = _line_width(one, role, size)
    if max_w is not None and w > max_w:
        size = max(plain._floor(c, 4.0), size * max_w / w)
        w = _line_width(one, role, size)
    x0 = x - w / 2 if align == "center" else x - w if align == "right" else x
    _draw_line(c, one, x0, y, role, size)
    rec = fit.current()
    if rec is not None:
        rec.record(c, _plain(one), field, size * _scale(one, min),
                   (x0, y - plain.DESCENT * size, x0 + w,
                    y + plain.ASCENT * size * _scale(one)),
                   max_w is None or w <= max_w + 0.01, "bold" in role)


def block(c, s: str, x: float, top: float, w: float, h: float, role: str, size: float,
          align: str = "left", leading: float = 1.2, min_size: float = 4.5,
          field: str | None = None) -> float:
    """As companion.draw.text.block, with markup."""
    note_icons(s)
    if not has_markup(s):
        return plain.block(c, s, x, top, w, h, role, size, align, leading, min_size, field)
    min_size = plain._floor(c, min_size)
    faces = tuple(fonts.face(role, bold, italic)[0]
                  for bold, italic in ((False, False), (True, False), (False, True), (True, True)))
    lines, size = fit.kept(("markup.block", s, field, role, size, w, h, leading, min_size,
                            faces),
                           lambda: _fitted(s, field, role, size, w, h, leading, min_size))
    steps, total = _steps(lines, size, leading)
    y = top - size * (max(1.0, _scale(lines[0])) if lines else 1.0)
    widest = 0.0
    for i, ln in enumerate(lines):
        lw = _line_width(ln, role, size)
        widest = max(widest, lw)
        _draw_line(c, ln, x + (w - lw) / 2 if align == "center" else x, y, role, size)
        if i + 1 < len(lines):
            y -= steps[i + 1]
    used = total
    rec = fit.current()
    if rec is not None:
        x0 = x + (w - widest) / 2 if align == "center" else x
        last = y
        smallest = min((_scale(ln, min) for ln in lines), default=1.0)
        rec.record(c, " ".join(_plain(ln) for ln in lines), field, size * smallest,
                   (x0, last - plain.DESCENT * size, x0 + widest,
                    top - (1 - plain.ASCENT) * size),
                   used <= h + 0.01 and widest <= w + 0.01, "bold" in role)
    return used


def _fitted(s: str, field, role: str, size: float, w: float, h: float, leading: float,
            min_size: float) -> tuple[list[list[Run]], float]:
    """block's lines of `s` and the size they fit the box at (shrunk, not below min_size)."""
    paragraphs = _capped(runs(s), field)
    while True:  # shrunk until its lines fit the box's height, and its widest its width
        lines = _lines(paragraphs, role, size, w)
        if _steps(lines, size, leading)[1] <= h and max(
                (_line_width(ln, role, size) for ln in lines), default=0.0) <= w + 0.01 \
                or size <= min_size:
            return lines, size
        size = max(min_size, size * 0.92)


def _steps(lines: list[list[Run]], size: float, leading: float) -> tuple[list[float], float]:
    """How far down each line stands from the one before (a line holding a larger span
    stands that much lower), and the lines' whole height."""
    step = size * leading
    steps = [step * max(1.0, _scale(ln)) for ln in lines]
    return steps, (sum(steps) if any(_scale(ln) > 1 for ln in lines) else len(lines) * step)


def _plain(line: list[Run]) -> str:
    """A line as the reports quote it: its words and its icons (":mana:"), spaced as
    drawn ("Gain :mana:.")."""
    return "".join((" " if i and r.space_before else "") + (f":{r.text}:" if r.icon else r.text)
                   for i, r in enumerate(line))


def bullets(c, lines: list[str], x: float, top: float, w: float, h: float, size: float,
            ink, mark, role: str = "regular", min_size: float = 4.6, field: str = "lines",
            gap: float | None = None, first: int = 0) -> float:
    """As companion.draw.card.bullets, each paragraph taking markup as a text does: all
    shrink together to fit h (not below the card's floor); a bullet's mark is given the
    paragraph's words without their markup. Returns the size used."""
    from companion.draw.card import BULLET

    floor = plain._floor(c, min_size)
    parts = [(ln.startswith(BULLET), ln[len(BULLET):] if ln.startswith(BULLET) else ln)
             for ln in lines]
    paragraphs = [_capped(runs(body), field) for _, body in parts]

    def height(size: float) -> float:
        return sum(len(_lines(p, role, size, w - (size * 1.1 if b else 0))) * size * 1.2
                   + (size * 0.35 if gap is None else gap)
                   for (b, _), p in zip(parts, paragraphs))
    while height(size) > h and size > floor:
        size = max(floor, size * 0.95)
    bottom = top - h
    for i, (is_bullet, body) in enumerate(parts):
        indent = size * 1.1 if is_bullet else 0
        if is_bullet:
            mark(c, plain_text(body), x + size * 0.4, top - size * 0.38, size)
        c.setFillColor(ink)
        # each paragraph gets what is left of the box, so an overflow is reported where it is
        top -= block(c, body, x + indent, top, w - indent, top - bottom, role, size,
                     min_size=size, field=f"{field}[{first + i}]") + \
            (size * 0.35 if gap is None else gap)
    return size


def plain_text(s: str) -> str:
    """`s` without its markup: the words it prints, an icon as its name."""
    return "\n".join(" ".join(r.text for r in para) for para in runs(s))
