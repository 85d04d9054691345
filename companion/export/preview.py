"""preview: one contact sheet per component, COMPONENT.png, small enough for a web page:
each distinct face once, at a common scale (a poker card 120 pixels wide, so sizes
compare across components), labelled with its card's id and how many cards show it.

The sheet is itself a PDF page (the faces by their own draw, the labels by
companion.draw.text), rasterized like every other export; the PNG is palette-encoded
(256 colours), which keeps flat card art sharp at a fraction of the bytes."""

from math import ceil
from pathlib import Path

from companion.export import raster
from companion.export.face_pages import Page, write_pdf

TAKES: set[str] = set()
SCALE = 120 / 180  # pixels per point: a poker card (180 pt) 120 px wide
WIDEST = 1280  # pixels: the sheet's width at most
MARGIN, GAP, LABEL, TITLE = 16, 12, 18, 34  # pixels


def _face(face, size):
    """A face drawn at SCALE, its trim outlined, (0, 0) at its lower-left."""
    def draw(c, w, h, bleed):
        c.saveState()
        c.scale(SCALE, SCALE)
        clip = c.beginPath()
        clip.rect(0, 0, *size)
        c.clipPath(clip, stroke=0, fill=0)
        face.draw(c, *size, 0.0)
        c.restoreState()
        c.setStrokeGray(0.75)
        c.setLineWidth(0.5)
        c.rect(0, 0, w, h, stroke=1, fill=0)
    return draw


def sheet_draw(title: str, deck, faces: list, cols: int, cell: tuple[float, float],
               size: tuple[float, float]):
    """The whole contact sheet as one face: title, then the faces row by row."""
    from companion.draw import text

    W, H = size
    cw, ch = cell
    tw, th = deck.size[0] * SCALE, deck.size[1] * SCALE

    def draw(c, w, h, bleed):
        c.setFillGray(1)
        c.rect(0, 0, W, H, stroke=0, fill=1)
        c.setFillGray(0.1)
        text.line(c, title, MARGIN, H - MARGIN - 14, "bold", 15, max_w=W - 2 * MARGIN)
        for i, (face, label, count) in enumerate(faces):
            x = MARGIN + (i % cols) * (cw + GAP) + (cw - tw) / 2
            top = H - MARGIN - TITLE - (i // cols) * (ch + GAP)
            c.saveState()
            c.translate(x, top - th)
            _face(face, deck.size)(c, tw, th, 0)
            c.restoreState()
            c.setFillGray(0.15)
            text.line(c, f"{label}  ×{count}", MARGIN + (i % cols) * (cw + GAP) + cw / 2,
                      top - th - 13, "regular", 10.5, align="center", max_w=cw)
    return draw


def write(ctx) -> dict:
    from companion.draw.print_sheets import Face

    pages, jobs, components = [], [], []
    for deck in ctx.decks:
        faces = deck.faces()
        tw, th = deck.size[0] * SCALE, deck.size[1] * SCALE
        cw, ch = max(tw, 64), th + LABEL
        cols = max(1, min(len(faces), int((WIDEST - 2 * MARGIN + GAP) // (cw + GAP))))
        rows = ceil(len(faces) / cols)
        W = round(2 * MARGIN + cols * cw + (cols - 1) * GAP)
        W = max(W, 360)
        H = round(2 * MARGIN + TITLE + rows * ch + (rows - 1) * GAP)
        title = f"{ctx.kit.game_name} · {deck.title}: {deck.cards} cards, {len(faces)} faces"
        face = Face(sheet_draw(title, deck, faces, cols, (cw, ch), (W, H)))
        path = f"{deck.id}.png"
        jobs.append(raster.Job((path,), (W, H), (raster.Tile(len(pages), 0, 0, W, H),),
                               "png", palette=True))
        pages.append(Page(face, (W, H), (0.0, 0.0)))  # one point, one pixel
        components.append({"id": deck.id, "title": deck.title, "cards": deck.cards,
                           "path": path, "size_px": [W, H],
                           "faces": [{"label": label, "count": count}
                                     for _, label, count in faces]})
    with ctx.scratch() as tmp:
        pdf = Path(tmp) / "sheets.pdf"
        ctx.progress(0, len(jobs), "drawing sheets")
        write_pdf(pdf, pages, f"{ctx.kit.game_name}: previews", ctx.kit.author)
        sizes = raster.run(pdf, ctx.stage, jobs,
                           lambda done, total: ctx.progress(done, total, "sheets"))
    for comp, size in zip(components, sizes):
        comp["bytes"] = size
    return {"components": components}


def guide(ctx, manifest: dict) -> str:
    return ctx.word("preview")
