"""The designer's pictures on every game's cards, the games' side of companion.draw.art.

Each card kind of a game (clan, temple, character, token, back...) has an art box in its
layout data, `[layout.KIND] art = { x, y, w, h }` (fractions of the card, y from the top),
and may get a picture from two places, the first that says one:

- the entry that makes the card: `art = "art/{clan}-{value}{deck}.jpg"` on a Covenia
  clan (each kind's entry is listed in the game module's ART);
- the game's `[art]` table, one key per kind: `[art] temple = "art/temple-{clan}.png"`,
  `back = "art/back-{back}.jpg"` (every card back; {back} names which).

Both take `art_fit`/`art_anchor` (in [art]: `KIND_fit`, `KIND_anchor`). The path names the
card's own fields in braces (the kind's `fields`; {id} is the card's id everywhere).

With no picture a card is drawn exactly as without this module. With one, the face draws
it through companion.draw.card: a box covering the whole card is the card's ground (under
everything else, into the bleed); a smaller box takes the place of the element the kind
names (`place`); a back with a picture is that picture alone."""

import hashlib
import re
import tomllib
from functools import lru_cache
from pathlib import Path

import msgspec

from companion.draw import art
from companion.files import paths
from companion.files.data import Fields
from companion.draw.card import Pic
from companion.text import templates


class Kind(msgspec.Struct, frozen=True):
    """One kind of card of a game, as a designer sees it."""
    title: str  # "Clan cards"
    entry: str  # where its own `art` goes besides [art] ("[[clans]]"), or ""
    fields: tuple[str, ...]  # what its path may name in braces
    place: str  # what the box is, or what it replaces
    stock: str = "cards"  # "tokens": its size is [tokens] size, not the card's


class Pictures:
    """A game's art boxes and the pictures its cards ask for."""

    def __init__(self, ctx, game: str, kinds: dict[str, Kind], bundled: bool = True):
        """`bundled`: a kind without its own box takes the bundled game's (a data file
        written before art boxes existed); else the whole card."""
        self.game, self.kinds, self.bundled = game, kinds, bundled
        self.base = ctx.base or Path.cwd()
        data = ctx.data
        self.layout = data.sub("layout") if "layout" in data.table else None
        self.table = data.sub("art") if "art" in data.table else None
        self._boxes: dict[str, art.Box] = {}
        self._specs: dict[tuple, art.Spec | None] = {}  # see _spec
        if self.table is not None:
            known = {f"{k}{s}" for k in kinds for s in ("", "_fit", "_anchor")}
            for key in self.table.table:
                if key not in known:
                    raise self.table.error(key, f"not a card kind of {game} (kinds: "
                                                f"{', '.join(kinds)})")
        self._no_art_where_no_card(data)

    def _no_art_where_no_card(self, data: Fields) -> None:
        """`art` on a table that makes no card (Covenia's [[decks]], Lugvanion's
        [[objectives]]) would print nowhere: refused, naming where it may go."""
        takers = {re.split(r"[.\]]", w)[0] for k in self.kinds.values()
                  for w in re.findall(r"\[+([\w.]+)", k.entry)} | {"art", "layout"}
        for top, value in data.table.items():
            if top in takers:
                continue
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items, 1):
                if isinstance(item, dict) and (key := next((a for a in art.KEYS if a in item),
                                                           None)):
                    where = data.sub(top) if isinstance(value, dict) else data.items(top)[i - 1]
                    raise where.error(key, "makes no card: a picture here would print nowhere "
                                           f"(art goes in {self._takers_words()})")

    def _takers_words(self) -> str:
        places = list(dict.fromkeys(k.entry for k in self.kinds.values() if k.entry))
        places.append("[art] KIND")
        return ", ".join(places)

    def box(self, kind: str) -> art.Box:
        """[layout.KIND] art; a data file written before art boxes existed gets the
        bundled one."""
        if kind not in self._boxes:
            own = self.layout is not None and kind in self.layout.table \
                and "art" in self.layout.sub(kind).table
            self._boxes[kind] = art.box(self.layout.sub(kind)) if own else bundled_box(
                self.game, kind) if self.bundled else art.Box(0.0, 0.0, 1.0, 1.0)
        return self._boxes[kind]

    def pic(self, kind: str, card: str, fields: dict, entry: Fields | None = None,
            key: str = "art") -> Pic | None:
        """The picture one card asks for (`card`: its name in messages, COMPONENT/ID), or
        None. `entry` is the data table that makes the card; `key` its art key there."""
        assert set(fields) == set(self.kinds[kind].fields), (kind, fields)
        spec = self._spec(entry, fields, card, key) if entry is not None else None
        if spec is None and self.table is not None:
            spec = self._spec(self.table, fields, card, kind)
        return None if spec is None else Pic(self.box(kind), spec)

    def _spec(self, entry: Fields, fields: dict, card: str, key: str) -> art.Spec | None:
        """art.spec, worked out once for each thing it reads (the entry's `key`, `key_fit`
        and `key_anchor`, the fields its path names) and given each card's name: 2,000
        cards showing 12 pictures resolve 12 paths (a path's links read folder by folder),
        not 2,000. What is wrong is found, and named, at the first card that says it."""
        table = entry.table
        said = [table.get(k) for k in (key, f"{key}_fit", f"{key}_anchor")]
        try:
            named = templates.names(said[0]) if isinstance(said[0], str) else ()
            memo = (key, tuple(fields), *((type(v), v) for v in said),
                    *((type(fields.get(k)), fields.get(k)) for k in named))
            spec = self._specs[memo]
        except (templates.TemplateError, TypeError):  # no template, or a value no key
            return art.spec(entry, fields, self.base, card, key)  # holds: read as it is
        except KeyError:
            spec = self._specs[memo] = art.spec(entry, fields, self.base, card, key)
        return spec if spec is None or spec.card == card else msgspec.structs.replace(
            spec, card=card)


def keyed(key: str, pic: Pic | None) -> str:
    """A shared face's key (its PDF form's name): as it is without a picture, else with a
    digest of the picture and its box, so faces showing different pictures never merge."""
    if pic is None:
        return key
    s = pic.spec
    return f"{key}-art{_tag(repr((str(s.path), s.fit, s.anchor, pic.box)))}"


@lru_cache(maxsize=4096)
def _tag(said: str) -> str:
    """A picture's tag in its faces' keys: 2,000 cards showing 12 pictures hash 12."""
    return hashlib.sha256(said.encode()).hexdigest()[:12]


def bundled_box(game: str, kind: str) -> art.Box:
    table = _bundled(game)
    source = str(paths.layout(f"{game}.toml"))
    return art.box(Fields(table, source, "layout").sub(kind))


_BUNDLED: dict[str, dict] = {}


def _bundled(game: str) -> dict:
    if game not in _BUNDLED:
        _BUNDLED[game] = tomllib.loads(paths.layout(f"{game}.toml").read_text("utf-8"))["layout"]
    return _BUNDLED[game]


def slug(text: str) -> str:
    """A name as an id: "Virág" -> "virag"."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
