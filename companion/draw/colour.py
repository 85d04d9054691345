"""Colours as written in data files (hex), and tints of them."""

from reportlab.lib.colors import Color, HexColor

from companion.data import Fields
from companion.errors import shown


def field(table: Fields, key: str) -> Color:
    """The colour in `key` of a data table; an error names the file and the field."""
    value = table.get(key, str)
    try:
        return HexColor(value)
    except (ValueError, TypeError):
        raise table.error(key, f"{shown(value)} is not a colour like '#C0392B'") from None


def mix(a: Color, b: Color, t: float) -> Color:
    """t=0 gives a, t=1 gives b."""
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)
