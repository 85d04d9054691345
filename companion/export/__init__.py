"""Exports: a game's cards out of the kit, to print shops and virtual tables.

Every format is a writer over the same list (companion.export.face_pages: each component's
distinct cards, each drawn by the face.draw the sheets use), chosen from FORMATS by name,
one module per format. A writer module has:
- TAKES: the options it takes, of "bleed", "dpi", "shop";
- check(ctx) (optional): refuses what it cannot write, before anything is written;
- write(ctx) -> dict: writes its files under ctx.stage and returns its part of the
  manifest;
- guide(ctx, manifest) -> str: what guide.txt says about its files.

`export` checks everything, lays the game out (kit.prepare), and writes the folder aside,
swapped in whole (companion.files.atomic.kit_folder) with a manifest.json listing every file.
Kept light: reportlab and pypdfium2 are imported by the writers, when they write."""

import importlib
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import msgspec

from companion.errors import CompanionError, shown

FORMATS = {"cards-pdf": "companion.export.cards_pdf", "png": "companion.export.png",
           "tts": "companion.export.tts", "preview": "companion.export.preview",
           "pdfx": "companion.export.pdfx",
           "decklist": "companion.export.decklist"}
DEFAULT_BLEED = "0.125in"  # 1/8 in: what print shops ask
DEFAULT_DPI = 300
DPI_RANGE = (72, 1200)
OPTION_FLAGS = {"bleed": "--bleed", "dpi": "--dpi", "shop": "--shop", "icc": "--icc"}

Progress = Callable[[int, int, str], None]  # (done, total, what is being written)


class Options(msgspec.Struct):
    lang: str = "en"
    card_size: str = "poker"
    only: list[str] | None = None
    out: Path | None = None
    data: Path | None = None
    bleed: str | None = None  # None: DEFAULT_BLEED where it applies
    dpi: int | None = None  # None: DEFAULT_DPI, or the shop's
    shop: str | None = None
    draft: bool = False  # a missing picture prints as a labelled placeholder
    icc: Path | None = None  # pdfx: the designer's CMYK profile (None: the one shipped)
    strict: bool = False  # pdfx: a text inside the shop's safe zone refuses the export


class Context(msgspec.Struct):
    """What a writer works from."""
    game: str
    format: str
    opts: Options
    kit: object  # companion.kit.Kit
    decks: list  # companion.export.face_pages.Deck
    out: Path  # where the folder will be once written (file links point there)
    bleed: float  # points (formats that take --bleed)
    dpi: int
    shop: object | None  # companion.export.shops.Shop
    shop_card: object | None  # companion.export.shops.ShopCard
    stage: Path | None = None  # where files are written now
    progress: Progress = lambda done, total, what: None
    # (face_key, trim, bleed) -> the face's digest, as the plan worked them out
    # (companion.kit.card_list): what a picture made again is keyed by (export.reuse)
    digests: dict = msgspec.field(default_factory=dict)
    drawn: int | None = None  # faces rendered by the writer (export.reuse), None: not told
    kept: int = 0  # faces whose pictures were taken from the last export
    after: Callable[[], None] | None = None  # once the export is in place (export.reuse)
    # --shop: the components of a size it does not list, {"id", "title", "size_mm"}
    left_out: list[dict] = msgspec.field(default_factory=list)

    def left_out_lines(self) -> list[str]:
        """What the export says of each component it left out, a line each (warnings)."""
        return [f"{c['id']}: {' x '.join(f'{v:g}' for v in c['size_mm'])} mm {_pieces(c)}, "
                f"a size {self.shop.name} does not list: left out (--only names the parts to "
                "export)" for c in self.left_out]

    @contextmanager
    def scratch(self):
        """A working folder inside the staging folder, gone when the block ends: a killed
        export leaves nothing in the system's temporary folder, and the next one clears
        its staging folder whole (companion.files.atomic)."""
        folder = self.stage / ".work"
        folder.mkdir()
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def word(self, key: str, **values) -> str:
        from companion.export import shops

        return shops.table().sub("guide").text(key, self.opts.lang).format(**values)


def writer(fmt: str):
    if fmt not in FORMATS:
        raise CompanionError(f"unknown format {shown(fmt)} (use {', '.join(FORMATS)})",
                             field="FORMAT")
    return importlib.import_module(FORMATS[fmt])


def default_out(game: str, fmt: str, shop: str | None = None) -> Path:
    """./output/GAME/FORMAT (FORMAT-SHOP for a print shop's: png-tgc and png-mpc apart):
    inside the kit's folder, which a build replaces whole but keeping the exports in it
    (companion.files.atomic)."""
    from companion.files import paths

    return paths.output() / game / (f"{fmt}-{shop}" if shop else fmt)


def _shop_sizes(shop, first, decks: list, named: bool) -> tuple[list, list[dict]]:
    """(the components of a size the shop lists, those left out): a shop prints what it
    makes, cards, tiles and tokens alike. Parts named by --only (`named`) are refused
    instead, in one line."""
    kept, left = [], []
    for deck in decks:
        if shop.listed(deck.size, first) is not None:
            kept.append(deck)
            continue
        left.append({"id": deck.id, "title": deck.title, "stock": deck.stock,
                     "size_mm": [mm(v) for v in deck.size]})
        if named:
            c = left[-1]
            raise CompanionError(f"{deck.id} {_pieces(c)} are "
                                 f"{' x '.join(f'{v:g}' for v in c['size_mm'])} mm, a size "
                                 f"{shop.name} does not list (it lists {shop.sizes()})",
                                 field="--shop")
    return kept, left


def _pieces(left: dict) -> str:
    return "cards" if left["stock"] == "cards" else "pieces"


def plan(game: str, fmt: str, opts: Options) -> Context:
    """Checks the request and lays the game out; writes nothing."""
    from companion import kit
    from companion.press import presets
    from companion.export import face_pages, shops

    kit.game_module(game)
    module = writer(fmt)
    given = {"bleed": opts.bleed, "dpi": opts.dpi, "shop": opts.shop, "icc": opts.icc}
    for name, value in given.items():
        if value is not None and name not in module.TAKES:
            takes = ", ".join(OPTION_FLAGS[t] for t in sorted(module.TAKES))
            raise CompanionError(f"{fmt} does not take {OPTION_FLAGS[name]}"
                                 + (f" (it takes {takes})" if takes else ""),
                                 field=OPTION_FLAGS[name])
    if opts.dpi is not None and not DPI_RANGE[0] <= opts.dpi <= DPI_RANGE[1]:
        raise CompanionError(f"{opts.dpi} is out of range: from {DPI_RANGE[0]} to "
                             f"{DPI_RANGE[1]} dpi", field="--dpi")
    shop = shop_card = None
    card_size = opts.card_size
    shop_key = opts.shop or getattr(module, "DEFAULT_SHOP", None)  # pdfx: DriveThruCards
    if shop_key is not None:
        shop = shops.shop(shop_key)
        for name in ("dpi", "bleed"):
            if given[name] is not None:
                raise CompanionError(f"--shop {shop.key} sets the pixel size and the bleed; "
                                     f"leave out {OPTION_FLAGS[name]}", field=OPTION_FLAGS[name])
        shop_card = shop.card(opts.card_size)
        card_size = shop_card.trim_text  # the faces are laid out at the shop's trim
    bleed = presets.bleed(opts.bleed or DEFAULT_BLEED) if "bleed" in module.TAKES else 0.0
    dpi = shop.dpi if shop else (opts.dpi or DEFAULT_DPI)
    prepared = kit.prepare(game, kit.Options(lang=opts.lang, card_size=card_size,
                                             only=opts.only, data=opts.data))
    found = face_pages.decks(prepared)
    from companion.draw import art

    with art.logging(draft=True) as pictures:  # every missing picture, before any is written
        cards = kit.card_list(prepared, bleed)
    if pictures.missing and not opts.draft:
        raise art.missing_error(pictures)
    left_out = []
    if shop is not None:  # every component held to the sizes the shop lists
        found, left_out = _shop_sizes(shop, shop_card, found, opts.only is not None)
    if not found:
        raise CompanionError("nothing to export: no cards in the parts asked for",
                             field="--only")
    out = Path(opts.out) if opts.out else default_out(prepared.name, fmt,
                                                      shop.key if shop else None)
    ctx = Context(prepared.name, fmt, opts, prepared, found, out.resolve(), bleed, dpi, shop,
                  shop_card, left_out=left_out)
    sizes = {deck.id: deck.size for deck in found}
    for card in cards:
        size = sizes.get(card["component"])
        for side in ("front", "back"):
            face = getattr(card["card"], side)
            if face is not None and size is not None:
                ctx.digests[face_pages.face_key(face), size, bleed] = card[side]
    if hasattr(module, "check"):
        module.check(ctx)
    return ctx


def export(game: str, fmt: str, opts: Options, progress: Progress | None = None) -> dict:
    """Writes one game's cards in one format into opts.out (default ./output/GAME/FORMAT);
    returns the manifest. Bad input fails before anything is written; a failure while
    writing leaves the folder as it was."""
    return write(plan(game, fmt, opts), progress)


def write(ctx: Context, progress: Progress | None = None) -> dict:
    """Writes a planned export (see `plan`), whole or not at all. A page of ours naming
    what its resources lack (companion.press.written: our bug) is said in one line and
    the export is made again cold, nothing reused."""
    from companion.files import kept
    from companion.press import written

    try:
        return _write(ctx, progress)
    except written.Dangling as e:
        print(f"companion: warning: {e.line()}", file=sys.stderr)
        with kept.drawn_cold():
            return _write(ctx, progress)


def _write(ctx: Context, progress: Progress | None) -> dict:
    from companion.files import json_text
    from companion.files.atomic import kit_folder

    module = writer(ctx.format)
    if progress:
        ctx.progress = progress
    with kit_folder(ctx.out, ctx.format) as stage:
        ctx.stage = stage
        manifest = {"game": ctx.game, "format": ctx.format, "lang": ctx.opts.lang,
                    "card_size": ctx.opts.card_size}
        manifest.update(module.write(ctx))
        if ctx.left_out:
            manifest["left_out"] = ctx.left_out
        guide = "\n".join([ctx.word("title", game=ctx.kit.game_name, format=ctx.format), "",
                           module.guide(ctx, manifest), ""])
        (stage / "guide.txt").write_text(guide, encoding="utf-8")
        manifest["files"] = sorted([p.relative_to(stage).as_posix() for p in stage.rglob("*")
                                    if p.is_file()] + ["manifest.json"])
        (stage / "manifest.json").write_text(json_text.readable(manifest), encoding="utf-8")
    if ctx.after is not None:
        ctx.after()
    return manifest


def mm(points: float) -> float:
    """Points as millimetres, to the micrometre, for manifests."""
    from companion.text.units import to_mm

    return round(to_mm(points), 3)


def length(points: float, lang: str = "en") -> str:
    """A length as guides show it: '3.175 mm (0.125 in)', '3,175 mm (0,125 in)'."""
    from companion.text.typography import number

    return f"{number(mm(points), lang, 3)} mm ({number(points / 72, lang, 3)} in)"
