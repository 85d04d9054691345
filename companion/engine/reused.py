"""An element drawn again on the same PDF with the same inputs is not drawn again: what it
wrote the first time is put back (issue 36: 2,000 cards repeat a handful of texts,
symbols, badges and grounds; a rule text drawn run by run is most of a face's cost).

What is put back is exact, so the PDF is byte for byte the one drawing it again gives:
- its PDF operators, as the canvas's code lines, with the XObjects, colour spaces and
  shadings they name, read from those operators (companion.press.written: on any page,
  whatever that page had already); one canvas only; its transparency states and
  shadings are named by their content (companion.press.pdf);
- the canvas's state it leaves (font, colours, line width...: reportlab's
  STATE_ATTRIBUTES), since what the next element writes may depend on it; the state it
  began in is part of its key, for the same reason;
- what the checks learn (companion.text.fit): the filled shapes it lays (grounds), its
  texts' measures, each named for the card now drawn and measured against what lies
  under it on this card, and the symbols it places;
- the names it looked up that nothing defines (companion.engine.undefined's notes);
- what it learnt of the card's picture (companion.draw.art's log), made again for the
  card now drawn.

An element that changes anything else while drawn (the canvas's matrix or transparency
state left changed, a form begun, a card drawn inside) is drawn every time."""

from operator import attrgetter

import msgspec

from companion.draw import art
from companion.files import kept
from companion.press import pdf, written
from companion.engine import undefined
from companion.text import fit

_STATE, _STATE_OF = pdf.STATE, pdf.state_of
_COLOURED = ("_fillColorObj", "_strokeColorObj")
_UNCOLOURED_OF = attrgetter(*(a for a in _STATE if a not in _COLOURED))
_STORE = "_companion_reused"  # on the canvas: its elements' drawings, by key


class _Drawn(msgspec.Struct):
    code: list
    forms: list
    colours: dict
    shadings: dict
    images: bool
    end: dict  # the canvas's _STATE values it leaves, where they differ from its start
    grounds: list  # the grounds it laid, in face coordinates
    measures: list  # (fit.Measure, how many of its grounds lay before it)
    symbols: list  # (name, box, its measures before it)
    notes: list  # (method, args) on undefined's notes
    pictures: list  # the notes it made in art's log


def draw(c, key, work, notes, card: str | None = None) -> None:
    """`work()` draws the element whose inputs are `key` (hashable: everything it reads
    of the card, the face and the game) on the canvas `c`; `notes`: undefined's notes, or
    None; `card`: the card whose picture it prints (None: it prints none). Drawn twice at
    most a canvas for each key and canvas state it starts in: the second drawing is kept,
    and put back at every later one."""
    rec = fit.current()
    if rec is None or rec._face is None or "record" in rec.__dict__ or kept.cold:
        work()  # no face under way, or inside an element being kept (one level only)
        return
    d = c.__dict__
    store = d.get(_STORE)
    if store is None:
        store = d[_STORE] = {}
    matrix = c._currentMatrix
    rel = _LAST[2] if _LAST[1] is matrix and _LAST[0] is rec._face else \
        _relative(rec, matrix)
    fill, stroke = c._fillColorObj, c._strokeColorObj
    f, s = _COLOURS.get(id(fill)), _COLOURS.get(id(stroke))  # _colour's, met before
    ext = c._extgstate._d
    full = (key, _UNCOLOURED_OF(c), f[1] if f is not None and f[0] is fill else _colour(fill),
            s[1] if s is not None and s[0] is stroke else _colour(stroke),
            rel, tuple(ext.items()) if ext else (), rec._exempt)
    try:
        got = store.get(full)
    except TypeError:  # a value that cannot be hashed: drawn each time
        work()
        return
    if got:
        _put_back(c, rec, got, notes, card)
    elif got is None:  # met first: drawn; kept when met again (a title, once a card,
        store[full] = False  # is never kept)
        work()
    elif got is False:
        store[full] = _drawn(c, rec, work, notes, card) or ()
    else:  # drawn before, and not what can be put back
        work()


def _colour(obj):
    """A colour as a key: its type and components (reportlab hashes a Color in Python,
    twice an element), worked out once an object."""
    got = _COLOURS.get(id(obj))
    if got is not None and got[0] is obj:
        return got[1]
    if len(_COLOURS) > 4096:
        _COLOURS.clear()
    key = (type(obj), obj.__key__) if hasattr(obj, "__key__") else obj
    _COLOURS[id(obj)] = (obj, key)  # the object held: its id is not another's meanwhile
    return key


_COLOURS: dict = {}
_LAST: list = [None, None, None]  # (face, canvas matrix, relative): a face's elements
# mostly begin at its own matrix


def _relative(rec, matrix) -> tuple:
    """The canvas's matrix on the face (rounded: the same for a face wherever it lies)."""
    if _LAST[0] is rec._face and _LAST[1] is matrix:
        return _LAST[2]
    rel = tuple(round(v, 6) + 0.0 for v in rec._relative(matrix))
    _LAST[:] = rec._face, matrix, rel
    return rel


def _drawn(c, rec, work, notes, card) -> _Drawn | None:
    start = _STATE_OF(c)
    code, forms, face = c._code, c._formsinuse, rec._face
    n0, f0, g0, m0, y0 = len(code), len(forms), len(face.grounds), len(rec.measures), \
        len(rec.symbols)
    starts0, sizes0 = len(rec._starts), len(rec.sizes)
    images0, matrix, ext = c._currentPageHasImages, c._currentMatrix, c._extgstate
    ext0, names0, depth = dict(ext._d), len(ext._c), len(c.state_stack)
    own: list = []  # how many of its grounds lay before each text it measured
    calls: list = []
    rec.record = _counting(rec, own, face, g0)
    log = art.log()
    if log is not None:
        heard, log.heard = log.heard, []
    if notes is not None:
        saved = {m: notes.__dict__.get(m) for m in ("field", "icon")}
        for method in saved:
            setattr(notes, method, undefined.recording(getattr(notes, method), method, calls))
    try:
        work()
    finally:
        del rec.record
        if log is not None:
            pictures, log.heard = log.heard, heard
            if heard is not None:  # a kept face's drawing hears them too
                heard.extend(pictures)
        if notes is not None:
            for method, was in saved.items():
                if was is None:
                    delattr(notes, method)
                else:
                    setattr(notes, method, was)
    if not (c._code is code and c._formsinuse is forms and rec._face is face
            and len(rec._starts) == starts0 and len(rec.sizes) == sizes0
            and c._currentMatrix == matrix and c._extgstate is ext and ext._d == ext0
            and len(ext._c) == names0 and len(c.state_stack) == depth
            and (card is not None or log is None or not pictures)):
        return None
    measures = rec.measures[m0:]
    colours, shadings = written.resources_of(code[n0:], c)  # what it names, on any page
    return _Drawn(
        code=code[n0:], forms=forms[f0:], colours=colours, shadings=shadings,
        images=bool(c._currentPageHasImages and not images0),
        end={a: v for a, v, was in zip(_STATE, _STATE_OF(c), start) if v is not was},
        grounds=face.grounds[g0:],
        measures=list(zip(measures, own)),
        symbols=[(name, box, k - m0) for _, name, box, _, k in rec.symbols[y0:]],
        notes=calls, pictures=pictures if log is not None else [])


def _put_back(c, rec, got: _Drawn, notes, card) -> None:
    c._code.extend(got.code)
    if got.forms:
        c._formsinuse.extend(got.forms)
    if got.colours:
        c._colorsUsed.update(got.colours)
    if got.shadings:
        c._shadingUsed.update(got.shadings)
    if got.images:
        c._currentPageHasImages = 1
    c.__dict__.update(got.end)
    if got.grounds or got.measures or got.symbols:
        face = rec._face
        grounds, laid, m0 = face.grounds, 0, len(rec.measures)
        for m, before in got.measures:  # each measured over what lay under it then
            grounds.extend(got.grounds[laid:before])
            laid = max(laid, before)
            rec.measures.append(msgspec.structs.replace(
                m, face=face.label, ground=rec._ground_under(m.box, tuple(m.ink))))
        grounds.extend(got.grounds[laid:])
        rec.symbols.extend((face.label, name, box, rec._drawn, m0 + k)
                           for name, box, k in got.symbols)
    if got.pictures:
        art.log().again(got.pictures, card)
    if got.notes and notes is not None:  # an icon: noted with the first card printing it
        for method, args in got.notes:
            getattr(notes, method)(*args)


def _counting(rec, own: list, face, g0: int):
    real = rec.record

    def record(c, text, *args, **kw):
        n = len(rec.measures)
        real(c, text, *args, **kw)
        if len(rec.measures) > n:
            own.append(len(face.grounds) - g0)
    return record
