"""A designer's game scored from its game file's [[scoring]] (companion.rules.scoring): the rules
read from the file with errors naming it, each figure put into words, the JSON a program
or a phone reads. The same words as the printed score pad (companion/layouts/scorepad.toml);
each kind's explanation from companion/layouts/scoring.toml."""

import functools

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.errors import CompanionError
from companion.text.typography import elide, listing
from companion.rules import scoring as scorer
from companion.rules.errors import ScoreError

GAME_KEYS = ("wins", "rounds", "tiebreak")


def rules(data: Fields) -> scorer.Rules:
    """The game's score categories, which total wins, its rounds and tie-breaks;
    CompanionError naming the file."""
    game = data.table.get("game") if isinstance(data.table.get("game"), dict) else {}
    try:
        return scorer.rules(data.table.get("scoring"), game.get("wins", "highest"),
                            rounds=game.get("rounds", 1), tiebreak=game.get("tiebreak", ()))
    except ScoreError as e:
        field = f"game.{e.field}" if e.field in GAME_KEYS else e.field
        raise CompanionError(e.message, source=data.source, field=field) from None


def has_scoring(data: Fields) -> bool:
    return "scoring" in data.table


def words() -> Fields:
    path = paths.LAYOUTS / "scorepad.toml"
    return Fields(load_toml(path, only=frozenset({"scorepad"})), str(path),
                  english=True).sub("scorepad")


def kinds() -> Fields:
    path = paths.LAYOUTS / "scoring.toml"
    return Fields(load_toml(path, only=frozenset({"scoring"})), str(path),
                  english=True).sub("scoring")


def names(data: Fields, lang: str) -> dict[str, str]:
    """Each category's printed name, by id."""
    return {c.get("id", str): c.text("name", lang) for c in data.items("scoring")}


def pad_key(c: scorer.Category) -> str:
    """The score pad's legend line for a kind of category (layouts/scorepad.toml): the
    printed pad and the phone say under each category's name how it counts, in its words."""
    if c.score == "points":
        return "typed"
    if c.score == "each":
        return "each_times" if c.times else "each"
    if c.score in ("lowest", "highest"):
        return f"{c.score}_{'of' if c.of else 'list'}"
    if c.score == "majority":
        return f"majority_{c.ties}"
    return c.score


def legend(c: scorer.Category, names: dict[str, str]) -> dict:
    """What a category's legend line prints (`{row.pad_...}` in layouts/scorepad.toml), as
    text: its points (the default 1 too), lists and the names of the categories it reads."""
    def listed(numbers) -> str:
        return " / ".join(str(n) for n in numbers)
    # a table by count, from 0: "0 → 0, 1 → 1, 2 → 3, 3+ → 6" (past its end, its last entry)
    last = len(c.table) - 1
    table = ", ".join(f"{k}{'+' if k == last else ''} → {p}" for k, p in enumerate(c.table))
    return {"pad_points": c.points, "pad_x": "" if c.points == 1 else f" × {c.points}",
            "pad_award": listed(c.award), "pad_ties": c.ties, "pad_table": table,
            "pad_of": ", ".join(names.get(o, o) for o in c.of),
            "pad_times": names.get(c.times, c.times or ""), "pad_most": c.most,
            "pad_others": c.others, "pad_once": c.rounds == 1}


def legend_text(c: scorer.Category, names: dict[str, str], pad: Fields, lang: str,
                rounds: int = 1) -> str:
    """A category's legend line in `pad`'s words (layouts/scorepad.toml, or a game's own
    [scorepad] over them): how it counts, that it is scored once in a game of `rounds`
    rounds (its own `rounds = 1`) and that it is not in the total (`total = false`)."""
    text = pad.text(pad_key(c), lang)
    for key, value in legend(c, names).items():
        text = text.replace("{row." + key + "}", str(value))
    if c.rounds == 1 and rounds > 1:
        text += pad.text("once", lang)
    return text if c.total else text + pad.text("apart", lang)


def explain(category: scorer.Category, written: int) -> str:
    """One figure of a kind that needs no other player, as the score pad counts it:
    "3 × 2 = 6", "4 × 4 = 16", "7"."""
    points = category.of_count(written)
    if category.score == "each":
        return f"{written} × {category.points} = {points}"
    if category.score == "squared":
        return f"{written} × {written} = {points}"
    return f"{points}"


def _place(w: Fields, place: int, lang: str) -> str:
    return w.text(f"place_{place}", lang) if place <= 5 else \
        w.text("place_n", lang).format(n=place)


def say(reason: scorer.Reason, category: scorer.Category, labels: dict[str, str],
        lang: str, w: Fields | None = None) -> str:
    """One round's figure of one category in words."""
    w = w or kinds()
    n = reason.numbers
    what = labels.get(category.id, category.id).lower()
    key = reason.key
    if key in ("most", "others"):
        if key == "most" and n["with"]:
            key = "most_with"
        return w.text(key, lang).format(n=n["n"], what=what, each=n["each"],
                                        points=n["points"],
                                        **{"with": listing(n["with"], _and(lang))})
    if key == "majority":
        if not n["place"]:
            return w.text("majority_out", lang).format(n=n["n"], what=what)
        place = _place(w, n["place"], lang)
        fields = dict(n=n["n"], what=what, place=place, points=n["points"],
                      places=" + ".join(map(str, n["places"])), tied=len(n["places"]))
        fields["with"] = listing(n["with"], _and(lang))
        if not n["with"]:
            return w.text("majority", lang).format(**fields)
        key = f"majority_{n['ties']}"
        if n["ties"] == "share" and sum(n["places"]) % len(n["places"]):
            key, fields["exact"] = "majority_share_down", _quotient(
                sum(n["places"]), len(n["places"]), lang)
        return w.text(key, lang).format(**fields)
    if key == "times":
        return w.text("times", lang).format(n=n["n"], by=n["by"], points=n["points"],
                                            times=labels.get(n["times"], n["times"]).lower())
    if key == "table":
        past = n["n"] >= len(n["table"])
        return w.text("table_past" if past else "table", lang).format(**n)
    if key in ("sum", "lowest", "highest", "sets"):
        if "of" in n:
            values = ", ".join(f"{labels.get(k, k)} {v}" for k, v in n["of"].items())
        elif not n["values"]:
            return w.text("none_f" if category.gender == "f" else "none", lang)
        else:
            values = (" + " if key == "sum" else ", ").join(map(str, n["values"]))
        text = w.text(key, lang).format(values=values, n=n["n"])
        if n["each"] != 1:
            text += w.text("sep", lang) + w.text("multiplied", lang).format(n=n["n"], each=n["each"],
                                                            points=n["points"])
        return text
    return w.text(key, lang).format(**{k: v for k, v in n.items() if k != "table"})


def _quotient(a: int, b: int, lang: str) -> str:
    """a / b as the pad's figures print it: "4.5", "2.33…" ("4,5" in French)."""
    exact = f"{a / b:.2f}".rstrip("0").rstrip(".")
    if a * 100 % b:  # more decimals than shown
        exact += "…"
    return exact.replace(".", ",") if lang == "fr" else exact


@functools.lru_cache(maxsize=None)
def _and(lang: str) -> str:
    """The pad's "and", read once a language (a phone's score words many figures)."""
    return words().text("and", lang)


def explained(player: scorer.PlayerScore, category: scorer.Category, labels: dict[str, str],
              lang: str, w: Fields | None = None, rounds: int = 1) -> str:
    """A category's figures for a player, round by round when the game has rounds (once,
    at the end, for a category scored once in a game of `rounds` rounds)."""
    w = w or kinds()
    reasons = player.reasons.get(category.id)
    if not reasons:  # a result made without reasons: the plain kinds
        return explain(category, player.written[category.id])
    texts = [say(r, category, labels, lang, w) for r in reasons]
    out = texts[0] if len(texts) == 1 else w.text("sep", lang).join(
        w.text("round", lang).format(k=k, text=t) for k, t in enumerate(texts, 1))
    if len(texts) == 1 and rounds > 1:
        out = w.text("once", lang).format(text=out)
    if not category.total:
        out += " " + w.text("not_counted", lang)
    return out


def as_json(result: scorer.Result, game: scorer.Rules | None = None,
            factions: list | None = None) -> dict:
    """The result for programs; a game with rounds adds each category's points a round
    ("rounds"), one with a tie-break the figures that break it ("tiebreak"), one with
    factions each player's ("faction", null when not given)."""
    players = []
    for i, p in enumerate(result.players):
        one = {"name": p.name, "written": p.written, "points": p.points, "total": p.total,
               "rank": p.rank}
        if game is not None and game.rounds > 1:
            one["rounds"] = p.rounds
        if game is not None and game.tiebreak:
            one["tiebreak"] = {t: p.figures[t] for t in game.tiebreak}
        if factions is not None:
            one["faction"] = factions[i]
        players.append(one)
    return {"players": players, "winners": result.winners}


def tiebreaks(game: scorer.Rules, result: scorer.Result, labels: dict[str, str], lang: str,
              w: Fields | None = None) -> list[str]:
    """A line for each total several players share, in a game with a tie-break: who, the
    categories that break it (only those used) and each one's figures ("Ana and Ben tie at
    18: Gems breaks it (Ana 5; Ben 4)."), or that none does."""
    if not game.tiebreak:
        return []
    w = w or kinds()
    by_total: dict[int, list] = {}
    for p in result.players:
        by_total.setdefault(p.total, []).append(p)
    out = []
    for total, tied in by_total.items():
        if len(tied) > 1:
            used = _deciding(game.tiebreak, tied)
            what = ", ".join(labels[t] for t in used)
            figures = w.text("sep", lang).join(f"{q.name} " + ", ".join(str(q.figures[t])
                                                         for t in used)
                                for q in tied)
            broken = len({tuple(q.figures[t] for t in used) for q in tied}) > 1
            out.append(w.text("tiebreak" if broken else "tiebreak_still", lang).format(
                names=listing([q.name for q in tied], _and(lang)),
                total=total, what=what, figures=figures))
    return out


def tiebreak_rule(game: scorer.Rules, labels: dict[str, str], pad: Fields, lang: str) -> str:
    """The pad's line under the winning total of a game with a tie-break ("Tie: the most
    Gems wins, then the most Cards wins; still tied, the win is shared"), its French
    elided ("le plus d’Anguilles"); the pad and `companion score` print it alike."""
    then = pad.text("tiebreak_then", lang)
    named = then.join(labels[t] for t in game.tiebreak)
    return elide(pad.text("tiebreak", lang).replace("{tiebreak_names}", named), lang)


def _deciding(tiebreak: tuple[str, ...], tied: list) -> tuple[str, ...]:
    """The tie-break categories that order the tied players: the first ones, up to the
    last that tells any of them apart (all of them when none does)."""
    apart = len({tuple(q.figures[t] for t in tiebreak) for q in tied})
    if apart == 1:
        return tiebreak
    return next(tiebreak[:k] for k in range(1, len(tiebreak) + 1)
                if len({tuple(q.figures[t] for t in tiebreak[:k]) for q in tied}) == apart)


def report(game: scorer.Rules, result: scorer.Result, data: Fields, lang: str,
           factions: list | None = None) -> str:
    """The table of points (a row a category, a column a player), then each player's
    figures explained (after her name, her faction when given), then any tie a tie-break
    settled, then who won."""
    pad, w = words(), kinds()
    labels = {**names(data, lang), "total": pad.sub("total").text("name", lang)}
    width = max(len(v) for v in labels.values()) + 2
    cols = [max(6, len(p.name) + 2) for p in result.players]
    title = data.sub("game").get("name", str)
    wins = "highest" if game.wins == "highest" else "lowest"
    if game.tiebreak:  # the pad's two lines: who wins, then what breaks a tie
        head = f"{title}: {pad.text(wins + '_tiebreak', lang)}{w.text('sep', lang)}" \
            f"{tiebreak_rule(game, labels, pad, lang)}"
    else:
        head = f"{title}: {pad.text(wins, lang)}"
    if game.rounds > 1:
        head += w.text("sep", lang) + w.text("rounds", lang).format(rounds=game.rounds)
    out = [head, ""]
    out.append(" " * width + "".join(p.name.rjust(w_) for p, w_ in zip(result.players, cols)))
    for row in [*(c.id for c in game.categories), "total"]:
        cells = [str(p.total if row == "total" else p.points[row]) for p in result.players]
        out.append(labels[row].ljust(width) + "".join(c.rjust(w_) for c, w_ in zip(cells, cols)))
    for i, p in enumerate(result.players):
        side = factions[i] if factions else None
        out += ["", f"{p.name} ({side})" if side else p.name]
        for c in game.categories:
            out.append(f"  {labels[c.id].ljust(width)}{p.points[c.id]:>6}   "
                       f"{explained(p, c, labels, lang, w, game.rounds)}")
        out.append(f"  {labels['total'].ljust(width)}{p.total:>6}")
    for line in tiebreaks(game, result, labels, lang, w):
        out += ["", line]
    won = listing(result.winners, pad.text("and", lang))
    out += ["", pad.text("winner" if len(result.winners) == 1 else "winners", lang)
            .format(names=won)]
    return "\n".join(out)
