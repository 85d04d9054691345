"""Components a game's data declares, drawn by the engine: a new kind of card needs only
its layouts file. `[components.NAME]` says which kind draws its faces, where its cards
come from, which back they get and where they go:

    [components.demons]
    kind = "demon"                 # [kinds.demon]
    cards = "demons"               # [demons] with count = 3 (three alike), or [[demons]]
                                   # (or ["tokens.sun", "tokens.moon"]: one card a table)
    with = ["types"]               # lists of the data every card may name ({item...})
    back = "common"                # a back the game draws, or a kind of [kinds]; or
                                   # { each = true, kind, fields, id = "team-{team.id}" }:
                                   # drawn from each card's fields, one per id
    file = "cards.pdf"             # the sheet file it goes in, after the component ("tiles":
                                   # tiles.pdf)
    size = "20x20mm"               # its cards' size (default: its file's, else the card's);
                                   # a file holding several prints each on sheets of its own
    stock = "tokens"               # ... and "tokens" to cut them one by one
    shape = "hex"                  # a piece that is no rectangle: "hex", "circle" or
                                   # "rounded", its cut line drawn round each on the sheets
                                   # and its bleed cut to the shape grown by the bleed
    hex = "pointy"                 # a hex's corner at the top ("pointy", 40x46mm) or its
                                   # flat side ("flat", 46x40mm)
    corner = "3mm"                 # a rounded piece's corner radius (default 3mm)
    box = false                    # a tuck box for it in boxes.pdf, or not (default: one
                                   # for a deck of cards, companion/layouts/boxes.toml),
                                   # or "objects": its cards in that component's box
    label_sheet = "avery-5160"     # on a label or sticker sheet (companion/layouts/
                                   # label_sheets.toml, or the game's own [label_sheets.NAME]):
                                   # each face at a label's place and size, in
                                   # labels-NAME.pdf (the old key `sheet` reads too)
    after = "witches"              # ... named here (or `before` one; default: last)
    title = "demons"               # a key of [titles] (default: NAME)
    part = "demons"                # what --only calls it (default: NAME)
    todo = "{n}: {note}"           # how the print guide lists a text still to come
    art = "demon"                  # its pictures' kind ([layout.KIND] art; default: kind)
    qty = "ritual"                 # the entry's field giving its copies (default: qty)
    fields = { golden = true }     # more fields for every card (texts may name others)
    id = "name"                    # the field whose slug is each card's id (default: id),
                                   # in the data's first language: one id in every language
    id_else = "witch-{n}"          # the id when that field is a placeholder (default: 01...)
    count = "pages"                # a table's field giving how many cards (default: count)
    page = true                    # whole pages of the paper (a score book), not cards:
                                   # its kind drawn at the page's size, no back
    you_get = "{games} * {pages}"  # what the print guide says you get (default: the cards)
    when = "card.w < 140"          # only at the card sizes where this holds (card.w, card.h:
                                   # the build's card size in points): a mini card's version

A card's fields are its entry's values in the build's language (a `{ placeholder = ... }`
one a TO COME box, listed in the print guide), with `id` (its own, or its number 01, 02,
...), `n` (its number from 1), `roman` (n in Roman numerals) and the `with` lists."""

import re

from companion.text import templates
from companion.text.units import parse_length, parse_size, to_mm
from companion.errors import CompanionError, shown
from companion.engine.pictures import keyed
from companion.engine import bind, undefined
from companion.engine.bind import Placeholder
from companion.draw.print_sheets import Card, Face
from msgspec import structs

KEYS = {"kind", "cards", "with", "back", "file", "after", "before", "title", "todo", "art",
        "qty", "fields", "id", "id_else", "art_entry", "part", "size", "stock", "count", "page",
        "you_get", "when", "shape", "hex", "corner", "label_sheet", "box"}
ROMAN = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX".split()


def fields_of(value, lang: str, f=None, key: str = ""):
    """A data value as the engine reads it: texts in `lang`, placeholders, lists and
    tables converted item by item."""
    if isinstance(value, dict):
        if "placeholder" in value and len(value) == 1:
            inner = value["placeholder"]
            return Placeholder(_text(inner, lang, f, key))
        if _is_text(value):  # { en = ..., fr = ... }
            return _text(value, lang, f, key)
        return {k: fields_of(v, lang, f, k) for k, v in value.items()}
    if isinstance(value, list):
        return [fields_of(v, lang, f, key) for v in value]
    return value


def _is_text(value) -> bool:
    """Whether a data value is a text in several languages: { en = ..., fr = ... }."""
    return isinstance(value, dict) and bool(value) and all(
        isinstance(v, str) and re.fullmatch(r"[a-z]{2,3}", k) for k, v in value.items())


def _first_language(value):
    """A data value with each text in its first language, as written (an id is made from
    it, so a card has one id in every language); placeholders as such."""
    if isinstance(value, dict):
        if "placeholder" in value and len(value) == 1:
            return Placeholder(str(_first_language(value["placeholder"])))
        if _is_text(value):
            return next(iter(value.values()))
        return {k: _first_language(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_first_language(v) for v in value]
    return value


def _first_languages(entry, id_field: str):
    """_first_language(entry) as an id reads it: only the field `id_field` names, unless
    it is a template (naming any)."""
    if "{" in id_field or not isinstance(entry, dict) or _is_text(entry) or (
            "placeholder" in entry and len(entry) == 1):
        return _first_language(entry)
    return {id_field: _first_language(entry[id_field])} if id_field in entry else {}


def _text(value, lang: str, f, key: str) -> str:
    from companion.files.data import Fields

    if f is not None and isinstance(getattr(f, "table", None), dict) and \
            f.table.get(key) is value:  # read where it is written: a sheet's cell named
        return f.text(key, lang)
    return Fields({"t": value}, getattr(f, "source", ""), key).text("t", lang)


def backs(ctx, engine, pics=None, game: str | None = None) -> dict[str, Face]:
    """The card backs a game's data names in [backs] ({ kind, fields }), each drawn by the
    engine, by name: components and a game's own cards take them (an older data file
    without [backs] gets the bundled game's)."""
    data = ctx.data
    if "backs" not in data.table and game is not None:
        data = _with_bundled(data, game, "backs")
    if "backs" not in data.table:
        return {}
    table = data.sub("backs")
    out = {}
    for name in table.table:
        try:
            out[name] = _back_face(table.sub(name), name, engine, pics, f"backs/{name}")
        except bind.BindError as e:
            raise CompanionError(f"backs.{name}: {e}", source=data.source) from None
    return out


def add(files: list, ctx, engine, backs: dict[str, Face], pics=None,
        game: str | None = None, derived: dict | None = None) -> None:
    """Puts every component [components] declares into `files` (the game's CardFiles).
    A data file written before [components] existed (an older `companion init` copy)
    gets the bundled game's, and any card table it lacks, the bundled one. `derived`:
    cards the game works out from its rules, by the name a component's `cards` gives:
    {name: [(fields, the data entry its errors and pictures name, or None)]}."""
    data = ctx.data
    if "components" not in data.table and game is not None:
        data = _with_bundled(data, game)
    if "components" not in data.table:
        return
    comps = data.sub("components")
    for name in comps.table:
        spec = comps.sub(name)
        unknown = set(spec.table) - KEYS
        if unknown:
            bad = sorted(unknown)[0]
            raise spec.error(bad, f"unknown key (keys: {', '.join(sorted(KEYS))})")
        if not _for_this_size(spec, ctx):
            continue
        try:
            _add_one(files, ctx, data, engine, backs, pics, name, spec, derived or {})
        except bind.BindError as e:  # a field a template names, missing from the data
            raise CompanionError(f"components.{name}: {e}", source=data.source) from None
    _check_boxes(comps)


def _check_boxes(comps) -> None:
    """A component's `box` naming another (its cards in that one's tuck box) names a
    component with a box of its own: no chain, no loop."""
    for name in comps.table:
        spec = comps.sub(name)
        other = spec.get("box", (bool, str), None)
        if not isinstance(other, str):
            continue
        if other == name or other not in comps.table:
            raise spec.error("box", f"{shown(other)} is no other component (use true, false, "
                                    f"or one of {', '.join(n for n in comps.table if n != name)})")
        theirs = comps.sub(other).table.get("box")
        if isinstance(theirs, str) or theirs is False:
            raise spec.error("box", f"{other}'s cards go in no box of their own "
                                    f"(box = {shown(theirs)}): name the one they go in")


def _for_this_size(spec, ctx) -> bool:
    """Whether a component's `when` holds at the build's card size."""
    when = spec.get("when", str, None)
    if when is None:
        return True
    try:
        return bind.holds(bind.condition(when), {bind.CARD_W: ctx.card[0],
                                                 bind.CARD_H: ctx.card[1]})
    except bind.BindError as e:
        raise spec.error("when", str(e)) from None


def _with_bundled(data, game: str, key: str = "components"):
    """`data` with the bundled game's [components] (or [backs]) and the card tables they
    name that `data` lacks."""
    from companion.files import paths
    from companion.files.data import Fields, load_toml

    bundled = load_toml(paths.layout(f"{game}.toml"))
    table = dict(data.table)
    table[key] = bundled.get(key, {})
    if key != "components":
        return Fields(table, data.source, data.path)
    for spec in table["components"].values():
        cards = spec.get("cards")
        if isinstance(cards, dict):  # { product = { team = "teams", ... } }: each list's table
            cards = [str(v) for v in cards.get("product", {}).values()]
        named = cards if isinstance(cards, list) else [cards] if isinstance(cards, str) else []
        for key in [str(k).split(".")[0] for k in named] + list(spec.get("with", [])):
            if key and key not in table and key in bundled:
                table[key] = bundled[key]
            elif isinstance(table.get(key), dict) and isinstance(bundled.get(key), dict):
                table[key] = _missing_from(table[key], bundled[key])
    return Fields(table, data.source, data.path)


def _missing_from(mine: dict, bundled: dict) -> dict:
    """`mine` with the keys of `bundled` it lacks (a card table of an older copy, before
    the kinds named fields such as a token's label)."""
    out = dict(mine)
    for k, v in bundled.items():
        if k not in out:
            out[k] = v
        elif isinstance(out[k], dict) and isinstance(v, dict):
            out[k] = _missing_from(out[k], v)
    return out


def _add_one(files, ctx, data, engine, backs, pics, name: str, spec, derived: dict) -> None:
    from companion.files.data import Fields
    from companion.engine.parts import Component

    lang = ctx.lang
    kind_form = spec.get("kind", str)
    kind = kind_form
    if "{" not in kind_form and kind not in engine.kinds:
        raise spec.error("kind", f"no kind {kind!r} in [kinds] (kinds: "
                                 f"{', '.join(engine.kinds) or 'none'})")
    source_key = spec.get("cards", (str, dict, list), name)
    if isinstance(source_key, list):  # tables, one card each: ["tokens.first_player", ...]
        entries = list(_tables(data, spec, source_key))
    elif isinstance(source_key, dict) and set(source_key) == {"lists"}:
        entries = list(_merged(data, spec, source_key["lists"], spec.get("count", str, "count")))
    elif isinstance(source_key, dict):
        if set(source_key) != {"product"} or not isinstance(source_key["product"], dict):
            raise spec.error("cards", "a table or list's name, { lists = [\"spells\", "
                                      "\"creatures\"] } (one deck of several lists), or "
                                      "{ product = { deck = \"decks\", clan = \"clans\" } }")
        entries = list(_product(data, spec, source_key["product"], lang))
    elif source_key in derived:  # fields the game worked out: as they are
        entries = [(n, fields, f or data) for n, (fields, f) in enumerate(derived[source_key], 1)]
    else:
        parent, leaf = _at(data, spec, source_key)
        entries = list(_entries(parent, leaf, spec.get("count", str, "count")))
    # where each card's values come from: a wrong one is named in its data entry
    entries = [(e[0], e[1], e[2], e[3] if len(e) > 3 else {"": e[2]}) for e in entries]
    # a spreadsheet gives a row `qty` times over (the same Row): one entry, that many
    # copies (a table's `count` cards are each numbered: they stay apart)
    from companion.files.row import Row

    def again(i: int) -> bool:
        return i > 0 and isinstance(entries[i][1], Row) and entries[i][1] is entries[i - 1][1]
    repeats: list[int] = []
    for i in range(len(entries)):
        if again(i):
            repeats[-1] += 1
        else:
            repeats.append(1)
    entries = [e for i, e in enumerate(entries) if not again(i)]
    shared = {}
    for key in spec.get("with", list, []):
        if key not in data.table:
            raise spec.error("with", f"no list [{key}] in the data")
        shared[key] = fields_of(data.table[key], lang, data, key)
    titles = data.sub("titles") if "titles" in data.table else None
    title_key = spec.get("title", str, name)
    title = titles.text(title_key, lang) if titles is not None and title_key in titles.table \
        else name
    back = _back(spec, engine, backs, name, pics)
    todo_form = spec.get("todo", str, "{note}")
    qty_key = spec.get("qty", str, "qty")
    extra = spec.get("fields", dict, {})
    art_form = spec.get("art", str, kind_form)
    id_field, id_else = spec.get("id", str, "id"), spec.get("id_else", str, "{n:02}")
    cards, todo, shared_backs = [], [], {}
    art_entry = spec.get("art_entry", str, None)
    # a product's items and a game's derived fields are read already
    # (a deck of several lists is not: its rows are read as one list's are)
    read = (isinstance(source_key, dict) and "product" in source_key) or (
        isinstance(source_key, str) and source_key in derived)
    for (n, entry, f, origins), repeated in zip(entries, repeats):
        if isinstance(entry, Row):  # its columns are defined, blank on every row or not
            undefined.define(getattr(entry, "columns", {}))
        values = {k: (v if read or not isinstance(v, (dict, list))  # a value as it is
                      else fields_of(v, lang, f, k))
                  for k, v in entry.items() if k not in ("count", qty_key)}
        # the id in the data's first language: the same in every language (pictures are
        # named from it); fields the game worked out are read in the build's already
        cid = _id(entry, values if read else _first_languages(entry, id_field), n, id_field,
                  id_else)
        if extra:
            known = {**engine.shared, **bind.flat(values), "id": cid, "n": n}  # {team.id}
        for k, v in extra.items():  # may name the entry's fields and the game's texts
            values[k] = _bound(fields_of(v, lang, spec, k), known)
        card_fields = {**values, **shared, "id": cid, "n": n,
                       "roman": ROMAN[n - 1] if n <= len(ROMAN) else str(n)}
        # kind = "{kind}": each card's own (a card list's kind column)
        kind = _card_kind(kind_form, values, f, engine) if "{" in kind_form else kind_form
        art_kind = kind if art_form == kind_form else art_form
        pic = None
        if pics is not None and art_kind in pics.kinds:
            entry_art = f if pics.kinds[art_kind].entry else None  # [art] only, else
            if art_entry is not None:  # a product's card: the item that takes art
                entry_art = _item_fields(data, source_key, art_entry, values)
            named = _art_fields(pics.kinds[art_kind], art_kind, card_fields)
            named = {k: v.get("id") if isinstance(v, dict) else v  # an item: its id
                     for k, v in named.items()}
            pic = pics.pic(art_kind, f"{name}/{cid}", named, entry_art)
        copies = entry.get(qty_key, 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= 1000:
            raise f.error(qty_key, f"{copies!r} is not a number of copies (0 to 1000)")
        copies *= repeated
        # {copy} (1, 2, ...) and {copies}: each printed copy's number and how many (a
        # field of the card's own, if it has one, wins)
        card_fields = {"copy": 1, "copies": copies, **card_fields}
        # copies share one face, drawn once as a PDF form; a kind printing {copy} draws
        # each copy its own
        numbered = copies > 1 and engine.numbers_copies(kind) and "copy" not in values
        key = keyed(f"{name}-{cid}", pic) if copies > 1 and not numbered else None
        as_read = engine.read(card_fields)
        face = engine.face(kind, card_fields, pic, key=key, label=f"{name}/{cid}",
                           origins=origins, read=as_read)
        card_back = face if back == "same" else back
        if not isinstance(card_back, Face) and card_back is not None:  # { each = true, ... }
            card_back = _each_back(back, card_fields, engine, pics, name, cid, copies,
                                   art_kind, f if art_entry is None else None, shared_backs)
        if numbered:
            for k in range(1, copies + 1):
                each = face if k == 1 else engine.face(
                    kind, {**card_fields, "copy": k}, pic, label=f"{name}/{cid}",
                    origins=origins, read={**as_read, "copy": k})
                cards.append(Card(title, each, each if back == "same" else card_back,
                                  id=cid, fields=values))
        else:
            cards += [Card(title, face, card_back, id=cid, fields=values)] * copies
        todo += [templates.expand(todo_form, {"n": n, "id": cid, "note": note}, path=False)
                 for note in engine.todo(kind, card_fields, f"{name}/{cid}", as_read,
                                         origins)] * copies
    part = spec.get("part", str, name)  # what --only calls it
    you_get = len(cards)
    if "you_get" in spec.table:
        known = {**engine.shared, **bind.flat(entries[0][1] if entries else {})}
        you_get = bind.number(spec.get("you_get", str), known)
    if spec.get("page", bool, False):
        if back is not None:
            raise spec.error("back", "a page has no back (page = true)")
        if "label_sheet" in spec.table:
            raise spec.error("label_sheet", "a page is the whole paper, on no label sheet "
                                      "(page = true)")
        _place_pages(files, spec, Component(name, part, title, you_get, [], todo),
                     [card.front for card in cards], ctx)
        return
    # A back drawn from each card's own fields, not one shared by an id: its second side.
    own_backs = isinstance(back, Fields) and "id" not in back.table
    component = Component(name, part, title, you_get, cards, todo, second_sides=own_backs,
                          box=spec.get("box", (bool, str), None))
    _place(files, spec, component, ctx)


BOXES = "boxes.pdf"  # the kit's own file of tuck boxes (companion.kit.boxes)
MAX_NAME = 200  # characters of a file name: under every file system's 255 bytes' limit


def _pdf_name(spec, default: str) -> str:
    """A component's `file`: "tiles" is tiles.pdf (a PDF named without its extension opens
    nowhere). A plain file name in the kit's folder: a game file travels between
    designers, and building one never writes outside its kit."""
    path = spec.get("file", str, default)
    if "file" in spec.table:
        _plain_name(spec, path)
    path = path if path.lower().endswith(".pdf") else f"{path}.pdf"
    if path.casefold() == BOXES:
        raise spec.error("file", f"{shown(path)} is the kit's own file of tuck boxes: "
                                 "give another name")
    return path


def _plain_name(spec, path: str) -> None:
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in path):
        raise spec.error("file", f"{shown(path)} holds a control character: give a plain "
                                 "file name (cards.pdf)")
    if "/" in path or "\\" in path or (len(path) > 1 and path[1] == ":"):
        raise spec.error("file", f"{shown(path)} names a folder: give a plain file name, "
                                 "written in the kit's folder (cards.pdf)")
    if not path.strip() or path.startswith("."):
        raise spec.error("file", f"{shown(path)} is no file name: give a plain one that "
                                 "does not start with a dot (cards.pdf)")
    if len(path) > MAX_NAME:
        raise spec.error("file", f"over {MAX_NAME} characters: give a shorter file name")


def _place_pages(files: list, spec, component, faces: list, ctx) -> None:
    """Whole pages, each a face drawn at the paper's size, in a file of their own."""
    from companion.engine.parts import PageFile

    path = _pdf_name(spec, f"{component.id}.pdf")
    if any(f.path == path for f in files):
        raise spec.error("file", f"{path} holds other cards already: pages need their own file")

    def draw(c, keeper=None) -> int:
        """`keeper`: as print_sheets.render takes it, for the pages whose digest their face
        knows (companion.kit.drawings): a page unchanged since is put back, not drawn."""
        from companion.text import fit

        rec = fit.current()  # a page is held to the text limits as a card is
        for n, face in enumerate(faces, 1):
            label = f"{component.id} page {n}"
            paint = rec.wrap(face.draw, label, paper=(1.0, 1.0, 1.0)) if rec is not None \
                else face.draw
            if keeper is not None and face.digest is not None:
                kept = f"{face.digest(*ctx.page, 0.0)} {label}"  # as a card front's key
                keeper(c, structs.replace(face, draw=paint, kept=kept), *ctx.page, 0.0)
            else:
                paint(c, *ctx.page, 0.0)
            c.showPage()
        return len(faces)
    files.append(PageFile(path, [component], draw))


def _card_kind(form: str, values: dict, f, engine) -> str:
    """The kind a card's fields name (kind = "{kind}"), one of [kinds]; else an error in
    the card's entry (a card list's row and column)."""
    kind = str(bind.text(form, _flat_for(form, values), again=False))
    if kind not in engine.kinds:
        field = bind.whole_field(form)
        message = f"{shown(kind)} is no kind of [kinds] ({', '.join(engine.kinds)})"
        if field is not None and f is not None and hasattr(f, "error"):
            raise f.error(field, message)
        raise bind.BindError(f"kind: {message}")
    return kind


def _flat_for(form: str, values: dict) -> dict:
    """bind.flat(values) as `form` reads it: `values` themselves when it names only plain
    values of their own (a card list's `kind` column), the same text without flattening
    every card's fields."""
    try:
        plain = all("." not in n and n in values and not isinstance(values[n], (dict, list))
                    for n in templates.names(form))
    except templates.TemplateError:
        plain = False
    return values if plain else bind.flat(values)


def _art_fields(kind, art_kind: str, fields: dict) -> dict:
    """The fields a picture's path may name ({id}, {clan}...), from the card's."""
    missing = [k for k in kind.fields if k not in fields]
    if missing:
        raise bind.BindError(f"its cards have no field {missing[0]!r}, which the paths of "
                             f"{art_kind} pictures name (give it in `fields`)")
    return {k: fields[k] for k in kind.fields}


def _item_fields(data, source_key, name: str, values: dict):
    """The Fields of the item `name` of a product's card (its art may be there)."""
    path = source_key["product"][name]
    items = data.items(path) if "." not in path else []
    for f in items:
        if f.table.get("id") == (values[name] or {}).get("id"):
            return f
    return None


def _id(entry: dict, values: dict, n: int, field: str, otherwise: str) -> str:
    """A card's id: its `id`, or (the component's `id = "name"`) that field made a slug
    ("Virág" -> "virag"); for a placeholder or no such field, `id_else` ("witch-{n}",
    by default its number 01, 02...)."""
    from companion.engine.pictures import slug

    if "{" in field:  # a template: "{clan.id}-{value}{deck.id}"
        try:
            return templates.expand(field, bind.flat(values), path=False)
        except templates.TemplateError as e:
            raise CompanionError(f"id: {e}") from None
    value = values.get(field)
    if field == "id" and value is not None:
        return str(value)
    made = slug(value) if isinstance(value, str) and not isinstance(value, Placeholder) else ""
    return made or templates.expand(otherwise, {"n": n}, path=False)


def _product(data, spec, product: dict, lang: str):
    """(n, entry, its Fields, each item's Fields by name) for each card of a product of lists: { deck = "decks",
    clan = "clans", value = "game.values" } gives a card for each deck, clan and value
    (the first list outermost), its fields `deck`, `clan` and `value` the items."""
    import itertools

    lists = []
    for name, path in product.items():
        node, where = data, None
        for part in str(path).split("."):
            if not isinstance(node.table, dict) or part not in node.table:
                raise spec.error("cards", f"no list {path!r} in the data")
            where = part
            value = node.table[part]
            node = node.sub(part) if isinstance(value, dict) else node
        if not isinstance(value, list):
            raise spec.error("cards", f"{path!r} is not a list")
        items = node.items(where) if value and isinstance(value[0], dict) else [None] * len(value)
        lists.append([(name, fields_of(v, lang, f, name), f) for v, f in zip(value, items)])
    for n, combo in enumerate(itertools.product(*lists), 1):
        entry = {name: v for name, v, _ in combo}
        found = [f for _, _, f in combo if f is not None]
        # each item's own entry, for an error in one of its values ("clans[0].colour")
        yield n, entry, found[-1] if found else data, {name: f for name, _, f in combo if f}


def _merged(data, spec, paths, count: str):
    """(n, entry, its Fields) for each card of several lists in turn (a spreadsheet's
    tabs, each a list in [cards]): one deck, numbered on from list to list."""
    if not isinstance(paths, list) or not paths or len(paths) > 50 or not all(
            isinstance(p, str) and p for p in paths):
        raise spec.error("cards", "lists = [\"spells\", \"creatures\"]: the names of 1 to "
                                  "50 lists, printed as one deck in that order")
    n = 0
    for path in paths:
        parent, leaf = _at(data, spec, path)
        if not isinstance(parent.table[leaf], list):
            raise spec.error("cards", f"{path!r} in lists is not a list of cards")
        for _, entry, f in _entries(parent, leaf, count):
            n += 1
            yield n, entry, f


def _tables(data, spec, paths: list):
    """(n, entry, its Fields) for each table named: its id, unless it has one, is its name
    ("first_player" -> first-player)."""
    for n, path in enumerate(paths, 1):
        parent, leaf = _at(data, spec, str(path))
        if not isinstance(parent.table[leaf], dict):
            raise spec.error("cards", f"[{path}] is not a table (a list of tables: one card "
                                      "each)")
        f = parent.sub(leaf)
        yield n, {"id": leaf.replace("_", "-"), **f.table}, f


def _at(data, spec, path: str):
    """(the table holding it, its key) for "demons" or "tokens.items"."""
    *tables, leaf = path.split(".")
    node = data
    for part in tables:
        if part not in node.table or not isinstance(node.table[part], dict):
            raise spec.error("cards", f"no table or list [{path}] in the data")
        node = node.sub(part)
    if leaf not in node.table:
        raise spec.error("cards", f"no table or list [{path}] in the data")
    return node, leaf


def _entries(data, key: str, count: str = "count"):
    """(n, entry table, its Fields) for each card: a list gives one card an entry, a
    table with `count` gives that many cards alike."""
    value = data.table[key]
    if isinstance(value, list):
        for i, f in enumerate(data.items(key), 1):
            yield i, f.table, f
        return
    f = data.sub(key)
    how_many = f.get(count, int, 1)
    if not 0 <= how_many <= 1000:
        raise f.error(count, f"{how_many} is not a number of cards (0 to 1000)")
    for n in range(1, how_many + 1):
        yield n, f.table, f


def _back(spec, engine, backs: dict, name: str, pics=None):
    """The component's back: one the game draws (by name), a kind, or a table
    { kind = "emblem-back", id = "ritual", fields = { ... } } (`id` names it for its
    picture, [art] back with {back} = id, and its PDF form)."""
    if "back" not in spec.table:
        return None
    back = spec.get("back", (str, dict))
    if back == "same":  # double-sided alike: a token's back is its front
        return "same"
    if isinstance(back, dict):
        b = spec.sub("back")
        if b.get("each", bool, False):  # drawn for each card, from its own fields
            return b
        return _back_face(b, b.get("id", str), engine, pics, f"{name}/back")
    if back in backs:
        return backs[back]
    if back in engine.kinds:
        return engine.face(back, {"id": back}, key=f"back-{back}", label=f"{name}/back")
    raise spec.error("back", f"no back {back!r} (the game's: {', '.join(backs) or 'none'}; "
                             f"or a kind of [kinds])")


def _bound(value, known: dict):
    """A component's field: a template filled from the card ("{front_title}"); a field
    named alone that holds a list or a table is that list ("{front}")."""
    if not isinstance(value, str):
        return value
    name = value.strip()[1:-1] if value.strip().startswith("{") else None
    if name is not None and isinstance(known.get(name), (list, dict)):
        return known[name]
    return bind.text(value, known)


def _each_back(b, card_fields: dict, engine, pics, name: str, cid: str, copies: int,
               art_kind: str, entry, shared: dict) -> Face:
    """A card's own back (an aid's second side): its kind drawn with the card's fields and
    the back's `fields` over them (`side = "back"`). With an `id` ("team-{team.id}"), the
    cards whose id comes out the same share one back, a back's picture ([art] back,
    {back} = that id) and its PDF form."""
    kind = b.get("kind", str)
    if kind not in engine.kinds:
        raise b.error("kind", f"no kind {kind!r} in [kinds] (kinds: {', '.join(engine.kinds)})")
    known = {**engine.shared, **bind.flat(card_fields)}
    fields = dict(card_fields)
    for k, v in fields_of(b.get("fields", dict, {}), engine.lang, b, "fields").items():
        fields[k] = _bound(v, known)
    if "id" in b.table:
        bid = str(bind.text(b.get("id", str), known))
        if bid not in shared:
            pic = None
            if pics is not None and "back" in pics.kinds:
                pic = pics.pic("back", f"{name}/back", {"id": bid, "back": bid})
            shared[bid] = structs.replace(engine.face(
                kind, {**fields, "id": bid, "back": bid}, pic, key=keyed(f"back-{bid}", pic),
                label=f"{name}/{bid}"), name=bid)
        return shared[bid]
    pic = None
    if pics is not None and art_kind in pics.kinds:  # the card's picture kind, its side
        named = _art_fields(pics.kinds[art_kind], art_kind, fields)
        pic = pics.pic(art_kind, f"{name}/{cid}", named,
                       entry if pics.kinds[art_kind].entry else None)
    key = keyed(f"{name}-{cid}-back", pic) if copies > 1 else None
    return engine.face(kind, fields, pic, key=key, label=f"{name}/{cid} (back)")


def _back_face(b, bid: str, engine, pics, label: str) -> Face:
    """A back drawn by the engine: { kind, fields }; `bid` names it for its picture ([art]
    back, {back} = bid) and its PDF form."""
    kind = b.get("kind", str)
    if kind not in engine.kinds:
        raise b.error("kind", f"no kind {kind!r} in [kinds] (kinds: {', '.join(engine.kinds)})")
    fields = {k: bind.text(v, engine.shared) if isinstance(v, str) else v
              for k, v in fields_of(b.get("fields", dict, {}), engine.lang, b,
                                    "fields").items()}
    pic = None
    if pics is not None and "back" in pics.kinds:
        pic = pics.pic("back", f"backs/{bid}", {"id": bid, "back": bid})
    return structs.replace(engine.face(kind, {**fields, "id": bid, "back": bid}, pic,
                                       key=keyed(f"back-{bid}", pic), label=label), name=bid)


def _plain_data(data) -> dict:
    """The data file's values by dotted name ("tokens.size"), for a component's size."""
    return bind.flat({k: v for k, v in data.table.items() if not isinstance(v, list)})


def _shape(spec, size: tuple[float, float]):
    """A component's `shape` (with its `hex` or `corner`), or None: rectangles."""
    from companion.engine.schema import ComponentShape
    from companion.press.imposition import HEX_TOPS, SHAPES, Shape

    default = ComponentShape()  # the keys' one definition, as the reference gives them
    kind = spec.get("shape", str, None)
    for key, owner in (("hex", "hex"), ("corner", "rounded")):
        if key in spec.table and kind != owner:
            raise spec.error(key, f"only for shape = \"{owner}\" (this component's shape: "
                                  f"{shown(kind) if kind else 'a rectangle'})")
    if kind is None:
        return None
    if kind not in SHAPES:
        raise spec.error("shape", f"{shown(kind)} is no shape (use {', '.join(SHAPES)}; "
                                  "none: a rectangle)")
    if kind == "hex":
        top = spec.get("hex", str, default.hex)
        if top not in HEX_TOPS:
            raise spec.error("hex", f"{shown(top)} is no hex (use {', '.join(HEX_TOPS)})")
        return Shape(kind, hex=top)
    if kind == "rounded":
        text = spec.get("corner", str, default.corner)
        try:
            corner = parse_length(text)
        except CompanionError as e:
            raise spec.error("corner", e.message) from None
        if corner <= 0:
            raise spec.error("corner", f"{shown(text)} is no corner (use a radius such as "
                                       "\"3mm\")")
        if corner > min(size) / 2 + 0.01:
            raise spec.error("corner", f"{shown(text)} is more than half the piece's "
                                       f"{to_mm(min(size)):g} mm side")
        return Shape(kind, corner=corner)
    return Shape(kind)


def _same_size(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 0.01 and abs(a[1] - b[1]) < 0.01


def _on_sheet(files: list, spec, component, ctx) -> None:
    """A component on a label sheet: its faces at the labels' size and shape, in a file
    holding only that sheet's labels."""
    from companion.engine.parts import CardFile
    from companion.press import label_sheets

    for key in ("shape", "hex", "corner", "stock"):
        if key in spec.table:
            raise spec.error(key, "a label sheet sets it (label_sheet = "
                                  f"{shown(spec.get('label_sheet', str))})")
    sheet = label_sheets.find(spec.get("label_sheet", str), ctx.data, spec)
    size_text = spec.get("size", str, None)
    if size_text is not None:
        size = parse_size(str(bind.text(size_text, _plain_data(ctx.data))),
                          field=f"components.{component.id}.size")
        if not _same_size(size, sheet.label):
            raise spec.error("size", f"{shown(size_text)} is not the size of a "
                                     f"{sheet.name} label ({to_mm(sheet.label[0]):g} x "
                                     f"{to_mm(sheet.label[1]):g} mm): leave it out")
    path = _pdf_name(spec, f"labels-{sheet.key}.pdf")
    parts = [f for f in files if isinstance(f, CardFile) and f.path == path]
    if any(f.sheet != sheet for f in parts):
        raise spec.error("file", f"{path} holds other pieces: a label sheet's file holds "
                                 "only its labels")
    if component.id in [c.id for f in parts for c in f.components]:
        raise CompanionError(f"components.{component.id}: {path} has a component of that "
                             "name already", source=ctx.data.source)
    w, h = sheet.label
    if parts:
        parts[0].components.append(component)
        return
    files.append(CardFile(path, [component], sheet.label,
                          f"{to_mm(w):g}x{to_mm(h):g}mm", stock="labels",
                          flip="none", shape=sheet.shape, sheet=sheet))


def _place(files: list, spec, component, ctx) -> None:
    from companion.engine.parts import CardFile

    if "label_sheet" in spec.table:
        return _on_sheet(files, spec, component, ctx)
    path = _pdf_name(spec, "cards.pdf")
    size_text = spec.get("size", str, None)
    if size_text is not None:
        size_text = str(bind.text(size_text, _plain_data(ctx.data)))
        size = parse_size(size_text, field=f"components.{component.id}.size")
        from companion.press import presets

        size = presets.cut_size(size, size_text, f"components.{component.id}.size",
                                ctx.data.source)
    else:
        size, size_text = ctx.card, ctx.card_name
    stock = spec.get("stock", str, None)  # none: the stock of the part it joins
    # One file may hold components of several sizes (dice and hex tiles in tokens.pdf):
    # each size (and stock) is a part of the file, on sheets of its own.
    parts = [f for f in files if isinstance(f, CardFile) and f.path == path]
    if any(f.sheet is not None for f in parts):
        raise spec.error("file", f"{path} is a label sheet's file: it holds only its labels")
    if component.id in [c.id for f in parts for c in f.components]:
        raise CompanionError(f"components.{component.id}: {path} has a component of that "
                             "name already", source=ctx.data.source)
    # without a size of its own, a component takes the file's (and its stock), as always;
    # pieces of another shape (hex tiles beside square dice) go on sheets of their own
    inherits = bool(parts) and spec.get("size", str, None) is None
    if inherits:
        size, size_text, stock = parts[0].size, parts[0].size_name, stock or parts[0].stock
    shape = _shape(spec, size)
    target = parts[0] if inherits and parts[0].shape == shape else next(
        (f for f in parts if _same_size(f.size, size) and stock in (None, f.stock)
         and f.shape == shape), None)
    if target is None:
        target = CardFile(path, [], size, size_text, stock=stock or "cards", shape=shape)
        files.insert(files.index(parts[-1]) + 1 if parts else len(files), target)
    ids = [c.id for c in target.components]
    for key, shift in (("after", 1), ("before", 0)):
        other = spec.get(key, str, None)
        if other is None:
            continue
        if other not in ids:
            named = [c.id for f in parts for c in f.components]
            if other in named:  # in a part of another size: its sheets come first
                break
            raise spec.error(key, f"no component {other!r} in {path} (have {', '.join(named)})")
        target.components.insert(ids.index(other) + shift, component)
        return
    target.components.append(component)
