"""Colours as written in data files (hex), and tints of them."""

import re
from functools import lru_cache

from reportlab.lib.colors import Color, HexColor

from companion.files.data import Fields
from companion.errors import shown


def field(table: Fields, key: str) -> Color:
    """The colour in `key` of a data table; an error names the file and the field."""
    value = table.get(key, str)
    colour = parse(value)
    if colour is None:
        raise table.error(key, f"{shown(value)} is not a colour like '#C0392B'")
    return colour


def palette(game: Fields) -> dict[str, Color]:
    """The game's colours by name: each [game] value that is a colour. One written as a
    colour but not one ("#1D6F8", a digit short) is an error where it was written, not at
    each element that names it."""
    out = {}
    for key, value in game.table.items():
        if not isinstance(value, str):
            continue
        found = parse(value)
        if found is not None:
            out[key] = found
        elif value.strip().startswith("#"):
            raise game.error(key, f"{shown(value)} is not a colour like '#C0392B' (# and 3 "
                                  "or 6 hexadecimal digits)")
    return out


_HEX = re.compile(r"#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")


@lru_cache(maxsize=1024)
def parse(value: str) -> Color | None:
    """'#RRGGBB' or its short form '#RGB' (as in CSS); anything else is None. reportlab's
    own parser reads any hex number: '#FFF' as a blue, '#12345' as a colour. Read once
    a text (a kit names its few colours on thousands of elements): never change it."""
    m = _HEX.fullmatch(value.strip())
    if m is None:
        return None
    digits = m.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return HexColor("#" + digits)


def mix(a: Color, b: Color, t: float) -> Color:
    """t=0 gives a, t=1 gives b."""
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)
