"""`companion export GAME FORMAT`: a game's cards for print shops and virtual tables."""

import sys

import click

from companion.commands import common
from companion.commands.common import split
from companion.errors import CompanionError, escape


def _formats() -> list[str]:
    from companion.export import FORMATS

    return list(FORMATS)


def _shops() -> list[str]:
    from companion.export import shops

    return shops.names()


@click.command(short_help="Export cards: per-card PDF, PNG, Tabletop Simulator, previews, "
                          "a deck list.",
               epilog="""\b
Formats:
  cards-pdf  one page per card face with bleed, TrimBox and BleedBox (print shops)
  png        one picture per face: --dpi N, or a shop's size with --shop tgc|mpc
  tts        Tabletop Simulator: face sheets and a Saved Object
  preview    one contact sheet per component
  pdfx       PDF/X-1a:2003 per component, CMYK, for DriveThruCards (--shop, --icc)
  decklist   decklist.csv: every card, its count and its fields, for a spreadsheet
\b
Examples:
  companion export covenia png
  companion export covenia png --shop tgc --card-size poker
  companion export covenia png --dpi 600 --bleed 3mm --only cards
  companion export covenia cards-pdf --lang fr
  companion export covenia tts
  companion export covenia preview --out docs/preview
  companion export covenia pdfx
  companion export covenia pdfx --icc MyPrinter.icc
  companion export covenia decklist""")
@click.argument("game", **common.GAME)
@click.argument("format", metavar="FORMAT", type=common.Named("format", _formats))
@click.option("--lang", type=common.LANGUAGE, default="en", show_default=True,
              help="Printed language: en, fr, or one your game file is written in (de, it...).")
@click.option("--card-size", type=common.CARD_SIZE, default="poker", show_default=True,
              help="poker, bridge, euro, mini-euro, mini-usa, tarot, square, or WxH like "
                   "63x88mm; with --shop, one of the shop's sizes.")
@click.option("--only", help="Comma-separated parts to export, e.g. cards (default: all).")
@click.option("--out", type=click.Path(file_okay=False),
              help="Output folder (default: ./output/GAME/FORMAT under the current folder).")
@click.option("--data", type=click.Path(dir_okay=False),
              help="Your own copy of the game's companion/layouts/GAME.toml.")
@click.option("--bleed", help="cards-pdf, png: bleed around each card [default: 0.125in].")
@click.option("--dpi", type=int, help="png: pixels per inch, 72 to 1200 [default: 300].")
@click.option("--shop", type=common.Named("shop", _shops),
              help="png: a print shop's exact picture size: tgc (The Game Crafter), "
                   "mpc (MakePlayingCards), drivethrucards or longpack; pdfx: the shop, "
                   "drivethrucards or longpack [default: drivethrucards].")
@click.option("--icc", type=click.Path(dir_okay=False),
              help="pdfx: your CMYK output profile (.icc) [default: the SWOP one shipped].")
@click.option("--draft", is_flag=True,
              help="Print missing or unreadable pictures as labelled placeholders.")
@click.option("--strict", is_flag=True,
              help="pdfx: a text inside the shop's safe zone is an error, not a warning.")
def export(game, format, lang, card_size, only, out, data, bleed, dpi, shop, icc, draft,
           strict):
    """Export a game's cards (or all games') in FORMAT: cards-pdf, png, tts, preview,
    pdfx or decklist."""
    from companion.draw import art
    from companion import export as exports
    from companion.games import bundled

    games = list(bundled()) if game == "all" else [game]
    if data and game == "all":
        raise CompanionError("--data names one game's file; export one game with it",
                             field="--data")
    with art.logging(draft) as pictures:
        _export(exports, games, game, format, lang, card_size, only, out, data, bleed, dpi,
                shop, draft, icc, strict)
    if pictures.missing:
        click.echo(f"companion: warning: {escape(art.draft_line(pictures))}", err=True)


def _export(exports, games, game, format, lang, card_size, only, out, data, bleed, dpi, shop,
            draft, icc=None, strict=False):
    from pathlib import Path

    # Every game checked before any is written: bad input writes nothing.
    plans = {}
    for name in games:
        target = Path(out) / name if out and game == "all" else (Path(out) if out else None)
        opts = exports.Options(lang=lang, card_size=card_size, only=split(only), out=target,
                               data=Path(data) if data else None, bleed=bleed, dpi=dpi,
                               shop=shop, draft=draft, icc=Path(icc) if icc else None,
                               strict=strict)
        plans[name] = exports.plan(name, format, opts), opts
    for name, (ctx, opts) in plans.items():
        for line in ctx.left_out_lines():  # --shop: a size the shop does not list
            click.echo(f"companion: warning: {name}: {escape(line)}", err=True)
        with _Progress(f"{name} {format}") as progress:
            manifest = exports.write(ctx, progress)
        for line in manifest.get("warnings", []):  # pdfx: a text inside the safe zone
            click.echo(f"companion: warning: {name}: {escape(line)}", err=True)
        parts = ", ".join(f"{c['id']} ({c['cards']} cards"
                          + (", landscape, turned to portrait" if c.get("turned") else "") + ")"
                          for c in manifest["components"])
        click.echo(f"{name} {format}: {ctx.out}/ {len(manifest['files'])} files: {parts}")
        if ctx.drawn is not None:  # as a build says of its drawings (kit.drawings.Keeper)
            click.echo(f"{name} {format}: {ctx.drawn} faces drawn, {ctx.kept} kept")


class _Progress:
    """A progress bar on a terminal, nothing elsewhere: steps as the export reports them."""

    def __init__(self, label: str):
        self.label, self.bar, self.total = label, None, None

    def __enter__(self):
        return self

    def __call__(self, done: int, total: int, what: str) -> None:
        if not sys.stderr.isatty():
            return
        if self.bar is None or total != self.total:
            self._close()
            self.total = total
            self.bar = click.progressbar(length=max(total, 1), label=f"{self.label}: {what}",
                                         file=sys.stderr, show_eta=False)
            self.bar.__enter__()
        self.bar.label = f"{self.label}: {what}"
        self.bar.update(done - self.bar.pos)

    def _close(self, *exc):
        if self.bar:
            self.bar.__exit__(*(exc or (None, None, None)))
            self.bar = None

    def __exit__(self, *exc):
        self._close(*exc)
