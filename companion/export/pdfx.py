"""pdfx: PDF/X-1a:2003 files for the print shops that print decks from them (--shop,
DriveThruCards by default: companion/layouts/shops.toml). One PDF per component,
COMPONENT.pdf, one card face a page in the order the shop asks (its `press.order`:
DriveThruCards' back 1, front 1, back 2, front 2, ...); each page the shop's card page (the
trim and its bleed on every side: poker 2.75 x 3.75 in), its TrimBox the card, its
BleedBox the page; colours within the shop's ink limit and black rule
(companion.press.ink).

The faces are drawn as the cards-pdf export draws them, in RGB, then made PDF/X by
companion.press.pdfx (CMYK through the profile, transparency flattened, an output intent)
and checked by companion.press.preflight before anything is written: a file that breaks a
rule is not written, the export stops naming the rule."""

import msgspec.structs as structs

from companion.errors import CompanionError
from companion.kit import stamp
from companion.press import presets
from companion.text import fit
from companion.export import length, mm, png
from companion.export.face_pages import BLANK, Page, write_pdf

TAKES = {"shop", "icc"}
DEFAULT_SHOP = "drivethrucards"


def _intent(ctx):
    from companion.export import shops
    from companion.press.pdfx import Intent

    entry = shops.table().sub("shop").sub(ctx.shop.key)
    if "pdfx" not in entry.table:
        raise CompanionError(f"{ctx.shop.name} takes no PDF/X files (use --shop "
                             f"{DEFAULT_SHOP})", field="--shop")
    if ctx.shop.press is None:
        raise entry.error("press", "missing: the shop's page order and ink rules")
    pdfx = entry.sub("pdfx")
    return Intent(pdfx.get("condition", str), pdfx.get("info", str))


def rules(ctx):
    """The shop's ink rules, with the game's own ink colours (its `inks`, if any)."""
    from companion.press import ink

    press = ctx.shop.press
    return ink.Rules(press.ink_limit, press.rich_black, press.black_lightness,
                     press.black_chroma, frozenset(game_inks(ctx)))


def game_inks(ctx) -> list[tuple[int, int, int]]:
    """The colours a game names as printed in black ink alone (`[press] inks`: its
    colours' names, as [game] gives them, or #RRGGBB), as (r, g, b) 0..255."""
    data = ctx.kit.ctx.data.table
    press = data.get("press", {})
    palette = data.get("game", {})
    out = []
    for value in press.get("inks", []) if isinstance(press, dict) else []:
        text = str(palette.get(value, value) if isinstance(palette, dict) else value)
        if len(text) == 7 and text.startswith("#"):
            try:
                out.append(tuple(int(text[i:i + 2], 16) for i in (1, 3, 5)))
            except ValueError:
                pass
    return out


def _profile(ctx):
    from companion.press import cmyk

    return cmyk.load(ctx.opts.icc)


def check(ctx) -> None:
    _intent(ctx)
    _profile(ctx)  # a designer's profile read (bounded) and refused before anything is written
    png.pictures(ctx)  # each deck fits the shop's page
    _bounded(ctx)


def _bounded(ctx) -> None:
    """Each file within what the shop takes (its `most_cards`) and its distinct faces within
    what one check reads: refused here, before any face is drawn, naming the component."""
    from companion.export.face_pages import face_key
    from companion.press import preflight

    most = ctx.shop.press.most_cards
    for deck in ctx.decks:
        if deck.cards > most:
            raise CompanionError(f"{deck.id}: {deck.cards:,} cards, over the {most:,} one "
                                 f"{ctx.shop.name} file holds (companion/layouts/shops.toml):"
                                 " split it into components", field="pdfx")
        faces = {face_key(f) for e in deck.entries for f in (e.front, e.back or BLANK)}
        if len(faces) > preflight.MAX_PAGES:
            raise CompanionError(f"{deck.id}: {len(faces):,} different faces, over the "
                                 f"{preflight.MAX_PAGES:,} one file's check reads: split it "
                                 "into components", field="pdfx")


def write(ctx) -> dict:
    from companion.press import cmyk, pdfx, preflight

    intent = _intent(ctx)
    conv = cmyk.Converter(_profile(ctx), rules(ctx))
    if ctx.opts.icc is not None:  # her press's condition, not the shop's: named by her profile
        intent = pdfx.Intent("Custom", conv.profile.description, registry="")
    pics = png.pictures(ctx)
    components = []
    warnings: list[str] = []
    total = len(ctx.decks)
    with ctx.scratch() as work:
        for done, deck in enumerate(ctx.decks):
            ctx.progress(done, total, deck.id)
            pic = pics[deck.id]
            distinct: list[Page] = []
            labels: list[str] = []
            index: dict = {}
            cards: list[tuple[int, int, int]] = []
            for e in deck.entries:  # one pass: each face's key made once
                sides = []
                for face, label in ((e.front, e.id), (e.back or BLANK, f"{e.id} back")):
                    page = Page(face, pic.trim, pic.bleed, pic.turned)
                    at = index.get(page.key)
                    if at is None:
                        at = index[page.key] = len(distinct)
                        distinct.append(page)
                        labels.append(label)
                    sides.append(at)
                cards.append((sides[0], sides[1], e.count))
            order = ctx.shop.press.pages(cards)  # the shop's page order
            title = f"{ctx.kit.game_name}: {deck.title}"
            rgb = work / f"{deck.id}-rgb.pdf"
            # no forms: each face drawn on its page (see faces.draw_pages); its texts
            # measured against the shop's safe zone as they are drawn
            with fit.recording(presets.text_limits()) as measured:
                measured_pages = [structs.replace(p, face=structs.replace(
                    p.face, draw=measured.wrap(p.face.draw, f"{deck.id} {labels[i]}")))
                    for i, p in enumerate(distinct)]
                write_pdf(rgb, measured_pages, title, ctx.kit.author, boxes=True,
                          forms=False)
            warnings += _safe_zone(ctx, measured)
            try:  # the distinct faces, each a page, converted and checked once
                data, reports = pdfx.convert(rgb.read_bytes(), conv, intent, title,
                                             ctx.shop.dpi, created=stamp.build_time())
            except pdfx.Unsupported as e:
                raise CompanionError(f"{deck.id}: cannot be made PDF/X-1a: {e}",
                                     field="pdfx") from None
            bleed = min(pic.bleed)
            problems = preflight.check(data, bleed=bleed, ink_limit=conv.rules.limit)
            if problems:
                raise CompanionError(f"{deck.id}.pdf would not pass the preflight: "
                                     f"{problems[0]}"
                                     + (f" (and {len(problems) - 1} more)"
                                        if len(problems) > 1 else ""), field="pdfx")
            data = pdfx.ordered(data, order)  # then put in the shop's order, in one pass
            path = f"{deck.id}.pdf"
            (ctx.stage / path).write_bytes(data)
            flattened = [{"face": labels[i], "blended": r.blended, "regions": r.regions}
                         for i, r in enumerate(reports) if r.blended or r.regions]
            components.append({"id": deck.id, "title": deck.title, "path": path,
                               "cards": deck.cards, "pages": len(order),
                               "trim_mm": [mm(v) for v in pic.trim],
                               "bleed_mm": [mm(v) for v in pic.bleed], "turned": pic.turned,
                               "flattened": flattened,
                               "faces": [{"id": e.id, "count": e.count}
                                         for e in deck.entries]})
    ctx.progress(total, total, "done")
    return {"shop": ctx.shop.key, "pdfx": pdfx.PDFX_VERSION,
            "page_order": ctx.shop.press.order, "ink_limit": round(conv.rules.limit * 100),
            "output_condition": intent.condition, "profile": conv.profile.description,
            "profile_source": conv.profile.source, "dpi": ctx.shop.dpi,
            "components": components,
            "warnings": warnings}


def _safe_zone(ctx, measured) -> list[str]:
    """Each text inside the shop's safe zone, a line naming its card; under --strict the
    first refuses the export."""
    problems = measured.safe_zone(ctx.shop.press.safe, ctx.shop.name)
    lines = [f"{p.face} · {p.field}: {p.what} (“{p.text[:40]}”)" for p in problems]
    if lines and ctx.opts.strict:
        raise CompanionError(lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1
                                         else ""), field="--strict")
    return lines


def guide(ctx, manifest: dict) -> str:
    lang = ctx.opts.lang
    lines = [ctx.word("pdfx", shop=ctx.shop.name, condition=manifest["output_condition"],
                      profile=manifest["profile"], order=ctx.word(f"pdfx-{ctx.shop.press.order}"),
                      ink=manifest["ink_limit"],
                      bleed=length(min(manifest_bleed(manifest)), lang))]
    for c in manifest["components"]:
        if c["flattened"]:
            faces = ", ".join(f["face"] for f in c["flattened"])
            lines.append(ctx.word("pdfx-flattened", component=c["title"], faces=faces,
                                  dpi=manifest["dpi"]))
        if c["turned"]:
            lines.append(ctx.word("png-turned", component=c["title"], shop=ctx.shop.name,
                                  card=ctx.shop_card.name))
    return "\n".join(lines)


def manifest_bleed(manifest: dict) -> list[float]:
    return [v * 72 / 25.4 for c in manifest["components"] for v in c["bleed_mm"]] or [0.0]
