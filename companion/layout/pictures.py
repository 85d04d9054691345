"""The designer's pictures on every game's cards, the games' side of companion.art.

Each card kind of a game (clan, temple, character, token, back...) has an art box in its
layout data, `[layout.KIND] art = { x, y, w, h }` (fractions of the card, y from the top),
and may get a picture from two places, the first that says one:

- the entry that makes the card: `art = "art/{clan}-{value}{deck}.jpg"` on a Covenia
  clan (each kind's entry is listed in the game module's ART);
- the game's `[art]` table, one key per kind: `[art] temple = "art/temple-{clan}.png"`,
  `back = "art/back-{back}.jpg"` (every card back; {back} names which).

Both take `art_fit`/`art_anchor` (in [art]: `KIND_fit`, `KIND_anchor`). The path names the
card's own fields in braces (the kind's `fields`; {id} is the card's id everywhere).

With no picture a card is drawn exactly as without this module. With one, the face draws
it through companion.draw.card: a box covering the whole card is the card's ground (under
everything else, into the bleed); a smaller box takes the place of the element the kind
names (`place`); a back with a picture is that picture alone."""

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from companion import art, paths
from companion.data import Fields
from companion.draw.card import Pic


@dataclass(frozen=True)
class Kind:
    """One kind of card of a game, as a designer sees it."""
    title: str  # "Clan cards"
    entry: str  # where its own `art` goes besides [art] ("[[clans]]"), or ""
    fields: tuple[str, ...]  # what its path may name in braces
    place: str  # what the box is, or what it replaces
    stock: str = "cards"  # "tokens": its size is [tokens] size, not the card's


class Pictures:
    """A game's art boxes and the pictures its cards ask for."""

    def __init__(self, ctx, game: str, kinds: dict[str, Kind]):
        self.game, self.kinds = game, kinds
        self.base = ctx.base or Path.cwd()
        data = ctx.data
        self.layout = data.sub("layout") if "layout" in data.table else None
        self.table = data.sub("art") if "art" in data.table else None
        self._boxes: dict[str, art.Box] = {}
        if self.table is not None:
            known = {f"{k}{s}" for k in kinds for s in ("", "_fit", "_anchor")}
            for key in self.table.table:
                if key not in known:
                    raise self.table.error(key, f"not a card kind of {game} (kinds: "
                                                f"{', '.join(kinds)})")
        self._no_art_where_no_card(data)

    def _no_art_where_no_card(self, data: Fields) -> None:
        """`art` on a table that makes no card (Covenia's [[decks]], Lugvanion's
        [[objectives]]) would print nowhere: refused, naming where it may go."""
        takers = {re.split(r"[.\]]", w)[0] for k in self.kinds.values()
                  for w in re.findall(r"\[+([\w.]+)", k.entry)} | {"art", "layout"}
        for top, value in data.table.items():
            if top in takers:
                continue
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items, 1):
                if isinstance(item, dict) and (key := next((a for a in art.KEYS if a in item),
                                                           None)):
                    where = data.sub(top) if isinstance(value, dict) else data.items(top)[i - 1]
                    raise where.error(key, "makes no card: a picture here would print nowhere "
                                           f"(art goes in {self._takers_words()})")

    def _takers_words(self) -> str:
        places = [k.entry for k in self.kinds.values() if k.entry] + ["[art] KIND"]
        return ", ".join(places)

    def box(self, kind: str) -> art.Box:
        """[layout.KIND] art; a data file written before art boxes existed gets the
        bundled one."""
        if kind not in self._boxes:
            own = self.layout is not None and kind in self.layout.table \
                and "art" in self.layout.sub(kind).table
            self._boxes[kind] = art.box(self.layout.sub(kind)) if own else bundled_box(
                self.game, kind) if _is_bundled(self.game) else art.Box(0.0, 0.0, 1.0, 1.0)
        return self._boxes[kind]

    def pic(self, kind: str, card: str, fields: dict, entry: Fields | None = None,
            key: str = "art") -> Pic | None:
        """The picture one card asks for (`card`: its name in messages, COMPONENT/ID), or
        None. `entry` is the data table that makes the card; `key` its art key there."""
        assert set(fields) == set(self.kinds[kind].fields), (kind, fields)
        spec = art.spec(entry, fields, self.base, card, key) if entry is not None else None
        if spec is None and self.table is not None:
            spec = art.spec(self.table, fields, self.base, card, kind)
        return None if spec is None else Pic(self.box(kind), spec)


def keyed(key: str, pic: Pic | None) -> str:
    """A shared face's key (its PDF form's name): as it is without a picture, else with a
    digest of the picture and its box, so faces showing different pictures never merge."""
    if pic is None:
        return key
    s = pic.spec
    tag = hashlib.sha256(repr((str(s.path), s.fit, s.anchor, pic.box)).encode()).hexdigest()
    return f"{key}-art{tag[:12]}"


def _is_bundled(game: str) -> bool:
    from companion import games

    return game in games.bundled()


def bundled_box(game: str, kind: str) -> art.Box:
    table = _bundled(game)
    source = str(paths.layout(f"{game}.toml"))
    return art.box(Fields(table, source, "layout").sub(kind))


_BUNDLED: dict[str, dict] = {}


def _bundled(game: str) -> dict:
    if game not in _BUNDLED:
        _BUNDLED[game] = tomllib.loads(paths.layout(f"{game}.toml").read_text("utf-8"))["layout"]
    return _BUNDLED[game]


def slug(text: str) -> str:
    """A name as an id: "Virág" -> "virag"."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


# ---- what a designer reads: each kind's box and fields (init's art/README.txt, README) --

@dataclass(frozen=True)
class Row:
    game: str
    kind: str
    title: str
    entry: str  # "[[clans]]": where its own `art` goes, or ""
    fields: tuple[str, ...]
    place: str
    mm: tuple[float, float]
    px: tuple[int, int]
    whole: bool
    bleed_px: tuple[int, int] | None  # a whole-card box: with presets' art_bleed
    stock: str = "cards"


def rows(game: str, data: dict | None = None, card_size: str = "poker") -> list[Row]:
    """Each card kind's art box at `card_size` (tokens at their own size), from `data` (a
    game's data file as read) or the bundled one."""
    from companion import kit, presets
    from companion.units import mm as MM, parse_size

    module = kit.game_module(game)
    data = data if data is not None else tomllib.loads(
        paths.layout(f"{game}.toml").read_text("utf-8"))
    layout = Fields(data.get("layout", {}), game, "layout")
    card = presets.card_size(card_size)
    out = []
    for name, k in module.ART.items():
        own = name in layout.table and "art" in layout.sub(name).table
        b = art.box(layout.sub(name)) if own else bundled_box(game, name)
        size = parse_size(data["tokens"]["size"], field="tokens.size") \
            if k.stock == "tokens" else card
        bw, bh = (min(b.w, 1 - max(b.x, 0)) * size[0], min(b.h, 1 - max(b.y, 0)) * size[1])
        if b.whole_card():
            bw, bh = size
        px = lambda v: round(v / MM(1) / 25.4 * 300)  # noqa: E731
        eighth = presets.sheet_settings().art_bleed
        out.append(Row(game, name, k.title, k.entry, k.fields, k.place,
                       (round(bw / MM(1), 1), round(bh / MM(1), 1)), (px(bw), px(bh)),
                       b.whole_card(),
                       (px(bw + 2 * eighth), px(bh + 2 * eighth)) if b.whole_card() else None,
                       k.stock))
    return out


def _size(r: Row, sep: str = " × ") -> tuple[str, str]:
    mm = f"{_num(r.mm[0])}{sep}{_num(r.mm[1])} mm"
    px = f"{r.px[0]}{sep}{r.px[1]} px"
    if r.bleed_px:
        px += f" ({r.bleed_px[0]}{sep}{r.bleed_px[1]} with a {_bleed_words()} bleed)"
    return mm, px


def _bleed_words() -> str:
    from companion import presets
    from companion.units import to_mm

    b = presets.sheet_settings().art_bleed
    return "1/8 in" if abs(b - 9) < 1e-6 else f"{_num(to_mm(b))} mm"


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def readme_text(game: str, data: dict | None = None) -> str:
    """art/README.txt, as `companion init` writes it beside a game's data copy."""
    import textwrap

    from companion import kit, presets
    from companion.units import mm as MM

    module = kit.game_module(game)
    w, h = (_num(round(v / MM(1), 1)) for v in presets.card_size("poker"))
    lines = [
        f"Pictures for {game.capitalize()}: put them in this folder and name them in "
        f"{game}.toml.",
        "",
        *textwrap.wrap(
            "A card's picture comes from the entry that makes the card (listed below), or, "
            "for every card of a kind, from the [art] table, one key per kind. For "
            f"instance: {module.EXAMPLE}. In [art], back = \"art/back-{{back}}.jpg\" puts "
            "a picture on every card back (a back with a picture is that picture). Paths "
            "are relative to the data file; braces name the card's own fields.", 88),
        "",
        *textwrap.wrap(
            "art_fit = \"cover\" (fill the box and crop; the default), \"contain\" (the whole "
            "picture) or \"stretch\"; art_anchor = \"c\", \"n\", \"ne\", \"e\", \"se\", "
            "\"s\", \"sw\", \"w\" or \"nw\" (what cover keeps). In [art]: KIND_fit and "
            "KIND_anchor.", 88),
        "",
        *textwrap.wrap(
            "JPEG goes into the PDF as it is; PNG (transparency kept), WebP and others are "
            "converted once and cached. Print wants 300 dpi: below, each box's size at "
            f"poker size ({w} x {h} mm; tokens at their own size) and in pixels at 300 dpi. "
            "A box is [layout.KIND] art = { x, y, w, h } in the data file (fractions of the "
            "card, y from the top): move it, resize it, or make it the whole card (x = 0, "
            "y = 0, w = 1, h = 1: the picture runs into the bleed, under everything else).",
            88),
        "",
        *textwrap.wrap(
            "A missing picture stops the build, naming the card and the file; "
            "companion build --draft prints placeholders instead and lists what is "
            "missing.", 88),
        "",
    ]
    for r in rows(game, data):
        mm, px = _size(r, " x ")
        whole = f"the whole {'token' if r.stock == 'tokens' else 'card'}, " if r.whole else ""
        lines += [f"{r.kind}: {r.title}",
                  f"  box: {whole}{mm}, {px}",
                  "  picture from: " + (f"art in {r.entry}, or [art] {r.kind}" if r.entry
                                        else f"[art] {r.kind}"),
                  "  fields: " + ", ".join("{" + f + "}" for f in r.fields),
                  *textwrap.wrap(r.place, 86, initial_indent="  ", subsequent_indent="  "),
                  ""]
    return "\n".join(lines)


def markdown(games: list[str]) -> str:
    """The README's table: every game's card kinds, boxes (poker) and fields."""
    out = ["| game | card kind | box at poker size | at 300 dpi | picture from | fields |",
           "| --- | --- | --- | --- | --- | --- |"]
    for game in games:
        for r in rows(game):
            mm, px = _size(r)
            entry = re.sub(r"(\[\[?[\w.]+\]?\]|\b\w+(?:_\w+)+\b|\bcards\b)", r"`\1`",
                           r.entry)
            where = f"`art` in {entry}, or `[art] {r.kind}`" if r.entry else f"`[art] {r.kind}`"
            whole = f"whole {'token' if r.stock == 'tokens' else 'card'}: " if r.whole else ""
            out.append(f"| {game} | {r.kind}: {r.title} | {whole}{mm} | {px} | {where} | "
                       + ", ".join(f"`{{{f}}}`" for f in r.fields) + " |")
    return "\n".join(out)


if __name__ == "__main__":  # python -m companion.layout.pictures: the README's table
    print(markdown(["covenia", "lugvanion", "coverta", "vengeance"]))
