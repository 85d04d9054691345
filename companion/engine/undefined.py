"""Names a layout uses that nothing defines, found as a kit is drawn. Neither of these stops
a card, so a typo would pass unseen: a field a condition names that the card lacks is
empty (`when = 'rarty == "rare"'` then holds on no card), and a `:word:` in a text that is
no icon prints as written (`:manna:`). While `noting()` is open, each face drawn says which
names it used and which it had: a condition's field (or an "A or B" colour's first field)
that no card drawn has, an :icon: that is no icon, becomes a warning naming the layout
file, the kind, the element and the name, with the nearest defined name when one is close
(companion.kit prints them; --strict refuses them). So is a colour an element names by a
word the game does not define, drawn or not (`colours`: where drawn, it stops the build).
Templates, fonts and symbols naming nothing are errors already (fonts as the file loads)."""

from contextlib import nullcontext
from contextvars import ContextVar

from companion.scoped import Scoped

_NOTES: ContextVar["Notes | None"] = ContextVar("undefined_notes", default=None)
_WHERE: ContextVar[tuple | None] = ContextVar("undefined_where", default=None)
_KIND: ContextVar[tuple | None] = ContextVar("undefined_kind", default=None)


class Notes:
    """What the faces drawn used and had, by (layout file, kind, element)."""

    def __init__(self):
        self.fields: dict[tuple, dict[str, set | None]] = {}  # where -> name -> fields seen
        self.icons: dict[tuple, dict[str, tuple]] = {}  # where -> icon -> (icons, card)
        self.defined: set[str] = set()  # a card list's columns, blank on every row too
        self.colours: dict[tuple, tuple] = {}  # (where, key, name) -> the game's colours

    def field(self, where: tuple, name: str, scope) -> None:
        names = self.fields.setdefault(where, {})
        seen = names.get(name, set())
        if seen is None:  # found on a card already
            return
        if name in scope or name.startswith("todo."):  # todo.X: only while X is to come
            names[name] = None
        elif not seen:  # the names it may have meant: a card's fields
            names[name] = {k for k in scope if isinstance(k, str)} or {""}

    def icon(self, where: tuple, name: str, known: list[str], card: str) -> None:
        self.icons.setdefault(where, {}).setdefault(name, (known, card))

    def lines(self) -> list[str]:
        """One line a name used that nothing defined, in the order met."""
        out = []
        for where, names in self.fields.items():
            for name, seen in names.items():
                if seen is not None and name not in self.defined:
                    key, source = where[4]
                    out.append(f"{_where(where)}: {key} = {source!r} names {name}, which no "
                               f"card has{_near(name, seen | self.defined)}")
        for (where, key, name), palette in self.colours.items():
            out.append(f"{_where(where)}: {key} names the colour {name!r}, which the game "
                       f"does not define{_near(name, palette)}")
        for where, names in self.icons.items():
            for name, (known, card) in names.items():
                on = f" on {card}" if card else ""
                out.append(f"{_where(where)}: :{name}: is no icon, printed as written{on}"
                           f"{_near(name, known, ':')}")
        return out


def _where(where: tuple) -> str:
    source, kind, index, el_type, _what, el_id = where
    name = f"element {index}" + (f" {el_id!r}" if el_id else "")
    return f"{source}: kinds.{kind}, {name} ({el_type})"


def _near(name: str, names, mark: str = "") -> str:
    import difflib  # only where a name is undefined: not on every build's start

    close = difflib.get_close_matches(name, sorted(n for n in names if "." not in n
                                                   or "." in name), n=1, cutoff=0.8)
    return f" (did you mean {mark}{close[0]}{mark}?)" if close else ""


def noting() -> Scoped:
    """Notes, filled by every face drawn inside."""
    return Scoped(_NOTES, Notes())


def recording(real, method: str, calls: list):
    """The Notes method `real` (named `method`) also appending each call to `calls`, as a
    kept drawing makes it again: of a card's scope, Notes.field reads only the names, and
    none but the one looked up when the scope has it."""
    def noted(*args):
        if method == "field":
            where, name, scope = args
            args = (where, name, {name: None} if name in scope else
                    dict.fromkeys(k for k in scope if isinstance(k, str)))
        calls.append((method, args))
        return real(*args)
    return noted


def notes() -> "Notes | None":
    """The notes open now (a build's), or None."""
    return _NOTES.get()


def active() -> bool:
    return _NOTES.get() is not None


def naming() -> bool:
    """Whether a kind's elements drawn now are to be named (notes open, none named yet)."""
    return _NOTES.get() is not None and _WHERE.get() is None and _checked()


def _checked() -> bool:
    k = _KIND.get()
    return k is not None and k[1] != ""


def kind(source: str, name: str, checked: bool = True, card: str = ""):
    """A face of the kind `name` (of the layout file `source`) being drawn, of the card
    `card` (COMPONENT/ID); `checked`: held to undefined names (else its elements, and the
    kinds it nests, are not)."""
    if _NOTES.get() is None or _KIND.get() is not None:  # a nested kind: the outer's
        return nullcontext()
    return Scoped(_KIND, (source, name, card) if checked else ("", "", ""))


def enter(index: int, el):
    """The kind's element `index` (from 1) being drawn, until `leave(token)`: the
    outermost one is named."""
    source, kind_name, _card = _KIND.get()
    return _WHERE.set((source, kind_name, index, type(el).__name__.lower(),
                       getattr(el, "id", None)))


def leave(token) -> None:
    _WHERE.reset(token)


def _here(what) -> tuple | None:
    where = _WHERE.get()
    return None if where is None else (*where[:4], what, where[4])


COLOUR_KEYS = ("fill", "stroke", "colour", "edge", "grid", "mark")


def colours(source: str, kinds: dict, palette: dict, checked) -> None:
    """Every colour the kinds' elements name by a bare word ("snad"), drawn or not,
    checked against the game's colours (`palette`): one named nowhere is noted. Those a
    face draws stop the build where drawn; this finds those no face draws."""
    notes = _NOTES.get()
    if notes is None:
        return
    from companion.draw import colour as parse
    from companion.engine import schema

    def words(value: str):
        for part in value.split(" or "):
            part = part.strip()
            if "{" in part:
                continue
            if part.startswith(("mix(", "on(")) and part.endswith(")"):
                inner = part[part.index("(") + 1:-1].split(",")
                yield from (w for p in inner for w in words(p)
                            if not _number(p.strip()))
            elif part and parse.parse(part) is None:
                yield part

    def walk(kind_name: str, index: int, top, el) -> None:
        for key in COLOUR_KEYS:
            value = getattr(el, key, None)
            if key == "mark" and not isinstance(value, str):
                value = getattr(value, "colour", None)
            if isinstance(value, str):
                for name in words(value):
                    if name not in palette:
                        where = (source, kind_name, index, type(top).__name__.lower(), "",
                                 getattr(top, "id", None))
                        notes.colours.setdefault((where, key, name), tuple(palette))
        for e in schema.inner(el):
            walk(kind_name, index, top, e)

    for kind_name, k in kinds.items():
        if checked is not None and kind_name not in checked:
            continue
        for i, el in enumerate(k.elements, 1):
            walk(kind_name, i, el, el)


def _number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def define(names) -> None:
    """Names defined though no card may have them: a card list's columns, blank or not."""
    notes = _NOTES.get()
    if notes is not None:
        notes.defined.update(names)


def fields(names, scope, what: tuple) -> None:
    """The fields `what` (("when", its condition)) names, looked up in a card's `scope`."""
    notes = _NOTES.get()
    if notes is None:
        return
    where = _here(what)
    if where is not None:
        for name in names:
            notes.field(where, name, scope)


def icon(name: str, known: list[str]) -> None:
    """A `:name:` in a text that is no icon (`known`: the icons there are)."""
    notes = _NOTES.get()
    if notes is None:
        return
    where = _here("")
    if where is not None:
        notes.icon(where, name, known, _KIND.get()[2])
