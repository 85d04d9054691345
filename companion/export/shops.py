"""Print shops' card pictures (companion/layouts/shops.toml) and the pixel arithmetic of a face
picture: how many pixels, and how much bleed around the trim they hold."""

from functools import cache
from math import floor

import msgspec

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.errors import CompanionError, shown
from companion.text.units import parse_length, parse_size

POINTS_PER_INCH = 72.0
SAME = 72 / 25.4  # a millimetre, points: a piece this close to a listed size is that size


class ShopCard(msgspec.Struct, frozen=True):
    name: str  # as --card-size takes it
    trim: tuple[float, float]  # points
    trim_text: str  # as written in shops.toml, e.g. "2.5x3.5in"
    image: tuple[int, int]  # pixels, bleed included


ORDERS = ("back-first", "front-first", "backs-last")


class Press(msgspec.Struct, frozen=True):
    """What a shop's press asks of a pdfx file (shops.toml, `press`)."""
    order: str  # one of ORDERS
    ink_limit: float  # total ink, C+M+Y+K, 0..4 (2.4: 240 %)
    rich_black: tuple[float, float, float, float]  # 0..1 each
    safe: float  # points inside the trim
    black_lightness: float = 30.0  # CIELAB L* at or under which a neutral is a near-black
    black_chroma: float = 15.0
    most_cards: int = 5000  # the most cards one file holds

    def pages(self, cards: list[tuple[int, int, int]]) -> list[int]:
        """The file's pages, in one pass: `cards` is (front, back, count) per card, each
        face an index of the distinct pages."""
        out: list[int] = []
        if self.order == "backs-last":
            backs: list[int] = []
            for front, back, count in cards:
                out += [front] * count
                backs += [back] * count
            return out + (backs[:1] if len(set(backs)) == 1 else backs)
        first_back = self.order == "back-first"
        for front, back, count in cards:
            out += ([back, front] if first_back else [front, back]) * count
        return out


class Shop(msgspec.Struct, frozen=True):
    key: str  # as --shop takes it
    name: str
    dpi: int
    cards: dict[str, ShopCard]
    press: Press | None = None  # a shop that takes PDF/X files: what its press asks

    def listed(self, size: tuple[float, float],
               first: ShopCard | None = None) -> tuple[ShopCard, bool] | None:
        """The size the shop lists that a piece of `size` (points) is, `first` tried first,
        either way up (within a millimetre: our tarot, 70 x 120 mm, is the shops' 2.75 x
        4.75 in): (it, whether the piece is turned onto it), or None: the shop makes no
        such piece."""
        for card in ([first] if first else []) + list(self.cards.values()):
            for turned in (False, True):
                w, h = size[::-1] if turned else size
                if abs(w - card.trim[0]) <= SAME and abs(h - card.trim[1]) <= SAME:
                    return card, turned
        return None

    def sizes(self) -> str:
        """The sizes it lists, as a message names them."""
        return ", ".join(f"{c.name} {c.trim_text}" for c in self.cards.values())

    def card(self, size_name: str) -> ShopCard:
        if size_name.lower() not in self.cards:
            raise CompanionError(
                f"{self.name} does not make {shown(size_name)} cards; it makes "
                f"{', '.join(self.cards)}", field="--card-size")
        return self.cards[size_name.lower()]


@cache
def table() -> Fields:
    path = paths.LAYOUTS / "shops.toml"
    return Fields(load_toml(path), str(path), english=True)  # our words


def names() -> list[str]:
    return list(table().sub("shop").table)


def shop(key: str) -> Shop:
    shops = table().sub("shop")
    if key.lower() not in shops.table:
        raise CompanionError(f"unknown shop {shown(key)} (use {', '.join(names())})",
                             field="--shop")
    s = shops.sub(key.lower())
    cards = {}
    section = s.sub("card")
    for name in section.table:
        entry = section.sub(name)
        trim_text = entry.get("trim", str)
        image = entry.get("image", list)
        if len(image) != 2 or not all(isinstance(v, int) and 0 < v <= 20000 for v in image):
            raise entry.error("image", f"must be [width, height] in pixels, not {shown(image)}")
        trim = parse_size(trim_text, field=f"{entry.path}.trim")
        card = ShopCard(name, trim, trim_text, (image[0], image[1]))
        bx, by = card_bleed(card, s.get("dpi", int))
        if bx < 0 or by < 0:
            raise entry.error("image", "is smaller than the trim")
        cards[name] = card
    press = _press(s.sub("press")) if "press" in s.table else None
    return Shop(key.lower(), s.get("name", str), s.get("dpi", int), cards, press)


def _press(entry: Fields) -> Press:
    order = entry.get("order", str)
    if order not in ORDERS:
        raise entry.error("order", f"must be one of {', '.join(ORDERS)}, not {shown(order)}")
    limit = entry.get("ink_limit", (int, float))
    if not 100 <= limit <= 400:
        raise entry.error("ink_limit", f"must be a total ink from 100 to 400 %, not {limit}")
    rich = entry.get("rich_black", list)
    if len(rich) != 4 or not all(isinstance(v, (int, float)) and 0 <= v <= 100 for v in rich) \
            or sum(rich) > limit:
        raise entry.error("rich_black", f"must be [C, M, Y, K] in % within ink_limit, "
                                        f"not {shown(rich)}")
    safe = parse_length(entry.get("safe", str), field=f"{entry.path}.safe")
    black = entry.sub("black")
    most = entry.get("most_cards", int)
    if not 1 <= most <= 100_000:
        raise entry.error("most_cards", f"must be from 1 to 100,000, not {most}")
    return Press(order, limit / 100, tuple(v / 100 for v in rich), safe,
                 float(black.get("lightness", (int, float))),
                 float(black.get("chroma", (int, float))), most)


def words(key: str, lang: str) -> str:
    return table().sub("shop").sub(key).text("words", lang)


def card_bleed(card: ShopCard, dpi: int) -> tuple[float, float]:
    """The bleed (points) on each side across and down that the shop's picture holds."""
    w, h = card.trim
    return ((card.image[0] * POINTS_PER_INCH / dpi - w) / 2,
            (card.image[1] * POINTS_PER_INCH / dpi - h) / 2)


def pixels(length: float, dpi: float) -> int:
    """A length in points as whole pixels at `dpi`: the nearest, a half up (2.5 in at
    557 dpi is 1393), never 0. Lengths in mm reach here with float error (63.5 mm is
    180.00000000000003 pt); exact values lie at least 1/254 px from a half, so the
    tolerance only absorbs that error."""
    return max(1, floor(length * dpi / POINTS_PER_INCH + 0.5 + 1e-6))


class Picture(msgspec.Struct, frozen=True):
    """A face picture: the trim (points), the bleed around it on each side across and
    down the picture (points), and its exact size in pixels. `turned`: a landscape card
    on a shop's portrait picture, a quarter turn anticlockwise (its top on the left)."""
    trim: tuple[float, float]
    bleed: tuple[float, float]
    px: tuple[int, int]
    turned: bool = False

    @property
    def page(self) -> tuple[float, float]:
        """The PDF page that holds it: the trim (turned, if it is) and its bleed."""
        w, h = self.trim[::-1] if self.turned else self.trim
        return w + 2 * self.bleed[0], h + 2 * self.bleed[1]


def picture(trim: tuple[float, float], bleed: float, dpi: float) -> Picture:
    w, h = trim
    return Picture(trim, (bleed, bleed), (pixels(w + 2 * bleed, dpi), pixels(h + 2 * bleed, dpi)))
