"""A designer's game for the press tests: the starter (`companion new`) with a veil at
25 % opacity right over its creatures' flat ground (flat over flat), and its tides on a
gradient under a veil at 50 % and a picture with transparent parts (ours, drawn here).
Issue 51's: its words in #222222, a QR code on each creature, and a picture of hers
(opaque, lossless PNG, drawn here) with a pure black area and a saturated dark blue one."""

import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

VEIL = '''
[[kinds.creature.elements]]
type = "rect"               # a veil over the flat ground, under the text
x = 0.05
y = 0.62
w = 0.9
h = 0.26
fill = "accent"
opacity = 0.25
'''
TIDE_GROUND = '''[[kinds.tide.elements]]
type = "background"
fill = "night"
gradient = { start = "night", end = "accent", angle = 90 }

[[kinds.tide.elements]]
type = "rect"               # a veil over the gradient
x = 0.1
y = 0.05
w = 0.8
h = 0.2
fill = "sand"
opacity = 0.5
'''
TIDE_PICTURE = '''
[[kinds.tide.elements]]
type = "image"              # a picture with transparent parts over the gradient
file = "art/moon.png"
x = 0.3
y = 0.3
w = 0.4
h = 0.3
fit = "contain"
'''
DARK_PICTURE = '''
[[kinds.creature.elements]]
type = "image"              # her picture: pure black on the left, a saturated dark blue
file = "art/dark.png"
x = 0.08
y = 0.17
w = 0.84
h = 0.12
fit = "stretch"

[[kinds.creature.elements]]
type = "qr"
data = "vocab:{title}"
x = 0.74
y = 0.86
w = 0.16
h = 0.12
'''
INK = 'ink = "#1F2A33"'
CREATURE_GROUND = ('[[kinds.creature.elements]]\ntype = "background"         '
                   '# the whole card, into the bleed\nfill = "paper"\n')


def make(folder: Path) -> Path:
    """The game file, written under `folder` (which must not exist)."""
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "companion", "new", "vocab", str(folder)],
                   check=True, capture_output=True, cwd=root,
                   env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    game = folder / "vocab.toml"
    t = game.read_text(encoding="utf-8")
    tide = '[[kinds.tide.elements]]\ntype = "background"\nfill = "night"\n'
    assert CREATURE_GROUND in t and tide in t and "[kinds.back]\n" in t
    assert INK in t
    t = t.replace(INK, 'ink = "#222222"', 1)
    t = t.replace(CREATURE_GROUND, CREATURE_GROUND + VEIL, 1)
    t = t.replace("[kinds.tide]\n", DARK_PICTURE + "\n[kinds.tide]\n", 1)
    t = t.replace(tide, TIDE_GROUND, 1)
    t = t.replace("[kinds.back]\n", TIDE_PICTURE + "\n[kinds.back]\n", 1)
    game.write_text(t, encoding="utf-8")
    im = Image.new("RGBA", (240, 180), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((40, 10, 200, 170), fill=(250, 230, 120, 255))
    d.ellipse((90, 20, 230, 160), fill=(30, 60, 90, 128))  # half transparent
    im.save(folder / "art" / "moon.png")
    dark = Image.new("RGB", (300, 60), (0, 0, 0))
    ImageDraw.Draw(dark).rectangle((150, 0, 299, 59), fill=(10, 20, 120))  # saturated dark
    dark.save(folder / "art" / "dark.png")
    return game
