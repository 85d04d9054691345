"""What a designer reads about a game's pictures: each card kind's art box in mm and in
pixels, and the fields its picture's path may name (init's art/README.txt, the README's
table). Apart from engine/pictures.py, which draws them: this reads the games' code."""

import re
import tomllib

import msgspec

from companion.draw import art
from companion.files import paths
from companion.files.data import Fields
from companion.engine.pictures import bundled_box


# ---- what a designer reads: each kind's box and fields (init's art/README.txt, README) --

class Row(msgspec.Struct, frozen=True):
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


def rows(game: str, data: dict | None = None, card_size: str = "poker",
         kinds: dict | None = None) -> list[Row]:
    """Each card kind's art box at `card_size` (tokens at their own size), from `data` (a
    game's data file as read) or the bundled one. `kinds`: a designer's game's picture
    kinds (games/drawn.py), whose kinds without a box of their own take the whole card."""
    from companion.press import presets
    from companion.text.units import mm as MM, parse_size

    art_kinds = kinds if kinds is not None else _module(game).ART
    data = data if data is not None else tomllib.loads(
        paths.layout(f"{game}.toml").read_text("utf-8"))
    layout = Fields(data.get("layout", {}), game, "layout")
    card = presets.card_size(card_size)
    out = []
    for name, k in art_kinds.items():
        own = name in layout.table and "art" in layout.sub(name).table
        b = art.box(layout.sub(name)) if own else bundled_box(game, name) if kinds is None \
            else art.Box(0.0, 0.0, 1.0, 1.0)
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
    from companion.press import presets
    from companion.text.units import to_mm

    b = presets.sheet_settings().art_bleed
    return "1/8 in" if abs(b - 9) < 1e-6 else f"{_num(to_mm(b))} mm"


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def readme_text(game: str, data: dict | None = None, kinds: dict | None = None,
                example: str | None = None) -> str:
    """art/README.txt, as `companion init` writes it beside a game's data copy (and
    `companion new` beside a new game's file: its `kinds` and an `example`)."""
    import textwrap

    from companion.press import presets
    from companion.text.units import mm as MM

    example = example or _module(game).EXAMPLE
    w, h = (_num(round(v / MM(1), 1)) for v in presets.card_size("poker"))
    lines = [
        f"Pictures for {game.capitalize()}: put them in this folder and name them in "
        f"{game}.toml.",
        "",
        *textwrap.wrap(
            "A card's picture comes from the entry that makes the card (listed below), or, "
            "for every card of a kind, from the [art] table, one key per kind. For "
            f"instance: {example}. In [art], back = \"art/back-{{back}}.jpg\" puts "
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
    for r in rows(game, data, kinds=kinds):
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


def _module(game: str):
    from companion import games

    return games.find(game).module


if __name__ == "__main__":  # python -m companion.games.art_readme: the README's table
    print(markdown(["covenia", "lugvanion", "coverta", "vengeance"]))
