"""`companion build GAME`: a game's print-and-play kit."""

import gc
import sys
from contextlib import contextmanager

import click

from companion.commands import common
from companion.commands.common import split
from companion.errors import CompanionError, escape


def _cutters() -> list[str]:
    from companion.press import cut_paths

    return cut_paths.names()


@click.command(short_help="Build a print-and-play kit: PDFs, manifest, guide.", epilog="""\b
Examples:
  companion build covenia
  companion build covenia --paper letter --lang fr
  companion build covenia --only cards,tokens --flip short --out ~/print
  companion build covenia --card-size 63x88mm --bleed 2mm
  companion build covenia --data my-covenia.toml
  companion build covenia --printer office
  companion build covenia --layout gutterfold
  companion build covenia --cutter silhouette
  companion build all""")
@click.argument("game", **common.GAME)
@click.option("--paper", type=common.PAPER, default="a4", show_default=True, help="a4 or letter.")
@click.option("--lang", type=common.LANGUAGE, default="en", show_default=True,
              help="Printed language: en, fr, or one your game file is written in (de, it...).")
@click.option("--card-size", type=common.CARD_SIZE, default="poker", show_default=True,
              help="poker, bridge, euro, mini-euro, mini-usa, tarot, square, or WxH like 63x88mm.")
@click.option("--bleed", default="0mm", show_default=True,
              help="Bleed around each card, e.g. 3mm (fewer cards per sheet).")
@click.option("--flip", type=common.FLIP, default="long", show_default=True,
              help="Duplex: long (backs mirrored), short (backs turned 180°), none (no backs).")
@click.option("--only", help="Comma-separated parts to build, e.g. cards,tokens (default: all).")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: ./output/GAME under the current folder).")
@click.option("--data", type=click.Path(dir_okay=False),
              help="Your own copy of the game's companion/layouts/GAME.toml.")
@click.option("--strict", is_flag=True,
              help="Fail (exit 2, nothing written) if a text on a card is too small, does not "
                   "fit its box, is too near the trim or lacks contrast; default: warn.")
@click.option("--changed-since", type=click.Path(dir_okay=False),
              help="An earlier build's manifest.json: print only the cards whose front or back "
                   "changed since (to reprint them), with errata.pdf (each changed card's "
                   "old and new face and words) and swap-list.txt (what to pull, what to "
                   "put in); none changed, nothing is written.")
@click.option("--ink", type=common.Named("ink", ("normal", "saver")), default="normal",
              show_default=True,
              help="saver: light backs (an outline and the emblem on white) and pale card "
                   "grounds, to spare the printer's ink.")
@click.option("--draft", is_flag=True,
              help="A missing picture prints as a labelled placeholder (listed at the end) "
                   "instead of failing the build.")
@click.option("--printer", help="A printer profile (companion calibrate duplex): every back "
                                "page moved and turned so it lands on its front.")
@click.option("--layout", type=common.Named("layout", ("sheets", "gutterfold")),
              default="sheets", show_default=True,
              help="gutterfold: each front beside its back, mirrored about a fold line: "
                   "print single-sided, fold, cut.")
@click.option("--cutter", type=common.Named("cutter", _cutters),
              help="silhouette, cricut or laser: sheets for a cutting machine, with its "
                   "registration marks, and a cut file (SVG, DXF) for every sheet.")
@click.option("--kerf", help="With --cutter laser: the beam's kerf, e.g. 0.1mm.")
@click.option("--watch", is_flag=True,
              help="Stay running: rebuild whenever the data file, a spreadsheet or a picture it "
                   "uses is saved (Ctrl+C to stop).")
def build(game, paper, lang, card_size, bleed, flip, only, out, data, strict, changed_since,
          ink, draft, printer, layout, cutter, kerf, watch):
    """Build a game's print-and-play kit: PDFs, manifest.json and a print guide."""
    from pathlib import Path

    from companion import kit

    from companion.games import bundled

    games = list(bundled()) if game == "all" else [game]
    for option, value in (("--data", data), ("--changed-since", changed_since),
                          ("--watch", watch)):
        if value and game == "all":
            raise CompanionError(f"{option} works on one game; build one game with it",
                                 field=option)
    for name in games:
        kit.game_module(name)  # an unknown game fails before anything is drawn

    said: set[str] = set()  # in watch mode, the warnings already shown: said once

    def one(name: str) -> None:
        target = Path(out) / name if out and game == "all" else out
        opts = kit.Options(paper=paper, lang=lang, card_size=card_size, bleed=bleed, flip=flip,
                           only=split(only), out=target, data=data, strict=strict,
                           changed_since=changed_since, draft=draft, ink=ink,
                           printer=printer, layout=layout, cutter=cutter, kerf=kerf)
        warnings: list[str] = []
        with _Progress(name) as progress, _few_collections():
            manifest = kit.build(name, opts, progress, warnings.append)
        again = [line for line in warnings if line in said]
        for line in warnings:
            if line not in said:
                click.echo(f"companion: warning: {escape(line)}", err=True)
        if again:
            click.echo(f"companion: {len(again)} warning{'s' * (len(again) > 1)} as before",
                       err=True)
        if watch:
            said.clear()
            said.update(warnings)
        gid = manifest["game"]  # its id, when named by its file
        where = kit.folder(gid, opts)
        if changed_since and not manifest["changed"] and "swap" not in manifest:
            click.echo(f"{gid}: none of the {len(manifest['cards'])} cards changed since "
                       f"{changed_since}: nothing to reprint, {where}/ left as it was")
            return
        files = ", ".join(f"{f['path']} ({f['pages']} page{'s' * (f['pages'] != 1)})"
                          for f in manifest["files"])
        errata = ", errata.pdf, swap-list.txt" if "swap" in manifest else ""
        click.echo(f"{gid}: {where}/ {files + ', ' if files else ''}manifest.json, "
                   f"print-guide.txt{errata}")
        if changed_since:
            printed = sum(c["count"] for f in manifest["files"] for c in f["components"])
            click.echo(f"{printed} of {len(manifest['cards'])} cards changed since "
                       f"{changed_since}" + (": " + ", ".join(manifest["changed"])
                                             if manifest["changed"] else ""))

    if watch:
        from companion.files.watch import watch as watching

        watching(lambda: one(game), lambda t: click.echo(escape(t), err=True),
                 bundled=Path(str(kit.paths.LAYOUTS)))
        return
    for name in games:
        one(name)


class _Progress:
    """A progress bar on a terminal, nothing elsewhere."""

    def __init__(self, label: str):
        self.label, self.bar = label, None

    def __enter__(self):
        if sys.stderr.isatty():
            self.bar = click.progressbar(length=6, label=f"building {self.label}",
                                         file=sys.stderr, show_eta=False)
            self.bar.__enter__()
        return self

    def __call__(self, step: str) -> None:
        if self.bar:
            self.bar.label = f"building {self.label}: {step}"
            self.bar.update(1)

    def __exit__(self, *exc):
        if self.bar:
            self.bar.update(self.bar.length)
            self.bar.__exit__(*exc)


@contextmanager
def _few_collections():
    """A build makes many objects and few cycles: the collector need not walk every
    object imported at each pass, nor pass every 700 new objects (9% of a 2,000-card
    build's time, issue 36), nor walk the 100,000 a build keeps (2%, issue 41): its peak
    memory the same, 65 MB for 2,000 cards, 49 MB for Covenia's kit. All is as it was
    after the build."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(1_000_000, 50, 50)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
