"""What each element type draws (schema.py says what each takes). Every element is drawn
in the card's own coordinates through the one drawing path the games use
(companion.draw: grounds, text that fits and is measured, symbols, the designer's
pictures), so a kind drawn here prints as the hand-written faces did."""

import re
from contextvars import ContextVar

import msgspec
from reportlab.pdfgen.canvas import ExtGState

from companion.press.pdf import NamedStates
from companion.scoped import Scoped
from companion.draw import card, symbols, text as plain
from companion.text import fit
from companion.text.units import to_mm
from companion.errors import shown
from companion.engine import bind, markup, reused, schema, undefined
from companion.engine.bind import BindError, Placeholder


class Drawing(msgspec.Struct):
    """One face being drawn: the canvas, the card's size and bleed, the game's colours,
    the card's picture (a companion.draw.card.Pic or None), the kinds (for nested cards)."""
    c: object
    w: float
    h: float
    bleed: float
    palette: dict
    pic: object = None
    kinds: dict = msgspec.field(default_factory=dict)
    placeholder: schema.Placeholders | None = None
    back: object = None  # a back's ground colour when saving ink (see schema.Kind.back)
    same: tuple | None = None  # what every element's key shares (_key), worked out once

    def x(self, v, scope) -> float:
        """A length across the card (x, w, r, sizes: fractions of its width)."""
        return bind.length(v, self.w, scope)

    def v(self, v, scope) -> float:
        """A length down the card (h: fractions of its height)."""
        return bind.length(v, self.h, scope)

    def y(self, v, scope) -> float:
        """A y measured from the top, as the canvas has it (from the bottom)."""
        return self.h - self.v(v, scope)

    def colour(self, v, scope):
        c = bind.colour(v, scope, self.palette)
        if self.back is None:
            return c
        # a back when saving ink: white, each ink kept if it reads on white, else the back's
        return card.on_back(c)[0] if _same(c, self.back) else card.on_back(self.back, c)[1]


def _same(a, b) -> bool:
    return a.rgb() == b.rgb()


def draw_all(d: Drawing, elements, scope: dict) -> None:
    with markup.colouring(lambda name: d.colour(name, scope)):  # a span's [words](colour=)
        _draw_all(d, elements, scope)


def _draw_all(d: Drawing, elements, scope: dict) -> None:
    if undefined.naming():  # a kind's own elements, while a build notes undefined names
        for i, el in enumerate(elements, 1):
            token = undefined.enter(i, el)
            try:
                draw_one(d, el, scope)
            finally:
                undefined.leave(token)
        return
    for el in elements:
        draw_one(d, el, scope)


def _holds(el, scope: dict) -> bool:
    if el.when is None:
        return True
    if undefined.active():
        undefined.fields(bind.condition_names(el.when), scope, ("when", el.when))
    return bind.holds(bind.condition(el.when), scope)


def draw_one(d: Drawing, el, scope: dict) -> None:
    if el.repeat is None:
        if _holds(el, scope):
            _draw(d, el, _with_vars(el, scope))
        return
    items = _repeated(el, scope)
    for i, item in enumerate(items):
        inner = _item_scope(scope, items, i)
        if not _holds(el, inner):  # a repeat's condition holds item by item: `odd`
            continue
        inner = _with_vars(el, inner)
        dx = d.x(el.step.x, inner) * i if el.step else 0.0
        dy = d.v(el.step.y, inner) * i if el.step else 0.0
        d.c.saveState()
        d.c.translate(dx, -dy)
        _draw(d, el, inner)
        d.c.restoreState()


def _repeated(el, scope: dict) -> list:
    """A repeat's items; none where its list is missing and its condition fails for the
    card (`when = "golden"` on a list only golden cards have)."""
    try:
        return _part(el, _items(el.repeat, scope), scope)[1]
    except BindError:
        if _holds(el, scope):
            raise
        return []


def _part(el, items: list, scope: dict) -> tuple[int, list]:
    """(first, the part of a list an element's `first` and `count` show): a mini card's aid
    turns its list over half way."""
    first = _whole(el.first, scope, "first", 0)
    count = None if el.count is None else _whole(el.count, scope, "count")
    return first, items[first:None if count is None else first + count]


def _item_scope(scope: dict, items: list, i: int) -> dict:
    """A repeat's scope for its item i: {item...}, {index} (from 0), {number} (from 1),
    {count} (of items), and `odd` / `even` (of number: every other row shaded)."""
    item = items[i]
    inner = dict(scope, index=i, number=i + 1, item=item, count=len(items),
                 odd=i % 2 == 0, even=i % 2 == 1)
    if isinstance(item, dict):
        inner.update(bind.flat(item, "item."))
    return inner


def _items(repeat, scope) -> list:
    if isinstance(repeat, int):
        if not 0 <= repeat <= 1000:
            raise BindError(f"repeat = {repeat}: from 0 to 1000 times")
        return list(range(repeat))
    value = scope.get(repeat)
    if isinstance(value, int) and not isinstance(value, bool):  # a field holding a count
        return _items(value, scope)
    if not isinstance(value, list):
        if repeat in scope:  # the card's value is wrong: named where it is written
            raise BindError(f"repeat = {repeat!r}: {shown(value)} is neither a whole number "
                            "of times nor a list", field=repeat)
        lists = [k for k, v in scope.items() if isinstance(v, list)]
        raise BindError(f"repeat = {repeat!r}: not a list field of this card, which has no "
                        f"{repeat} (a whole number, a field holding one, or a list field"
                        f"{': ' + ', '.join(lists) if lists else ''})", field=repeat)
    return value


def _with_vars(el, scope: dict) -> dict:
    if not el.vars:
        return scope
    out = dict(scope)
    for k, v in el.vars.items():  # in order: a var may name those before it
        out[k] = bind.text(v, out)
    return out


def todo_notes(elements, scope: dict) -> list[str]:
    """The texts still to be written that a face shows (its textblocks' placeholders, each
    as its `todo` says), in drawing order, each once: the print guide lists them. Nothing
    is drawn."""
    out: list[str] = []

    def walk(els, sc):
        for el in els:
            if el.repeat is None:
                scopes = [_with_vars(el, sc)] if _holds(el, sc) else []
            else:
                items = _repeated(el, sc)
                inners = (_item_scope(sc, items, i) for i in range(len(items)))
                scopes = [_with_vars(el, inner) for inner in inners if _holds(el, inner)]
            for inner in scopes:
                if isinstance(el, schema.Corners):
                    walk(el.elements, inner)
                elif isinstance(el, schema.TextBlock):
                    value = bind.text(el.text, inner)
                    if isinstance(value, Placeholder):
                        note = str(bind.text(el.todo, dict(inner, note=value.note)))
                        if note not in out:
                            out.append(note)
    walk(elements, scope)
    return out


# ---- each type --------------------------------------------------------------------------

def _draw(d: Drawing, el, scope: dict) -> None:
    if not el.rotate and el.opacity == 1.0:
        if type(el) in _NOT_REUSED:
            DRAW[type(el)](d, el, scope)
        else:  # drawn once a PDF for the same inputs, put back after (reused.py)
            reused.draw(d.c, _key(d, el, scope), lambda: DRAW[type(el)](d, el, scope),
                        undefined.notes(), _card_of(d, el))
        return
    c = d.c
    c.saveState()
    try:
        if el.opacity != 1.0:
            _fade(c, el.opacity)
        if el.rotate:  # clockwise, as y runs down the card, about its box's centre
            cx, cy = _centre(d, el, scope)
            c.translate(cx, cy)
            c.rotate(-el.rotate)
            c.translate(-cx, -cy)
        DRAW[type(el)](d, el, scope)
    finally:
        c.restoreState()


# an image element (a file of its own), a card drawn small and corners (elements inside,
# kept each) are drawn every time
_NOT_REUSED = frozenset({schema.Image, schema.Nested, schema.Corners})
_NAMES: dict = {}  # id(element) -> (the element, the fields it reads)
_BRACED = re.compile(r"\{([A-Za-z_][\w.]*)")
_WORD = re.compile(r"[A-Za-z_][\w.]*")


def _key(d: Drawing, el, scope: dict) -> tuple:
    """What an element's drawing depends on: the element, the face's size and the game's
    (kinds, colours, placeholder), the ink mode, and the card's values of the fields it
    reads (every name its values hold, braced or bare, whatever the key: none listed by
    hand; those a value read names in braces in turn), as a face's digest has them
    (companion.engine.face)."""
    got = _NAMES.get(id(el))
    if got is None or got[0] is not el:
        if len(_NAMES) > 10_000:  # a watching process's past builds' kinds
            _NAMES.clear()
        got = _NAMES[id(el)] = (el, _read_by(schema.builtins(el)))
    values, names = [], list(got[1])
    for n in names:
        if n in scope:
            v = scope[n]
            values.append((n, _frozen(v)))
            if isinstance(v, str) and "{" in v and len(names) < 64:  # expanded again
                names += [m for m in _prefixes(_BRACED.findall(v)) if m not in names]
    pic = None
    if isinstance(el, schema.Picture) and d.pic is not None:  # the card's picture, whoever
        s = d.pic.spec  # the card: its name is given to the checks as it is put back
        pic = (d.pic.box, str(s.path), s.fit, s.anchor, s.outside)
    if d.same is None:
        d.same = (d.w, d.h, d.bleed, id(d.kinds), id(d.palette), id(d.placeholder), d.back,
                  card.saving())
    return id(el), d.same, tuple(values), pic


def _card_of(d: Drawing, el) -> str | None:
    """The card whose picture a picture element prints, for the checks; else None."""
    if isinstance(el, schema.Picture):
        return d.pic.spec.card if d.pic is not None else ""
    return None


TAG = schema._Element.__struct_config__.tag_field  # "type": the schema's own tag
TAGS = frozenset(t.__struct_config__.tag for t in schema.ELEMENTS)  # "text", "rect"...


def _read_by(spec) -> list:
    names: list = []

    def walk(v, key=None):
        if isinstance(v, dict):
            for k, x in v.items():
                if not (k == TAG and x in TAGS):  # an element's type: no field read
                    walk(x, k)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x, key)
        elif isinstance(v, str):  # every name it holds, braced or bare, whatever its key
            names.extend(n for n in _prefixes(_WORD.findall(v)) if n not in names)
    walk(spec)
    return names


def _prefixes(names) -> list:
    """Each name and the tables it is read from ("clan.colour": "clan" too)."""
    out = []
    for n in names:
        parts = n.split(".")
        out += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return out


def _frozen(v):
    """A card's value as a key: with its type, as 1, 1.0 and True (equal in Python) print
    apart, and a float by its repr (0.0 and -0.0)."""
    t = type(v)
    if t is str:
        return v
    if t is float:
        return t, repr(v)
    if v is None or t is int or t is bool:
        return t, v
    return t.__name__, repr(v)


class _Faded(NamedStates):
    """The canvas's transparency state while an element with `opacity` draws: every
    opacity set inside (a colour's, an icon's) is multiplied by the element's, so its
    own colours cannot make it opaque again; nested opacities multiply."""
    scale = 1.0
    raw: dict = {}

    def set(self, canv, a, v):
        if a in ("ca", "CA"):
            self.raw = {**self.raw, a: v}
            v = v * self.scale
        super().set(canv, a, v)

    def pushCopy(self):
        x = super().pushCopy()
        x.scale, x.raw = self.scale, dict(self.raw)
        return x


def _fade(c, opacity: float) -> None:
    old = c._extgstate
    new = _Faded()
    new._d, new._c = old._d.copy(), old._c
    new.scale = getattr(old, "scale", 1.0) * opacity
    raw = getattr(old, "raw", {})
    c._extgstate = new
    for a in ("ca", "CA"):
        v = raw.get(a, old.getValue(a))
        if not isinstance(v, (int, float)):  # none set yet in a form (draw.forms): opaque
            v = ExtGState.defaults[a]
        new.set(c, a, v)


def _centre(d: Drawing, el, scope) -> tuple[float, float]:
    """The centre of an element's box, on the canvas: what `rotate` turns it about."""
    if isinstance(el, (schema.Rect, schema.TextBlock, schema.Bullets, schema.Table,
                       schema.Nested, schema.Qr, schema.Image)) and getattr(el, "inset", None) is None:
        return d.x(el.x, scope) + d.x(el.w, scope) / 2, d.y(el.y, scope) - d.v(el.h, scope) / 2
    if isinstance(el, (schema.Circle, schema.Symbol, schema.Badge)):
        return d.x(el.x, scope), d.y(el.y, scope)
    if isinstance(el, schema.Line):
        return ((d.x(el.x1, scope) + d.x(el.x2, scope)) / 2,
                (d.y(el.y1, scope) + d.y(el.y2, scope)) / 2)
    if isinstance(el, schema.Text):  # its printed line: from x as aligned, capitals high
        value = str(bind.text(el.text, scope))
        size = d.x(el.size, scope)
        w = _width(value.upper() if el.upper else value, el.font, size)
        if el.max_w is not None:
            w = min(w, d.x(el.max_w, scope))
        x = d.x(el.x, scope) + {"left": w / 2, "right": -w / 2}.get(el.align, 0.0)
        return x, d.y(el.y, scope) + CAP * size / 2
    return d.w / 2, d.h / 2  # a ground, a picture, corners: the card's centre


def _gradient(d: Drawing, g: schema.Gradient, scope, path, x, y, w, h, paled=False) -> None:
    """`path` (x, y, w, h its box) filled with the linear gradient `g`: from its start
    colour to its end colour across the box along `angle` (clockwise from left to right,
    as y runs down the card), and as each ends beyond."""
    import math

    start, end = d.colour(g.start, scope), d.colour(g.end, scope)
    if paled:
        start, end = card.ground(start), card.ground(end)
    a = math.radians(g.angle)
    dx, dy = math.cos(a), -math.sin(a)  # down the card is down the canvas
    half = (abs(w * dx) + abs(h * dy)) / 2  # the box's extent along the gradient
    cx, cy = x + w / 2, y + h / 2
    c = d.c
    ends = ((cx - dx * half, cy - dy * half), (cx + dx * half, cy + dy * half))
    fit.gradient(c, (x, y, w, h), ends, start, end)  # a ground for the contrast check
    c.saveState()
    c.clipPath(path, stroke=0, fill=0)
    c.linearGradient(*ends[0], *ends[1], (start, end), extend=True)
    c.restoreState()


def _background(d: Drawing, el: schema.Background, scope) -> None:
    if el.gradient is not None:
        b = d.bleed
        path = d.c.beginPath()
        if el.shape == "disc":
            r = min(d.w, d.h) / 2 + b
            path.circle(d.w / 2, d.h / 2, r)
        else:
            path.rect(-b, -b, d.w + 2 * b, d.h + 2 * b)
        _gradient(d, el.gradient, scope, path, -b, -b, d.w + 2 * b, d.h + 2 * b,
                  paled=not el.cue)
        return
    if el.shape == "disc":
        card.disc(d.c, d.w / 2, d.h / 2, min(d.w, d.h) / 2, d.bleed, d.colour(el.fill, scope))
        return
    card.background(d.c, d.w, d.h, d.bleed, d.colour(el.fill, scope), cue=el.cue)


def _stroked(d: Drawing, el, scope) -> tuple[int, int]:
    c = d.c
    fill = el.fill is not None
    stroke = el.stroke is not None
    if fill:
        c.setFillColor(d.colour(el.fill, scope))
    if stroke:
        c.setStrokeColor(d.colour(el.stroke, scope))
        c.setLineWidth(d.x(el.stroke_width, scope))
        if el.dash:
            c.setDash(*el.dash)
    return int(stroke), int(fill)


def _rect(d: Drawing, el: schema.Rect, scope) -> None:
    if el.inset is not None:
        i = d.x(el.inset, scope)
        x, y, w, h = i, i, d.w - 2 * i, d.h - 2 * i
    else:
        x, w = d.x(el.x, scope), d.x(el.w, scope)
        h = d.v(el.h, scope)
        y = d.y(el.y, scope) - h
    stroke, fill = _stroked(d, el, scope)
    r = d.x(el.radius, scope)
    if el.gradient is not None:
        path = d.c.beginPath()
        if r:
            path.roundRect(x, y, w, h, r)
        else:
            path.rect(x, y, w, h)
        _gradient(d, el.gradient, scope, path, x, y, w, h)
        fill = 0  # the gradient is its fill; its outline over it
    if r:
        d.c.roundRect(x, y, w, h, r, stroke=stroke, fill=fill)
    else:
        d.c.rect(x, y, w, h, stroke=stroke, fill=fill)
    if el.dash and stroke:
        d.c.setDash()


def _circle(d: Drawing, el: schema.Circle, scope) -> None:
    shape = str(bind.text(el.shape, scope))
    if shape not in ("circle", "square"):
        raise BindError(f"shape = {el.shape!r}: {shape!r} is not circle or square")
    stroke, fill = _stroked(d, el, scope)
    x, y, r = d.x(el.x, scope), d.y(el.y, scope), d.x(el.r, scope)
    if shape == "square":  # its sides of the card's width, so square at any card size
        d.c.rect(x - r, y - r, 2 * r, 2 * r, stroke=stroke, fill=fill)
    else:
        d.c.circle(x, y, r, stroke=stroke, fill=fill)
    if el.dash and stroke:
        d.c.setDash()
    if el.mark is not None:  # beside it in its radii: in place whatever the card's shape
        m = el.mark
        _symbol_at(d, m.name, x + m.x * r, y - m.y * r, d.x(m.r, scope), m.colour, scope)


def _line(d: Drawing, el: schema.Line, scope) -> None:
    c = d.c
    c.setStrokeColor(d.colour(el.stroke, scope))
    c.setLineWidth(d.x(el.stroke_width, scope))
    if el.dash:
        c.setDash(*el.dash)
    c.line(d.x(el.x1, scope), d.y(el.y1, scope), d.x(el.x2, scope), d.y(el.y2, scope))
    if el.dash:
        c.setDash()


def _text(d: Drawing, el: schema.Text, scope) -> None:
    value = str(bind.text(el.text, scope))
    if el.upper:
        value = value.upper()
    d.c.setFillColor(d.colour(el.colour, scope))
    max_w = None if el.max_w is None else d.x(el.max_w, scope)
    if el.suffix is not None:
        _suffixed(d, el, value, max_w, scope)
        return
    markup.line(d.c, value, d.x(el.x, scope), d.y(el.y, scope), el.font, d.x(el.size, scope),
                align=el.align, max_w=max_w, field=_field(el.field, scope))


def _width(s: str, font: str, size: float) -> float:
    if not markup.has_markup(s):
        return plain.width(s, font, size)
    return markup._line_width(markup.runs(s.replace("\n", " "))[0], font, size)


CAP = 0.73  # a capital's or a figure's height, of the size: a suffix's top is set level with it


def _suffixed(d: Drawing, el: schema.Text, value: str, max_w, scope) -> None:
    """A text and its smaller suffix, aligned at x as one; the text alone shrinks so that
    both fit in max_w."""
    sfx = el.suffix
    tail = str(bind.text(sfx.text, scope))
    tail_size, gap = d.x(sfx.size, scope), d.x(sfx.gap, scope)
    tail_w = _width(tail, el.font, tail_size)
    size = d.x(el.size, scope)
    room = None if max_w is None else max_w - gap - tail_w
    w = _width(value, el.font, size)
    if room is not None and w > room:  # as markup.line shrinks a text to its max_w
        size = max(plain._floor(d.c, 4.0), size * room / w)
        w = _width(value, el.font, size)
    total = w + gap + tail_w
    x = d.x(el.x, scope) - {"center": total / 2, "right": total}.get(el.align, 0.0)
    y = d.y(el.y, scope)
    markup.line(d.c, value, x, y, el.font, size, max_w=room, field=_field(el.field, scope))
    markup.line(d.c, tail, x + w + gap, y + CAP * (size - tail_size), el.font, tail_size,
                field=_field(sfx.field, scope))


def _textblock(d: Drawing, el: schema.TextBlock, scope) -> None:
    value = bind.text(el.text, scope)
    x, top, w = d.x(el.x, scope), d.y(el.y, scope), d.x(el.w, scope)
    h, size = d.v(el.h, scope), d.x(el.size, scope)
    if isinstance(value, Placeholder):
        _placeholder(d, value.note, x, top, w, h, size, _field(el.field, scope), scope)
        return
    if el.upper:
        value = value.upper()
    if el.valign == "middle":  # centred in its box when its lines fit at their size
        lines = len(plain.wrap(value, el.font, size, w)) * size * el.leading
        if lines <= h:
            top -= (h - lines) / 2
    d.c.setFillColor(d.colour(el.colour, scope))
    markup.block(d.c, value, x, top, w, h, el.font, size, align=el.align, leading=el.leading,
                 field=_field(el.field, scope))


def _field(name: str | None, scope: dict) -> str | None:
    """The data key a text prints, for the text-limit reports ("texts.{words}_text")."""
    return None if name is None else str(bind.text(name, scope, again=False))


def _placeholder(d: Drawing, note: str, x, top, w, h, size, field_name, scope) -> None:
    """A text still to be written: the kind's hatched TO COME box holding the note."""
    p = d.placeholder or schema.Placeholders()
    card.todo_box(d.c, note, str(bind.text(p.word, scope)), x, top, w, h, size,
                  d.colour(p.ground, scope), d.colour(p.ink, scope), field_name)


# The keys of a list's items the engine reads itself, named by no template: a bullet's
# mark (the item's name, symbol and colour) and a table row's values.
ITEM_KEYS = frozenset({"name", "symbol", "colour", "values"})


def _bullets(d: Drawing, el: schema.Bullets, scope) -> None:
    lines = scope.get(el.lines.strip("{}"))
    if not isinstance(lines, list):
        raise BindError(f"lines = {el.lines!r}: not a list field of this card")
    first, lines = _part(el, lines, scope)  # its paragraphs keep their numbers in the reports
    lines = [str(bind.text(str(ln), scope)) for ln in lines]
    for ln in lines:
        markup.note_icons(ln)
    dot = d.colour(el.mark, scope)
    by_name = {}
    if el.marks is not None:
        for item in scope.get(el.marks.strip("{}")) or []:
            if isinstance(item, dict) and "name" in item:
                by_name[str(item["name"]).lower()] = item

    def mark(c, body, x, y, size):
        item = by_name.get(body.split(":")[0].strip().lower())
        if item is not None:  # a scoring line: the item's own symbol as its bullet
            c.setFillColor(d.colour(str(item.get("colour", el.mark)), scope))
            symbols.draw(c, str(item.get("symbol", "circle")), x, y, size * 0.45)
        else:
            c.setFillColor(dot)
            c.circle(x - size * 0.05, y + size * 0.03, size * 0.18, stroke=0, fill=1)
    # lines with markup (**bold**, :icon:) drawn as texts take it; else as they always were
    draw = markup.bullets if any(markup.has_markup(ln) for ln in lines) else card.bullets
    draw(d.c, lines, d.x(el.x, scope), d.y(el.y, scope), d.x(el.w, scope),
         d.v(el.h, scope), d.x(el.size, scope),
         d.colour(el.colour, scope), mark, role=el.font,
         gap=None if el.gap is None else d.v(el.gap, scope),
         field=_field(el.field, scope) or "lines", first=first)


def _whole(value, scope, name: str, default=None):
    """A whole number an element's key gives, or a field holding one ("{first}"): a field
    the card lacks gives the default (an aid's cards that show their whole list)."""
    if isinstance(value, int):
        return value
    alone = bind.whole_field(value)
    if alone is not None and alone not in scope:
        return default
    try:
        return bind.number(value, scope)
    except BindError as e:
        raise BindError(f"{name} = {value!r}: {e}") from None


def _symbol(d: Drawing, el: schema.Symbol, scope) -> None:
    _symbol_at(d, el.name, d.x(el.x, scope), d.y(el.y, scope), d.x(el.r, scope), el.colour,
               scope)


def _symbol_at(d: Drawing, name: str, x: float, y: float, r: float, colour: str,
               scope) -> None:
    template, name = name, str(bind.text(name, scope))
    if not symbols.known(name):
        raise BindError(f"unknown symbol {shown(name)} (have {', '.join(symbols.names())})",
                        bind.whole_field(template))
    d.c.setFillColor(d.colour(colour, scope))
    symbols.draw(d.c, name, x, y, r)
    rec = fit.current()
    if rec is not None:  # a text it covers, or that runs onto it, is a problem
        rec.symbol(d.c, name, x, y, r)


def _picture(d: Drawing, el: schema.Picture, scope) -> None:
    if el.role == "back":
        if d.pic is not None:
            from companion.draw import art

            art.draw(d.c, d.w, d.h, d.bleed, d.pic.box, d.pic.spec)
        return
    if el.role == "disc":
        card.picture_disc(d.c, d.w / 2, d.h / 2, min(d.w, d.h) / 2, d.w, d.h, d.bleed, d.pic)
    elif el.role == "ground":
        card.picture_ground(d.c, d.w, d.h, d.bleed, d.pic)
    else:
        edge = None if el.edge is None else d.colour(el.edge, scope)
        card.picture_window(d.c, d.w, d.h, d.bleed, d.pic, edge=edge)


# The game file's folder and the card being drawn: where an image element's file is, and
# who asks for it in messages (companion.engine.face sets them for each face).
_PICTURES: ContextVar = ContextVar("image_folder", default=(None, ""))


def pictures_from(folder, card: str) -> Scoped:
    return Scoped(_PICTURES, (folder, card))


def _image(d: Drawing, el: schema.Image, scope) -> None:
    """A picture of the designer's in its box, read as a card's own picture is."""
    from pathlib import Path

    from companion.draw import art
    from companion.files import designer_files

    folder, card = _PICTURES.get()
    base = Path(folder) if folder is not None else Path.cwd()
    name = str(bind.text(el.file, scope))
    if not name.strip():
        raise BindError(f"image: file = {el.file!r} names no file for this card",
                        bind.whole_field(el.file))
    p = Path(name)
    full = p if p.is_absolute() else base / p
    spec = art.Spec(full, el.fit, el.anchor, card,
                    outside=not designer_files.inside(full, base), jpeg=el.jpeg)
    x, w = d.x(el.x, scope), d.x(el.w, scope)
    top, h = d.v(el.y, scope), d.v(el.h, scope)
    if w <= 0 or h <= 0:
        return
    box = art.Box(x / d.w, top / d.h, w / d.w, h / d.h)
    art.draw(d.c, d.w, d.h, d.bleed, box, spec)


def _badge(d: Drawing, el: schema.Badge, scope) -> None:
    c = d.c
    x, y, r = d.x(el.x, scope), d.y(el.y, scope), d.x(el.r, scope)
    c.setFillColor(d.colour(el.fill, scope))
    if el.shape == "rect":
        c.roundRect(x - r, y - r, 2 * r, 2 * r, r * 0.25, stroke=0, fill=1)
    else:
        c.circle(x, y, r, stroke=0, fill=1)
    size = d.x(el.size, scope)
    c.setFillColor(d.colour(el.colour, scope))
    markup.line(c, str(bind.text(el.text, scope)), x, y - size * 0.35, el.font, size,
                align="center", max_w=1.6 * r, field=_field(el.field, scope))


def _corners(d: Drawing, el: schema.Corners, scope) -> None:
    for turned in (False, True):
        d.c.saveState()
        if turned:
            d.c.translate(d.w, d.h)
            d.c.rotate(180)
        draw_all(d, el.elements, scope)
        d.c.restoreState()


def _nested(d: Drawing, el: schema.Nested, scope) -> None:
    from companion.engine import kinds

    inner_kind = d.kinds.get(el.kind)
    if inner_kind is None:
        raise BindError(f"card: no kind {el.kind!r} (kinds: {', '.join(d.kinds)})")
    x, top, w = d.x(el.x, scope), d.y(el.y, scope), d.x(el.w, scope)
    h = d.v(el.h, scope)
    inner_scope = dict(scope)
    if el.of is not None:  # a table of the card's fields: the inner card's own
        table = scope.get(el.of.strip("{}"))
        if not isinstance(table, dict):
            raise BindError(f"of = {el.of!r}: not a table field of this card")
        inner_scope.update(bind.flat(table))
    for k, v in el.fields.items():
        inner_scope[k] = bind.text(v, scope)
    c = d.c
    c.saveState()
    c.translate(x, top - h)
    c.scale(w / d.w, h / d.h)  # the inner card in the outer card's units, then scaled
    path = c.beginPath()
    path.rect(0, 0, d.w, d.h)
    c.clipPath(path, stroke=0, fill=0)
    with fit.exempt():  # a card shown small is an illustration, not a text to read at size
        inner = Drawing(c, d.w, d.h, 0.0, d.palette, None, d.kinds, d.placeholder)
        draw_all(inner, kinds.elements_of(inner_kind), inner_scope)
    c.restoreState()


def _table(d: Drawing, el: schema.Table, scope) -> None:
    rows = _table_rows(el.rows, scope)
    value = el.columns if isinstance(el.columns, int) else scope.get(el.columns.strip("{}"))
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000:
        columns = list(range(1, value + 1))  # a count: numbered from 1
    elif isinstance(value, list):
        columns = value
    else:
        raise BindError(f"columns = {el.columns!r}: a number from 0 to 1000, or a list")
    x, top, w = d.x(el.x, scope), d.y(el.y, scope), d.x(el.w, scope)
    label_w = bind.length(el.label_w, w, scope)
    row_h = d.v(el.row_h, scope) if el.row_h is not None else \
        d.v(el.h, scope) / (el.above + el.head_h + len(rows) or 1)
    col_w = (w - label_w) / max(len(columns), 1)
    head_top = top - el.above * row_h
    head_h = el.head_h * row_h
    body_top = head_top - head_h
    if el.above:
        _in_box(d, el.caption, scope, x, top, w, el.above * row_h)
    _in_box(d, el.head, scope, x, head_top, w, head_h)
    col_scopes = [_column_scope(scope, col, j) for j, col in enumerate(columns)]
    for j, cs in enumerate(col_scopes):
        _in_box(d, el.column_head, cs, x + label_w + j * col_w, head_top, col_w, head_h)
    row_scopes = []
    for i, row in enumerate(rows):
        rs = dict(scope, row=row, index=i, number=i + 1)
        if isinstance(row, dict):
            rs.update(bind.flat(row, "row."))
        row_scopes.append(rs)
        y = body_top - i * row_h
        _in_box(d, el.row, rs, x, y, w, row_h)
        values = row.get("values") if isinstance(row, dict) else None
        for j, cs in enumerate(col_scopes):
            value = values[j] if isinstance(values, list) and j < len(values) else ""
            _in_box(d, el.cell, {**rs, **{k: v for k, v in cs.items() if k.startswith(
                "column")}, "value": value}, x + label_w + j * col_w, y, col_w, row_h)
        # the label after the cells: its outline shows whole over their edge; its texts
        # (a name, a legend) apart, or a problem (a row too short for them)
        with fit.apart():
            _in_box(d, el.label, rs, x, y, label_w, row_h)
    if el.grid is not None:
        _grid(d, el, scope, row_scopes, x, w, label_w, col_w, len(columns), head_top,
              body_top, row_h)


def _table_rows(sources: list[str], scope: dict) -> list:
    """The rows: each source a list field (its items), a table field (one row) or a field
    holding a whole number (that many rows, each its number)."""
    rows = []
    for source in sources:
        name = source.strip().strip("{}")
        value = scope.get(name)
        if isinstance(value, list):
            rows.extend(value)
        elif isinstance(value, dict):
            rows.append(value)
        elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000:
            rows.extend(range(1, value + 1))
        else:
            raise BindError(f"rows: {source!r} is not a list, a table or a number from 0 "
                            "to 1000 of this card")
    return rows


def _column_scope(scope: dict, column, j: int) -> dict:
    cs = dict(scope, column=column, column_index=j)
    if isinstance(column, dict):
        cs.update(bind.flat(column, "column."))
    return cs


def _in_box(d: Drawing, elements: list, scope: dict, x, top, w, h) -> None:
    """Elements drawn in a box of the face as if it were a card of its own."""
    if not elements or w <= 0 or h <= 0:
        return
    d.c.saveState()
    d.c.translate(x, top - h)
    box = Drawing(d.c, w, h, 0.0, d.palette, None, d.kinds, d.placeholder, d.back)
    draw_all(box, elements, {**scope, bind.CARD_W: float(w), bind.CARD_H: float(h)})
    d.c.restoreState()


def _grid(d: Drawing, el: schema.Table, scope, row_scopes, x, w, label_w, col_w, n_cols,
          head_top, body_top, row_h) -> None:
    """The lines: above the header, between the rows (a thicker one above a `strong` row),
    and down the sides of every column."""
    c = d.c
    bottom = body_top - len(row_scopes) * row_h
    c.setStrokeColor(d.colour(el.grid, scope))
    width = d.x(el.grid_width, scope)
    c.setLineWidth(width)
    for yy in [head_top] + [body_top - i * row_h for i in range(len(row_scopes) + 1)]:
        c.line(x, yy, x + w, yy)
    if el.strong is not None:
        c.setLineWidth(d.x(el.strong_width, scope))
        for i, rs in enumerate(row_scopes):
            if undefined.active():
                undefined.fields(bind.condition_names(el.strong), rs, ("strong", el.strong))
            if bind.holds(bind.condition(el.strong), rs):
                c.line(x, body_top - i * row_h, x + w, body_top - i * row_h)
        c.setLineWidth(width)
    for j in range(n_cols + 1):
        xx = x + label_w + j * col_w
        c.line(xx, head_top, xx, bottom)
    c.line(x, head_top, x, bottom)


DATA_MAX = 1000  # a code's characters, once its template is filled
# The bytes a QR code holds at each level, as reportlab's encoder makes it (version 40 less
# its overhead, the UTF-8 mark included): 1,000 "é" are 2,000 bytes, over level H's.
# tests/test_first_week.py holds the encoder to these.
QR_BYTES = {"L": 2808, "M": 2212, "Q": 1578, "H": 1218}


def _qr(d: Drawing, el: schema.Qr, scope) -> None:
    """A QR code or a Code 128 barcode, as vectors (reportlab.graphics.barcode)."""
    from reportlab.graphics.barcode import createBarcodeDrawing

    data = el.data if len(el.data) <= 60 else el.data[:57] + "..."
    said = f"{el.code}: data = {data!r}"
    value = bind.text(el.data, scope)
    if isinstance(value, Placeholder):
        raise BindError(f"{said}: a text still to be written cannot be encoded",
                        bind.whole_field(el.data))
    value = str(value)
    if not value:
        raise BindError(f"{said}: empty for this card: nothing to encode",
                        bind.whole_field(el.data))
    if len(value) > DATA_MAX:
        raise BindError(f"{said}: {len(value):,} characters once filled, over "
                        f"the {DATA_MAX:,} a code holds here",
                        bind.whole_field(el.data))
    if el.code == "code128" and not value.isascii():
        bad = next(ch for ch in value if not ch.isascii())
        raise BindError(f"{said}: {bad!r} is not ASCII, which a code128 barcode "
                        "cannot hold (code = \"qr\" can)", bind.whole_field(el.data))
    if el.code == "qr" and len(value.encode("utf-8")) > QR_BYTES[el.level]:
        n = len(value.encode("utf-8"))
        raise BindError(f"{said}: {n:,} bytes once filled (UTF-8: an accented letter takes "
                        f"2), over the {QR_BYTES[el.level]:,} a QR code holds at level "
                        f"{el.level} (L holds {QR_BYTES['L']:,})", bind.whole_field(el.data))
    x, top, w, h = d.x(el.x, scope), d.y(el.y, scope), d.x(el.w, scope), d.v(el.h, scope)
    if w <= 0 or h <= 0:  # a code nobody sees is a mistake: said, not left out
        raise BindError(f"{el.code}: {'w' if w <= 0 else 'h'}: its box is {to_mm(w):.3g} x "
                        f"{to_mm(h):.3g} mm: nothing to draw in (w and h more than 0)")
    ink = d.colour(el.colour, scope)
    if el.code == "qr":
        side = min(w, h)
        x, y, w, h = x + (w - side) / 2, top - h + (h - side) / 2, side, side
        if not value.isascii():  # UTF-8, said so (ECI 26), or readers guess Shift JIS
            from reportlab.graphics.barcode import qrencoder

            value = [qrencoder.QRECI(26), qrencoder.QR8bitByte(value)]
        drawing = createBarcodeDrawing("QR", value=value, width=w, height=h,
                                       barLevel=el.level, barFillColor=ink)
    else:
        y = top - h
        drawing = createBarcodeDrawing("Code128", value=value, width=w, height=h,
                                       humanReadable=False, barFillColor=ink,
                                       barStrokeColor=ink, barStrokeWidth=0)
    if el.ground is not None:
        d.c.setFillColor(d.colour(el.ground, scope))
        d.c.rect(x, y, w, h, stroke=0, fill=1)
    _draw_without_fonts(drawing, d.c, x, y)


def _draw_without_fonts(drawing, canvas, x: float, y: float) -> None:
    """renderPDF.draw without the font the barcode widgets carry in their state (Helvetica,
    never embedded, though a code without its human-readable line shows no text): the
    build's PDF names only the fonts a designer chose (a press refuses unembedded ones)."""
    from reportlab.graphics import renderPDF

    class Renderer(renderPDF._PDFRenderer):
        def applyStateChanges(self, delta, newState):
            super().applyStateChanges({k: v for k, v in delta.items()
                                       if k not in ("fontName", "fontSize")}, newState)

    Renderer().draw(renderPDF.renderScaledDrawing(drawing), canvas, x, y)


DRAW = {schema.Background: _background, schema.Rect: _rect, schema.Circle: _circle,
        schema.Line: _line, schema.Text: _text, schema.TextBlock: _textblock,
        schema.Bullets: _bullets,
        schema.Symbol: _symbol, schema.Picture: _picture, schema.Badge: _badge,
        schema.Corners: _corners, schema.Nested: _nested, schema.Table: _table,
        schema.Qr: _qr, schema.Image: _image}
