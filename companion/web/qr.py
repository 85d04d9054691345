"""The table link as a QR code: in the terminal, and on a printable card (--qr-pdf).
Both use the same qrcode matrix: dark modules on light, with the standard 4-module quiet
zone, error correction M (survives a crease or a glass ring)."""

import os
from pathlib import Path
from typing import TextIO

import qrcode

QUIET = 4


def matrix(link: str) -> list[list[bool]]:
    """The QR modules of `link` with the quiet zone, True = dark."""
    q = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET)
    q.add_data(link)
    q.make(fit=True)
    return q.get_matrix()


def print_terminal(link: str, out: TextIO, environ: dict | None = None) -> None:
    """The code as text. Colours, where the terminal takes them, keep it dark on light
    whatever its theme; without (not a terminal, TERM=dumb, NO_COLOR) the glyphs draw the
    light modules, which is dark on light on a dark theme. Half blocks hold two modules a
    cell; an output that cannot encode them (a Windows code page, ASCII) gets "##"."""
    env = os.environ if environ is None else environ
    colour = (out.isatty() and env.get("TERM") != "dumb" and not env.get("NO_COLOR")
              # a Windows console shows escape codes raw unless it is a modern terminal
              and (os.name != "nt" or "WT_SESSION" in env or "TERM" in env))
    rows = matrix(link)
    if _encodes(out, "█▀▄"):
        if len(rows) % 2:
            rows.append([False] * len(rows[0]))
        lines = ["".join(_cell(t, b) for t, b in zip(top, bottom))
                 for top, bottom in zip(rows[::2], rows[1::2])]
        lines = [f"\x1b[97;40m{line}\x1b[0m" for line in lines] if colour else lines
    elif colour:  # light and dark backgrounds, one module two spaces wide
        lines = ["".join("\x1b[40m  " if dark else "\x1b[107m  " for dark in row) + "\x1b[0m"
                 for row in rows]
    else:
        lines = ["".join("  " if dark else "##" for dark in row) for row in rows]
    for line in lines:
        out.write(line + "\n")
    out.flush()


def _cell(top: bool, bottom: bool) -> str:
    # The glyph draws the light modules (foreground), the background shows the dark ones.
    return {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}[
        (top, bottom)]


def _encodes(out: TextIO, text: str) -> bool:
    encoding = getattr(out, "encoding", None)
    if not encoding:  # a text buffer (io.StringIO) holds any character
        return True
    try:
        text.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def write_card(path: Path, link: str, words: dict[str, str], credits: list[str],
               paper: tuple[float, float]) -> None:
    """A page to lay on the table: the QR code, the link and how to join, and at the foot
    the credits of every game the table plays."""
    from reportlab.lib.colors import HexColor, white
    from reportlab.lib.units import mm

    from companion.files.atomic import replaced
    from companion.draw import text
    from companion.press.pdf import open_canvas

    w, h = paper
    ink = HexColor("#111111")
    with replaced(Path(path)) as tmp:
        c = open_canvas(tmp, paper, words["card_title"], " ".join(credits))
        rows = matrix(link)
        side = 110 * mm
        cell = side / len(rows)
        x0, y0 = (w - side) / 2, h - 40 * mm - side
        c.setFillColor(white)
        c.rect(x0, y0, side, side, stroke=0, fill=1)
        c.setFillColor(ink)
        for r, row in enumerate(rows):
            for col, dark in enumerate(row):
                if dark:
                    c.rect(x0 + col * cell, y0 + side - (r + 1) * cell, cell, cell,
                           stroke=0, fill=1)
        text.line(c, words["card_title"], w / 2, h - 28 * mm, "bold", 22, "center",
                  max_w=w - 30 * mm)
        text.line(c, link, w / 2, y0 - 12 * mm, "regular", 13, "center", max_w=w - 30 * mm)
        text.block(c, words["card_how"], 30 * mm, y0 - 22 * mm, w - 60 * mm, 40 * mm,
                   "regular", 12, "center")
        for i, line in enumerate(reversed(credits)):
            text.line(c, line, w / 2, 12 * mm + i * 4 * mm, "regular", 7.5, "center",
                      max_w=w - 30 * mm)
        c.showPage()
        c.save()
