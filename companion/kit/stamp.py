"""The prototype stamp: `[game] version = "0.3"` in a game's data prints "v0.3 · DATE" small
in a corner of every card front (inside the safe zone, on a light pill so it reads on any
ground) and on every sheet label, so playtesters never mix printings. The date is today's,
or SOURCE_DATE_EPOCH's for reproducible builds. Where it sits: companion/layouts/presets.toml
[stamp], or the game's own `stamp_corner`."""

import os
from datetime import datetime, timezone

from companion.errors import CompanionError, shown

CORNERS = ("bottom-right", "bottom-left", "bottom-center", "top-right", "top-left", "top-center")


def build_time() -> datetime:
    """Now, or SOURCE_DATE_EPOCH's time (checked here: reportlab reads it too, and would
    crash on a bad one)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    try:
        return (datetime.fromtimestamp(int(epoch), timezone.utc) if epoch
                else datetime.now().astimezone())
    except (ValueError, OverflowError, OSError):
        raise CompanionError(f"{shown(epoch)} is not a Unix time (seconds)",
                             field="SOURCE_DATE_EPOCH") from None


def build_date() -> str:
    """Today, or SOURCE_DATE_EPOCH's day."""
    return f"{build_time():%Y-%m-%d}"


def text(version: str | None) -> str | None:
    return f"v{version} · {build_date()}" if version else None


def stamped(draw, words: str, corner: str, inset: float, size: float):
    """A face's draw function that also prints the stamp."""
    from companion.draw import text as typeset

    if corner not in CORNERS:
        raise CompanionError(f"unknown corner {shown(corner)} (use {', '.join(CORNERS)})",
                             field="stamp_corner")

    def draw_stamped(c, w, h, bleed):
        draw(c, w, h, bleed)
        tw = typeset.width(words, "regular", size)
        x = {"right": w - inset - tw, "left": inset, "center": (w - tw) / 2}[corner.split("-")[1]]
        y = inset + 0.24 * size if corner.startswith("bottom") else h - inset - 0.76 * size
        c.saveState()
        c.setFillColorRGB(1, 1, 1)
        pad = size * 0.35
        c.roundRect(x - pad, y - 0.24 * size - pad, tw + 2 * pad, size + 2 * pad, pad,
                    stroke=0, fill=1)
        c.setFillColorRGB(0.2, 0.2, 0.2)
        typeset.line(c, words, x, y, "regular", size, field="stamp")
        c.restoreState()
    return draw_stamped
