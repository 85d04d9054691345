"""decklist: every card of the kit in one CSV a spreadsheet opens, to check a printed
deck against: a row a distinct card (component, id, count), then its data's fields as
the build read them, a column a field.

UTF-8 with a byte-order mark (so a spreadsheet reads accents right) and CRLF lines.
A text a spreadsheet would take for a formula is written with an apostrophe before it
(companion.files.csv_cells, as every CSV the tool writes): a card list is someone's data,
and opening it must run nothing."""

import io

from companion.files import csv_cells
from companion.files.csv_cells import safe

TAKES: set[str] = set()
PATH = "decklist.csv"
FIRST = ["component", "id", "count"]


def cell(value) -> str:
    """A field's value as one cell: a list's items joined by "; ", an item (a table with
    a name or an id) by its name, another table as key=value, a text to come as its
    note; never a formula."""
    return safe(_plain(value))  # "-3" stays a number; "=1+2", "@SUM(...)" are shown


def _plain(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "; ".join(_plain(v) for v in value)
    if isinstance(value, dict) and ("name" in value or "id" in value):
        return _plain(value.get("name", value.get("id")))  # an item (a clan): its name
    if isinstance(value, dict):
        return "; ".join(f"{k}={_plain(v)}" for k, v in value.items())
    return "" if value is None else str(value)  # a Placeholder: its note


def rows(decks) -> list[list[str]]:
    """The header, then a row each distinct card of each deck, in kit order."""
    names: dict[str, None] = {}
    for deck in decks:
        for e in deck.entries:
            names.update(dict.fromkeys(k for k in e.fields if k not in FIRST))
    out = [FIRST + list(names)]
    for deck in decks:
        for e in deck.entries:
            out.append([cell(deck.id), cell(e.id), str(e.count)]
                       + [cell(e.fields.get(k)) for k in names])
    return out


def text(decks) -> str:
    buf = io.StringIO()
    csv_cells.writer(buf).writerows(rows(decks))  # the header too: columns are data
    return buf.getvalue()


def write(ctx) -> dict:
    ctx.progress(0, 1, PATH)
    (ctx.stage / PATH).write_text(text(ctx.decks), encoding="utf-8-sig", newline="")
    ctx.progress(1, 1, "done")
    return {"path": PATH,
            "components": [{"id": d.id, "title": d.title, "cards": d.cards,
                            "faces": [{"id": e.id, "count": e.count} for e in d.entries]}
                           for d in ctx.decks],
            "cards": sum(d.cards for d in ctx.decks)}


def guide(ctx, manifest: dict) -> str:
    return ctx.word("decklist", path=PATH, cards=manifest["cards"])
