"""Building a game's print-and-play kit: whatever the game, the same files, manifest.json
and print guide. A game module supplies components (cards or pages); this module imposes,
draws, writes them atomically and describes them."""

import json
import re
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Callable

import msgspec
from msgspec import Struct, structs

from companion.draw import art
from companion.files import data as data_mod, json_text, kept, paths
from companion.kit import boxes, cut_files, drawings, errata, identity, printer, stamp, swap
from companion.press import cut_paths, gutterfold, presets, written
from companion.files.atomic import kit_folder
from companion.files.data import load_fields, load_toml, read_text
from companion.errors import CompanionError, shown
from companion.press.imposition import FLIPS, plan_grid
from companion.press.pdf import open_canvas
from companion.text import changes, fit
from companion.draw.print_sheets import Card, Face, SheetText, render
from companion.text.typography import number, typeset
from companion.engine.parts import (  # noqa: F401 (kit.PageFile...)
    CardFile, Component, Context, PageFile)
from companion.text.units import parse_length, to_mm

LANGS = ("en", "fr")  # ours; a game's file may be written in any other (de, it...)
INKS = ("normal", "saver")
LAYOUTS = ("sheets", "gutterfold")


class Options(Struct):
    paper: str = "a4"
    lang: str = "en"
    card_size: str = "poker"
    bleed: str = "0mm"
    flip: str = "long"
    only: list[str] | None = None
    out: Path | None = None
    data: Path | None = None
    strict: bool = False  # a text that breaks the text limits fails the build
    changed_since: Path | None = None  # an earlier build's manifest.json: print what changed
    draft: bool = False  # a missing picture prints as a labelled placeholder, not an error
    ink: str = "normal"  # "saver": light backs and pale grounds
    printer: str | None = None  # a printer profile (companion calibrate): backs corrected
    layout: str = "sheets"  # "gutterfold": fronts and backs on one page, folded
    cutter: str | None = None  # layouts/cutters.toml: marks, an area, cut files a sheet
    kerf: str | None = None  # a laser's kerf, e.g. 0.1mm (default: the cutter's)


def game_module(name: str):
    """The code of the game `name` names (a bundled game's id or a game file's path):
    its own module, or the one that draws any game from its file alone."""
    from companion import games
    from companion.games import drawn

    return games.find(name).module or drawn


def _check(opts: Options, game) -> None:
    if not re.fullmatch(r"[a-z]{2,3}", opts.lang or ""):
        raise CompanionError(f"{shown(opts.lang)} is not a language code: en, fr, or the "
                             "code of a language your game file is written in (de, it...)",
                             field="--lang")
    if game.bundled and opts.lang not in LANGS:
        raise CompanionError(f"{game.id} is written in {' and '.join(LANGS)}, not "
                             f"{shown(opts.lang)} (a game file of your own may be in any "
                             "language)", field="--lang")
    if opts.ink not in INKS:
        raise CompanionError(f"unknown ink {shown(opts.ink)} (use {', '.join(INKS)})",
                             field="--ink")
    if opts.layout not in LAYOUTS:
        raise CompanionError(f"unknown layout {shown(opts.layout)} (use "
                             f"{', '.join(LAYOUTS)})", field="--layout")
    if opts.layout == "gutterfold" and opts.printer:
        raise CompanionError("gutterfold needs no duplex, so no printer profile: build "
                             "without --printer", field="--printer")
    if opts.cutter is not None:
        cut_paths.cutter(opts.cutter)  # an unknown one fails here
        if opts.layout == "gutterfold" or opts.printer:
            raise CompanionError("a cutter's sheets are printed single-sided: build without "
                                 "--layout gutterfold and --printer", field="--cutter")
    if opts.kerf is not None and opts.cutter != "laser":
        raise CompanionError("a kerf is a laser's: give it with --cutter laser", field="--kerf")
    if opts.flip not in FLIPS:
        raise CompanionError(f"unknown flip {shown(opts.flip)} (use {', '.join(FLIPS)})",
                             field="--flip")


class Kit(Struct):
    """A game laid out for one build or export: its components, not yet drawn."""
    name: str
    opts: Options
    ctx: Context
    files: list  # CardFile and PageFile, --only applied
    game_name: str
    author: str  # the credits, as the PDFs' author
    at_size: Callable[[str], list] | None = None  # its files laid out at another card size
    # whether its layout may read the card's size (a game's own code; `card.w` or
    # `card.h` in its file): else it prints the same words at every size
    by_size: bool = True

    def card_components(self) -> list[tuple["CardFile", Component]]:
        return [(f, comp) for f in self.files if isinstance(f, CardFile) for comp in f.components]


def prepare(name: str, opts: Options) -> Kit:
    """Reads and checks everything a build or an export needs, and lays the game out; draws
    nothing, writes nothing."""
    from companion import games
    from companion.engine import coverage
    from companion.games import drawn

    game = games.find(name)
    _check(opts, game)
    data_mod.NO_TRANSLATION.clear()  # what has no translation is said once a build
    stamp.build_date()  # a bad SOURCE_DATE_EPOCH fails here, before anything is drawn
    page = presets.paper_size(opts.paper)
    card = presets.card_size(opts.card_size)
    data_path = Path(opts.data) if opts.data else game.path
    # A bundled game's file tells which columns a designer's spreadsheet for an edited
    # copy of it may and must have; a game of the designer's own takes any.
    bundled = games.bundled().get(game.id)
    template = load_toml(bundled) if bundled is not None and data_path != bundled else None
    data = load_fields(data_path, template=template)
    words = load_fields(paths.layout("strings.toml"), english=True)  # our words
    ctx = Context(data, opts.lang, page, card, opts.card_size, words,
                  Path.cwd() if str(data_path) == "-" else Path(data_path).parent)

    def lay_out(ctx: Context, check: bool = False) -> list:
        files = game.module.kit(ctx) if game.module else drawn.kit(ctx, game.id)
        # The game's parts, and the components its data declares ([components]).
        parts = list(game.parts) + [c.key for f in files for c in f.components
                                    if c.key not in game.parts]
        for key in (opts.only or []) if check else []:
            if key not in parts:
                raise CompanionError(f"unknown part {shown(key)} (use {', '.join(parts)})",
                                     field="--only")
        only = set(opts.only or parts)
        for f in files:
            f.components = [c for c in f.components if c.key in only]
        files = [f for f in files if f.components]
        for f in files:
            if isinstance(f, CardFile):
                f.components = [_stamped(ctx, comp, f.stock) for comp in f.components]
        return files

    game_info = data.sub("game")
    return Kit(game.id, opts, ctx, lay_out(ctx, check=True), game_info.get("name", str),
               _credits(game_info, opts.lang),
               lambda size: lay_out(structs.replace(ctx, card=presets.card_size(size),
                                                    card_name=size)),
               game.module is not None or coverage.reads_size(data.table))


def build(name: str, opts: Options, progress: Callable[[str], None] = lambda _: None,
          warn: Callable[[str], None] = lambda _: None) -> dict:
    """Builds one game's kit into opts.out (default output/GAME); returns the manifest.
    With opts.changed_since and no card changed, nothing is written (the manifest says
    "changed": []).
    Each text on a card that breaks the limits of presets.toml [text] is passed to `warn`
    (game, card, field, language); with opts.strict the build fails instead."""
    from companion.draw import card as faces_ink

    with faces_ink.ink_saver(opts.ink == "saver"):
        try:
            return _build(name, opts, progress, warn)
        except written.Dangling as e:  # our bug: said in one line, the kit drawn cold
            warn(e.line())
            if kept.in_process:  # what this process kept goes too
                kept.in_process.clear()
            with kept.drawn_cold():
                return _build(name, opts, progress, warn)


def folder(name: str, opts: Options) -> Path:
    """Where a build of the game `name` (its id) goes: --out, else output/GAME; a reprint
    (--changed-since) of only the changed cards never replaces the whole kit, so it goes
    to output/GAME-reprint."""
    if opts.out:
        return Path(opts.out)
    return paths.output() / (f"{name}-reprint" if opts.changed_since else name)


def _build(name: str, opts: Options, progress, warn) -> dict:
    from companion.engine import undefined

    # names a layout uses that nothing defines, noted as every face is drawn
    with undefined.noting() as notes:
        return _build_noted(name, opts, progress, warn, notes)


def _build_noted(name: str, opts: Options, progress, warn, notes) -> dict:
    from companion.engine import coverage

    kit = prepare(name, opts)
    ctx, page = kit.ctx, kit.ctx.page
    bleed = presets.bleed(opts.bleed)
    settings = presets.sheet_settings()
    # The digests draw every face: every missing picture is found here, not only the
    # first; with --draft they print as placeholders, else the build stops naming them.
    with art.logging(draft=True) as found:
        cards = card_list(kit, bleed)
    if found.missing and not opts.draft:
        raise art.missing_error(found)
    if found.outside and opts.strict:
        raise CompanionError(found.outside_line(), field="--strict")
    changed = None
    if opts.changed_since:
        earlier = errata.earlier(opts.changed_since, kit.name)
        changed = _keep_changed(kit, cards, {c["id"]: (c["front"], c["back"])
                                             for c in earlier.manifest["cards"]})
        if not changed and not any(p["cards"] for p in swap.plan(
                earlier.manifest["cards"], cards)):  # nothing to reprint, nothing to pull:
            return _unchanged(kit, cards)  # the kit folder, whole, is left as it is
    files = kit.files

    # Plan every sheet before writing anything: a card that cannot fit fails here.
    cutter = resolved(opts) if opts.cutter else None
    sheet_page = page if cutter is None else cut_paths.page_size(cutter, page)
    grids = {id(f): _fold_plan(f, opts, ctx, page, settings, bleed)
             if opts.layout == "gutterfold" else
             cut_files.plan(f, cutter, opts.paper, sheet_page, settings, bleed)
             if cutter is not None else
             plan_grid(*page, *f.size, settings, bleed, spaced=f.spaced, shape=f.shape)
             for f in files if isinstance(f, CardFile) and f.sheet is None}

    # A printer profile's correction, drawn into every back page.
    profile = printer.load(opts.printer, opts.flip) if opts.printer else None

    # A tuck box for each deck, planned (and its game's [boxes] checked) before anything
    # is written; a reprint of changed cards makes none.
    box_room = None if cutter is None else cut_paths.area(cutter, opts.paper, sheet_page)
    boxed = [] if opts.changed_since else boxes.plans(
        boxes.decks(files), ctx, box_room and (box_room.w, box_room.h))
    game_name, author = kit.game_name, kit.author
    version = stamp.text(ctx.data.sub("game").get("version", str, None))
    sheet = ctx.words.sub("sheet")
    name = kit.name  # the game's id, whether it was named by its id or its file's path
    out = folder(name, opts)
    manifest = {"game": name, "paper": opts.paper, "lang": opts.lang, "ink": opts.ink,
                "files": [],
                "cards": [{k: v for k, v in e.items() if k != "card"} for e in cards]}
    if ctx.data.sub("game").get("version", str, None):  # what an errata calls this printing
        manifest["version"] = ctx.data.sub("game").get("version", str)
    listed = cards  # the whole kit's cards (`cards` names each sheet's below)
    places: dict[str, dict] = {}
    if profile is not None:
        manifest["printer"] = printer.entry(profile, page, opts.flip)
    if cutter is not None:
        manifest["cutter"] = cut_paths.described(cutter, opts.paper, sheet_page)
    if opts.changed_since:
        manifest["changed_since"] = str(opts.changed_since)
        manifest["changed"] = changed  # the ids of the cards printed, in kit order
    # Each front's drawing is kept for the next build, by its digest, in a watching
    # process: a face unchanged since is not drawn again (companion.kit.drawings).
    # Kept in the cache folder too: a build of an unchanged game draws nothing again.
    keeping = not opts.changed_since
    digests = {id(e["card"]): e["front"] for e in cards} if keeping else {}
    context = json.dumps([kit.name, str(ctx.base), version,
                          msgspec.to_builtins(structs.replace(opts, out=None), enc_hook=str),
                          ctx.data.sub("game").get("stamp_corner", str, None)], default=str)
    with kit_folder(out) as stage, fit.recording(presets.text_limits()) as measured, \
            art.logging(opts.draft) as pictures:
        for f, parts in _by_path(files):
            progress(f.path)
            if isinstance(f, CardFile) and f.sheet is not None:  # labels: the sheet's paper
                c = open_canvas(stage / f.path, f.sheet.paper, f"{game_name}: {f.path}",
                                author)
                entry = _labels(c, f, measured, ctx, settings)
            elif isinstance(f, CardFile):
                folded = opts.layout == "gutterfold"
                flip = gutterfold.FLIP if folded else "none" if cutter else f.flip or opts.flip
                c = open_canvas(stage / f.path, sheet_page, f"{game_name}: {f.path}", author,
                                "none" if folded else flip)
                folded_places: list[dict] = []  # gutterfold: each face's place
                sheets: list[list] = []  # a cutter's: each front page's cut lines
                label_game = f"{game_name} {version}" if version else game_name
                words_ = SheetText(label_game, sheet.text("caption", opts.lang),
                                   sheet.text("label", opts.lang), sheet.text("back", opts.lang))
                pages = 0
                keeper = None if not keeping else drawings.Keeper(
                    context, f.path, c, measured, notes, pictures)
                for n, part in enumerate(parts):  # each size of the file on its own sheets
                    here = _fold_places(part, grids[id(part)], pages) if folded else []
                    folded_places += here
                    if not opts.changed_since:  # where each card lies, for a later errata
                        places.update(_fronts_of(here, part, grids[id(part)]) if folded
                                      else _places(part, grids[id(part)], flip, pages))
                    cards = [card for comp in part.components for card in _measured(
                        measured, _unfolded(comp, flip), digests)]
                    if n:  # a face shared by two sizes is drawn again at each
                        cards = _sized_keys(cards, part.size)
                    matrix = None if profile is None or flip == "none" else \
                        printer.correction(profile, page, flip)
                    overlay = None if cutter is None else partial(
                        cut_files.overlay, grids[id(part)], cutter, opts.paper, sheets)
                    pages += render(c, cards, grids[id(part)], flip, words_, keeper, matrix,
                                    folded, overlay)
                if keeper is not None:
                    keeper.commit()  # before saving: the save gives the fonts away
                entry = {"path": f.path, "pages": pages, "duplex": "none" if folded else flip,
                         "card_size": f.size_name}
                if folded:
                    entry |= {"layout": "gutterfold", "places": folded_places}
            else:
                c = open_canvas(stage / f.path, page, f"{game_name}: {f.path}", author)
                keeper = None if not keeping else drawings.Keeper(
                    context, f.path, c, measured, notes, pictures)
                pages = f.draw(c, keeper)  # a page is kept by its digest as a card face is
                if keeper is not None:
                    keeper.commit()
                entry = {"path": f.path, "pages": pages, "duplex": "none", "card_size": None}
            c.save()
            if cutter is not None and isinstance(f, CardFile):
                entry |= cut_files.files(stage, f, entry, cutter, opts.paper, sheets,
                                         sheet_page)
            entry["components"] = [
                {"id": comp.id, "count": comp.count}
                | ({"card_size": part.size_name} if len(parts) > 1 else {})
                for part in parts for comp in part.components]
            manifest["files"].append(entry)
        box_lines = []
        if boxed:
            progress(boxes.PATH)
            box_sheets: list = []
            pages = boxes.write(stage / boxes.PATH, boxed, ctx, game_name, author, sheet_page,
                                (box_room.x, box_room.y) if box_room else (0.0, 0.0),
                                cutter and partial(cut_files.box_overlay, cutter, opts.paper,
                                                   sheet_page, box_sheets))
            manifest["boxes"] = boxes.manifest(boxed, pages)
            # listed with the kit's files (no components: its cards are the decks')
            manifest["files"].append({"path": boxes.PATH, "pages": pages, "duplex": "none",
                                      "card_size": None, "components": []})
            if cutter is not None:
                manifest["files"][-1] |= {"cutter": cutter.key, "cuts": cut_files.write(
                    stage, boxes.PATH, box_sheets, cutter, opts.paper, sheet_page)}
            box_lines = boxes.guide(boxed, pages, ctx)
        for e in manifest["cards"]:
            if e["id"] in places:
                e["place"] = places[e["id"]]
        if opts.changed_since:  # what to pull from the decks, what to put in, and why
            progress(errata.PATH)
            errata.write(stage, manifest, earlier, listed, kit, game_name, author)
        (stage / "manifest.json").write_text(json_text.readable(manifest), encoding="utf-8")
        (stage / "print-guide.txt").write_text(
            print_guide(manifest, files, grids, ctx, opts, game_name, box_lines),
            encoding="utf-8")
        progress("manifest.json")
        problems = [p.line(name, opts.lang) for p in measured.problems()]
        if not opts.changed_since:  # a whole kit: every line of the full size on its cards
            problems += [p.line(name, opts.lang) for p in coverage.check(
                kit, measured, drawings.code_version() if keeping else "")]
        undefined_names = notes.lines()
        if undefined_names and opts.strict:
            raise CompanionError(f"{len(undefined_names)} names in the layout name nothing "
                                 f"defined, the first: {undefined_names[0]} (build without "
                                 "--strict to list them all)", field="--strict")
        if problems and opts.strict:
            raise CompanionError(f"{len(problems)} texts break the text limits or print on "
                                 f"no card of this size, the first: "
                                 f"{problems[0]} (build without --strict to list them all)",
                                 field="--strict")
    for line in undefined_names + problems + pictures.warnings():
        warn(line)
    if pictures.missing:
        warn(art.draft_line(pictures))
    return manifest


def resolved(opts: Options):
    """The build's cutter (layouts/cutters.toml) with its kerf as --kerf gives it."""
    return cut_paths.with_kerf(cut_paths.cutter(opts.cutter), None if opts.kerf is None
                               else parse_length(opts.kerf, field="--kerf"))


def _fold_plan(f: CardFile, opts: Options, ctx: Context, page, settings, bleed: float):
    """A gutterfold grid (press/gutterfold.py); pieces too big for half the paper are one
    line naming them, their size and the paper."""
    try:
        return gutterfold.plan(*page, *f.size, settings, bleed, spaced=f.spaced,
                               shape=f.shape)
    except CompanionError:
        w, h = (number(to_mm(v), ctx.lang) for v in f.size)
        paper = presets.table().sub("paper").sub(opts.paper).get("name", str)
        what = ", ".join(c.title for c in f.components)
        raise CompanionError(gutterfold.words().text("too_big", ctx.lang).format(
            what=what, w=w, h=h, paper=paper), field="--layout") from None


def _fronts_of(folded: list[dict], part: CardFile, grid) -> dict[str, dict]:
    """A gutterfold file's fronts as _places gives a sheet's (one page a sheet: the back
    is beside its front, not on the next page)."""
    return {p["card"]: {"file": part.path, "page": p["page"],
                        "box": [p["x"], p["y"], p["w"], p["h"]],
                        "turn": getattr(grid, "rotation", 0)}
            for p in folded if p["side"] == "front"}


def _fold_places(part: CardFile, grid, first_page: int) -> list[dict]:
    """Each face's place on a gutterfold file's pages: card, side, page (from 1), x, y, w,
    h in points."""
    ids = [f"{comp.id}/{cid}" for comp in part.components
           for cid in identity.card_ids(comp.cards)]
    backs = [card.back is not None for comp in part.components for card in comp.cards]
    per, out = grid.per_sheet, []
    for n, (card_id, has_back) in enumerate(zip(ids, backs)):
        front, back = gutterfold.places(grid, n % per + 1)[-1]
        page = first_page + n // per + 1
        for side, placed in (("front", front), ("back", back))[:1 + has_back]:
            b = placed.box
            out.append({"card": card_id, "side": side, "page": page, "x": round(b.x, 3),
                        "y": round(b.y, 3), "w": round(b.w, 3), "h": round(b.h, 3)})
    return out


def _labels(c, f: CardFile, measured, ctx: Context, settings) -> dict:
    """A label sheet's file: its alignment page, then every face on its label; its
    manifest entry lists each face's place."""
    from companion.draw import labels

    cards, components, ids = [], [], []
    for comp in f.components:
        comp = _unfolded(comp, "none")  # a second side's words: a label of its own
        cards += _measured(measured, comp)
        components += [comp.id] * len(comp.cards)
        ids += identity.card_ids(comp.cards)
    a = ctx.words.sub("align")
    words = labels.AlignWords(a.text("title", ctx.lang), a.text_list("lines", ctx.lang),
                              ctx.words.sub("sheet").text("caption", ctx.lang))
    pages, places = labels.render(c, cards, f.sheet, words, settings.calibration_bar,
                                  components, ids)
    return {"path": f.path, "pages": pages, "duplex": "none", "card_size": f.size_name,
            "sheet": f.sheet.key, "places": places}


def _by_path(files: list) -> list[tuple]:
    """The kit's files by path, in order: (the first, [each part written to it]). A file
    holding components of several sizes is one CardFile a size."""
    out: dict[str, list] = {}
    for f in files:
        out.setdefault(f.path, []).append(f)
    return [(parts[0], parts) for parts in out.values()]


def _sized_keys(cards: list[Card], size: tuple[float, float]) -> list[Card]:
    """The cards with their faces' keys naming the size: a sheet draws a keyed face once,
    as a form, and a second size in the same PDF needs its own."""
    def sized(face):
        if face is None or face.key is None:
            return face
        return structs.replace(face, key=f"{face.key}@{size[0]:.2f}x{size[1]:.2f}")
    return [structs.replace(c, front=sized(c.front), back=sized(c.back)) for c in cards]


def card_list(kit: Kit, bleed: float) -> list[dict]:
    """Every card of the kit: {"id": "COMPONENT/ID", "component", "front", "back" (digests
    of what draws each face), "card": the Card}. A face shared by a key is drawn once."""
    out, shared = [], {}

    def digest(face, size):
        if face is None:
            return None
        if face.key is None:
            return identity.digest(face, *size, bleed)
        if (face.key, size) not in shared:
            shared[face.key, size] = identity.digest(face, *size, bleed)
        return shared[face.key, size]

    for f, comp in kit.card_components():
        for card, cid in zip(comp.cards, identity.card_ids(comp.cards)):
            out.append({"id": f"{comp.id}/{cid}", "component": comp.id,
                        "name": card.id or cid,  # its copies' name (the swap list's)
                        "front": digest(card.front, f.size), "back": digest(card.back, f.size),
                        "fields": {k: changes.plain(v) for k, v in (card.fields or {}).items()},
                        "card": card})
    return out


def _unchanged(kit: Kit, cards: list[dict]) -> dict:
    """The manifest of a --changed-since build in which no card changed: written nowhere."""
    opts = kit.opts
    return {"game": kit.name, "paper": opts.paper, "lang": opts.lang, "ink": opts.ink,
            "files": [], "cards": [{k: v for k, v in e.items() if k != "card"} for e in cards],
            "changed_since": str(opts.changed_since), "changed": []}


def _keep_changed(kit: Kit, cards: list[dict], earlier: dict[str, tuple]) -> list[str]:
    """Only the cards whose front or back differs from the earlier build (or is new);
    returns their ids. Of a card given many times (its copies, one object), as many
    copies as changed."""
    news = [e for e in cards if earlier.get(e["id"]) != (e["front"], e["back"])]
    changed = Counter(id(e["card"]) for e in news)
    for f in kit.files:
        if isinstance(f, CardFile):
            for comp in f.components:
                comp.cards = [c for c in comp.cards if _take(changed, id(c))]
                comp.count = len(comp.cards)
            f.components = [c for c in f.components if c.cards]
    kit.files = [f for f in kit.files if isinstance(f, CardFile) and f.components]
    return [e["id"] for e in news]


def _take(left: Counter, key) -> bool:
    """One of the copies still to print under `key`, taken."""
    if left[key] <= 0:
        return False
    left[key] -= 1
    return True


def _places(part: CardFile, grid, flip: str, pages_before: int) -> dict[str, dict]:
    """Where each card of a file's part lies in its PDF: {card id: {"file", "page" (its
    front's, from 1), "box": [x, y, w, h] (points, from the page's lower left, the trim),
    "turn" (degrees anticlockwise)}}: arithmetic on the grid, as render places them."""
    per, sides = grid.per_sheet, 1 if flip == "none" else 2
    out, n = {}, 0
    for comp in part.components:
        for cid in identity.card_ids(comp.cards):
            box = grid.front(n % per).box
            out.setdefault(f"{comp.id}/{cid}", {
                "file": part.path, "page": pages_before + (n // per) * sides + 1,
                "box": [round(v, 3) for v in (box.x, box.y, box.w, box.h)],
                "turn": grid.rotation})
            n += 1
        n += len(_unfolded(comp, flip).cards) - len(comp.cards)  # second sides, after
    return out


def stamp_said(ctx: Context) -> tuple[str, str] | None:
    """What the version stamp prints and in which corner, or None for a game without a
    version. No part of a face's digest (see _stamped): what keeps a face's pixels by its
    digest (the exports' kept pictures) keys them by this too."""
    game = ctx.data.sub("game")
    words = stamp.text(game.get("version", str, None))
    if words is None:
        return None
    return words, game.get("stamp_corner", str, presets.table().sub("stamp").get("corner", str))


def _stamped(ctx: Context, comp: Component, stock: str) -> Component:
    """The component with the version stamp on every card front, if the game has one and
    the stock takes it (presets' [stamp] stocks: not small round tokens). Stamped when the
    kit is laid out, so that every output (the sheets, every export) carries it."""
    said = stamp_said(ctx)
    s = presets.table().sub("stamp")
    if said is None or stock not in s.get("stocks", list):
        return comp
    words, corner = said
    draw = partial(stamp.stamped, words=words, corner=corner,
                   inset=parse_length(s.get("inset", str), field="stamp.inset"),
                   size=parse_length(s.get("size", str), field="stamp.size"))
    # One rule for every component: the stamp tells printings apart, so it is no part of a
    # front's digest (--changed-since): a version bump alone reprints nothing. A face the
    # engine digests without drawing has such a digest already; any other (a kind with an
    # image element, a game module's face) is digested as drawn before it is stamped.
    return structs.replace(comp, cards=[
        structs.replace(c, front=structs.replace(
            c.front, draw=draw(c.front.draw),
            digest=c.front.digest or partial(identity.digest, c.front)))
        for c in comp.cards])


def _unfolded(comp: Component, flip: str) -> Component:
    """Built without backs (--flip none), a component whose backs are second sides gets
    them as faces of their own, after its fronts: nothing it says is lost."""
    if flip != "none" or not comp.second_sides:
        return comp
    seconds = [Card(c.component, c.back, None, f"{c.id}-back" if c.id else None)
               for c in comp.cards if c.back is not None]
    return structs.replace(comp, cards=[structs.replace(c, back=None) for c in comp.cards]
                           + seconds)


def _measured(rec: fit.Recorder, comp: Component, digests: dict | None = None) -> list[Card]:
    """The component's cards with each face's texts recorded under the card's name
    (a face shared by many cards, drawn once, under its key); with `digests` (id of a
    card -> its front's digest), each front kept under its digest and its name."""
    def label(face: Face, n: int, side: str) -> str:
        return f"{comp.id} {face.key}" if face.key else f"{comp.id} {n} {side}"

    out, same = [], {}  # a card given again (its copies): its faces named by their keys
    for n, card in enumerate(comp.cards, 1):
        if id(card) in same:
            out.append(same[id(card)])
            continue
        name = label(card.front, n, "front")
        digest = (digests or {}).get(id(card))
        front = structs.replace(card.front, draw=rec.wrap(card.front.draw, name),
                                kept=None if digest is None else f"{digest} {name}")
        back = card.back and structs.replace(card.back,
                                             draw=rec.wrap(card.back.draw,
                                                           label(card.back, n, "back")))
        out.append(structs.replace(card, front=front, back=back))
        if card.front.key and (card.back is None or card.back.key):  # named alike at any n
            same[id(card)] = out[-1]
    return out


def print_guide(manifest: dict, files: list, grids: dict, ctx: Context, opts: Options,
                game_name: str, box_lines: list[str] = ()) -> str:
    g = ctx.words.sub("guide")
    t = lambda key, **kw: g.text(key, ctx.lang).format(**kw)  # noqa: E731
    stock = ctx.words.sub("stock")
    paper_name = presets.table().sub("paper").sub(opts.paper).get("name", str)
    lines = [t("title", game=game_name), "", t("intro", paper=paper_name), ""]
    for (f, parts), entry in zip(_by_path(files), manifest["files"]):
        lines.append(t("file_one" if entry["pages"] == 1 else "file", path=entry["path"],
                       pages=entry["pages"]))
        lines.append("  " + (gutterfold.words().text("guide", ctx.lang)
                             if entry.get("layout") == "gutterfold"
                             else t(f"duplex_{entry['duplex']}")))
        for part in parts:  # each size of the file
            if isinstance(part, CardFile) and part.sheet is not None:
                w, h = (number(to_mm(v), ctx.lang) for v in part.size)
                lines.append("  " + t("labels", sheet=part.sheet.name, w=w, h=h,
                                      per=part.sheet.per_sheet))
            elif isinstance(part, CardFile):
                grid = grids[id(part)]
                named = part.size_name in presets.card_names()  # "poker", not 38x38mm
                w, h = (number(to_mm(v), ctx.lang) for v in part.size)
                lines.append("  " + t("size_named" if named else "size", name=part.size_name,
                                      w=w, h=h, per=grid.per_sheet,
                                      what=ctx.words.sub("pieces").text(part.stock, ctx.lang)))
                if part.shape is not None:  # hex tiles, round tokens: a line to cut along
                    lines.append("  " + t("cut_shape", shape=ctx.words.sub("shapes").text(
                        part.shape.kind, ctx.lang)))
            if part is f or part.stock != f.stock:
                lines.append("  " + t("stock", stock=stock.text(part.stock, ctx.lang)))
        components = [c for part in parts for c in part.components]
        items = ", ".join(f"{c.count} × {c.title}" for c in components)
        lines.append("  " + t("yields", items=items))
        seconds = [c.title for c in components if c.second_sides]
        if entry["duplex"] == "none" and isinstance(f, CardFile) and seconds:
            lines.append("  " + t("second_sides", items=", ".join(seconds)))
        lines.append("")
    lines += box_lines
    if opts.cutter:
        lines += cut_files.guide(manifest, resolved(opts), ctx.lang)
    if opts.printer and "printer" in manifest:
        lines += printer.guide(printer.load(opts.printer, opts.flip),
                               presets.bleed(opts.bleed), ctx.lang)
    if any(e["duplex"] != "none" for e in manifest["files"]):
        lines += [t("check"), ""]
    lines += [t("ink_saver" if opts.ink == "saver" else "ink_normal"), ""]
    todo = [(c.title, p) for f in files for c in f.components for p in c.placeholders]
    if todo:
        lines.append(t("placeholders"))
        for (title, p), n in Counter(todo).items():
            lines.append(typeset(f"  - {title}: {p}", ctx.lang) + (f" (× {n})" if n > 1 else ""))
        lines.append("")
    notes = ctx.data.sub("guide") if isinstance(ctx.data.table.get("guide"), dict) else None
    if notes is not None and "notes" in notes.table:  # the game's own: [guide] notes
        lines.append(t("notes_head"))
        lines += [f"  - {note}" for note in notes.text_list("notes", ctx.lang)]
        lines.append("")
    credits = _credits(ctx.data.sub("game"), ctx.lang)
    if credits:
        lines += [t("credits_head"), credits, ""]
    return "\n".join(lines)


def _credits(game_info, lang: str) -> str:
    """The game's authors, as [game] credits gives them: optional (they print only in the
    guide and the PDFs' author)."""
    return game_info.text("credits", lang) if "credits" in game_info.table else ""
