"""The one font loader: bundled TTF files, embedded as subsets, and a glyph check
so that a string the font cannot show fails the build instead of printing empty boxes.

A game's file may name fonts of its own, TTF files beside it, for a role of ours
(regular, bold, narrow, narrow-bold) or a role of its own that its kinds name:

    [fonts]
    title = "fonts/MyHand.ttf"      # font = "title" in an element
    body = { regular = "fonts/Body.ttf", bold = "fonts/Body-Bold.ttf",
             italic = "fonts/Body-Italic.ttf", bold_italic = "fonts/Body-BoldItalic.ttf" }

A family (a table of faces, its regular one required) gives a text in `font = "body"` its
own faces for **bold**, *italic* and ***both*** (companion.engine.markup): registered as
the roles "body", "body.bold", "body.italic" and "body.bold_italic"; a face it lacks is
worked out as before (bold: our bold role; italic: the upright face slanted).

A font file is untrusted input: a regular file of at most 15 MB inside the game's folder,
TrueType outlines only (an .otf with CFF outlines, which reportlab cannot read, is refused
saying to use a TTF), read by reportlab from the bytes read once. A few bytes can cost
reportlab minutes and gigabytes (a character map of overlapping ranges; composite glyphs
that make each subset walk every glyph after them), so a designer's font is parsed, and
subset once for trial as saving a PDF will subset it, in a worker under companion.files.bounded's
deadline and memory limit; a character map listing more characters than Unicode has is
refused before that, in a clearer line. Bundled fonts, ours, are parsed in this process.

reportlab knows a TrueType face by the name inside the file: a second face of the same
name would take the first one's place in its registry (and clash with its objects in a
PDF). A designer's face is renamed its own (its name, then its digest), so that a font
whose file says DejaVuSans never prints in place of ours, nor ours in place of it.

What reportlab learns parsing a font (its metrics, its character and glyph tables) is kept
(companion.files.kept) by the font's digest and reportlab's version: a build reads it back in a
fraction of the parse (DejaVu Sans: 9 ms parsed, 2 read), and starts no worker."""

import hashlib
import io
import os
import struct
from contextvars import ContextVar
from functools import cache
from pathlib import Path

import msgspec

from companion.scoped import Scoped
from companion.files import bounded, kept, paths
from companion.errors import CompanionError, shown
from companion.press.presets import table

LIMIT = 15_000_000  # bytes: a font with every Latin, Greek and Cyrillic glyph is ~1 MB
ROLES = ("regular", "bold", "narrow", "narrow-bold")
UNICODE = 0x110000  # code points: a character map listing more has ranges that overlap
TRIAL = 8192  # codes a trial subset takes at once (reportlab's cmap 6 holds 32,762)
# In the key of what a designer's font's parse keeps: one kept before the worker's checks
# (or by checks since changed) is parsed and checked again.
CHECKED = b"designer font, checked 1"


class GameFont(msgspec.Struct, frozen=True):
    role: str
    name: str  # as registered with reportlab: the file's name and its digest
    digest: str  # of the file's bytes: a face's digest follows the fonts it prints


_game: ContextVar[dict] = ContextVar("game_fonts", default={})


@cache
def register() -> dict[str, str]:
    """Register every font role with reportlab once; returns role -> font name."""
    from reportlab.pdfbase import pdfmetrics

    roles = table().sub("fonts")
    names = {}
    for role in roles.table:
        file = roles.get(role, str)
        path = paths.FONTS / file
        if not path.is_file():
            raise CompanionError("font file missing", source=str(path), field=f"fonts.{role}")
        name = path.stem
        pdfmetrics.registerFont(_font(name, path.read_bytes(), str(path)))
        names[role] = name
    return names


def load(data) -> dict[str, GameFont]:
    """The fonts [fonts] names in a game's data (companion.files.data.Fields), read, checked and
    registered; by role."""
    from companion.files import designer_files

    if "fonts" not in data.table:
        return {}
    table = data.sub("fonts")
    single = {k: v for k, v in table.table.items() if not isinstance(v, dict)}
    paths = designer_files.named_beside(
        type(data)({"fonts": single}, data.source, data.path, data.english), "fonts")
    out = {}
    for role, value in table.table.items():
        if not role or not all(ch.isalnum() or ch in "-_" for ch in role):
            raise table.error(role, "a font's role is letters, digits, - and _")
        if not isinstance(value, dict):
            path = paths[role]
            out[role] = _game_font(role, path, designer_files.read_bytes(path, LIMIT, "font"))
            continue
        faces = table.sub(role)  # a family: { regular = ..., bold = ..., italic = ... }
        for each in value:
            if each not in FACES:
                raise faces.error(each, f"not a face of a family (faces: {', '.join(FACES)})")
        if "regular" not in value:
            raise table.error(role, "a family needs its regular face: { regular = "
                                    "\"fonts/X.ttf\", bold = ..., italic = ..., "
                                    "bold_italic = ... }")
        for each, path in designer_files.named_beside(table, role).items():
            name = role + FACES[each]
            out[name] = _game_font(name, path, designer_files.read_bytes(path, LIMIT, "font"))
    return out


# A family's faces: the role each is registered as, after the family's name.
FACES = {"regular": "", "bold": ".bold", "italic": ".italic", "bold_italic": ".bold_italic"}


def face(role: str, bold: bool, italic: bool) -> tuple[str, bool]:
    """(the font a text in `role` prints a run in, whether that run is to be slanted): a
    family's own face for bold, italic or both where the game gives one; else our bold
    role for bold (narrow: narrow-bold) and the upright face slanted for italic."""
    own = _game.get()
    if bold or italic:
        key = role + FACES["bold_italic" if bold and italic else "bold" if bold else "italic"]
        if key in own:
            return own[key].name, False
        if bold and italic and role + FACES["bold"] in own:  # the bold face, slanted
            return own[role + FACES["bold"]].name, True
    if bold and "bold" not in role:
        role = "narrow-bold" if role.startswith("narrow") else "bold"
    return font(role), italic


@cache
def _registered(name: str, raw: bytes, source: str) -> None:
    from reportlab.pdfbase import pdfmetrics

    pdfmetrics.registerFont(_designer_font(name, raw, source))


def _key(raw: bytes, *also: bytes) -> str:
    from reportlab import Version

    return hashlib.sha256(b"\0".join((Version.encode(), *also, raw))).hexdigest()[:32]


def _kept_font(name: str, raw: bytes, key: str):
    """The font `raw` from what an earlier run kept of its parse under `key`, or None."""
    parsed = kept.read("fonts", key)
    if parsed is not None:
        try:
            return _font_from(name, raw, parsed)
        except Exception:  # noqa: BLE001 - not what _parsed wrote: parse the font again
            pass
    return None


def _font(name: str, raw: bytes, filename: str | None = None):
    """reportlab's TTFont for a bundled font file `raw` (ours, parsed in this process),
    what its parse learns read back from our cache when an earlier run kept it.
    `filename`: the path reportlab records, None for a font given as bytes."""
    from reportlab.pdfbase.ttfonts import TTFont

    key = _key(raw, os.fsencode(filename or ""))
    font = _kept_font(name, raw, key)
    if font is None:
        file = io.BytesIO(raw)
        if filename is not None:
            file.name = filename
        font = TTFont(name, file)
        kept.keep("fonts", key, _parsed(font.face))
    return font


def _designer_font(name: str, raw: bytes, source: str):
    """reportlab's TTFont for a designer's font file `raw`, parsed and checked in a bounded
    worker (or read back from what one kept), its face renamed its own."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    key = _key(raw, CHECKED)
    font = _kept_font(name, raw, key)
    if font is None:
        parsed = bounded.run(_parse_designer, raw, source=source, what="font")
        kept.keep("fonts", key, parsed)
        font = _font_from(name, raw, parsed)
    font.face.name = TTFNameBytes(_own_name(font.face.name, raw))
    return font


def _own_name(name: bytes, raw: bytes) -> bytes:
    """The name a designer's face goes by in reportlab and in the PDF: the file's own
    (PostScript characters only, cut short), then the digest of its bytes, which no
    bundled face's name ends with."""
    kept_chars = bytes(c for c in name if chr(c).isascii() and (chr(c).isalnum()
                                                               or chr(c) in "-_."))
    digest = hashlib.sha256(raw).hexdigest()[:12].encode()
    return b"%s-%s" % (kept_chars[:40] or b"Font", digest)


def _parse_designer(raw: bytes) -> dict:
    """In the worker: what reportlab's parse of a designer's font learns (`_parsed`), once
    the font is checked to subset as saving a PDF will."""
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        font = TTFont("Trial", io.BytesIO(raw))
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 - reportlab's TTFError and whatever a bad file raises
        raise bounded.Failed(f"not a TrueType font reportlab can read ({_said(e)})") from None
    _check_glyphs(font.face)
    _trial_subset(font)
    return _parsed(font.face)


def _said(e: Exception) -> str:
    if isinstance(e, KeyError):
        return f"no {e} table"
    return " ".join(str(e).split())[:160] or type(e).__name__


def _check_glyphs(face) -> None:
    """Glyph numbers and places a PDF's subset will look up, each in the font."""
    glyphs = face.numGlyphs
    for code, glyph in face.charToGlyph.items():
        if not 0 <= glyph < glyphs:
            raise bounded.Failed(f"its character map (cmap) gives U+{code:04X} glyph "
                                 f"{glyph}, past its {glyphs} glyphs")
    places = face.glyphPos
    if any(a > b for a, b in zip(places, places[1:])):
        # Glyphs that overlap: a subset would copy the same bytes again and again.
        raise bounded.Failed("its glyph locations (loca) go backwards: glyphs overlap")


def _trial_subset(font) -> None:
    """Subsets the font as saving a PDF will, over every glyph its characters reach: a font
    whose subsetting fails, or takes the time and memory of a bomb (each composite glyph
    walking every glyph after it), is refused here and never stops a save. Each subset a
    PDF makes reaches a part of these glyphs, at most the cost of this trial."""
    from reportlab.pdfbase.ttfonts import TTFont

    face = font.face
    if face._full_font:  # embedding restricted: reportlab embeds it whole, as one subset
        batches = [TTFont.State(ttf=font).subsets[0]]
    else:
        first = {}
        for code, glyph in sorted(face.charToGlyph.items()):
            first.setdefault(glyph, code)
        codes = sorted(first.values())
        batches = [codes[i:i + TRIAL] for i in range(0, len(codes), TRIAL)] or [[]]
    for batch in batches:
        try:
            face.makeSubset(batch)
        except MemoryError:
            raise
        except Exception as e:  # noqa: BLE001 - whatever a bad glyph table raises
            raise bounded.Failed(f"its glyphs cannot be put in a PDF ({_said(e)})") from None


def _mapped(raw: bytes) -> int:
    """How many characters the character maps (cmap) of `raw` list, a character counted
    once for each range that holds it, the count stopped past UNICODE. 0 for a file whose
    tables cannot be found: reportlab's parse says what is wrong with it."""
    try:
        (tables,) = struct.unpack_from(">H", raw, 4)
        for i in range(tables):
            tag, _, at, length = struct.unpack_from(">4sIII", raw, 12 + 16 * i)
            if tag == b"cmap":
                return _mapped_in(raw[at:at + length])
    except struct.error:
        pass
    return 0


def _mapped_in(cmap: bytes) -> int:
    """The most characters one subtable of the table `cmap` lists. All told, no more
    ranges are read than the table holds bytes for (8 a range at the least): subtables
    that share their ranges cost no more than reading the table once."""
    (encodings,) = struct.unpack_from(">H", cmap, 2)
    subtables = dict.fromkeys(struct.unpack_from(">I", cmap, 8 + 8 * i)[0]
                              for i in range(encodings))
    budget = len(cmap) // 8
    most = 0
    for at in subtables:
        count = 0
        try:
            for start, end in _ranges(cmap, at):
                count += max(0, end - start + 1)
                budget -= 1
                if count > UNICODE or budget < 0:
                    return count
        except struct.error:
            pass  # cut short: reportlab reads what there is, and says so
        most = max(most, count)
    return most


def _ranges(cmap: bytes, at: int):
    """The (first, last) ranges of the format 4, 12 or 13 subtable at `at`; none for the
    other formats (a character an entry: as long as the file)."""
    (fmt,) = struct.unpack_from(">H", cmap, at)
    if fmt == 4:
        (n,) = struct.unpack_from(">H", cmap, at + 6)
        ends = struct.unpack_from(f">{n // 2}H", cmap, at + 14)
        starts = struct.unpack_from(f">{n // 2}H", cmap, at + 16 + n)
        return zip(starts, ends)
    if fmt in (12, 13):
        (n,) = struct.unpack_from(">I", cmap, at + 12)
        groups = cmap[at + 16:at + 16 + 12 * n]
        return ((a, b) for a, b, _ in struct.iter_unpack(">III", groups[:len(groups)
                                                                        // 12 * 12]))
    return ()


# A face's attributes not kept: the file's bytes (read anyway) and a function of unitsPerEm.
_NOT_KEPT = ("_ttf_data", "_pdfScale")


def _parsed(face) -> dict:
    """What reportlab's parse set on the face, as values marshal keeps (no code runs on
    reading them back): its names, bytes with their text, kept as their UTF-8 bytes."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    state = {k: v for k, v in vars(face).items() if k not in _NOT_KEPT}
    names = [k for k, v in state.items() if isinstance(v, TTFNameBytes)]
    state = {k: bytes(v) if k in names else v for k, v in state.items()}
    # The glyphs' widths and metrics, one object a value: marshal writes an object met
    # again as a reference, read back as one object (a font's 6,000 widths are 900
    # values), and a cold build reads its fonts faster. Equal, and of the same types, as
    # reportlab's own: floats shared with floats, pairs of whole numbers with their like.
    widths, metrics = {}, {}
    state["charWidths"] = {k: widths.setdefault(w, w) if type(w) is float else w
                           for k, w in state["charWidths"].items()}
    state["hmetrics"] = [metrics.setdefault(m, m) if type(m) is tuple and len(m) == 2 and
                         type(m[0]) is int and type(m[1]) is int else m
                         for m in state["hmetrics"]]
    return {"state": state, "names": names}


def _font_from(name: str, raw: bytes, parsed: dict):
    """The TTFont reportlab would make of `raw`, from what `_parsed` kept of its face."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

    face = TTFontFace.__new__(TTFontFace)
    vars(face).update(parsed["state"])
    for k in parsed["names"]:
        setattr(face, k, TTFNameBytes(parsed["state"][k]))
    face._ttf_data = raw
    per_unit = 1000 / face.unitsPerEm
    face._pdfScale = (lambda x: x) if face.unitsPerEm == 1000 else (lambda x: x * per_unit)
    # What TTFont.__init__ sets besides the face (tests/test_font_cache.py compares them).
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob)
    return font


def _game_font(role: str, path: Path, raw: bytes) -> GameFont:
    head = raw[:4]
    if head == b"OTTO":
        raise CompanionError("an OpenType font with CFF outlines, which reportlab cannot "
                             "read: use the TTF version of the font", source=str(path))
    if head == b"ttcf":
        raise CompanionError("a font collection (.ttc): give one TTF font", source=str(path))
    if head not in (b"\x00\x01\x00\x00", b"true"):
        raise CompanionError("not a TrueType (.ttf) font file", source=str(path))
    if _mapped(raw) > UNICODE:
        raise CompanionError(f"its character map (cmap) lists over {UNICODE:,} characters, "
                             "more than Unicode has (ranges that overlap or run past it): "
                             "refused", source=str(path))
    digest = hashlib.sha256(raw).hexdigest()[:12]
    name = f"{path.stem}-{digest}"
    _registered(name, raw, str(path))
    return GameFont(role, name, digest)


def using(game_fonts: dict) -> Scoped:
    """Draws with a game's own fonts for their roles, within the block."""
    return Scoped(_game, game_fonts)


def font(role: str) -> str:
    own = _game.get()
    if role in own:
        return own[role].name
    names = register()
    if role not in names:
        raise CompanionError(f"no font role {role!r} (have {', '.join(names)})")
    return names[role]


@cache
def _glyphs(name: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


def missing_glyphs(name: str, text: str) -> list[str]:
    have = _glyphs(name)
    if have.issuperset(map(ord, text)):  # the usual case, at C speed: every string printed
        return []
    return sorted({ch for ch in text if ord(ch) not in have and ch not in "\n\r\t"})


PLACEHOLDER = "\u25a1"  # □, in every bundled font


def printable(text: str) -> str:
    """`text` with each character that a bundled font cannot draw made PLACEHOLDER: a
    player's name in a script or emoji our fonts lack (李, 👨‍👩‍👧) still prints, and
    the page says what the box stands for. (No font that draws every script can ship
    here.) An emoji's joiners, selectors and tags, invisible, go."""
    import unicodedata

    names = register().values()
    out = []
    for ch in text:
        if unicodedata.category(ch) == "Cf" or ch == "\ufe0f":  # joiners, selectors, tags
            continue
        out.append(ch if all(ord(ch) in _glyphs(n) for n in names) else PLACEHOLDER)
    return "".join(out)


def check(name: str, text: str) -> None:
    missing = missing_glyphs(name, text)
    if missing:
        listed = ", ".join(f"{shown(ch)} (U+{ord(ch):04X})" for ch in missing)
        raise CompanionError(f"font {name} has no glyph for {listed} in {shown(text)}",
                             field="text")
