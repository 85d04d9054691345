"""Vengeance's prototype kit. Every card, its faces and its backs are data in
companion/layouts/vengeance.toml ([backs], [components], [kinds]), drawn by the layout engine; what
the rulebook leaves open is a placeholder there, drawn hatched and marked TO COME, and
listed in the print guide (RULINGS G1). What stays here draws nothing: the parts
`--only` takes and where each kind's pictures go."""

from companion.engine.pictures import Kind as ArtKind, Pictures
from companion.engine import components
from companion.engine.face import Engine
from companion.engine.parts import Context

PARTS = ("witches", "demons", "spells", "gates", "objects", "transitory", "artifacts",
         "incantations", "solo", "aids", "tokens")

EXAMPLE = 'art = "art/{witch}.jpg" on a [[witches]] entry (hajnalka.jpg, myosotis.jpg...)'
# Each kind of card and where its picture goes ([layout.KIND] art, engine/pictures.py).
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


def kit(ctx: Context):
    """Every card of the kit is declared in companion/layouts/vengeance.toml ([backs], [components],
    [kinds]) and drawn by the layout engine: here only the art kinds above are named."""
    pics = Pictures(ctx, "vengeance", ART)
    engine = Engine.of(ctx.data, ctx.lang, "vengeance")
    files: list = []
    components.add(files, ctx, engine, components.backs(ctx, engine, pics, "vengeance"), pics,
                   "vengeance")
    return files
