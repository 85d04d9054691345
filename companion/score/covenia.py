"""`companion score covenia`: reading the table's input (file or interactive entry), and
putting companion.rules.covenia's result into words, JSON, or a filled score-book page.
No reportlab here unless --pdf asks for it."""

import re
from pathlib import Path

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.errors import shown
from companion.rules import covenia as scorer
from companion.text.typography import listing, typeset

ROWS = (*scorer.CLANS, "bonus")


# What the scores are worded with; the card layouts (most of the file) are read only for
# the filled score-book page.
WORDS = frozenset({"game", "clans", "bonus", "total", "score"})
SCORING = frozenset({"game", "scoring"})  # the end scoring as data (rules())


def words(data_path: Path | None = None, layouts: bool = False) -> Fields:
    path = Path(data_path) if data_path else paths.LAYOUTS / "covenia.toml"
    return Fields(load_toml(path, only=None if layouts else WORDS), str(path))


def rules(data_path: Path | None = None) -> "sheet.Rules":
    """Covenia's end scoring as covenia.toml's [[scoring]] writes it, checked: a fault
    names the file and the key. What `companion score covenia` and the phones score with
    (a kept read: covenia.toml's [[scoring]] is parsed once, then read back)."""
    from companion.score.scoring_words import rules as checked

    path = Path(data_path) if data_path else paths.LAYOUTS / "covenia.toml"
    return checked(Fields(load_toml(path, only=SCORING), str(path)))


def score(table, data_path: Path | None = None) -> "scorer.Result":
    """A score file's content scored by covenia.toml's [[scoring]] (or `data_path`'s)."""
    return scorer.score(table, rules(data_path))


def clan_names(data: Fields, lang: str) -> dict[str, str]:
    return {c.get("id", str): c.text("name", lang) for c in data.items("clans")}


# ---- input ---------------------------------------------------------------------------

def numbers(line: str) -> list[int]:
    """'1 4 6', '1,4,6', '1, 4; 6' -> [1, 4, 6]; anything else is an error."""
    parts = [p for p in re.split(r"[\s,;]+", line.strip()) if p]
    if not all(re.fullmatch(VALUE, p) for p in parts):
        raise ValueError("write card values as numbers 1 to 10, e.g. 1 4 6")
    return [int(p) for p in parts]


_LETTERS = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple", "j": "yellow"}
# Patterns for typed-in lines, compiled (and cached by re) at first use: scoring a file
# does not pay for them.
VALUE = r"[0-9]{1,2}"  # ASCII digits only ("²".isdigit() is True); values 1-10
_TOKEN = r"[^\W\d_]+|[0-9]+|[^\s,;]"  # a word, a number, or any other sign


def hand(line: str) -> dict[str, list[int]]:
    """'yellow 5, green 9', 'y5 g9', 'jaune 5 vert 9' -> {'yellow': [5], 'green': [9]}."""
    out: dict[str, list[int]] = {}
    clan = None
    for token in re.findall(_TOKEN, line.lower()):
        if token.isascii() and token.isdigit():
            if clan is None:
                raise ValueError("name the clan before its values, e.g. yellow 5")
            if not re.fullmatch(VALUE, token):
                raise ValueError(f"{token} is not a card value (1-10)")
            out.setdefault(clan, []).append(int(token))
        elif token.isalpha():
            clan = scorer.clan_key(token) or _LETTERS.get(token)
            if clan is None:
                raise ValueError(f"unknown clan {shown(token)}")
        else:
            raise ValueError(f"{shown(token)} is neither a clan nor a value, e.g. yellow 5")
    return out


def ask(prompt, echo, data: Fields, lang: str) -> dict:
    """Interactive entry; re-asks a bad line instead of failing. `prompt(text, default)`
    returns the typed line; `echo(text)` shows a problem."""
    s = data.sub("score")
    t = lambda key, **kw: s.text(key, lang).format(**kw)  # noqa: E731
    names = clan_names(data, lang)
    from companion.score import entry  # typing a table in: not when scoring a file

    ask_line = entry.asking(prompt, lang)

    def until_ok(text, check, default=""):
        while True:
            line = ask_line(text, default)
            try:
                return check(line)
            except ValueError as e:
                echo(f"  {e}")

    def count(line):
        if line.strip() not in ("2", "3", "4"):
            raise ValueError("2, 3 or 4")
        return int(line)

    n = until_ok(t("players_prompt"), count)
    players: list[dict] = []
    for i in range(n):
        def name(line, taken=[p["name"] for p in players]):
            if not line.strip():
                raise ValueError("a name, please")
            if line.strip() in taken:
                raise ValueError("two players cannot share a name")
            return line.strip()
        players.append({"name": until_ok(t("name_prompt", i=i + 1), name)})

    def decks(line):
        if line.strip().upper() not in scorer.DECKS:
            raise ValueError("A, B or AB")
        return _scoring_errors_as_value_errors(lambda d: scorer.check_decks(d, n))(line)

    table = {"decks": until_ok(t("decks_prompt"), decks, scorer.default_decks(n)),
             "players": players}
    for p in players:
        area = {}
        for clan in scorer.CLANS:
            def column(line, clan=clan):
                return list(scorer.check_column(numbers(line), clan))
            values = until_ok(t("column_prompt", name=p["name"], clan=names[clan]),
                              _scoring_errors_as_value_errors(column))
            if values:
                area[clan] = values
        p["area"] = area

        def hand_line(line):
            h = hand(line)
            for clan, values in h.items():
                scorer.check_values(values, clan)
            return h
        p["hand"] = until_ok(t("hand_prompt", name=p["name"]),
                             _scoring_errors_as_value_errors(hand_line))
    return table


def _scoring_errors_as_value_errors(check):
    def wrapped(line):
        try:
            return check(line)
        except scorer.ScoreError as e:
            raise ValueError(e.message) from None
    return wrapped


def to_toml(table: dict) -> str:
    """The score file format, written with tomlkit (any name, emoji included, reads back)."""
    import tomlkit

    doc = tomlkit.document()
    if "decks" in table:
        doc["decks"] = table["decks"]
    players = tomlkit.aot()
    for p in table["players"]:
        t = tomlkit.table()
        t["name"] = p["name"]
        for part in ("area", "hand"):
            cells = tomlkit.inline_table()
            for clan, values in p.get(part, {}).items():
                cells[clan] = list(values)
            t[part] = cells
        players.append(t)
    doc["players"] = players
    want = {**({"decks": table["decks"]} if "decks" in table else {}),
            "players": [{"name": p["name"], **{part: {c: list(v) for c, v in p.get(part, {}).items()}
                                               for part in ("area", "hand")}}
                        for p in table["players"]]}
    from companion.score.toml_out import checked_dump  # --save only

    return checked_dump(doc, want, "the score file")


# ---- output --------------------------------------------------------------------------

def as_json(result: scorer.Result) -> dict:
    return {"game": "covenia",
            "players": [{"name": p.name, **{r: p.points[r] for r in ROWS},
                         "total": p.total, "rank": p.rank} for p in result.players],
            "winners": result.winners}


# The words a kind falls back on (a row with no tie word says a tie as the most).
PLAIN = {"most_with": "most", "times_zero": "times"}


def word_key(reason: "sheet.Reason") -> str:
    """Which of [score]'s words explains a reason: none when nothing is counted, most_with
    for a most shared, times_zero for a count times nothing, else the reason's kind."""
    n = reason.numbers
    if not n["n"]:
        return "none"
    if reason.key == "most" and n["with"]:
        return "most_with"
    if reason.key == "times" and not n["by"]:
        return "times_zero"
    return reason.key


def _word(s: Fields, row: str, key: str, lang: str) -> str:
    """The row's own word for `key` (or for its plain kind), else [score]'s general one."""
    own = s.table.get(row, {})
    for k in (key, PLAIN.get(key, key)):
        if k in own:
            return s.sub(row).text(k, lang)
    return s.text(key, lang)


def explain(reason: "sheet.Reason", row: str, data: Fields, lang: str) -> str:
    """A row's figure in words: the reason covenia.toml's [[scoring]] gives it, worded by
    [score] (a row's figures are scored once: one reason)."""
    s = data.sub("score")
    names = {k: v.lower() for k, v in clan_names(data, lang).items()}
    nums = {**reason.numbers, "clan": names.get(row, row)}
    if "values" in nums:
        nums["values"] = " + ".join(map(str, nums["values"]))
    if "of" in nums:  # the bonus: the shortest of the columns it counts
        column = s.get("columns", dict)
        nums["shortest"] = "/".join(names[column[k]] for k, v in nums["of"].items()
                                    if v == nums["n"])
    return _word(s, row, word_key(reason), lang).format(**nums)


def report(result: scorer.Result, data: Fields, lang: str) -> str:
    s = data.sub("score")
    names = clan_names(data, lang)
    labels = {**names, "bonus": data.sub("bonus").text("name", lang),
              "total": data.sub("total").text("name", lang), "rank": s.text("rank", lang)}
    width = max(len(v) for v in labels.values()) + 2
    cols = [max(6, len(p.name) + 2) for p in result.players]
    out = [s.text("title", lang).format(decks=result.decks), ""]
    out.append(" " * width + "".join(p.name.rjust(w) for p, w in zip(result.players, cols)))
    for row in (*ROWS, "total", "rank"):
        cells = [str(p.rank if row == "rank" else p.total if row == "total" else p.points[row])
                 for p in result.players]
        out.append(labels[row].ljust(width) + "".join(c.rjust(w) for c, w in zip(cells, cols)))
    for p in result.players:
        out += ["", p.name]
        for row in ROWS:
            out.append(f"  {labels[row].ljust(width)}{p.points[row]:>4}   "
                       f"{explain(p.reasons[row][0], row, data, lang)}")
        out.append(f"  {labels['total'].ljust(width)}{p.total:>4}")
    out += ["", verdict(result, data, lang)]
    return "\n".join(out)


def verdict(result: scorer.Result, data: Fields, lang: str) -> str:
    """The report's last line: who won (the phone shows it too)."""
    s = data.sub("score")
    return s.text("winner" if len(result.winners) == 1 else "winners", lang).format(
        names=listing(result.winners, s.text("and", lang)))


def write_pdf(path: Path, result: scorer.Result, data: Fields, lang: str, paper: str) -> bool:
    """The filled score-book page, drawn by the same code as the kit's blank one. A name
    holding characters our fonts cannot draw prints them as boxes, and the page says so:
    True then (the caller says so too)."""

    from companion.press import fonts, presets
    from companion.files.atomic import replaced
    from companion.engine.parts import Context
    from companion.engine import components
    from companion.engine.face import Engine
    from companion.press.pdf import open_canvas

    words_path = paths.LAYOUTS / "strings.toml"
    ctx = Context(data, lang, presets.paper_size(paper), (0, 0), "", Fields(
        load_toml(words_path), str(words_path)))
    shown = {p.name: fonts.printable(p.name) for p in result.players}
    boxed = any(shown[n] != n for n in shown)
    result = result._replace(players=[p._replace(name=shown[p.name]) for p in result.players],
                             winners=[shown[n] for n in result.winners])
    lines = [explain_line(p, data, lang) for p in result.players]
    if boxed:
        lines.append(data.sub("score").text("unprintable", lang).format(box=fonts.PLACEHOLDER))
    # The page is [kinds.scorebook-filled]: the clans', bonus and total rows get the
    # players' points as their `values`.
    points = {row: [str(p.points[row]) for p in result.players] for row in ROWS}
    points["total"] = [str(p.total) for p in result.players]
    clans = [dict(clan, values=points[clan["id"]])
             for clan in components.fields_of(data.table["clans"], lang, data, "clans")]
    fields = {"names": [p.name for p in result.players], "clans": clans,
              "verdict": report(result, data, lang).splitlines()[-1], "report": lines}
    for row in ("bonus", "total"):
        fields[row] = dict(components.fields_of(data.table[row], lang, data, row),
                           values=points[row])
    face = Engine.of(data, lang, "covenia").face("scorebook-filled", fields, label="score")
    with replaced(Path(path)) as tmp:
        c = open_canvas(tmp, ctx.page, "Covenia: score", data.sub("game").text("credits", lang))
        face.draw(c, *ctx.page, 0.0)
        c.showPage()
        c.save()
    return boxed


def explain_line(p: "sheet.PlayerScore", data: Fields, lang: str) -> str:
    """A player's figures on one line, worded by [score] line and line_sep ("Emma: ...;
    ..." in English; French puts its narrow no-break space before : and ;). The name is
    put in after typesetting: a player's name is never respaced."""
    s = data.sub("score")
    sep = s.text("line_sep", lang) if "line_sep" in s.table else typeset("; ", lang)
    form = s.text("line", lang) if "line" in s.table else typeset("{name}: {figures}", lang)
    figures = sep.join(explain(p.reasons[r][0], r, data, lang) for r in ROWS)
    return form.replace("{figures}", figures).replace("{name}", p.name)
