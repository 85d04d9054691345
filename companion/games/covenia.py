"""Covenia's kit. Every card, token and score-book page, its faces and its backs are data
in companion/layouts/covenia.toml ([backs], [components], [kinds]), drawn by the layout engine. What
stays here draws nothing: the parts `--only` takes and where each kind's pictures go."""

from companion.engine.pictures import Kind, Pictures
from companion.engine import components
from companion.engine.face import Engine
from companion.engine.parts import Context

PARTS = ("cards", "temple", "aids", "tokens", "scorebook")

EXAMPLE = ('art = "art/{clan}-{value}{deck}.jpg" on a [[clans]] entry gives each of its '
           '20 cards its own picture')
# Each kind of card and where its picture goes ([layout.KIND] art, engine/pictures.py).
ART = {
    "clan": Kind("Clan cards", "[[clans]]", ("id", "clan", "value", "deck"),
                 "A window in place of the emblem, edged in the clan's colour."),
    "temple": Kind("Temple cards", "", ("id", "clan"),
                   "In place of the clan's symbol, under the band."),
    "aid": Kind("Game aids", "[aid]", ("id", "side"),
                "The whole card, under the texts; both sides ({side}: front or back)."),
    "token": Kind("Tokens", "[tokens.first_player], [tokens.shield]", ("id", "side"),
                  "The whole token, cut round, in place of its symbol ({side}: front or back).",
                  stock="tokens"),
    "back": Kind("Card backs", "", ("id", "back"),
                 "The whole back: the picture is the back ({back}: clan or temple)."),
}

def kit(ctx: Context):
    """Every card, token and score-book page is declared in companion/layouts/covenia.toml ([backs],
    [components], [kinds]) and drawn by the layout engine."""
    pics = Pictures(ctx, "covenia", ART)
    engine = Engine.of(ctx.data, ctx.lang, "covenia")
    files: list = []
    components.add(files, ctx, engine, components.backs(ctx, engine, pics, "covenia"), pics,
                   "covenia")
    return files
