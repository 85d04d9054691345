"""cards-pdf: for print shops that print a deck from a PDF, one PDF per component,
COMPONENT.pdf, one page per card face: front 1, back 1, front 2, back 2, ... Each page is
the trim plus --bleed (default 1/8 in) on every side, its TrimBox the trim and its
BleedBox the page; fonts embedded (companion.press.pdf.open_canvas). Every card of the deck is
there, a card printed n times n times (its faces drawn once, as forms); a card without a
back gets a blank back page, so fronts and backs stay paired."""

from companion.export import length, mm
from companion.export.face_pages import BLANK, Page, write_pdf

TAKES = {"bleed"}


def pages(deck, bleed: float) -> list[Page]:
    out = []
    for e in deck.entries:
        for _ in range(e.count):
            out.append(Page(e.front, deck.size, (bleed, bleed)))
            out.append(Page(e.back or BLANK, deck.size, (bleed, bleed)))
    return out


def write(ctx) -> dict:
    components = []
    done, total = 0, len(ctx.decks)
    for deck in ctx.decks:
        ctx.progress(done, total, deck.id)
        path = f"{deck.id}.pdf"
        deck_pages = pages(deck, ctx.bleed)
        write_pdf(ctx.stage / path, deck_pages, f"{ctx.kit.game_name}: {deck.title}",
                  ctx.kit.author, boxes=True)
        done += 1
        components.append({"id": deck.id, "title": deck.title, "path": path,
                           "cards": deck.cards, "pages": len(deck_pages),
                           "trim_mm": [mm(v) for v in deck.size], "bleed_mm": mm(ctx.bleed),
                           "faces": [{"id": e.id, "count": e.count} for e in deck.entries]})
    ctx.progress(done, total, "done")
    return {"bleed_mm": mm(ctx.bleed), "components": components}


def guide(ctx, manifest: dict) -> str:
    return ctx.word("cards-pdf", bleed=length(ctx.bleed, ctx.opts.lang))
