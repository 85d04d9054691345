"""The one font loader: bundled TTF files, embedded as subsets, and a glyph check
so that a string the font cannot show fails the build instead of printing empty boxes."""

from functools import cache

from companion import paths
from companion.errors import CompanionError, shown
from companion.presets import table


@cache
def register() -> dict[str, str]:
    """Register every font role with reportlab once; returns role -> font name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    roles = table().sub("fonts")
    names = {}
    for role in roles.table:
        file = roles.get(role, str)
        path = paths.FONTS / file
        if not path.is_file():
            raise CompanionError("font file missing", source=str(path), field=f"fonts.{role}")
        name = path.stem
        pdfmetrics.registerFont(TTFont(name, str(path)))
        names[role] = name
    return names


def font(role: str) -> str:
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
