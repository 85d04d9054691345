"""The small designer's game the edit-sequence test edits (tests/test_edit_sequences.py):
a deck of a few rows, her own font family, a picture with transparency as art and as an
image element, a gradient title band, opacity, rotate, `when`, her own icons, a version
stamp, a player aid in two languages. Every value a designer edits is a field of `Game`;
`write` writes the whole folder from it (the game file, cards.csv, the picture, the
fonts, the icons), each file only if its text or bytes changed."""

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

from PIL import Image

from companion.fontfiles import __file__ as _fontfiles

FONTS = Path(_fontfiles).parent

# A card's columns, as cards.csv names them.
COLUMNS = ["kind", "title", "text", "qty", "points", "icon", "art"]


def _row(kind, title, text, qty, points, icon, art) -> dict:
    return dict(zip(COLUMNS, (kind, title, text, qty, points, icon, art)))


@dataclass
class Game:
    rows: list = field(default_factory=lambda: [
        _row("creature", "Hermit Crab", "Moves house when it grows.", "2", "2", "shell",
             "pics/p.png"),
        _row("creature", "Sea Star", "Regrows what it loses.", "1", "3", "wave", ""),
        _row("creature", "Anemone", "Stings what touches it.", "1", "4", "wave",
             "pics/p.png"),
        _row("tide", "Storm", "Each player discards a creature.", "1", "", "", ""),
    ])
    band_start: str = "accent"  # the title band's gradient
    band_end: str = "night"
    band_angle: int = 30
    band_opacity: float = 0.9
    image_opacity: float = 0.25  # the image element
    rotate: int = 0
    when: str = "points > 2"  # on a disc at the foot
    version: str = ""
    icon_colour: str = "paper"  # the band's icon (a symbol element)
    ribs: str = "#FFFFFF"  # inside the shell icon's own file
    font: str = "DejaVuSansCondensed.ttf"  # the files behind f.ttf and fb.ttf
    bold: str = "DejaVuSansCondensed-Bold.ttf"
    picture: tuple = ((30, 120, 90), 255)  # its colour and its opacity (alpha)


GAME = Template('''cards = { spreadsheet = "cards.csv" }

[game]
id = "tide"
name = "tide"
paper = "#F7F3EA"
ink = "#1F2A33"
accent = "#1D6F8C"
night = "#16323D"
sand = "#E8D9B5"
$version

[fonts]
title = { regular = "f.ttf", bold = "fb.ttf" }

[titles]
cards = { en = "Cards", fr = "Cartes" }
aids = { en = "Player aids", fr = "Aides de jeu" }

[icons]
shell = "icons/shell.svg"
wave = "icons/wave.svg"

[aid]
copies = 2
title = { en = "Tidepool", fr = "Tidepool" }
lines = [
  { en = "Draw a card: keep a creature or play a tide.", fr = "Piochez : gardez une créature ou jouez une marée." },
  { en = "Highest total wins.", fr = "Le plus grand total l’emporte." },
]

[components.cards]
kind = "{kind}"
cards = "cards"
id = "title"
back = "common"

[components.aids]
kind = "aid"
cards = "aid"
qty = "copies"
id_else = "aid"
back = "common"

[backs.common]
kind = "back"

[layout.creature]
art = { x = 0.08, y = 0.17, w = 0.84, h = 0.42 }

[kinds.creature]

[[kinds.creature.elements]]
type = "background"
fill = "paper"

[[kinds.creature.elements]]
type = "rect"
x = 0.08
y = 0.17
w = 0.84
h = 0.42
radius = 0.02
fill = "mix(paper, accent, 0.12)"

[[kinds.creature.elements]]
type = "picture"
role = "window"

[[kinds.creature.elements]]
type = "rect"
y = 0.04
h = 0.11
fill = "accent"
gradient = { start = "$band_start", end = "$band_end", angle = $band_angle }
opacity = $band_opacity

[[kinds.creature.elements]]
type = "text"
text = "{title}"
x = 0.08
y = 0.125
size = 0.075
font = "bold"
align = "left"
colour = "paper"
max_w = 0.7

[[kinds.creature.elements]]
type = "symbol"
name = "{icon}"
x = 0.87
y = 0.095
r = 0.07
colour = "$icon_colour"

[[kinds.creature.elements]]
type = "textblock"
text = "{text}"
x = 0.1
y = 0.63
w = 0.5
h = 0.22
size = 0.062

[[kinds.creature.elements]]
type = "image"
file = "pics/p.png"
x = 0.62
y = 0.66
w = 0.3
h = 0.2
opacity = $image_opacity
rotate = $rotate

[[kinds.creature.elements]]
type = "text"
text = "**{points}** copy {copy}/{copies}"
x = 0.5
y = 0.95
size = 0.05
font = "title"
opacity = 0.7

[[kinds.creature.elements]]
type = "circle"
x = 0.12
y = 0.9
r = 0.05
fill = "sand"
$when

[kinds.tide]

[[kinds.tide.elements]]
type = "background"
fill = "night"
gradient = { start = "night", end = "$band_end", angle = $band_angle }

[[kinds.tide.elements]]
type = "text"
text = "{title}"
y = 0.16
size = 0.09
font = "title"
colour = "paper"
max_w = 0.84

[[kinds.tide.elements]]
type = "textblock"
text = "{text}"
x = 0.1
y = 0.66
w = 0.8
h = 0.24
size = 0.065
colour = "paper"

[kinds.back]

[[kinds.back.elements]]
type = "background"
fill = "accent"

[[kinds.back.elements]]
type = "symbol"
name = "shell"
x = 0.5
y = 0.44
r = 0.22
colour = "paper"

[kinds.aid]

[[kinds.aid.elements]]
type = "background"
fill = "paper"

[[kinds.aid.elements]]
type = "text"
text = "{title}"
y = 0.12
size = 0.085
font = "bold"
colour = "accent"

[[kinds.aid.elements]]
type = "bullets"
lines = "{lines}"
x = 0.08
y = 0.18
w = 0.84
h = 0.76
size = 0.06
mark = "accent"
''')

SHELL = Template('''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <path fill="currentColor" d="M50 92 L38 80 Q8 70 10 40 Q14 10 50 8 Q86 10 90 40 Q92 70 62 80 Z"/>
  <g fill="none" stroke="$ribs" stroke-width="4" stroke-linecap="round">
    <path d="M50 84 L50 16"/><path d="M50 84 L30 20"/><path d="M50 84 L70 20"/>
  </g>
</svg>
''')

WAVE = '''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <path fill="currentColor" d="M5 60 Q25 35 45 60 T85 60 L95 90 L5 90 Z"/>
</svg>
'''


def game_file(g: Game) -> str:
    return GAME.substitute(
        band_start=g.band_start, band_end=g.band_end, band_angle=g.band_angle,
        band_opacity=g.band_opacity, image_opacity=g.image_opacity, rotate=g.rotate,
        icon_colour=g.icon_colour,
        version=f'version = "{g.version}"' if g.version else "",
        when=f"when = '{g.when}'" if g.when else "")  # a literal: the condition's quotes


def cards_csv(g: Game) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(g.rows)
    return out.getvalue()


def picture_bytes(g: Game) -> bytes:
    """A picture with transparency: its colour at its alpha, a diagonal opaque (so a
    picture turned or cropped shows) and a transparent corner."""
    (r, gr, b), alpha = g.picture
    im = Image.new("RGBA", (40, 30), (r, gr, b, alpha))
    for x in range(20):
        im.putpixel((x, x * 30 // 40), (255 - r, 20, 200, 255))
    for x in range(30, 40):
        for y in range(0, 8):
            im.putpixel((x, y), (0, 0, 0, 0))
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def _put(path: Path, data: bytes) -> bool:
    """Writes `data` to `path` if it holds other bytes: whether it wrote."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)  # as an editor saves: the new file whole, never half of it
    return True


def write(folder: Path, g: Game) -> list[str]:
    """The game's folder as `g` says: the names of the files it changed."""
    files = {
        "tide.toml": game_file(g).encode("utf-8"),
        "cards.csv": cards_csv(g).encode("utf-8"),
        "pics/p.png": picture_bytes(g),
        "icons/shell.svg": SHELL.substitute(ribs=g.ribs).encode("utf-8"),
        "icons/wave.svg": WAVE.encode("utf-8"),
        "f.ttf": (FONTS / g.font).read_bytes(),
        "fb.ttf": (FONTS / g.bold).read_bytes(),
    }
    return [name for name, data in files.items() if _put(folder / name, data)]

