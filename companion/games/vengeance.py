"""Vengeance's prototype kit: which components it has and how each face is laid out.
Contents come from layouts/vengeance.toml; what the rulebook leaves open is a placeholder
there, drawn hatched and marked TO COME, and listed in the print guide (RULINGS G1)."""

import re
from dataclasses import dataclass
from functools import partial

from reportlab.lib.colors import Color

from companion.data import Fields
from companion.draw import card, colour, symbols, text
from companion.draw.card import Pic
from companion.games.pictures import Kind as ArtKind, Pictures, slug
from companion.layout import components
from companion.layout.face import Engine
from companion.kit import CardFile, Component, Context
from companion.sheets import Card, Face

PARTS = ("witches", "demons", "spells", "gates", "objects", "transitory", "artifacts",
         "incantations", "solo", "aids", "tokens")

EXAMPLE = 'art = "art/{witch}.jpg" on a [[witches]] entry (hajnalka.jpg, myosotis.jpg...)'
# Each kind of card and where its picture goes ([layout.KIND] art, games/pictures.py).
ART = {
    "witch": ArtKind("Witches", "[[witches]]", ("id", "n", "witch"),
                  "The portrait window ({witch}, {id}: her name in lower case without "
                  "accents, e.g. virag, or witch-6 while it is a placeholder; {n}: 1-6)."),
    "spell": ArtKind("Spell cards", "", ("id", "n", "witch"),
                  "The whole card, under the texts (one per witch, as for witches)."),
    "demon": ArtKind("Demons", "[demons]", ("id", "n"),
                  "The whole card, under the texts ({id}: 01-03; {n}: 1-3)."),
    "gate": ArtKind("Vengeance & Gate", "[gates]", ("id", "n"),
                 "In place of the gate symbol ({id}: 01-08; {n}: 1-8)."),
    "object": ArtKind("Ritual objects", "[[types]]", ("id", "type"),
                   "In place of the centre disc and its symbol ({type}: herb, mineral, "
                   "potion)."),
    "transitory": ArtKind("Transitory objects", "", ("id", "type"),
                       "In place of the centre disc and its symbol."),
    "artifact": ArtKind("Artifacts", "", ("id", "n"),
                     "In place of the centre disc and its symbol ({id}: 01-13; {n}: 1-13)."),
    "incantation": ArtKind("Incantations", "", ("id", "n"),
                        "In place of the centre disc and its symbol ({id}: 01-13)."),
    "solo": ArtKind("Solo cards", "[solo]", ("id", "n"), "The whole card, under the texts."),
    "aid": ArtKind("Aid cards", "[aid]", ("id", "side"),
                "The whole card, under the texts; both sides ({side}: front or back)."),
    "token": ArtKind("Tokens", "each of [tokens] items", ("id",),
                  "The whole token, cut round, in place of its symbol ({id}: vengeance, gate, "
                  "chain, demon).", stock="tokens"),
    "back": ArtKind("Card backs", "", ("id", "back"),
                 "The whole back: the picture is the back ({back}: common, ritual, "
                 "transitory, artifact or incantation)."),
}


@dataclass(frozen=True)
class Text:
    """A printed text, or a placeholder for one still to be written; `field` names its data
    key for the text-limit reports (e.g. "witches.epithet")."""
    value: str
    placeholder: bool = False
    field: str = "text"


def _key(f: Fields, key: str) -> str:
    base = re.sub(r"\[\d+\]", "", f.path)
    return f"{base}.{key}" if base else key


def read(f: Fields, key: str, lang: str) -> Text:
    raw = f.get(key, (str, dict))
    if isinstance(raw, dict) and "placeholder" in raw:
        holder = Fields(raw, f.source, f"{f.path}.{key}" if f.path else key)
        return Text(holder.text("placeholder", lang), True, _key(f, key))
    return Text(f.text(key, lang), False, _key(f, key))


@dataclass(frozen=True)
class Kind:
    id: str
    name: str
    colour: Color
    symbol: str
    ritual: int
    transitory: int


@dataclass(frozen=True)
class Look:
    ink: Color
    paper: Color
    gold: Color
    night: Color
    violet: Color
    golden: Color
    artifact: Color
    incantation: Color
    todo: Color
    frame: float
    words: dict
    gold_text: Color  # gold for words on the paper: a darker shade that reads


def _look(ctx: Context) -> Look:
    g = ctx.data.sub("game")
    get = lambda k: colour.field(g, k)  # noqa: E731
    t = ctx.data.sub("texts")
    return Look(get("ink"), get("paper"), get("gold"), get("night"), get("violet_back"),
                get("golden_back"), get("artifact"), get("incantation"), get("placeholder_ink"),
                float(ctx.data.sub("layout").get("frame", (int, float))),
                {k: t.text(k, ctx.lang) for k in t.table},
                get("gold_text") if "gold_text" in g.table else get("gold"))


def _kinds(ctx: Context) -> list[Kind]:
    out = []
    for f in ctx.data.items("types"):
        sym = symbols.named(f, "symbol")
        out.append(Kind(f.get("id", str), f.text("name", ctx.lang),
                        colour.field(f, "colour"), sym,
                        f.get("ritual", int), f.get("transitory", int)))
    return out


# ---- shared bits ---------------------------------------------------------------------

def _framed(c, w, h, bleed, look: Look, edge: Color) -> None:
    card.background(c, w, h, bleed, edge)
    card.panel(c, w, h, look.frame * w, look.paper)


def _title(c, w, h, look: Look, title: str, field: str, y: float = 0.1, size: float = 0.08,
           ink: Color | None = None) -> None:
    c.setFillColor(ink or look.ink)
    text.line(c, title.upper(), w / 2, h - y * h, "bold", size * w, align="center",
              max_w=0.84 * w, field=field)


def _slot(c, t: Text, x, top, w, h, look: Look, size: float, align: str = "center") -> None:
    """A text, or its placeholder: a hatched box marked TO COME with the note inside."""
    if not t.placeholder:
        c.setFillColor(look.ink)
        text.block(c, t.value, x, top, w, h, "regular", size, align=align, field=t.field)
        return
    card.todo_box(c, t.value, look.words["to_come"], x, top, w, h, size, look.paper, look.todo,
                  t.field)


# ---- faces ---------------------------------------------------------------------------

def spell_front(c, w, h, bleed, *, witch: Text, slots: list[tuple[str, Text]], cost: str,
                holder: str, look: Look, pic: Pic | None = None):
    if not card.picture_ground(c, w, h, bleed, pic):
        _framed(c, w, h, bleed, look, look.incantation)
    card.picture_window(c, w, h, bleed, pic)  # a box moved off the whole card: under the texts
    # The title takes two lines when the witch's name (or its placeholder) is long.
    c.setFillColor(look.incantation)
    title = look.words["spells_of"].format(witch=witch.value).upper()
    size, box_top, box_h = 0.055 * w, h - 0.05 * h, 0.1 * h
    lines = len(text.wrap(title, "bold", size, 0.84 * w))
    if lines * size * 1.2 <= box_h:  # centred in its box
        box_top -= (box_h - lines * size * 1.2) / 2
    text.block(c, title, 0.08 * w, box_top, 0.84 * w, box_h, "bold", size, align="center",
               field="texts.spells_of")
    top = h * 0.79
    for label, t in slots:
        c.setFillColor(look.incantation)
        text.line(c, label, 0.1 * w, top, "bold", 0.05 * w, field="spells.label")
        _slot(c, t, 0.1 * w, top - 0.02 * h, 0.8 * w, 0.18 * h, look, 0.05 * w)
        top -= 0.255 * h
    c.setFillColor(look.ink)
    text.block(c, cost, 0.1 * w, top + 0.02 * h, 0.8 * w, 0.07 * h, "narrow", 0.04 * w,
               align="center", field="spells.cost")
    c.setStrokeColor(colour.mix(look.ink, look.paper, 0.5))
    c.setDash(2, 2)
    c.roundRect(0.1 * w, 0.07 * h, 0.8 * w, 0.11 * h, 0.03 * w, stroke=1, fill=0)
    c.setDash()
    c.setFillColor(colour.mix(look.ink, look.paper, 0.3))
    text.block(c, holder, 0.14 * w, 0.155 * h, 0.72 * w, 0.07 * h, "narrow", 0.038 * w,
               align="center", field="spells.tokens")


# ---- the kit -------------------------------------------------------------------------

def kit(ctx: Context):
    data, lang = ctx.data, ctx.lang
    look = _look(ctx)
    titles = data.sub("titles")
    title = lambda k: titles.text(k, lang)  # noqa: E731
    pics = Pictures(ctx, "vengeance", ART)
    engine = Engine.of(data, lang, "vengeance")
    backs = components.backs(ctx, engine, pics, "vengeance")  # [backs] in the layouts file
    common = backs["common"]

    def component(key, items, todo):
        return Component(key, key, title(key), len(items), items, todo)

    def numbered(kind: str, component: str, n: int, entry=None, **more):
        nid = f"{n:02d}"
        return nid, pics.pic(kind, f"{component}/{nid}", {"id": nid, "n": n, **more}, entry)

    # the witches' spell cards (the witches themselves: [components.witches])
    spells, todo_s = [], []
    sp = data.sub("spells")
    slots_n = sp.get("count_per_witch", int)
    spell_text = read(sp, "text", lang)
    for n, f in enumerate(data.items("witches"), 1):
        wn = read(f, "name", lang) if isinstance(f.get("name", (str, dict)), dict) \
            else Text(f.get("name", str), False, "witches.name")
        wid = f"witch-{n}" if wn.placeholder else (slug(wn.value) or f"witch-{n}")
        fields = {"id": wid, "n": n, "witch": wid}
        slots = [(sp.text("label", lang).format(n=i + 1), spell_text) for i in range(slots_n)]
        spells.append(Card(title("spells"),
                           Face(partial(spell_front, witch=wn, slots=slots,
                                        cost=sp.text("cost", lang), holder=sp.text("tokens", lang),
                                        look=look,
                                        pic=pics.pic("spell", f"spells/{wid}", fields))),
                           common, id=wid))
        if spell_text.placeholder:
            todo_s += [f"{wn.value}: {label}: {spell_text.value}" for label, _ in slots]

    files = [
        CardFile("cards.pdf", [
            component("spells", spells, todo_s),
        ], ctx.card, ctx.card_name),
    ]
    # What the layouts file declares in [components] (demons, gates, solo cards), drawn
    # by the engine from [kinds].
    components.add(files, ctx, engine, backs, pics, "vengeance")
    return files
