"""png: one picture per face with its bleed, RGB without alpha, at --dpi (default 300)
or at the exact size a print shop publishes for the card (--shop, companion/layouts/shops.toml).
Files: COMPONENT/ID-front.png and COMPONENT/ID-back.png, or COMPONENT/back.png for a back
the whole component shares. Each distinct face is drawn and encoded once, whatever
number of files show it.

The faces are drawn one per page into a PDF (the sheets' own face.draw), which pypdfium2
renders page by page at exactly each picture's size, on every core. Exported again into the
same folder, a face unchanged since (its digest, its picture's size and settings) is not
drawn again: its file is taken from the last export (companion.export.reuse)."""

from companion.errors import CompanionError
from companion.export import length, mm, raster, reuse, shops
from companion.export.face_pages import Page, safe

TAKES = {"bleed", "dpi", "shop"}
MAX_PIXELS = 50_000_000  # one picture; RGB, 150 MB in memory while it is encoded


def pictures(ctx) -> dict[str, shops.Picture]:
    """Each component's picture size: with --shop, the shop's picture of the size the
    component is (the one --card-size names, else another it lists; export.plan left out
    any other), a landscape deck on a portrait picture turned onto it (Picture.turned);
    else the trim and --bleed at --dpi."""
    out = {}
    for deck in ctx.decks:
        if ctx.shop_card is None:
            out[deck.id] = shops.picture(deck.size, ctx.bleed, ctx.dpi)
            continue
        listed = ctx.shop.listed(deck.size, ctx.shop_card)
        if listed is None:  # export.plan keeps none such: a guard
            raise CompanionError(f"{deck.id} pieces are a size {ctx.shop.name} does not list "
                                 f"(it lists {ctx.shop.sizes()})", field="--shop")
        card, turned = listed
        W, H = card.image
        w, h = deck.size[::-1] if turned else deck.size
        bleed = ((W * shops.POINTS_PER_INCH / ctx.dpi - w) / 2,
                 (H * shops.POINTS_PER_INCH / ctx.dpi - h) / 2)
        out[deck.id] = shops.Picture(deck.size, (max(0.0, bleed[0]), max(0.0, bleed[1])),
                                     (W, H), turned)
    return out


def check(ctx) -> None:
    for deck_id, pic in pictures(ctx).items():
        w, h = pic.px
        if w * h > MAX_PIXELS:
            raise CompanionError(f"{deck_id} faces would be {w} x {h} pixels at {ctx.dpi} dpi, "
                                 f"over {MAX_PIXELS // 1_000_000} million: ask fewer dpi",
                                 field="--dpi")


def write(ctx) -> dict:
    pics = pictures(ctx)
    pages: list[Page] = []
    sizes: list[tuple[int, int]] = []
    files: list[list[str]] = []
    index: dict[tuple, int] = {}

    def add(face, pic: shops.Picture, path: str) -> None:
        page = Page(face, pic.trim, pic.bleed, pic.turned)
        if page.key not in index:
            index[page.key] = len(pages)
            pages.append(page)
            sizes.append(pic.px)
            files.append([])
        if path not in files[index[page.key]]:
            files[index[page.key]].append(path)

    components = []
    for deck in ctx.decks:
        pic = pics[deck.id]
        shared = deck.shared_back
        cards = []
        for e in deck.entries:
            front = f"{deck.id}/{safe(e.id)}-front.png"
            add(e.front, pic, front)
            back = None
            if e.back is not None:
                back = f"{deck.id}/back.png" if shared else f"{deck.id}/{safe(e.id)}-back.png"
                add(e.back, pic, back)
            cards.append({"id": e.id, "count": e.count, "front": front, "back": back})
        components.append({"id": deck.id, "title": deck.title, "cards": deck.cards,
                           "size_px": list(pic.px), "trim_mm": [mm(v) for v in pic.trim],
                           "bleed_mm": [mm(v) for v in pic.bleed], "turned": pic.turned,
                           "back": f"{deck.id}/back.png" if shared else None,
                           "faces": cards}
                          # a hex tile's, a round token's picture: its bounding rectangle
                          | ({"shape": deck.shape} if deck.shape else {}))

    jobs = [raster.Job(tuple(files[i]), sizes[i], (raster.Tile(i, 0, 0, *sizes[i]),),
                       "png", ctx.dpi) for i in range(len(pages))]
    reuse.run(ctx, pages, jobs, "faces")  # a face unchanged since the last export: its file
    return {"dpi": ctx.dpi, "shop": ctx.shop.key if ctx.shop else None,
            "faces": len(pages), "components": components}


def guide(ctx, manifest: dict) -> str:
    if ctx.shop:
        card = ctx.shop_card
        size = ctx.word("png-shop", shop=ctx.shop.name, card=card.name, trim=card.trim_text,
                        w=card.image[0], h=card.image[1], dpi=ctx.dpi,
                        words=shops.words(ctx.shop.key, ctx.opts.lang))
    else:
        size = ctx.word("png-size", dpi=ctx.dpi, bleed=length(ctx.bleed, ctx.opts.lang))
    turned = [ctx.word("png-turned", component=c["title"], shop=ctx.shop.name,
                       card=ctx.shop_card.name)
              for c in manifest["components"] if c["turned"]]
    shaped = [ctx.word("png-shape", component=c["title"])
              for c in manifest["components"] if c.get("shape")]
    left = [ctx.word("png-left-out", component=c["title"], shop=ctx.shop.name,
                     size=" x ".join(f"{v:g}" for v in c["size_mm"]))
            for c in ctx.left_out]
    return "\n".join([ctx.word("png"), "", size] + turned + shaped + left)
