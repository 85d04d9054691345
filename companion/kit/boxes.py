"""boxes.pdf of a kit: a tuck box for each deck, sized to it (companion.press.tuck_box),
drawn by companion.draw.boxes; what the manifest and the print guide say of them. Only
vector lines and a few words a box: a kit without decks gets no file and no work."""

from companion.errors import CompanionError, shown
from companion.press import tuck_box
from companion.text.typography import number
from companion.text.units import parse_length, to_mm

PATH = "boxes.pdf"


def decks(files: list) -> list[tuple]:
    """(CardFile, Component) for each component that gets a box: its own `box`, else a
    component of cards (not tokens, not labels) of smallest_deck cards or more."""
    s = tuck_box.settings()
    out = []
    for f in files:
        for comp in getattr(f, "components", []):
            if not hasattr(f, "size"):
                continue  # pages: no box
            deck = f.stock == "cards" and getattr(f, "sheet", None) is None \
                and len(comp.cards) >= s.smallest_deck
            if (comp.box if comp.box is not None else deck) and comp.cards:
                out.append((f, comp))
    return out


def _game_length(data, key: str, default: float, most: float, least: float = 0.0) -> float:
    """[boxes] `key` of the game file, bounded."""
    if "boxes" not in data.table:
        return default
    t = data.sub("boxes")
    if key not in t.table:
        return default
    try:
        value = parse_length(t.get(key, str), field=key)
    except CompanionError as e:
        raise t.error(key, e.message) from None
    if not least <= value <= most:
        raise t.error(key, f"{shown(t.get(key, str))} is out of range: from "
                           f"{to_mm(least):g} to {to_mm(most):g} mm")
    return value


def plans(boxed: list, ctx) -> list[tuple]:
    """(component, its plan, its card size) for each box, checked before anything is
    drawn."""
    s = tuck_box.settings()
    data = ctx.data
    if "boxes" in data.table:
        for k in data.sub("boxes").table:
            if k not in ("card_thickness", "clearance"):
                raise data.sub("boxes").error(k, "unknown key (use card_thickness, clearance)")
    thick = _game_length(data, "card_thickness", s.card_thickness, s.thickest_card, 0.01)
    clear = _game_length(data, "clearance", s.clearance, s.widest_clearance)
    return [(comp, tuck_box.plan(tuck_box.box_for(f.size, len(comp.cards), thick, clear, s),
                                 ctx.page, s), f.size)
            for f, comp in boxed]


def write(path, planned: list, ctx, game_name: str, author: str) -> int:
    """Every box's pieces, one a page; returns the pages."""
    from companion.draw import boxes as draw
    from companion.press.pdf import open_canvas

    s = tuck_box.settings()
    b = ctx.words.sub("box")
    lang = ctx.lang
    c = open_canvas(path, ctx.page, f"{game_name}: {PATH}", author)
    pages = 0
    for comp, plan, size in planned:
        back = _shared_back(comp)
        inside = b.text("inside", lang).format(**_mm(plan.box, lang))
        for n, (piece, at) in enumerate(zip(plan.pieces, plan.places), 1):
            words = draw.BoxWords(game_name, comp.title,
                                  b.text("cards", lang).format(n=len(comp.cards)), inside,
                                  b.text("legend", lang), b.text("glue", lang),
                                  b.text("part", lang).format(n=n, total=len(plan.pieces))
                                  if plan.split else "")
            if at is None:  # too big even in two: drawn from the corner, said in the guide
                at = tuck_box.Placement(0, 0, False)
            draw.page(c, piece, at, s, words, back, size)
            c.showPage()
            pages += 1
    c.save()
    return pages


def _shared_back(comp):
    """The back every card of the component shows (one key, or the one face), if any."""
    backs = {(b.key or id(b)) if b is not None else None for b in (c.back for c in comp.cards)}
    return comp.cards[0].back if len(backs) == 1 else None


def _mm(box, lang: str) -> dict:
    return {k: number(round(to_mm(v), 1), lang) for k, v in
            (("w", box.w), ("h", box.h), ("d", box.d))}


def manifest(planned: list, pages: int) -> list[dict]:
    """Each box: its component, cards, inside (mm), and where it is in boxes.pdf: its
    first page and how many pieces (a page each); `fits`: false if a piece is larger
    than the paper even split in two."""
    out, page = [], 1
    for comp, plan, _ in planned:
        out.append({"component": comp.id, "cards": len(comp.cards),
                    "inner_mm": [round(to_mm(v), 2) for v in (plan.box.w, plan.box.h,
                                                               plan.box.d)],
                    "path": PATH, "page": page, "pieces": len(plan.pieces), "fits": plan.fits})
        page += len(plan.pieces)
    assert page - 1 == pages
    return out


def guide(planned: list, pages: int, ctx) -> list[str]:
    g = ctx.words.sub("guide")
    t = lambda key, **kw: g.text(key, ctx.lang).format(**kw)
    lines = [t("file_one" if pages == 1 else "file", path=PATH, pages=pages),
             "  " + t("duplex_none"), "  " + t("boxes")]
    for comp, plan, _ in planned:
        size = t("box_size", deck=comp.title, cards=len(comp.cards), **_mm(plan.box, ctx.lang))
        if not plan.fits:
            size += " " + t("box_too_big")
        elif plan.split:
            size += " " + t("box_split")
        lines.append("  - " + size)
    return lines + [""]
