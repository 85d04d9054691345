"""What each card face drew, kept from one build to the next in a watching process
(`build --watch`, issue 36) and in the cache folder: a face whose digest has not changed since the last build is
not drawn again, its drawing is put back in the new PDF as it was.

A face's drawing is the PDF operators it wrote on the sheet's page (the canvas's code
between the face's start and its end), with what they name in the document: the fonts'
glyphs, the pictures and icons (XObjects), the transparency states. Each is the
document's own: a glyph's code in a font subset is given in the order glyphs are first
met, a transparency state's name in the order states are first set. So each PDF of a kit
is kept with what its document had named when it was saved (`Snapshot`), and the next
build's document of that file starts from it: every glyph and state keeps its code and
name, those met new are given the next ones, and every kept drawing reads as it did. A
glyph no card prints any more stays in the subset embedded (the PDF renders the same).

What the checks learnt while a face was drawn is kept with it and given back when it is
put back: the texts it measured and the symbols it placed (companion.text.fit), the
pictures it printed (companion.draw.art's log), the names its layout used
(companion.engine.undefined). So every face's problems are still reported.

A kept drawing carries what it names (issue 49), read from its own operators, never from
what was new to the page when it was drawn, and each resource is named by its content
(companion.press.pdf), so no name can mean two things or be left undefined:
- transparency states: named by their content ("Gca0.5"); put back where the canvas is
  at PDF's default transparency, as it was drawn;
- shadings: named by their content's digest ("Sh" + digest), the objects brought along
  and registered in the new document; a face naming one is not kept in the cache folder
  (a PDF object is not kept across runs): drawn again there;
- colour spaces, and XObjects whose resources name one: named in the order a document
  meets them, so put back in the document they were drawn in only;
- fonts: the last document's are named again only if this run knows every one of them
  (a designer's font is registered under its file's digest: replaced or no longer named,
  the whole snapshot is dropped, not half of it);
- what it draws: its key is the face's digest (companion.kit.identity, companion.engine.face:
  the whole resolved input and the content of every file it reads), and the cache
  folder's file is of our code, our bundled fonts and data as they are.
Every page and form written is checked to define each name it uses
(companion.press.written); a name left dangling redraws the whole output cold.

A build that fails keeps nothing new: what it drew is kept only once its PDF is saved.

Across runs, the same is kept in the cache folder (companion.files.kept: marshal values
only, checksummed), a file a card PDF of a game in one context (its folder, the options,
the stamp; our code and reportlab's as they are): a build of an unchanged game draws
again only the first face placing each picture or icon, which defines it in the new PDF
(a PDF object is not kept across runs), and faces using colour spaces or shadings."""

import copy
import hashlib
import os
from functools import cache, partial
from pathlib import Path

import msgspec
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from companion.files import kept
from companion.press import written
from companion.engine import undefined
from companion.text import fit


class Drawn(msgspec.Struct):
    """One face's drawing and what the checks learnt while it was drawn."""
    code: list  # the canvas's code lines
    forms: list  # names of the XObjects it placed
    objects: dict  # XObject's registered name -> its PDF object, for a new document
    colours: dict  # colour spaces and shadings it used: the page's resources
    shadings: dict
    images: bool  # it drew a picture (the page's ImageC procedure set)
    states: dict  # transparency state (key, value) -> its name
    measures: list  # fit.Measure, as recorded
    symbols: list  # (label, name, box, drawing - first, measures before - first)
    starts: list  # measures before each drawing it began, from its first measure
    sizes: list  # (label, (w, h))
    notes: list  # (method, args) calls on undefined.Notes
    pictures: list  # (the log's dict, key, value): every note it made in art's log
    # the PDF version its drawing asks for (transparency: 1.4), which reportlab raises the
    # document's to as it draws, even where nothing is written (an alpha of 1)
    version: tuple = (0, 0)
    # its own document's only: it names objects by names its document gave in the order
    # they came (a shading "Sh1", a colour space, a form naming those): put back in the
    # document it was drawn in, drawn again in another
    local: bool = False


class Snapshot(msgspec.Struct):
    """What a saved document had named: its fonts in order, each with its TTF state (the
    glyphs' codes) or None (a font reportlab names by itself), its transparency states."""
    fonts: list  # (PostScript name, internal name, TTFont state copy or None)
    states: dict  # (key, value) -> name


class Kept(msgspec.Struct):
    """One file's kept drawings, by key, and its document's snapshot."""
    snapshot: Snapshot
    faces: dict


def _store(context: str) -> dict | None:
    """The watching process's kept drawings for builds of this context (the options,
    the stamp): {file path: Kept}; a build in another context starts afresh."""
    store = kept.in_process
    if store is None:
        return None
    if store.get("context") != context:
        store.clear()
        store["context"] = context
        store["files"] = {}
    return store["files"]


def _state_copy(state):
    out = copy.copy(state)
    out.assignments = dict(state.assignments)
    out.subsets = [list(s) for s in state.subsets]
    out.frozen = 0
    return out


class Keeper:
    """Draws a PDF's card fronts for `print_sheets.render`: each from what was kept, else anew
    (and keeps it). One a file of the kit, on its canvas; `commit` once the PDF is saved."""

    def __init__(self, context: str, path: str, c, recorder, notes, pictures):
        self.files = None if kept.cold else _store(context)  # cold: nothing put back
        self.path = path
        self.c, self.rec, self.notes, self.pictures = c, recorder, notes, pictures
        self.key = hashlib.sha256("\0".join((code_version(), context, path)).encode(
            "utf-8", "surrogatepass")).hexdigest()[:32]
        self.old = self.files.get(path) if self.files is not None else None
        if self.old is None and not kept.cold:  # the last run's, from the cache folder
            self.old = _decoded(kept.read(FOLDER, self.key))
        self.new: dict = {}  # key -> Drawn, used in this build
        self.found: dict = {}  # an XObject placed -> (the objects it and those it names are,
        # whether one names a shading or colour space of this document's: _names_own)
        self.drawn = self.reused = 0
        self._named: dict = {}
        if self.old is not None and not self._seed(self.old.snapshot):
            self.old = None

    def _seed(self, snap: Snapshot) -> bool:
        """The new document names every font glyph and state as the last one did; False
        (and the document left as it was) where it cannot: a font of the last document
        this run does not know (a designer's font replaced, or no longer named: its name
        holds its digest), a name given already to another."""
        c = self.c
        doc = c._doc
        fonts = {}
        for ps, internal, state in snap.fonts:
            if ps in doc.fontMapping:
                if doc.fontMapping[ps] != internal:
                    return False
                continue
            try:
                font = pdfmetrics.getFont(ps)
            except Exception:  # noqa: BLE001 - reportlab's KeyError, or its own: not here
                return False
            if (state is not None) != isinstance(font, TTFont):
                return False
            fonts[ps] = font
        for ps, internal, state in snap.fonts:
            if ps in doc.fontMapping:
                continue
            if state is not None:
                font = fonts[ps]
                font.state[doc] = _state_copy(state)
                doc.fontMapping[ps] = internal
                doc.delayedFonts.append(font)
            elif doc.getInternalFontName(ps) != internal:
                return False
        c._extgstate._c.update(snap.states)
        return True

    def __call__(self, c, face, w: float, h: float, bleed: float) -> None:
        if not self.kept(face, w, h, bleed):
            key = (face.kept, round(w, 4), round(h, 4), round(bleed, 4))
            if _plain(c._extgstate):
                self.new[key] = self._draw(face, w, h, bleed)
            else:  # begun in a transparency state: drawn, not kept
                face.draw(c, w, h, bleed)
            self.drawn += 1

    def kept(self, face, w: float, h: float, bleed: float) -> bool:
        """Puts the face's kept drawing back, if one fits this document; whether it did
        (else nothing is written)."""
        if kept.cold:  # drawn again cold (companion.press.written): nothing put back
            return False
        key = (face.kept, round(w, 4), round(h, 4), round(bleed, 4))
        got = self.new.get(key)
        if got is None and self.old is not None:
            got = self.old.faces.get(key)
            if got is not None and (got.local or got.colours):
                got = None  # names a colour space of its own document's
        if got is None or not self._fits(got) or not self._has(got):
            return False
        self._put_back(got)
        self.new[key] = got
        self.reused += 1
        return True

    def _has(self, got: Drawn) -> bool:
        """Whether the document has, or the drawing brings, every XObject it places (one
        read back from the cache folder brings none: the first face placing a picture or
        an icon is drawn again, and defines it for the others)."""
        doc = self.c._doc
        return all(name in doc.idToObject or name in got.objects
                   for name in map(doc.getXObjectName, got.forms))

    def _fits(self, got: Drawn) -> bool:
        """Whether the canvas is at PDF's default transparency, as it was drawn (a `gs`
        reportlab leaves out where the state is already set would be missing). Its
        states are named by their content (companion.press.pdf): each name is its state
        in any document."""
        return _plain(self.c._extgstate)

    # ---- a face drawn anew, and kept -----------------------------------------------

    def _draw(self, face, w, h, bleed) -> Drawn:
        c, rec, notes, log = self.c, self.rec, self.notes, self.pictures
        code0, forms0 = len(c._code), len(c._formsinuse)
        images0 = c._currentPageHasImages
        m0, y0, s0, z0 = len(rec.measures), len(rec.symbols), len(rec._starts), len(rec.sizes)
        heard, log.heard = log.heard, []
        calls: list = []
        for method in ("field", "icon"):
            setattr(notes, method, undefined.recording(
                partial(getattr(type(notes), method), notes), method, calls))
        doc = c._doc
        version0, doc._pdfVersion = doc._pdfVersion, (0, 0)  # what this face asks for
        try:
            face.draw(c, w, h, bleed)
        finally:
            for method in ("field", "icon"):
                delattr(notes, method)
            pictures, log.heard = log.heard, heard
            if heard is not None:
                heard.extend(pictures)
            version, doc._pdfVersion = doc._pdfVersion, max(version0, doc._pdfVersion)
        forms = list(c._formsinuse[forms0:])
        objects: dict = {}
        local = False
        for name in set(forms):
            got = self.found.get(name)
            if got is None:  # what an XObject names, the same once it is defined
                found = {}
                _objects_of(doc, doc.getXObjectName(name), found)
                got = (found, any(_names_own(obj) for obj in found.values()))
                if found:
                    self.found[name] = got
            objects.update(got[0])
            local = local or got[1]
        added = len(rec.sizes) - z0
        sizes = list(reversed([(k, rec.sizes[k]) for k, _ in zip(reversed(rec.sizes),
                                                                  range(added))]))
        code = c._code[code0:]
        colours, shadings = written.resources_of(code, c)
        for name in shadings:  # named by its content (companion.press.pdf): brought along
            objects[name] = doc.idToObject[name]
        return Drawn(
            code=code, forms=forms, objects=objects, colours=colours, shadings=shadings,
            images=bool(c._currentPageHasImages and not images0),
            states=self._states(),
            measures=rec.measures[m0:],
            symbols=[(lb, nm, box, d - s0, k - m0) for lb, nm, box, d, k in rec.symbols[y0:]],
            starts=[k - m0 for k in rec._starts[s0:]],
            sizes=sizes, notes=calls, pictures=pictures, version=tuple(version),
            local=local)

    def _states(self) -> dict:
        """Every transparency state the document has named (its names are the whole
        document's, companion.press.pdf): the ones a drawing may name, a handful, one
        dict shared by the faces drawn while no new one came."""
        names = self.c._extgstate._c
        if len(names) != len(self._named):
            self._named = dict(names)
        return self._named

    # ---- a kept face put back ------------------------------------------------------

    def _put_back(self, got: Drawn) -> None:
        c, rec, log = self.c, self.rec, self.pictures
        doc = c._doc
        for name, obj in got.objects.items():
            if name not in doc.idToObject:
                _register(doc, name, _fresh(obj) if name in got.shadings else obj)
        if got.states:
            c._extgstate._c.update(got.states)
        c._code.extend(got.code)
        doc._pdfVersion = max(doc._pdfVersion, tuple(got.version))
        c._formsinuse.extend(got.forms)
        c._colorsUsed.update(got.colours)
        c._shadingUsed.update(got.shadings)
        if got.images:
            c._currentPageHasImages = 1
        m0, s0 = len(rec.measures), len(rec._starts)
        rec.measures.extend(got.measures)
        rec._starts.extend(k + m0 for k in got.starts)
        rec.symbols.extend((lb, nm, box, d + s0, k + m0) for lb, nm, box, d, k in got.symbols)
        rec.sizes.update(got.sizes)
        for method, args in got.notes:
            getattr(self.notes, method)(*args)
        for name, k, v in got.pictures:
            log.note(name, k, v)

    def commit(self) -> None:
        """Called before the PDF is saved (saving gives the fonts away): the drawings of
        this build are kept with its document's snapshot, in the watching process and in
        the cache folder; those no card uses now go."""
        doc = self.c._doc
        fonts = []
        for ps, internal in doc.fontMapping.items():
            font = pdfmetrics.getFont(ps) if ps in pdfmetrics._fonts else None
            state = font.state.get(doc) if isinstance(font, TTFont) else None
            fonts.append((ps, internal, None if state is None else _state_copy(state)))
        now = Kept(Snapshot(fonts, dict(self.c._extgstate._c)), self.new)
        if self.files is not None:
            self.files[self.path] = now
        if self.new != getattr(self.old, "faces", None):  # for the next run
            kept.keep(FOLDER, self.key, _encoded(now))

    def line(self) -> str:
        return f"{self.path}: {self.drawn} faces drawn, {self.reused} kept"


FOLDER = "drawings"  # in the cache folder (companion.files.kept)


# ---- across runs: marshal's values only ----------------------------------------------

@cache
def code_version() -> str:
    """Our drawing code and reportlab's, as they are, and our bundled files (our fonts,
    whose measures a kept drawing's places follow; the layouts' data): a kept drawing is
    of these."""
    import companion
    from reportlab import Version

    root = Path(companion.__file__).parent
    h = hashlib.sha256(Version.encode())
    files, folders = [], [str(root)]
    while folders:  # as rglob("*.py"), without its pattern matching (a cold build's 1 ms)
        with os.scandir(folders.pop()) as entries:
            for e in entries:
                if e.is_dir() and e.name != "__pycache__":
                    folders.append(e.path)
                elif e.name.endswith((".py", ".ttf", ".toml", ".csv", ".svg")) \
                        and e.is_file():
                    files.append((os.path.relpath(e.path, root), e))
    for rel, e in sorted(files):
        st = e.stat()
        h.update(f"{rel} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _encoded(k: Kept) -> tuple:
    fonts = [(ps, internal, None if st is None else
              (st.assignments, st.subsets, st.nextCode, st.internalName, st.namePrefix))
             for ps, internal, st in k.snapshot.fonts]
    faces = []
    for key, d in k.faces.items():
        if d.colours or d.shadings or d.local:  # names objects of its own document
            continue
        faces.append((key, d.code, d.forms, d.images, d.states,
                       [msgspec.structs.astuple(m) for m in d.measures], d.symbols,
                       d.starts, d.sizes, d.notes, d.pictures, d.version))
    return (fonts, k.snapshot.states, faces)


def _decoded(value) -> Kept | None:
    """What _encoded kept, or None if it is not that (another format, damaged)."""
    if value is None:
        return None
    try:
        fonts_in, states, faces_in = value
        fonts = []
        for ps, internal, st in fonts_in:
            state = None
            if st is not None:
                state = TTFont.State(None)
                (state.assignments, state.subsets, state.nextCode, state.internalName,
                 state.namePrefix) = st
                state.frozen = 0
            fonts.append((ps, internal, state))
        faces = {}
        for (key, code, forms, images, dstates, measures, symbols, starts, sizes, notes,
             pictures, version) in faces_in:
            faces[key] = Drawn(code, forms, {}, {}, {}, images, dstates,
                               [fit.Measure(*m) for m in measures], symbols, starts, sizes,
                               notes, pictures, tuple(version))
        return Kept(Snapshot(fonts, states), faces)
    except Exception:  # noqa: BLE001 - not what we keep: drawn again
        return None


def _plain(ext) -> bool:
    """Whether a canvas's transparency is PDF's default (no alpha, blend or overprint
    set), as at a face's start on a sheet."""
    return all(v == ext.defaults[a] for a, v in ext._d.items())


def _names_own(obj) -> bool:
    """Whether an XObject's resources name a colour space: one its document named in
    order, another in another document (a shading is named by its content and brought
    along: _refs)."""
    resources = getattr(obj, "Resources", None)
    return resources is not None and bool(getattr(resources, "ColorSpace", None))


def _register(doc, name: str, obj) -> None:
    """An object of another document registered in this one under its name (reportlab's
    Reference refuses an object named already, in the document it came from)."""
    n = doc.objectcounter = doc.objectcounter + 1
    doc.idToObjectNumberAndVersion[name] = (n, 0)
    doc.numberToId[n] = name
    doc.idToObject[name] = obj


def _fresh(obj):
    """A shading for another document: a copy whose objects (its colour function) carry
    no name the last document gave them as it saved."""
    obj = copy.deepcopy(obj)
    seen, todo = set(), [obj]
    while todo:
        o = todo.pop()
        if id(o) in seen or not hasattr(o, "__dict__"):
            continue
        seen.add(id(o))
        o.__dict__.pop("__InternalName__", None)
        for v in vars(o).values():
            todo.extend(v if isinstance(v, (list, tuple)) else
                        v.values() if isinstance(v, dict) else [v])
    return obj


def _objects_of(doc, name: str, out: dict) -> None:
    """The XObject registered as `name` and those it names (an icon's form placing a
    picture, a picture's soft mask), for a document that lacks them."""
    if name in out or name not in doc.idToObject:
        return
    obj = out[name] = doc.idToObject[name]
    for ref in _refs(obj):
        _objects_of(doc, ref, out)


def _refs(obj) -> list[str]:
    names = []
    xobjects = getattr(obj, "XObjects", None)
    if xobjects is not None:
        names += [getattr(v, "name", None) for v in getattr(xobjects, "dict", {}).values()]
    resources = getattr(obj, "Resources", None)
    if resources is not None and getattr(resources, "XObject", None) is not None:
        names += [getattr(v, "name", None) for v in
                  getattr(resources.XObject, "dict", {}).values()]
    if resources is not None and getattr(resources, "Shading", None):
        names += list(resources.Shading)  # a gradient in an icon's form: by its content
    smask = getattr(obj, "smask", None)
    if smask is not None:
        names.append(getattr(smask, "name", None))
    return [n for n in names if isinstance(n, str)]
