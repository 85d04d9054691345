"""tts: the game for Tabletop Simulator. Per component, face sheets (JPEG, at most 10 x 7
cards and 4096 x 4096 pixels, each under 4 MB) and its back (one picture, or a sheet laid
out like the faces when backs differ); and one Saved Object, GAME.json, for the whole
game: a DeckCustom per component, which Tabletop Simulator loads from its "Saved Objects"
folder.

The Saved Object format (Tabletop Simulator's save-file format, the fields its own saves
write): a deck's CustomDeck maps a key (a string of digits) to a sheet, {FaceURL, BackURL,
NumWidth, NumHeight, BackIsHidden, UniqueBack, Type}; a card's id is key x 100 + its slot
on that sheet (0 top-left, row by row); DeckIDs lists the deck's cards from the top, a
card printed more than once repeating its id, and ContainedObjects holds one Card object
per card, in the same order. BackIsHidden: the back stands for a card in a hand (so every
slot of a sheet can hold a card). UniqueBack: BackURL is a sheet with a back per slot.
Cards are trim only (no bleed) and face down; a component other than poker-sized is
scaled so that every card keeps its proportions and its size relative to the others.
Exported again into the same folder, a sheet whose faces are unchanged is taken from the
last export, and a changed one is pasted from the faces' kept tiles, its changed faces
rendered alone (companion.export.reuse)."""

import hashlib
from math import ceil, floor

from companion.export import raster, reuse
from companion.export.face_pages import BLANK, Page

TAKES: set[str] = set()
GRID = (10, 7)  # columns x rows, the most a sheet may hold
SHEET_PX = 4096  # the most a sheet may be, across and down
MAX_BYTES = 4_000_000  # each picture under 4 MB
FINEST_DPI = 300  # cards of a small deck are no finer than this
POKER = (180.0, 252.0)  # 2.5 x 3.5 in, points: a Tabletop Simulator card at scale 1
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


# Tabletop Simulator's custom card shapes (its "Type": 0 a rounded rectangle, 1 a
# rectangle, 2 a rounded hex, 3 a hex, 4 a circle), by the component's shape: what is
# outside the piece's outline in its square picture is cut off, as on the printed sheet.
# Tokens without a shape of their own are discs (the bundled games' are); our hexes are
# cut with sharp corners.
ROUNDED_CARD, HEX, CIRCLE = 0, 3, 4
TYPES = {"hex": HEX, "circle": CIRCLE, "rounded": ROUNDED_CARD}


def tts_type(deck) -> int:
    """A deck's Tabletop Simulator card type, by its shape."""
    if deck.shape is not None:
        return TYPES.get(deck.shape, ROUNDED_CARD)
    return CIRCLE if deck.stock == "tokens" else ROUNDED_CARD


def sheets(n: int) -> list[tuple[int, int, int]]:
    """(columns, rows, cards) of each sheet holding n distinct cards, in order."""
    per = GRID[0] * GRID[1]
    out = []
    for start in range(0, n, per):
        m = min(per, n - start)
        cols = min(GRID[0], m)
        out.append((cols, ceil(m / cols), m))
    return out


def card_px(size: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """A card's pixels on a sheet of cols x rows: as large as the sheet allows, at most
    FINEST_DPI, in the card's proportions."""
    w, h = size
    cw = min(SHEET_PX // cols, floor(SHEET_PX / rows * w / h), round(w / 72 * FINEST_DPI))
    cw = max(cw, 1)
    while rows * max(1, round(cw * h / w)) > SHEET_PX:
        cw -= 1
    return cw, max(1, round(cw * h / w))


def _guid(*parts) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, size: tuple[float, float]) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0, "scaleX": round(size[0] / POKER[0], 4), "scaleY": 1.0,
            "scaleZ": round(size[1] / POKER[1], 4)}


def _object(name: str, guid: str, nickname: str, transform: dict, **fields) -> dict:
    return {"GUID": guid, "Name": name, "Transform": transform, "Nickname": nickname,
            "Description": "", "GMNotes": "", "ColorDiffuse": GREY, "Locked": False,
            "Grid": True, "Snap": True, "IgnoreFoW": False, "MeasureMovement": False,
            "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": True, **fields,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def write(ctx) -> dict:
    import json

    pages: list[Page] = []
    index: dict[tuple, int] = {}
    jobs: list[raster.Job] = []

    def page(face, size) -> int:
        p = Page(face or BLANK, size, (0.0, 0.0))
        if p.key not in index:
            index[p.key] = len(pages)
            pages.append(p)
        return index[p.key]

    def url(rel: str) -> str:
        return (ctx.out / rel).as_uri()

    objects, components = [], []
    key = 0
    x = 0.0
    for d, deck in enumerate(ctx.decks):
        layout = sheets(len(deck.entries))
        cw, ch = card_px(deck.size, max(s[0] for s in layout), max(s[1] for s in layout))
        shared = deck.shared_back
        back_file = None
        if shared is not None:
            back_file = f"{deck.id}/back.jpg"
            jobs.append(raster.Job((back_file,), (cw, ch),
                                   (raster.Tile(page(shared, deck.size), 0, 0, cw, ch),),
                                   "jpeg", max_bytes=MAX_BYTES))
        custom, ids, cards, described = {}, [], [], []
        for s, (cols, rows, m) in enumerate(layout):
            key += 1
            entries = deck.entries[sum(t[2] for t in layout[:s]):][:m]
            tag = f"-{s + 1}" if len(layout) > 1 else ""
            face_file = f"{deck.id}/faces{tag}.jpg"
            slots = [(i % cols * cw, i // cols * ch) for i in range(m)]
            jobs.append(raster.Job((face_file,), (cols * cw, rows * ch), tuple(
                raster.Tile(page(e.front, deck.size), sx, sy, cw, ch)
                for e, (sx, sy) in zip(entries, slots)), "jpeg", max_bytes=MAX_BYTES))
            sheet_back = back_file
            if shared is None:
                sheet_back = f"{deck.id}/backs{tag}.jpg"
                jobs.append(raster.Job((sheet_back,), (cols * cw, rows * ch), tuple(
                    raster.Tile(page(e.back, deck.size), sx, sy, cw, ch)
                    for e, (sx, sy) in zip(entries, slots)), "jpeg", max_bytes=MAX_BYTES))
            custom[str(key)] = {"FaceURL": url(face_file), "BackURL": url(sheet_back),
                                "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                                "UniqueBack": shared is None,
                                "Type": tts_type(deck)}
            for slot, e in enumerate(entries):
                card_id = key * 100 + slot
                for copy in range(e.count):
                    ids.append(card_id)
                    cards.append(_object("Card", _guid(ctx.game, deck.id, e.id, copy),
                                         f"{deck.title} {e.id}", _transform(x, deck.size),
                                         Hands=True, CardID=card_id, SidewaysCard=False,
                                         CustomDeck={str(key): custom[str(key)]}))
            described.append({"face": face_file, "back": sheet_back, "deck_key": key,
                              "grid": [cols, rows], "cards": m,
                              "ids": [key * 100 + slot for slot in range(m)]})
        if len(cards) == 1:  # Tabletop Simulator holds no deck of one card: the card alone
            objects.append(cards[0])
        else:
            objects.append(_object("DeckCustom", _guid(ctx.game, deck.id), deck.title,
                                   _transform(x, deck.size), Hands=False, SidewaysCard=False,
                                   DeckIDs=ids, CustomDeck=custom, ContainedObjects=cards))
        x += 3.0 * max(1.0, deck.size[0] / POKER[0])
        components.append({"id": deck.id, "title": deck.title, "cards": deck.cards,
                           "card_px": [cw, ch], "back": back_file, "sheets": described})

    save_name = f"{ctx.game}.json"
    thumb = f"{ctx.game}.png"  # shown beside the Saved Object in the game's list
    first = ctx.decks[0]
    tw, th = card_px(first.size, 1, 1)
    scale = 256 / max(tw, th)
    tw, th = max(1, round(tw * scale)), max(1, round(th * scale))
    jobs.append(raster.Job((thumb,), (tw, th),
                           (raster.Tile(page(first.entries[0].front, first.size), 0, 0, tw, th),)))
    save = {"SaveName": ctx.kit.game_name, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
            "VersionNumber": ""}
    (ctx.stage / save_name).write_text(json.dumps(save, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    # A sheet whose faces are all unchanged since the last export: its file; another:
    # its changed faces rendered, the others pasted from the tiles kept (export.reuse).
    reuse.run(ctx, pages, jobs, "sheets", keep_tiles=True)
    return {"save": save_name, "thumbnail": thumb, "components": components}


def guide(ctx, manifest: dict) -> str:
    return ctx.word("tts", json=manifest["save"], thumbnail=manifest["thumbnail"],
                    name=ctx.game)
