"""What changed in a card's words between two printings: each field whose text differs,
as words kept, removed and added (the errata sheet strikes the removed and underlines the
added). Pure: text in, marked words out."""

from difflib import SequenceMatcher

KEPT, REMOVED, ADDED = "=", "-", "+"


def plain(value) -> str:
    """A field's value as text: a list's items joined by "; ", an item (a table with a
    name or an id) by its name, another table as key=value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "; ".join(plain(v) for v in value)
    if isinstance(value, dict) and ("name" in value or "id" in value):
        return plain(value.get("name", value.get("id")))
    if isinstance(value, dict):
        return "; ".join(f"{k}={plain(v)}" for k, v in value.items())
    return "" if value is None else str(value)


def words(old: str, new: str) -> list[tuple[str, str]]:
    """The two texts as one run of (mark, word): KEPT words in both, REMOVED words only in
    the old, ADDED only in the new, the removed before the added where one replaced the
    other. Words are split at spaces; a word with its punctuation changed is one word
    removed and one added."""
    a, b = old.split(), new.split()
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out += [(KEPT, w) for w in a[i1:i2]]
            continue
        out += [(REMOVED, w) for w in a[i1:i2]]
        out += [(ADDED, w) for w in b[j1:j2]]
    return out


def fields(old: dict, new: dict, skip: frozenset = frozenset()) -> list[tuple[str, list]]:
    """Each field whose text differs (in the new card's order, then the fields only the
    old had), with its words marked: [(field, words(...))]. A field absent is empty."""
    names = list(new) + [k for k in old if k not in new]
    out = []
    for name in names:
        if name in skip:
            continue
        a, b = plain(old.get(name)), plain(new.get(name))
        if a != b:
            out.append((name, words(a, b)))
    return out
