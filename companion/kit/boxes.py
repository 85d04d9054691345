"""boxes.pdf of a kit: a tuck box for each deck, sized to it (companion.press.tuck_box),
drawn by companion.draw.boxes; what the manifest and the print guide say of them. Only
vector lines and a few words a box: a kit without decks gets no file and no work."""

import msgspec

from companion.errors import CompanionError, shown
from companion.engine.components import BOXES
from companion.press import tuck_box
from companion.text.typography import number
from companion.text.units import parse_length, to_mm

PATH = BOXES  # no component may take its name (companion.engine.components)


class Deck(msgspec.Struct):
    """What one box holds: a component's cards, and those of the components that join
    it (`box = "NAME"`)."""
    id: str  # the first component's
    title: str  # the components' titles, "Objects + Artifacts"
    cards: list
    card: tuple[float, float]  # the first component's card size, as its back is drawn
    size: tuple[float, float]  # the box's card: the largest sides of any of its cards
    ids: list[str]
    deck: bool  # cards (not tokens, not labels)
    asked: bool | None  # the first component's `box`


def decks(files: list) -> list[Deck]:
    """A Deck for each box: each component of cards (not tokens, not labels) of
    smallest_deck cards or more, or whose `box` is true, with the components whose
    `box` names it; none for a `box = false`. A component whose `box` names one this
    build leaves out (--only) goes in a box of its own."""
    s = tuck_box.settings()
    groups: dict[str, Deck] = {}
    joining = []
    for f in files:
        if not hasattr(f, "size"):
            continue  # pages: no box
        for comp in f.components:
            if not comp.cards or comp.box is False:
                continue
            if isinstance(comp.box, str):
                joining.append((f, comp))
                continue
            groups[comp.id] = _deck(f, comp)
    for f, comp in joining:
        target = groups.get(comp.box)
        if target is None:
            groups[comp.id] = _deck(f, comp)
            continue
        target.title += f" + {comp.title}"
        target.cards = target.cards + comp.cards
        target.ids.append(comp.id)
        w, h = sorted(f.size)
        target.size = (max(target.size[0], w), max(target.size[1], h))
    return [d for d in groups.values()
            if d.asked or (d.asked is None and d.deck and len(d.cards) >= s.smallest_deck)]


def _deck(f, comp) -> Deck:
    w, h = sorted(f.size)
    return Deck(comp.id, comp.title, list(comp.cards), f.size, (w, h), [comp.id],
                f.stock == "cards" and getattr(f, "sheet", None) is None, comp.box)


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


def plans(boxed: list, ctx, room: tuple[float, float] | None = None) -> list[tuple]:
    """(deck, its plan) for each box, checked before anything is drawn; `room`: where its
    pieces must fit (a cutter's area), if not the paper."""
    s = tuck_box.settings()
    data = ctx.data
    if "boxes" in data.table:
        for k in data.sub("boxes").table:
            if k not in ("card_thickness", "clearance"):
                raise data.sub("boxes").error(k, "unknown key (use card_thickness, clearance)")
    thick = _game_length(data, "card_thickness", s.card_thickness, s.thickest_card, 0.01)
    clear = _game_length(data, "clearance", s.clearance, s.widest_clearance)
    return [(d, tuck_box.plan(tuck_box.box_for(d.size, len(d.cards), thick, clear, s),
                              room or ctx.page, s))
            for d in boxed]


def write(path, planned: list, ctx, game_name: str, author: str, page=None,
          origin: tuple[float, float] = (0.0, 0.0), overlay=None) -> int:
    """Every box's pieces, one a page; returns the pages. `page` (default the paper),
    `origin` (where the room the plans were made for begins) and `overlay(c, piece,
    placement)`, called on each page, are a cutter's."""
    from companion.draw import boxes as draw
    from companion.press.pdf import open_canvas

    s = tuck_box.settings()
    b = ctx.words.sub("box")
    lang = ctx.lang
    c = open_canvas(path, page or ctx.page, f"{game_name}: {PATH}", author)
    pages = 0
    for deck, plan in planned:
        back = _shared_back(deck.cards)
        inside = b.text("inside", lang).format(**_mm(plan.box, lang))
        for n, (piece, at) in enumerate(zip(plan.pieces, plan.places), 1):
            words = draw.BoxWords(game_name, deck.title,
                                  b.text("cards", lang).format(n=len(deck.cards)), inside,
                                  b.text("legend", lang), b.text("glue", lang),
                                  b.text("part", lang).format(n=n, total=len(plan.pieces))
                                  if plan.split else "")
            if at is None:  # too big even in two: drawn from the corner, said in the guide
                at = tuck_box.Placement(0, 0, False)
            at = tuck_box.Placement(at.x + origin[0], at.y + origin[1], at.turned)
            draw.page(c, piece, at, s, words, back, deck.card)
            if overlay is not None:
                overlay(c, piece, at)
            c.showPage()
            pages += 1
    c.save()
    return pages


def _shared_back(cards: list):
    """The back every card shows (one key, or the one face), if they all show one."""
    backs = {(b.key or id(b)) if b is not None else None for b in (c.back for c in cards)}
    return cards[0].back if len(backs) == 1 else None


def _mm(box, lang: str) -> dict:
    return {k: number(round(to_mm(v), 1), lang) for k, v in
            (("w", box.w), ("h", box.h), ("d", box.d))}


def manifest(planned: list, pages: int) -> list[dict]:
    """Each box: its component, cards, inside (mm), and where it is in boxes.pdf: its
    first page and how many pieces (a page each); `fits`: false if a piece is larger
    than the paper even split in two."""
    out, page = [], 1
    for deck, plan in planned:
        out.append({"component": deck.id, "cards": len(deck.cards),
                    "inner_mm": [round(to_mm(v), 2) for v in (plan.box.w, plan.box.h,
                                                               plan.box.d)],
                    "path": PATH, "page": page, "pieces": len(plan.pieces), "fits": plan.fits}
                   | ({"components": deck.ids} if len(deck.ids) > 1 else {}))
        page += len(plan.pieces)
    return out


def guide(planned: list, pages: int, ctx) -> list[str]:
    g = ctx.words.sub("guide")
    t = lambda key, **kw: g.text(key, ctx.lang).format(**kw)
    lines = [t("file_one" if pages == 1 else "file", path=PATH, pages=pages),
             "  " + t("duplex_none"), "  " + t("boxes")]
    for deck, plan in planned:
        size = t("box_size", deck=deck.title, cards=len(deck.cards), **_mm(plan.box, ctx.lang))
        if not plan.fits:
            size += " " + t("box_too_big")
        elif plan.split:
            size += " " + t("box_split")
        lines.append("  - " + size)
    return lines + [""]
