"""The designer's pictures on cards. Every card kind has an art box in its layout data
(`art = { x, y, w, h }`, fractions of the card, y from the top, like every layout value);
any entry that makes cards may say `art = "PATH"` (relative to its data file, and naming
the card's own fields in braces: "art/{clan}-{value}{deck}.jpg"), `art_fit` ("cover",
the default: fill the box and crop, at `art_anchor`; "contain": the whole picture,
letterboxed; "stretch") and `art_anchor` ("c", "n", "ne", "e", "se", "s", "sw", "w", "nw").
A box covering the whole card runs into the bleed and lies under everything else; its
picture is made for a 1/8 in bleed (presets.toml, art_bleed) whatever bleed a build has.

A picture printed under 300 dpi is reported once; a missing one fails the build naming
the card and the path, or with --draft prints a labelled placeholder and is listed."""

import os
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from companion.errors import CompanionError, shown

KEYS = ("art", "art_fit", "art_anchor")  # what any entry that makes cards may take
FITS = ("cover", "contain", "stretch")
ANCHORS = {"c": (0.5, 0.5), "n": (0.5, 1), "ne": (1, 1), "e": (1, 0.5), "se": (1, 0),
           "s": (0.5, 0), "sw": (0, 0), "w": (0, 0.5), "nw": (0, 1)}
GOOD_DPI = 300
MM = 72 / 25.4


@dataclass(frozen=True)
class Spec:
    """What a card entry asks for: a path (its fields already filled in), a fit, an anchor."""
    path: Path
    fit: str = "cover"
    anchor: str = "c"
    card: str = ""  # the card's name, for messages
    outside: bool = False  # the path leads out of the data file's folder


@dataclass(frozen=True)
class Box:
    x: float  # fractions of the card: left edge, top edge from the top, width, height
    y: float
    w: float
    h: float

    def whole_card(self) -> bool:
        return self.x <= 0 and self.y <= 0 and self.x + self.w >= 1 and self.y + self.h >= 1


@dataclass
class Log:
    """What a build learns about its pictures: low-resolution ones, missing ones (draft)."""
    draft: bool = False
    low: dict = field(default_factory=dict)  # (file, box mm) -> dpi
    missing: dict = field(default_factory=dict)  # path -> first card that wants it
    reasons: dict = field(default_factory=dict)  # path -> why it cannot be read
    outside: dict = field(default_factory=dict)  # path -> first card that wants it

    def warnings(self) -> list[str]:
        return [f"{file}: {dpi:.0f} dpi in a {w:.1f} × {h:.1f} mm box (print wants "
                f"{GOOD_DPI} dpi)" for (file, w, h), dpi in self.low.items()] \
            + ([self.outside_line()] if self.outside else [])

    def outside_line(self) -> str:
        """Said once a build: a copy of the data folder, shared with another designer,
        would lack these pictures (--strict refuses them)."""
        (path, card), *others = self.outside.items()
        more = f" (and {len(others)} more)" if others else ""
        return (f"{path}: outside the data file's folder{more}, first wanted by {card}: a "
                "copy of the folder would print without it (--strict refuses it)")


_log: ContextVar[Log | None] = ContextVar("art_log", default=None)


@contextmanager
def logging(draft: bool = False):
    log = Log(draft=draft)
    token = _log.set(log)
    try:
        yield log
    finally:
        _log.reset(token)


def missing_error(log: Log) -> CompanionError:
    """One line for every picture a build could not read: the first named with its card,
    the others counted and listed (the build without --draft stops on them)."""
    (path, first), *others = log.missing.items()
    card, why = first.rsplit(", ", 1)
    words = log.reasons.get(path) or ("no such picture" if why == "missing"
                                      else "not a picture pillow can read")
    more = ""
    if others:
        names = ", ".join(Path(p).name for p, _ in others[:5]) + (", ..." if len(others) > 5
                                                                  else "")
        more = (f" (and {len(others)} more missing or unreadable: {names}; --draft prints "
                "each as a placeholder)")
    return CompanionError(f"{card}: {words}{more}", source=path)


# ---- reading the data ------------------------------------------------------------------

def spec(entry, card_fields: dict, base: Path, card: str, key: str = "art") -> Spec | None:
    """The art an entry (a companion.data.Fields) asks for on one card, or None."""
    template = entry.get(key, str, None)
    if template is None:
        return None
    try:
        path = expand(template, card_fields)
    except TemplateError as e:
        raise entry.error(key, f"{e}, on card {card}") from None
    fit = entry.get(f"{key}_fit", str, "cover")
    if fit not in FITS:
        raise entry.error(f"{key}_fit", f"{shown(fit)} is not one of {', '.join(FITS)}")
    anchor = entry.get(f"{key}_anchor", str, "c")
    if anchor not in ANCHORS:
        raise entry.error(f"{key}_anchor", f"{shown(anchor)} is not one of "
                                           f"{', '.join(ANCHORS)}")
    p = Path(path)
    full = p if p.is_absolute() else base / p
    return Spec(full, fit, anchor, card, outside=not _inside(full, base))


def _inside(path: Path, folder: Path) -> bool:
    """Whether `path` stays in `folder` once "..", and links, are followed."""
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except (ValueError, OSError, RuntimeError):
        return False


# ---- path templates: "art/{clan}-{value:02}.jpg" -----------------------------------------
# Only {field} and {field:format} are read, never Python's whole format language: no
# attribute or item access ({clan.upper}, {value[0]}), no conversion ({clan!r}), no field
# inside a format, and a width or precision of at most MAX_WIDTH (a path is a file name:
# {clan:>1000000000} would build a gigabyte of spaces).

MAX_WIDTH = 255  # characters: no file system takes a longer file name
_FORMAT = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?"
                     r"(?P<zero>0)?(?P<width>[0-9]+)?(?P<group>[,_])?"
                     r"(?:\.(?P<precision>[0-9]+))?(?P<type>[bcdeEfFgGnosxX%])?", re.S)
_NUMBER_TYPES = "bcdeEfFgGnoxX%"
_INTEGER_TYPES = "bcdoxXn"


class TemplateError(ValueError):
    """What is wrong with a path template, in words ("{clan:d}: format d needs a number,
    and clan is text")."""


def expand(template: str, card_fields: dict) -> str:
    """`template` with each {field} or {field:format} replaced by the card's value."""
    if "\x00" in template:
        raise TemplateError(f"{shown(template)} holds a NUL character: no file is named so")
    out = []
    for literal, piece, name, form in _pieces(template):
        out.append(literal)
        if piece is None:
            continue
        out.append(_field(piece, name, form, card_fields))
    return "".join(out)


@lru_cache(maxsize=512)
def _pieces(template: str) -> tuple[tuple[str, str | None, str, str | None], ...]:
    """(text before, "{field:format}" as written, field, format or None) in order; the
    text after the last field comes with piece None. {{ and }} are braces."""
    pieces, literal, i, n = [], [], 0, len(template)
    while i < n:
        ch = template[i]
        if ch in "{}" and template.startswith(ch * 2, i):
            literal.append(ch)
            i += 2
        elif ch == "}":
            raise TemplateError(f"{shown(template)} has unpaired braces: a }} with no {{ "
                                "before it (write }} for a brace)")
        elif ch == "{":
            close = template.find("}", i + 1)
            if close < 0:
                raise TemplateError(f"{shown(template)} has unpaired braces: a {{ with no }} "
                                    "after it (write {{ for a brace)")
            piece = template[i:close + 1]
            if "{" in piece[1:]:
                raise TemplateError(f"{_short(piece)}: a brace inside a field (a format "
                                    "cannot name another field)")
            name, colon, form = piece[1:-1].partition(":")
            pieces.append(("".join(literal), piece, name, form if colon else None))
            literal = []
            i = close + 1
        else:
            literal.append(ch)
            i += 1
    pieces.append(("".join(literal), None, "", None))
    return tuple(pieces)


def _field(piece: str, name: str, form: str | None, card_fields: dict) -> str:
    fields = ", ".join("{" + k + "}" for k in card_fields)
    if name not in card_fields:
        own = re.split(r"[.\[!]", name, maxsplit=1)[0]
        if own in card_fields and own != name:
            what = ("a conversion (!r, !s, !a)" if name[len(own)] == "!" else
                    "an attribute or an item of a field" if name[len(own)] == "." else
                    "an item of a field")
            raise TemplateError(f"{_short(piece)}: {what} cannot be named, only the field itself "
                                f"({{{own}}})")
        raise TemplateError(f"names {{{name}}}, not a field of this card (use {fields})")
    value, piece = card_fields[name], _short(piece)
    if form is None or form == "":
        try:
            text = value if isinstance(value, str) else format(value)
        except (ValueError, TypeError, OverflowError) as e:  # an integer of 5,000 digits
            raise TemplateError(f"{piece}: cannot write {name} in a path ({e})") from None
    else:
        text = _formatted(piece, name, form, value)
    if "\x00" in text:
        raise TemplateError(f"{piece}: {name} is {shown(text)}, with a NUL character: no file "
                            "is named so")
    return text


def _formatted(piece: str, name: str, form: str, value) -> str:
    m = _FORMAT.fullmatch(form)
    if m is None:
        raise TemplateError(f"{piece}: {shown(form)} is not a format (such as 03, >8 or .2f)")
    for what in ("width", "precision"):
        digits = m[what]
        if digits and (len(digits) > 3 or int(digits) > MAX_WIDTH):
            raise TemplateError(f"{piece}: a {what} of {digits[:12]}"
                                f"{'...' if len(digits) > 12 else ''}: over the {MAX_WIDTH} "
                                "characters a file name may have")
    if m["fill"] in ("/", "\\"):
        raise TemplateError(f"{piece}: a fill of {m['fill']} would make folders of the path")
    kind = m["type"] or ""
    is_text = isinstance(value, str)
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    what = "text" if is_text else "a number" if is_number else type(value).__name__
    if is_text and kind and kind in _NUMBER_TYPES:
        raise TemplateError(f"{piece}: format {kind} needs a number, and {name} is text "
                            f"({_shown(value)})")
    flag = ("a sign" if m["sign"] else "z" if m["z"] else "#" if m["alt"] else
            f"{m['group']} grouping" if m["group"] else
            "= alignment" if m["align"] == "=" else None)
    if is_text and flag:
        raise TemplateError(f"{piece}: {flag} needs a number, and {name} is text "
                            f"({_shown(value)})")
    if is_number and kind == "s":
        raise TemplateError(f"{piece}: format s needs text, and {name} is a number "
                            f"({_shown(value)})")
    if is_number and isinstance(value, int) and m["precision"] and (
            not kind or kind in _INTEGER_TYPES):
        raise TemplateError(f"{piece}: a precision needs a format such as f, e or %, and "
                            f"{name} is a whole number ({_shown(value)})")
    try:
        return format(value, form)
    except (ValueError, TypeError, OverflowError) as e:
        raise TemplateError(f"{piece}: cannot format {name} ({what}) so: {e}") from None


def _short(piece: str) -> str:
    return piece if len(piece) <= 40 else piece[:30] + "...}"


def _shown(value) -> str:
    try:
        return shown(value)
    except ValueError:  # an integer too long to write out
        return "a number of thousands of digits"


def box(layout, key: str = "art") -> Box:
    """A layout table's art box: { x, y, w, h } as fractions of the card."""
    b = layout.sub(key)
    values = {k: float(b.get(k, (int, float))) for k in ("x", "y", "w", "h")}
    if values["w"] <= 0 or values["h"] <= 0:
        raise b.error("w", "the art box needs a width and a height")
    return Box(**values)


# ---- drawing ---------------------------------------------------------------------------

def draw(c, w: float, h: float, bleed: float, where: Box, art: Spec | None) -> bool:
    """Draws the card's picture in its box; False when there is none (the card is drawn as
    without art). `w`, `h`: the card's trim, with (0, 0) at its lower-left."""
    if art is None:
        return False
    from companion import images
    from companion.draw import picture

    x, y, bw, bh = _rect(where, w, h, bleed)  # what shows
    px, py, pw, ph = _rect(where, w, h, max(bleed, _art_bleed()))  # what the picture fills
    log = _log.get()
    if art.outside and log is not None:
        log.outside.setdefault(str(art.path), art.card)
    try:
        pic = images.picture(art.path)
    except CompanionError as e:
        if log is not None and log.draft:  # missing, or a file that is no picture
            why = "missing" if not os.path.lexists(art.path) else "unreadable"
            log.missing.setdefault(str(art.path), f"{art.card}, {why}")
            log.reasons.setdefault(str(art.path), e.message)
            _placeholder(c, x, y, bw, bh, art, why)
            return True
        raise CompanionError(f"{art.card}: {e.message}", source=e.source) from None
    _check_dpi(pic, art, pw, ph)
    ix, iy, iw, ih = placement(art.fit, art.anchor, (px, py, pw, ph), pic.width, pic.height)
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, bw, bh)
    c.clipPath(p, stroke=0, fill=0)
    picture.draw(c, pic, ix, iy, iw, ih)
    c.restoreState()
    return True


def _art_bleed() -> float:
    from companion import presets

    return presets.sheet_settings().art_bleed


def _rect(b: Box, w: float, h: float, bleed: float):
    """A box in points; a whole-card box runs `bleed` past the trim. A whole-card picture
    fills the card plus the bleed it is made for (presets.toml's art_bleed, or the build's
    if larger), so its trim lines up with the card's whatever --bleed says; the build's own
    bleed is what shows."""
    if b.whole_card():
        return -bleed, -bleed, w + 2 * bleed, h + 2 * bleed
    return b.x * w, h - (b.y + b.h) * h, b.w * w, b.h * h


def placement(fit: str, anchor: str, rect, px_w: int, px_h: int):
    """Where the picture goes (x, y, w, h) for a box rect = (x, y, w, h): arithmetic only."""
    x, y, bw, bh = rect
    if fit == "stretch":
        return x, y, bw, bh
    k = (max if fit == "cover" else min)(bw / px_w, bh / px_h)
    iw, ih = px_w * k, px_h * k
    ax, ay = ANCHORS[anchor]
    return x + (bw - iw) * ax, y + (bh - ih) * ay, iw, ih


def effective_dpi(fit: str, rect_w: float, rect_h: float, px_w: int, px_h: int) -> float:
    """Picture pixels per printed inch, the lesser of the two directions."""
    if fit == "stretch":
        return min(px_w / (rect_w / 72), px_h / (rect_h / 72))
    k = (max if fit == "cover" else min)(rect_w / px_w, rect_h / px_h)  # points per pixel
    return 72 / k


def _check_dpi(pic, art: Spec, bw: float, bh: float) -> None:
    log = _log.get()
    dpi = effective_dpi(art.fit, bw, bh, pic.width, pic.height)
    if log is not None and dpi < GOOD_DPI - 0.5:
        log.low.setdefault((str(pic.source), bw / MM, bh / MM), dpi)


def _placeholder(c, x, y, bw, bh, art: Spec, why: str) -> None:
    """--draft: a hatched box that says which picture is missing (or unreadable)."""
    from companion.draw import text

    c.saveState()
    c.setFillColorRGB(0.93, 0.93, 0.93)
    c.setStrokeColorRGB(0.55, 0.55, 0.55)
    c.setLineWidth(0.6)
    c.rect(x, y, bw, bh, stroke=1, fill=1)
    c.line(x, y, x + bw, y + bh)
    c.line(x, y + bh, x + bw, y)
    c.setFillColorRGB(0.15, 0.15, 0.15)
    text.block(c, f"{why}: {art.path.name}", x + bw * 0.08, y + bh * 0.62, bw * 0.84,
               bh * 0.3, "narrow", min(9.0, bh * 0.12), align="center", field="art")
    c.restoreState()
