"""Colours as written in data files (hex), and tints of them."""

from reportlab.lib.colors import Color, HexColor

from companion.errors import CompanionError


def parse(value: str, field: str | None = None, source: str | None = None) -> Color:
    try:
        return HexColor(value)
    except (ValueError, TypeError):
        raise CompanionError(f"{value!r} is not a colour like '#C0392B'",
                             source=source, field=field) from None


def mix(a: Color, b: Color, t: float) -> Color:
    """t=0 gives a, t=1 gives b."""
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)
