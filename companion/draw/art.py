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
from contextvars import ContextVar
from pathlib import Path

import msgspec

from companion.scoped import Scoped
from companion.files import designer_files
from companion.errors import CompanionError, shown
# what any entry that makes cards may take
from companion.files.picture_keys import KEYS  # noqa: F401
from companion.text.templates import TemplateError, expand

FITS = ("cover", "contain", "stretch")
ANCHORS = {"c": (0.5, 0.5), "n": (0.5, 1), "ne": (1, 1), "e": (1, 0.5), "se": (1, 0),
           "s": (0.5, 0), "sw": (0, 0), "w": (0, 0.5), "nw": (0, 1)}
GOOD_DPI = 300
MM = 72 / 25.4


class Spec(msgspec.Struct, frozen=True):
    """What a card entry asks for: a path (its fields already filled in), a fit, an anchor."""
    path: Path
    fit: str = "cover"
    anchor: str = "c"
    card: str = ""  # the card's name, for messages
    outside: bool = False  # the path leads out of the data file's folder
    jpeg: bool = False  # kept as a JPEG even if the file is lossless (images.picture)


class Box(msgspec.Struct, frozen=True):
    x: float  # fractions of the card: left edge, top edge from the top, width, height
    y: float
    w: float
    h: float

    def whole_card(self) -> bool:
        return self.x <= 0 and self.y <= 0 and self.x + self.w >= 1 and self.y + self.h >= 1


class Log(msgspec.Struct):
    """What a build learns about its pictures: low-resolution ones, missing ones (draft)."""
    draft: bool = False
    # file -> (dpi, box w, h mm, first card): its lowest
    low: dict = msgspec.field(default_factory=dict)
    missing: dict = msgspec.field(default_factory=dict)  # path -> first card that wants it
    reasons: dict = msgspec.field(default_factory=dict)  # path -> why it cannot be read
    outside: dict = msgspec.field(default_factory=dict)  # path -> first card that wants it
    # while a drawing is kept (companion.kit.drawings): every note made, to make again
    # when it is put back
    heard: list | None = None
    read: dict = msgspec.field(default_factory=dict)  # (path, jpeg) -> its picture, this build

    def note(self, name: str, key: str, value) -> None:
        """One fact a drawing learnt about a picture, into `low` (where it prints smallest,
        named by the first card printing it), `missing`, `reasons` or `outside` (the
        first card's)."""
        if self.heard is not None:
            self.heard.append((name, key, value))
        d = getattr(self, name)
        if name != "low":
            d.setdefault(key, value)
            return
        seen = d.get(key)
        if seen is None or value[0] < seen[0]:
            d[key] = (*value[:3], seen[3] if seen else value[3])

    def again(self, notes: list, card: str) -> None:
        """`notes` (as `heard` kept them) made again by the card `card`, printing the same
        picture in the same box."""
        for name, key, value in notes:
            if name == "low":
                value = (*value[:3], card)
            elif name == "outside":
                value = card
            elif name == "missing":
                value = f"{card}, {value.rsplit(', ', 1)[1]}"
            self.note(name, key, value)

    def warnings(self) -> list[str]:
        return [f"{file}: {card}: {dpi:.0f} dpi in a {w:.1f} × {h:.1f} mm box (print wants "
                f"{GOOD_DPI} dpi)" for file, (dpi, w, h, card) in self.low.items()] \
            + ([self.outside_line()] if self.outside else [])

    def outside_line(self) -> str:
        """Said once a build: a copy of the data folder, shared with another designer,
        would lack these pictures (--strict refuses them)."""
        (path, card), *others = self.outside.items()
        more = f" (and {len(others)} more)" if others else ""
        return (f"{path}: outside the data file's folder{more}, first wanted by {card}: a "
                "copy of the folder would print without it (--strict refuses it)")


_log: ContextVar[Log | None] = ContextVar("art_log", default=None)


def log() -> Log | None:
    """The build's log of pictures, or None."""
    return _log.get()


def logging(draft: bool = False) -> Scoped:
    return Scoped(_log, Log(draft=draft))


def draft_line(log: Log) -> str:
    """--draft's one warning: the pictures printed as placeholders, each with its card."""
    n = len(log.missing)
    return (f"--draft: {n} picture{'s' if n > 1 else ''} missing or unreadable, printed as "
            "placeholders: " + ", ".join(f"{path} ({card})" for path, card in log.missing.items()))


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
    """The art an entry (a companion.files.data.Fields) asks for on one card, or None."""
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
    return Spec(full, fit, anchor, card, outside=not designer_files.inside(full, base))


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
    from companion.draw import picture

    x, y, bw, bh = _rect(where, w, h, bleed)  # what shows
    px, py, pw, ph = _rect(where, w, h, max(bleed, _art_bleed()))  # what the picture fills
    pic = noted(art)
    if pic is None:  # --draft, and missing or no picture
        why = "missing" if not os.path.lexists(art.path) else "unreadable"
        _placeholder(c, x, y, bw, bh, art, why)
        return True
    _check_dpi(pic, art, pw, ph)
    ix, iy, iw, ih = placement(art.fit, art.anchor, (px, py, pw, ph), pic.width, pic.height)
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, bw, bh)
    c.clipPath(p, stroke=0, fill=0)
    picture.draw(c, pic, ix, iy, iw, ih)
    c.restoreState()
    return True


def noted(art: Spec):
    """The picture a card asks for, read (companion.files.images), and what the build's log
    must know of it: outside the data folder; missing or unreadable, which with --draft
    is noted and gives None (the card prints a placeholder), else fails naming the card."""
    from companion.files import images

    log = _log.get()
    if art.outside and log is not None:
        log.note("outside", str(art.path), art.card)
    if log is not None and (art.path, art.jpeg) in log.read:  # a thousand cards, a dozen pictures
        return log.read[art.path, art.jpeg]
    try:
        pic = images.picture(art.path, art.jpeg)
        if log is not None:
            log.read[art.path, art.jpeg] = pic
        return pic
    except CompanionError as e:
        if log is not None and log.draft:
            why = "missing" if not os.path.lexists(art.path) else "unreadable"
            log.note("missing", str(art.path), f"{art.card}, {why}")
            log.note("reasons", str(art.path), e.message)
            return None
        raise CompanionError(f"{art.card}: {e.message}", source=e.source) from None


def _art_bleed() -> float:
    from companion.press import presets

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
    if log is not None and dpi < GOOD_DPI - 0.5:  # said once a picture
        log.note("low", str(pic.source), (dpi, bw / MM, bh / MM, art.card))


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
