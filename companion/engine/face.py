"""A card face drawn by the engine: its kind (from the game's layouts file), the card's
fields and its picture. Its digest is the hash of what decides every mark it makes (the
kind's elements, the fields, the colours, the picture's bytes, the size and bleed, the ink
mode): the manifest gets it without drawing the face a second time."""

import hashlib
import json
import os
import re
from functools import cache, partial
from pathlib import Path

import msgspec

from companion.press import fonts
from companion.draw import card as grounds, icons, symbols
from companion.errors import CompanionError
from companion.engine import bind, elements, kinds as kinds_mod, schema, undefined
from companion.files.row import Row
from companion.draw.print_sheets import Face


class Engine(msgspec.Struct, frozen=True):
    """A game's kinds and what every face of it shares: its colours by name and the
    fields every card may name (the game's texts, in the build's language)."""
    kinds: dict
    palette: dict
    shared: dict
    source: str
    lang: str = "en"
    facts: dict = msgspec.field(default_factory=dict)  # what its faces share, once (_fact)
    icons: dict = msgspec.field(default_factory=dict)  # [icons]: the game's own SVGs
    fonts: dict = msgspec.field(default_factory=dict)  # [fonts]: the game's own TTFs
    checked: frozenset | None = None  # the kinds held to undefined names (None: all)

    @classmethod
    def of(cls, data, lang: str, game: str | None = None) -> "Engine":
        """The engine for a game's data (companion.files.data.Fields): [kinds], the colours of
        [game], and what every card may name: [texts] and [titles] as `texts.KEY` and
        `titles.KEY`, and `game.name`. A data file written before [kinds] existed
        (an older `companion init` copy) draws with the bundled game's kinds."""
        from companion.draw import colour

        table = data.table
        source, raw = data.source, table.get("kinds")
        if raw is None and game is not None:
            from companion.files import paths
            from companion.files.data import load_toml

            source = str(paths.layout(f"{game}.toml"))
            raw = load_toml(source).get("kinds", {})
        own_fonts = fonts.load(data)
        kinds = kinds_mod.load(raw or {}, source, tuple(own_fonts))
        game = data.sub("game")
        palette = colour.palette(game)
        shared = {"game.name": game.get("name", str)}
        # a score book's foot: the game's authors, or nothing where the game names none
        shared["game.credits"] = game.text("credits", lang) if "credits" in game.table else ""
        for part in ("texts", "titles"):  # every card may name them: {texts.to_come}
            if part in table:
                t = data.sub(part)
                for k in t.table:
                    shared[f"{part}.{k}"] = t.text(k, lang)
        checked = _own_kinds(raw or {})
        undefined.colours(source, kinds, palette, checked)  # those no face draws too
        return cls(kinds, palette, shared, data.source, lang, icons=icons.load(data),
                   fonts=own_fonts, checked=checked)

    def todo(self, kind: str, fields: dict, label: str = "",
             read: dict | None = None, origins: dict | None = None) -> list[str]:
        """The texts still to be written a card of `kind` shows, for the print guide.
        `read`: the card's fields as `read` gave them, when the caller has them already;
        `origins`: as `face` takes them."""
        scope = self._scope(fields, None, read)
        try:
            return elements.todo_notes(self.kinds[kind].elements, scope)
        except bind.BindError as e:
            raise _error_of(e, self, kind, label, origins or {}) from None

    def read(self, fields: dict) -> dict:
        """A card's fields as its kinds read them: flattened ({clan.colour}), beside what
        every card may name; worked out once for a card's face and its print-guide notes."""
        scope = dict(self.shared)
        own = bind.flat(fields)
        scope.update(own)
        if _shared_placeholders(self) or any(isinstance(v, bind.Placeholder)
                                             for v in own.values()):
            for k, v in list(scope.items()):  # `when = "todo.name"`: a text still to come
                if isinstance(v, bind.Placeholder):
                    scope[f"todo.{k}"] = True
        return scope

    def _scope(self, fields: dict, pic, read: dict | None = None) -> dict:
        scope = dict(self.read(fields) if read is None else read)
        scope["art"] = pic is not None
        scope["art_whole"] = pic is not None and pic.whole
        scope["ink_saver"] = grounds.saving()  # `when = "ink_saver"`: a lighter back
        return scope

    def numbers_copies(self, kind: str) -> bool:
        """Whether a card of `kind` prints its copy's number ({copy}, or a condition on
        it): then each copy is a face of its own, else copies share one."""
        return kind in self.kinds and "copy" in _kind_facts(self, kind)[1][0]

    def face(self, kind: str, fields: dict, pic=None, key: str | None = None,
             label: str = "", origins: dict | None = None, read: dict | None = None) -> Face:
        """The face of one card of `kind`; `label` names it in errors (COMPONENT/ID);
        `origins`: the data entries its fields come from ({"clan": clans[0], "": entry}),
        so a wrong value is named where it is written; `read`: as `todo` takes it."""
        if kind not in self.kinds:
            raise CompanionError(f"no card kind {kind!r} in [kinds] (kinds: "
                                 f"{', '.join(self.kinds) or 'none'})", source=self.source)
        scope = self._scope(fields, pic, read)
        draw = partial(_draw, self, kind, scope, pic, label, origins or {})
        digest = partial(_digest, self, kind, scope, pic)
        if _has_images(self, kind):  # its pictures' bytes: and of what it draws
            digest = partial(_with_drawing, digest, draw)
        return Face(draw, key=key, digest=digest)


def _draw(engine: Engine, kind: str, scope: dict, pic, label: str, origins: dict,
          c, w, h, bleed) -> None:
    k = engine.kinds[kind]
    d = elements.Drawing(c, w, h, bleed, engine.palette, pic, engine.kinds, k.placeholder)
    scope = {**scope, bind.CARD_W: float(w), bind.CARD_H: float(h)}  # `w`, `h` in lengths
    try:
        checked = engine.checked is None or kind in engine.checked
        with symbols.using(engine.icons), fonts.using(engine.fonts), \
                undefined.kind(engine.source, kind, checked, label), \
                elements.pictures_from(_folder(engine), label):
            if k.back is not None and grounds.saving():
                d.back = bind.colour(k.back, scope, engine.palette)
            elements.draw_all(d, k.elements, scope)
    except bind.BindError as e:
        raise _error_of(e, engine, kind, label, origins) from None


def _fact(engine: Engine, key, work):
    """`work()`, worked out once an engine: this module's one memo of what faces share
    (a kind's parts of a digest, a picture's, a size's...). An engine lives as long as its
    build, so a watching process's builds keep nothing of each other's."""
    facts = engine.facts
    got = facts.get(key, _NONE)
    if got is _NONE:
        got = facts[key] = work()
    return got


_NONE = object()


def _shared_placeholders(engine: Engine) -> bool:
    """Whether what every card may name holds a text still to come."""
    return _fact(engine, "shared placeholders", lambda: any(
        isinstance(v, bind.Placeholder) for v in engine.shared.values()))


def _folder(engine: Engine) -> Path | None:
    """The game file's folder (where an image element's file is)."""
    return _fact(engine, "folder", lambda: Path(engine.source).parent if engine.source
                 else None)


def _error_of(e: bind.BindError, engine: Engine, kind: str, label: str,
              origins: dict) -> CompanionError:
    """A card's error, named where it is written: its data entry (a card list's row and
    column), else the kind and the card."""
    entry = _entry_of(e.field, origins)
    row = origins.get("")
    if entry is None and e.field and "." not in e.field and row is not None \
            and isinstance(row.table, Row):  # a column the card list lacks
        if e.field in getattr(row.table, "columns", {}):  # there, blank on this row
            return row.error(e.field, f"blank, and kinds.{kind} needs it: {e}")
        columns = ", ".join(k for k in row.table if k != "qty")
        uses = f"repeats over {e.field}" if str(e).startswith("repeat") \
            else f"prints {{{e.field}}}"
        return CompanionError(f"no column {e.field}: kinds.{kind} {uses} "
                              f"(the columns: {columns})", source=row.source)
    if entry is not None:  # a value written wrong, or not at all: named where it goes
        where, key = entry
        said = str(e) if key.split(".")[0] in where.table else \
            f"missing (kinds.{kind} prints it)"
        return where.error(key, said)
    return CompanionError(f"kinds.{kind}, card {label or '?'}: {e}", source=engine.source)


def _own_kinds(raw: dict) -> frozenset:
    """The kinds a game's file writes itself, held to undefined names: not those it takes
    as companion ships them (the score pad's, layouts/scorepad.toml), whose conditions
    name fields a game may leave out (`game.rounds`, a category's `times`)."""
    shipped = _shipped_kinds()
    return frozenset(k for k, v in raw.items() if shipped.get(k) != v)


@cache  # bundled data: read once a process
def _shipped_kinds() -> dict:
    from companion.files import paths
    from companion.files.data import load_toml

    return load_toml(paths.layout("scorepad.toml")).get("kinds", {})


def _entry_of(field: str | None, origins: dict):
    """(the data entry, its key) where the card's field `field` is written or belongs
    ("clan.colour": the clan's entry, "colour"), or None when it is none of the data's
    (a field the game derives, a typo in the kind)."""
    if not field:
        return None
    head, _, rest = field.partition(".")
    if rest and origins.get(head) is not None:  # an item of a product: its own entry
        return origins[head], rest
    entry = origins.get("")
    if entry is not None and field.split(".")[0] in entry.table:
        return entry, field
    return None


def _digest(engine: Engine, kind: str, scope: dict, pic, w: float, h: float,
            bleed: float) -> str:
    # _json(what) of the whole resolved input (issue 49):
    #   {"kinds": the kind and those it nests, whole (every field of every element),
    #    "fields": the card's values of every name the kind's values hold (in braces or
    #              bare: found mechanically, never listed by hand; a field no value of the
    #              kind names changes nothing),
    #    "palette", "icons": the game's colours and icons (by their content) a word of
    #              the kind names, or a card's field (a value that is the name, in a mix,
    #              :icon: in a text): what it may print (a changed icon reprints only the
    #              cards that may show it),
    #    "fonts": the game's own, all, by their content, "lang", "ink_saver",
    #    "size": [w, h, bleed] rounded, "picture": its content's digest and placing}
    # with our code as it is (companion.kit.drawings.code_version) where it is kept
    # its parts that are the same for every face of a kind worked out once (_digest_facts)
    names, head, icons, palette, tail = _digest_facts(engine, kind)
    keys = names[1]
    fields = _json({key: _pruned(v, keys) if isinstance(v, (list, dict)) else v
                    for key, v in _plain(scope, names[0]).items()})
    parts = ['{"fields": ', fields, head]
    if icons is not None:
        parts += [', "icons": ', _json({n: d for n, d, by_kind in icons if by_kind or
                                        f'"{n}"' in fields or f":{n}:" in fields})]
    parts += [', "ink_saver": ', "true" if grounds.saving() else "false", tail,
              ', "palette": ', _json({n: c for n, c, by_kind in palette
                                      if by_kind or _names_colour(fields, n)}),
              ', "picture": ', "null" if pic is None else _picture_part(engine, pic),
              ', "size": ', _size_part(engine, w, h, bleed), "}"]
    blob = "".join(parts)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _names_colour(fields: str, name: str) -> bool:
    """Whether a card's fields (as JSON) may name the colour `name`: a value that is the
    name, or names it in a mix ("mix(paper, accent, 0.5)")."""
    return name in fields and (f'"{name}"' in fields or f"({name}," in fields
                               or f" {name}," in fields or f" {name})" in fields)


def _with_drawing(digest, draw, w: float, h: float, bleed: float) -> str:
    """A face with image elements: its input's digest and that of what it draws (the
    pictures' content, which only drawing finds: companion.draw.digest)."""
    from companion.draw import digest as drawn

    both = f"{digest(w, h, bleed)} {drawn.drawn(draw, w, h, bleed)}"
    return hashlib.sha256(both.encode()).hexdigest()[:16]


def _size_part(engine: Engine, w: float, h: float, bleed: float) -> str:
    """A face's size in its digest (a handful a kit: written once each), as floats: a memo
    takes 0 and 0.0 for one key, and the first met must not decide what is written."""
    return _fact(engine, ("size", w, h, bleed), lambda: _json(
        [round(float(w), 4), round(float(h), 4), round(float(bleed), 4)]))


def _digest_facts(engine: Engine, kind: str) -> tuple:
    """What every face of a kind digests alike, worked out once a kind: (the fields it
    names, the digest's "fonts" part, the game's icons as (name, digest, whether the kind
    names it) or None, its colours as (name, value, whether the kind names it), its
    "kinds" and "lang" parts)."""
    return _fact(engine, ("digest", kind), lambda: _digest_facts_of(engine, kind))


def _digest_facts_of(engine: Engine, kind: str) -> tuple:
    kinds_json, names, words = _kind_facts(engine, kind)
    head = "" if not engine.fonts else ', "fonts": ' + _json(
        {r: f.digest for r, f in sorted(engine.fonts.items())})
    # a colour or an icon it may print: named by a word of the kind, else by a field
    icons = None if not engine.icons else tuple(
        (n, i.digest, n in words) for n, i in sorted(engine.icons.items()))
    palette = tuple((n, c.hexval(), n in words) for n, c in sorted(engine.palette.items()))
    tail = f', "kinds": {kinds_json}, "lang": {_json(engine.lang)}'
    return names, head, icons, palette, tail


# The one serialiser of a digest's input: JSON, keys sorted, any other value as its str.
# The encoder is made once (json.dumps makes one each call: a third of a digest's time).
_json = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str).encode


_TOKEN = re.compile(r"[A-Za-z_][\w.]*")
_WORD = re.compile(r"[A-Za-z_][\w-]*")


def _pruned(value, keys: set):
    """A list's items or a table with only the keys the kind may read: a clan's reminder
    that an aid's marks do not print changes nothing."""
    if isinstance(value, list):
        return [_pruned(v, keys) for v in value]
    if isinstance(value, dict):
        return {k: _pruned(v, keys) for k, v in value.items() if k in keys}
    return value


def _named(specs: list) -> tuple[tuple[set, set], set]:
    """((the fields the kinds name: in braces, in conditions, repeated over; every part of
    those names and the keys the engine reads of an item itself), every bare word in
    their values, for the colours they name)."""
    names, words = {"art", "art_whole"}, set()

    def walk(v, key=None):
        if isinstance(v, dict):
            for k2, v2 in v.items():
                if not (k2 == elements.TAG and v2 in elements.TAGS):  # no field read
                    walk(v2, k2)
        elif isinstance(v, list):
            for v2 in v:
                walk(v2, key)
        elif isinstance(v, str):
            words.update(_WORD.findall(v))
            # every name its text holds, in braces or bare (a condition, a table's rows):
            # a field it may read, whatever key holds it (none listed by hand)
            names.update(_TOKEN.findall(v))
    walk(specs)
    parts = {p for n in names for p in n.split(".")} | elements.ITEM_KEYS
    return (names, parts), words


def _kind_facts(engine: Engine, kind: str):
    """(the kind and the kinds it nests, as JSON; the fields they name; the words in their
    values), worked out once a kind."""
    def work():
        k = engine.kinds[kind]
        nested = sorted(_nested_kinds(k, engine.kinds))
        specs = [schema.builtins(k)] + [schema.builtins(engine.kinds[n]) for n in nested]
        return _json(specs), *_named(specs)
    return _fact(engine, ("kind", kind), work)


def _has_images(engine: Engine, kind: str) -> bool:
    """Whether a kind (or a kind it shows small) draws an image element."""
    def work():
        k = engine.kinds[kind]
        kinds = [k] + [engine.kinds[n] for n in _nested_kinds(k, engine.kinds)]
        return any(isinstance(e, schema.Image) for kd in kinds for el in kd.elements
                   for e in [el] + schema.inner(el))
    return _fact(engine, ("images", kind), work)


def _nested_kinds(kind: schema.Kind, all_kinds: dict, seen=None) -> set:
    seen = set() if seen is None else seen
    for el in kind.elements:
        inner = [el] + schema.inner(el)
        for e in inner:
            if isinstance(e, schema.Nested) and e.kind not in seen and e.kind in all_kinds:
                seen.add(e.kind)
                _nested_kinds(all_kinds[e.kind], all_kinds, seen)
    return seen


def _plain(scope: dict, names: set) -> dict:
    """The fields of `scope` that `names` holds, placeholders as plain data; a nested
    table once, under its own name."""
    out = {}
    for k in sorted(names & scope.keys()):
        v = scope[k]
        if "." not in k or not isinstance(v, dict):
            out[k] = ["placeholder", v.note] if isinstance(v, bind.Placeholder) else v
    return out


def _picture_part(engine: Engine, pic) -> str:
    """A face's picture in its digest: what it prints, and where (a dozen pictures on
    2,000 cards: written once each)."""
    found = _picture_digest(pic)
    return _fact(engine, ("picture", found, pic.box, pic.spec.fit, pic.spec.anchor),
                 lambda: _json([found, msgspec.to_builtins(
                     {"box": [pic.box.x, pic.box.y, pic.box.w, pic.box.h],
                      "fit": pic.spec.fit, "anchor": pic.spec.anchor})]))


def _picture_digest(pic) -> str:
    """The picture's content (what it prints: its cache file's name, the content's
    digest, not where the cache folder is), or its path when it cannot be read (noted
    for the build as drawing it would: with --draft a placeholder, else an error)."""
    from companion.draw import art

    found = art.noted(pic.spec)
    return os.path.basename(found.path) if found is not None else \
        f"unreadable:{pic.spec.path}"
