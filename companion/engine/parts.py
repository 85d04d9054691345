"""What a game's kit is made of: its components (cards or whole pages), the files they go
into, and what a game's code is given to lay them out. Below the games and the layout
engine, which make them, and companion.kit, which builds them."""

from pathlib import Path
from typing import Callable

import msgspec

from companion.files.data import Fields
from companion.draw.print_sheets import Card
from companion.press.imposition import Shape


class Component(msgspec.Struct):
    id: str  # as in the manifest
    key: str  # as named by --only
    title: str
    count: int
    cards: list[Card] = msgspec.field(default_factory=list)
    placeholders: list[str] = msgspec.field(default_factory=list)  # contents still to be written
    # Its cards' backs hold words of their own (an aid's second side, a token's rule), not a
    # shared design: built without backs (--flip none), they print as faces of their own.
    second_sides: bool = False
    box: bool | None = None  # a tuck box for it: True, False, None: if it is a deck


class CardFile(msgspec.Struct):
    """Cards or tokens imposed on sheets, fronts followed by their backs."""
    path: str
    components: list[Component]
    size: tuple[float, float]
    size_name: str
    stock: str = "cards"
    flip: str | None = None  # None: the build's --flip
    shape: Shape | None = None  # hex tiles, round tokens...: cut along a line; None: rectangles
    # a label or sticker sheet (companion.press.label_sheets.LabelSheet): each face on its
    # label's place, on the sheet's own paper; None: imposed on the build's paper
    sheet: object | None = None

    @property
    def spaced(self) -> bool:
        """Tokens are cut out one by one: with bleed, a gap between them too."""
        return self.stock == "tokens"


class PageFile(msgspec.Struct):
    """Whole pages (a score book): draw(canvas, keeper=None) draws them and returns how
    many (`keeper`: companion.kit.drawings.Keeper, which puts back a page kept)."""
    path: str
    components: list[Component]
    draw: Callable[..., int]
    stock: str = "paper"


class Context(msgspec.Struct):
    """What a game module needs to lay out its kit."""
    data: Fields
    lang: str
    page: tuple[float, float]
    card: tuple[float, float]
    card_name: str
    words: Fields  # companion/layouts/strings.toml
    base: Path | None = None  # the data file's folder: pictures' paths are relative to it
