"""The one font loader: bundled TTF files, embedded as subsets, and a glyph check
so that a string the font cannot show fails the build instead of printing empty boxes.

A game's file may name fonts of its own, TTF files beside it, for a role of ours
(regular, bold, narrow, narrow-bold) or a role of its own that its kinds name:

    [fonts]
    title = "fonts/MyHand.ttf"      # font = "title" in an element

A font file is untrusted input: a regular file of at most 15 MB inside the game's folder,
TrueType outlines only (an .otf with CFF outlines, which reportlab cannot read, is refused
saying to use a TTF), read by reportlab from the bytes read once.

What reportlab learns parsing a font (its metrics, its character and glyph tables) is kept
(companion.kept) by the font's digest and reportlab's version: a build reads it back in a
fraction of the parse (DejaVu Sans: 9 ms parsed, 2 read)."""

import hashlib
import io
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

import msgspec

from companion import kept, paths
from companion.errors import CompanionError, shown
from companion.presets import table

LIMIT = 15_000_000  # bytes: a font with every Latin, Greek and Cyrillic glyph is ~1 MB
ROLES = ("regular", "bold", "narrow", "narrow-bold")


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
    """The fonts [fonts] names in a game's data (companion.data.Fields), read, checked and
    registered; by role."""
    from companion import designer_files

    out = {}
    for role, path in designer_files.named_beside(data, "fonts").items():
        if not role or not all(ch.isalnum() or ch in "-_" for ch in role):
            raise data.sub("fonts").error(role, "a font's role is letters, digits, - and _")
        out[role] = _game_font(role, path, designer_files.read_bytes(path, LIMIT, "font"))
    return out


@cache
def _registered(name: str, raw: bytes, source: str) -> None:
    from reportlab.pdfbase import pdfmetrics

    try:
        font = _font(name, raw)
    except Exception as e:  # noqa: BLE001 - reportlab's TTFError and whatever a bad file raises
        raise CompanionError(f"not a TrueType font reportlab can read ({e})",
                             source=source) from None
    pdfmetrics.registerFont(font)


def _font(name: str, raw: bytes, filename: str | None = None):
    """reportlab's TTFont for the font file `raw`, what its parse learns read back from our
    cache when an earlier run kept it. `filename`: the path reportlab records, None for a
    font given as bytes."""
    from reportlab import Version
    from reportlab.pdfbase.ttfonts import TTFont

    key = hashlib.sha256(b"%s\0%s\0%s" % (Version.encode(), os.fsencode(filename or ""),
                                           raw)).hexdigest()[:32]
    parsed = kept.read("fonts", key)
    if parsed is not None:
        try:
            return _font_from(name, raw, parsed)
        except Exception:  # noqa: BLE001 - not what _parsed wrote: parse the font again
            pass
    file = io.BytesIO(raw)
    if filename is not None:
        file.name = filename
    font = TTFont(name, file)
    kept.keep("fonts", key, _parsed(font.face))
    return font


# A face's attributes not kept: the file's bytes (read anyway) and a function of unitsPerEm.
_NOT_KEPT = ("_ttf_data", "_pdfScale")


def _parsed(face) -> dict:
    """What reportlab's parse set on the face, as values marshal keeps (no code runs on
    reading them back): its names, bytes with their text, kept as their UTF-8 bytes."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    state = {k: v for k, v in vars(face).items() if k not in _NOT_KEPT}
    names = [k for k, v in state.items() if isinstance(v, TTFNameBytes)]
    return {"state": {k: bytes(v) if k in names else v for k, v in state.items()},
            "names": names}


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
    digest = hashlib.sha256(raw).hexdigest()[:12]
    name = f"{path.stem}-{digest}"
    _registered(name, raw, str(path))
    return GameFont(role, name, digest)


@contextmanager
def using(game_fonts: dict):
    """Draws with a game's own fonts for their roles, within the block."""
    token = _game.set(game_fonts)
    try:
        yield
    finally:
        _game.reset(token)


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
