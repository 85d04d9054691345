"""Lugvanion's kit. Every card, its faces and its backs are data in
companion/layouts/lugvanion.toml ([backs], [components], [kinds]), drawn by the layout engine. What
stays here draws nothing: the parts `--only` takes, where each kind's pictures go, and the
fields a card needs from another table (a character's guild and circle, a team's count of
partisans), joined here with a one-line error for an unknown guild or circle."""

from msgspec.structs import replace

from companion.files.data import Fields
from companion.errors import shown
from companion.engine.pictures import Kind, Pictures
from companion.engine.parts import Context
from companion.engine import components
from companion.engine.face import Engine

PARTS = ("characters", "guilds", "circles", "bounties", "objectives", "aids", "tokens")

EXAMPLE = ('art = "art/{character}.jpg" on a [[characters]] entry puts one picture on '
           'its four team cards')
# Each kind of card and where its picture goes ([layout.KIND] art, engine/pictures.py).
ART = {
    "character": Kind("Characters", "[[characters]]",
                      ("id", "character", "team", "guild", "circle"),
                      "A portrait window at the top, between the two badges ({id}: "
                      "team-character, e.g. red-spy; {circle}: copied for the copiers)."),
    "guild": Kind("Guilds", "[[guilds]]", ("id", "guild"),
                  "A window in place of the guild's badge, under its band."),
    "circle": Kind("Circles", "[[circles]]", ("id", "circle"),
                   "A window in place of the circle's badge, under its band."),
    "bounty": Kind("Bounties", "", ("id", "character"), "In place of the target."),
    "objective": Kind("Objectives", "", ("id", "circle", "guild"),
                      "The whole card, under the texts ({id}: circle-guild)."),
    "aid": Kind("Player aids", "[aid]", ("id", "side"),
                "The whole card, under the texts; both sides ({side}: front, or back: the "
                "character table)."),
    "partisan": Kind("Partisans", "[[teams]]", ("id", "team"),
                     "The whole token, cut round, in place of the team's symbol.",
                     stock="tokens"),
    "coin": Kind("Gold coins", "", ("id",), "The whole token, cut round, under its ring and "
                 "value.", stock="tokens"),
    "back": Kind("Card backs", "", ("id", "back"),
                 "The whole back: the picture is the back ({back}: team-red, team-blue, "
                 "team-green, team-yellow, guild, circle, bounty or objective)."),
}


def joined(data: Fields) -> Fields:
    """The data with each character's `guild` and `circle` the tables they name (for the
    copiers, whose circle is the copied character's: { id = "copied", copied = true }, its
    `copied` also keeping it from reading as a text in a language), and each team's
    `partisans` its count ([game] partisans_per_team): the cards print them."""
    by_id = {k: {f.get("id", str): f.table for f in data.items(k)} for k in ("guilds", "circles")}
    characters = []
    for f in data.items("characters"):
        g, ci = f.get("guild", str), f.get("circle", str)
        if g not in by_id["guilds"]:
            raise f.error("guild", f"unknown guild {shown(g)} (have {', '.join(by_id['guilds'])})")
        if ci != "copied" and ci not in by_id["circles"]:
            raise f.error("circle", f"unknown circle {shown(ci)} (have "
                                    f"{', '.join(by_id['circles'])}, copied)")
        for cost in f.items("costs"):  # a list of { gold = 2, buys = ... }: the gold a number
            cost.get("gold", int)
        circle = {"id": "copied", "copied": True} if ci == "copied" else by_id["circles"][ci]
        characters.append({**f.table, "guild": by_id["guilds"][g], "circle": circle})
    per_team = data.sub("game").get("partisans_per_team", int)
    teams = [{**f.table, "partisans": per_team} for f in data.items("teams")]
    return Fields({**data.table, "characters": characters, "teams": teams}, data.source,
                  data.path)


def kit(ctx: Context):
    """Every card of the kit is declared in companion/layouts/lugvanion.toml ([backs], [components],
    [kinds]) and drawn by the layout engine."""
    ctx = replace(ctx, data=joined(ctx.data))
    pics = Pictures(ctx, "lugvanion", ART)
    engine = Engine.of(ctx.data, ctx.lang, "lugvanion")
    files: list = []
    components.add(files, ctx, engine, components.backs(ctx, engine, pics, "lugvanion"), pics,
                   "lugvanion")
    return files
