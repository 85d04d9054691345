"""Where things are. The data (layouts/) and fonts (fonts/) travel inside the distribution
as the packages companion.layouts and companion.fontfiles, so they are found through
importlib.resources wherever the package is installed. Output goes under the folder the
command runs in."""

from importlib.resources import files
from pathlib import Path

LAYOUTS = files("companion.layouts")
FONTS = files("companion.fontfiles")


def layout(name: str) -> Path:
    """A bundled data file, e.g. layout("covenia.toml")."""
    return LAYOUTS / name


def output() -> Path:
    """./output under the current folder: the default for builds and the phone table."""
    return Path.cwd() / "output"
