"""Where the project's data lives: layouts/ and fonts/ beside the packages."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = ROOT / "layouts"
FONTS = ROOT / "fonts"
OUTPUT = ROOT / "output"
