"""`companion lugvanion odds|draw|verify`: the guild vote at the command line."""

import json
import re
import secrets
from contextlib import contextmanager

import click

from companion.commands.common import TIE_RULE, Failure
from companion.errors import CompanionError, shown

# A count of at most 3 digits (a bag holds at most 99): int() of a huge one is slow.
_ITEM = re.compile(r"([a-z]{1,20})=(-?[0-9]{1,3})")


def parse_bag(items: tuple[str, ...]) -> dict[str, int]:
    """('red=3', 'blue=2') -> {'red': 3, 'blue': 2}; a colour given twice is an error."""
    bag: dict[str, int] = {}
    for item in items:
        m = _ITEM.fullmatch(item.strip().lower())
        if not m:
            raise CompanionError(f"{shown(item)} is not COLOUR=COUNT (e.g. red=3; a bag "
                                 "holds at most 99 partisans)", field="BAG")
        colour, n = _team(m.group(1)), int(m.group(2))
        if colour in bag:
            raise CompanionError(f"colour {colour} is given twice", field="BAG")
        bag[colour] = n
    if not bag:
        raise CompanionError("give the bag, e.g. red=3 blue=2 green=2 yellow=1", field="BAG")
    return bag


def _teams() -> dict[str, str]:
    """Each word naming a team (its id, its name in each language) -> the team's id."""
    from companion.files.data import load_fields
    from companion.files.paths import LAYOUTS

    game = load_fields(LAYOUTS / "lugvanion.toml")
    words = {}
    for team in game.items("teams"):
        tid = team.get("id", str)
        names = team.table.get("name", {})
        for word in (tid, *(names.values() if isinstance(names, dict) else [])):
            words[str(word).lower()] = tid
    return words


def _team(word: str) -> str:
    """The team a bag's COLOUR names ("rouge" is red); a word naming none is an error
    with the nearest team, not a new colour (a typo would change the odds)."""
    import difflib

    teams = _teams()
    if word in teams:
        return teams[word]
    near = difflib.get_close_matches(word, teams, n=1)
    hint = f": did you mean {teams[near[0]]}?" if near else ""
    raise CompanionError(f"{shown(word)} is not a team's colour (Lugvanion's are "
                         f"{', '.join(sorted(set(teams.values())))}){hint}", field="BAG")


@contextmanager
def cli_fields():
    """The vote's errors, named as the command line names things."""
    from companion.rules.errors import ScoreError

    try:
        yield
    except ScoreError as e:
        field = "BAG" if e.field == "bag" or e.field.startswith("bag.") else e.field
        hint = " (--allow-any-size explores other sizes)" if "exactly" in e.message else ""
        raise CompanionError(e.message + hint, field=field) from None


TIE_HELP = "On a tie: extra (draw one more at a time; the default, RULINGS L6) or redraw."
_bag = click.argument("bag", nargs=-1)
_tie = click.option("--tie-rule", type=TIE_RULE, default="extra",
                    show_default=True, help=TIE_HELP)
_any = click.option("--allow-any-size", is_flag=True,
                    help="Allow a bag of 5 to 99 partisans, not only a vote's 8 (to explore "
                         "odds).")
_json = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


@click.group(short_help="Lugvanion's vote: exact odds, a fair draw, its check.", epilog="""\b
Examples:
  companion lugvanion odds red=3 blue=2 green=2 yellow=1
  companion lugvanion draw red=3 blue=2 green=2 yellow=1
  companion lugvanion verify --seed HEX --commitment HEX red=3 blue=2 green=2 yellow=1 \\
      --drawn red,blue,red,green,red""")
def lugvanion():
    """Lugvanion's guild vote: exact odds, fair draws, and checking a draw."""


@lugvanion.command(epilog="""\b
Examples:
  companion lugvanion odds red=3 blue=2 green=2 yellow=1
  companion lugvanion odds red=4 blue=4 --tie-rule redraw --json
  companion lugvanion odds red=3 blue=3 --allow-any-size""")
@_bag
@_tie
@_any
@_json
def odds(bag, tie_rule, allow_any_size, as_json):
    """Each colour's exact chance of winning the vote, from the BAG (COLOUR=COUNT ...)."""
    from companion.rules import lugvanion as vote

    with cli_fields():
        result = vote.odds(parse_bag(bag), tie_rule, allow_any_size)
    if as_json:
        click.echo(json.dumps({"bag": result.bag, "drawn": vote.DRAWN, "tie_rule": tie_rule,
                               "odds": result.floats(),
                               "exact": {c: str(p) for c, p in result.exact.items()}}))
        return
    total = sum(result.bag.values())
    click.echo(f"Lugvanion vote: {total} partisans in the bag, {vote.DRAWN} drawn, "
               f"tie rule: {tie_rule}")
    order = sorted(result.exact, key=lambda c: (-result.exact[c], c))
    for c in order:
        p = result.exact[c]
        bar = "█" * round(float(p) * 30)
        click.echo(f"  {c:<8}{result.bag[c]:>3}  {str(p):>9}  {float(p) * 100:6.2f} %  {bar}")


def _draw_lines(d) -> list[str]:
    lines = [f"Commitment (SHA-256 of the seed, fixed before the draw): {d.commitment}"]
    for i, tied in enumerate(d.redrawn):
        lines.append(f"Attempt {i + 1} tied: {', '.join(tied)} (all partisans back, draw again)")
    lines.append(f"Drawn, in order: {', '.join(d.first)}")
    if d.tie_break:
        level = " and ".join(f"{c}" for c in d.tied())
        lines.append(f"Tie-break ({level} level at {max(d.tied().values())}; one more drawn "
                     f"at a time until one colour leads alone): {', '.join(d.tie_break)}")
    lines += [f"Winner: {d.winner}", f"Seed (revealed now): {d.seed}"]
    return lines


@lugvanion.command(epilog="""\b
Examples:
  companion lugvanion draw red=3 blue=2 green=2 yellow=1
  companion lugvanion draw red=3 blue=2 green=2 yellow=1 --seed 00ff...(64 hex digits) --json""")
@_bag
@click.option("--seed", help="64 hex digits; default: a fresh secret seed.")
@_tie
@_any
@_json
def draw(bag, seed, tie_rule, allow_any_size, as_json):
    """Draw the vote from the BAG, fairly and verifiably (commit, draw, reveal)."""
    from companion.rules import lugvanion as vote

    with cli_fields():
        raw = vote.parse_seed(seed, "--seed") if seed is not None else secrets.token_bytes(32)
        d = vote.draw(parse_bag(bag), raw, tie_rule, allow_any_size)
    if as_json:
        click.echo(json.dumps({"bag": d.bag, "commitment": d.commitment, "seed": d.seed,
                               "drawn": d.drawn, "tie_break": d.tie_break,
                               "winner": d.winner, "tie_rule": d.tie_rule,
                               "redrawn": d.redrawn}))
        return
    for line in _draw_lines(d):
        click.echo(line)
    items = " ".join(f"{c}={n}" for c, n in d.bag.items())
    click.echo(f"Anyone can check it: companion lugvanion verify --seed {d.seed} "
               f"--commitment {d.commitment} {items} --drawn {','.join(d.drawn)}"
               + (f" --tie-rule {tie_rule}" if tie_rule != "extra" else "")
               + (" --allow-any-size" if allow_any_size else ""))


@lugvanion.command(epilog="""\b
Examples:
  companion lugvanion verify --seed HEX --commitment HEX red=3 blue=2 green=2 yellow=1 \\
      --drawn blue,red,green,green,yellow

Exit status: 0 verified, 1 the draw does not match, 2 bad input.""")
@click.option("--seed", required=True, help="The revealed seed (64 hex digits).")
@click.option("--commitment", required=True, help="The SHA-256 published before the draw.")
@_bag
@click.option("--drawn", required=True, help="The partisans drawn, in order: red,blue,...")
@_tie
@_any
def verify(seed, commitment, bag, drawn, tie_rule, allow_any_size):
    """Check a draw: the seed matches the commitment and gives the same partisans."""
    from companion.rules import lugvanion as vote

    if not re.fullmatch(r"[0-9a-fA-F]{64}", commitment.strip()):
        raise CompanionError("a commitment is 64 hex digits (SHA-256)", field="--commitment")
    sequence = [c.strip().lower() for c in drawn.split(",") if c.strip()]
    with cli_fields():
        raw = vote.parse_seed(seed, "--seed")
        verdict = vote.verify(parse_bag(bag), raw, commitment, sequence, tie_rule,
                              allow_any_size)
    if not verdict.ok:
        raise Failure(f"not verified: {verdict.problem}", 1)
    click.echo("verified")
