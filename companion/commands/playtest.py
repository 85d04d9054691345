"""`companion playtest`: what a game's recorded plays say, as a PDF report (and JSON)."""

import json
import os
import re
from pathlib import Path

import click

from companion.commands.common import GAME, WORDS
from companion.errors import CompanionError, shown


class _ReportByDefault(click.Group):
    """`companion playtest GAME HISTORY` makes the report (the `report` command named or
    not); `companion playtest plan ...` a rotation plan."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["report", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_ReportByDefault, short_help="What your plays say: wins by seat, faction, "
             "version; a rotation plan.", epilog="""\b
Examples:
  companion playtest mygame/mygame.toml table-history.csv
  companion playtest plan mygame/mygame.toml --players Ana,Bo,Cy,Di --games 12""")
def playtest():
    """What a game's recorded plays say (`companion playtest GAME HISTORY`, the report),
    and a rotation plan for the next ones (`companion playtest plan`)."""


@playtest.command(short_help="What your plays say: wins by seat, faction, version.", epilog="""\b
Examples:
  companion playtest mygame/mygame.toml table-history.csv
  companion playtest covenia table-history.csv --lang fr --out reports
  companion playtest mygame/mygame.toml table-history.csv --version 0.4 --json
  companion playtest mygame/mygame.toml table-history.csv --version all""")
@click.argument("game", **GAME)
@click.argument("history", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder for the report [default: output/GAME-playtest].")
@click.option("--json", "as_json", is_flag=True,
              help="Print the figures as one JSON object (the report is written too).")
@click.option("--version", "version", default=None, metavar="V",
              help="Judge the plays of version V alone, or `all` of them pooled [default: "
                   "the latest version] (the versions table lists them all).")
@click.option("--lang", type=WORDS, default="en", show_default=True,
              help="The report's language.")
def report(game, history, out, as_json, version, lang):
    """A playtest report from a table's history.csv: win rates by seat and by faction with
    their 95% intervals, each seat's mean score, the categories that separate winners,
    the score spread, the winning margin, the game's length, each version beside the one
    before, and what a designer can act on: the findings of the latest version's plays
    unless --version says otherwise, held together so that a report of even plays shows
    a false one less than 1 time in 20.

    GAME is a bundled game's id or a game file's path; HISTORY the table's history.csv
    (companion serve: History, CSV). Rows of other games are skipped."""
    import time

    from companion import games
    from companion.files import paths, plays
    from companion.rules import playtest as rules

    started = time.perf_counter()
    found = games.find(game)
    about = _about(found.path, lang)
    recorded = plays.read(history, found.id)
    if not recorded:
        raise CompanionError(f"holds no plays of {shown(found.id)} (its rows name the game "
                             "in the game column)", source=str(history))
    known = {p.version for p in recorded}
    if version is not None and version != rules.ALL and version not in known:
        have = ", ".join(shown(v) for v in sorted(known, key=rules.version_key))
        raise CompanionError(f"no plays of version {shown(version)} (have {have})",
                             field="--version")
    folder = Path(out) if out else paths.output() / f"{found.id}-playtest"
    name = "playtest-report.pdf" if version is None else \
        f"playtest-report-{re.sub(r'[^A-Za-z0-9._-]', '_', version)}.pdf"
    pdf = folder / name
    _guard(folder, pdf)
    summary = rules.summary(recorded, version, about.players)
    from companion.playtest import report, words

    folder.mkdir(parents=True, exist_ok=True)
    count = report.write(pdf, summary, about, Path(history).name, lang)
    seconds = time.perf_counter() - started
    if as_json:
        shown_summary = rules.rounded(summary)
        for f, said in zip(shown_summary["findings"], words.sentences(
                summary, lang, about.categories, about.factions)):
            f["text"] = said
        click.echo(json.dumps({**shown_summary, "report": str(pdf), "pages": count},
                              ensure_ascii=False))
        return
    said = words.sentences(summary, lang, about.categories, about.factions)
    for line in rules.LINES:  # findings, the rest, what may be luck: each under its head
        these = [s for s, f in zip(said, summary["findings"]) if f["line"] == line]
        if these:
            click.echo(words.text("console", "head", lang,
                                  head=words.text("report", "line_" + line, lang)))
            click.echo("\n".join(f"- {s}" for s in these))
    judged = words.text("console", "every_version", lang) if summary["version"] == rules.ALL \
        else words.text("console", "version", lang, version=shown(summary["version"]))
    click.echo(words.text("console", "report", lang, pdf=pdf, pages=count,
                          plays=summary["plays"], judged=judged,
                          seconds=words.decimal(seconds, lang)))


def _guard(folder: Path, pdf: Path) -> None:
    """--out names a folder (made if missing); the report in it is checked as every
    output is, before any work (companion.files.atomic.guard)."""
    from companion.files import atomic

    if os.path.lexists(folder) and not folder.is_dir():
        raise CompanionError("is not a folder: give a folder for the report (nothing was "
                             "written)", source=str(folder), field="--out")
    atomic.guard(pdf, "--out")


def _about(path: Path, lang: str):
    """The report's Game: the name, credits, categories' and factions' names of the game
    file's [game] and [[scoring]] (a text missing in `lang` shows in another it has)."""
    from companion.files.data import Fields, parse_toml, read_text
    from companion.playtest.report import Game

    text, source = read_text(path)
    data = Fields(parse_toml(text, source, only=frozenset({"game", "scoring"})), source)
    g = data.sub("game")

    def said(value) -> str:
        if isinstance(value, dict):
            value = value.get(lang) or next((v for v in value.values() if isinstance(v, str)),
                                            "")
        if not isinstance(value, str):
            return ""
        return Fields({"t": {lang: value}}, source).text("t", lang)

    cats = {}
    for entry in data.table.get("scoring") or []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            cats[entry["id"]] = said(entry.get("name")) or entry["id"]
    factions = {}
    for entry in g.table.get("factions") or []:
        if isinstance(entry, str):
            factions[entry] = entry
        elif isinstance(entry, dict) and isinstance(entry.get("id"), str):
            factions[entry["id"]] = said(entry.get("name")) or entry["id"]
    colour = {k: g.table[k] for k in ("accent", "ink") if isinstance(g.table.get(k), str)
              and g.table[k].startswith("#")}
    from companion.games.players import players

    return Game(said(g.table.get("name")) or path.stem, said(g.table.get("credits")), cats,
                factions, players=players(data), **colour)


@playtest.command(short_help="A rotation plan: each player in each seat, each faction.",
                  epilog="""\b
Examples:
  companion playtest plan mygame/mygame.toml --players Ana,Bo,Cy,Di --games 12
  companion playtest plan mygame/mygame.toml --players Ana,Bo,Cy --games 12 --factions a,b,c,d
  companion playtest plan covenia --players Ana,Bo,Cy --games 6 --json""")
@click.argument("game", **GAME)
@click.option("--players", required=True, metavar="NAMES",
              help="The players, comma-separated, all at the table each game.")
@click.option("--games", type=int, required=True, help="How many games to plan.")
@click.option("--factions", default=None, metavar="IDS",
              help="The factions to deal, comma-separated [default: the game file's "
                   "[game] factions, if any].")
@click.option("--json", "as_json", is_flag=True,
              help='Print the plan as JSON: {"games": [[{seat, player, faction}, ...], ...]}.')
@click.option("--lang", type=WORDS, default="en", show_default=True,
              help="The plan's language.")
def plan(game, players, games, factions, as_json, lang):
    """A plan for the next playtests: game by game, who sits which seat and plays which
    faction, so that each player sits each seat, and plays each faction, as evenly as
    the games allow (over as many games as players, each seat once; over as many games
    as factions, each faction once), and no seat stays tied to one faction."""
    from companion import games as bundled
    from companion.commands.common import split
    from companion.playtest import words
    from companion.rules.plan import plan as planned

    found = bundled.find(game)
    about = _about(found.path, lang)
    names = split(players) or []
    if len(names) < 2 or len(names) > MAX_TABLE:
        raise CompanionError(f"{len(names)} players: a plan seats 2 to {MAX_TABLE}",
                             field="--players")
    seen = set()
    for n in names:
        if n.casefold() in seen:
            raise CompanionError(f"{shown(n)} is named twice", field="--players")
        seen.add(n.casefold())
    if not 1 <= games <= MAX_GAMES:
        raise CompanionError(f"{games}: a plan has 1 to {MAX_GAMES} games", field="--games")
    dealt = split(factions) if factions else list(about.factions or {})
    if dealt and len(dealt) < len(names):
        raise CompanionError(f"{len(dealt)} factions for {len(names)} players: each player "
                             "needs her own", field="--factions")
    schedule = planned(names, games, dealt or None)
    if as_json:
        click.echo(json.dumps({"games": schedule}, ensure_ascii=False))
        return
    for k, table in enumerate(schedule, 1):
        click.echo(words.text("plan", "game", lang, n=k, seats=", ".join(
            words.text("plan", "seat" if x["faction"] is None else "seat_faction", lang,
                       seat=x["seat"], player=x["player"],
                       faction=(about.factions or {}).get(x["faction"], x["faction"]))
            for x in table)))


MAX_TABLE = 30  # players at a table (companion.files.plays.MAX_PLAYERS)
MAX_GAMES = 1000
