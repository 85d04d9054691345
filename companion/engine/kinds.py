"""A layouts file's card kinds (`[kinds.NAME]`), validated against schema.py on load, with
`extends` resolved: the extended kind's elements first, then the kind's own; `replace`
swaps an inherited element by its id, `remove` leaves one out. Each error is one line
naming the file, the kind, the element (its number and type, or its id) and the field,
with a suggestion for a misspelt key or type."""

import re

import msgspec

from companion.errors import CompanionError
from companion.press.fonts import ROLES
from companion.engine import bind, schema

_AT = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)


def load(table: dict, source: str, fonts: tuple = ()) -> dict[str, schema.Kind]:
    """{name: Kind} from a layouts file's [kinds] table, each checked, `extends` resolved
    and every condition parsed (a wrong one fails here, not halfway through a build).
    `fonts`: the font roles of the game's own besides ours ([fonts])."""
    if not isinstance(table, dict):
        raise CompanionError("kinds: a table of card kinds ([kinds.NAME])", source=source)
    raw = {}
    for name, body in table.items():
        try:
            raw[name] = msgspec.convert(body, schema.Kind)
        except msgspec.ValidationError as e:
            raise CompanionError(_worded(str(e), name, body), source=source) from None
    out = {name: _resolved(name, raw, source, ()) for name in raw}
    for name, kind in out.items():
        for where, el in _walk(kind.elements):
            _check_values(el, f"kinds.{name}, {where}", source, out, fonts)
    _check_no_loop(out, source)
    return out


def _check_no_loop(kinds: dict, source: str) -> None:
    """Refuses a kind that shows itself small (`type = "card"`), directly or through
    other kinds: it would be drawn inside itself without end."""
    shows = {name: [(where, el.kind) for where, el in _walk(kind.elements)
                    if isinstance(el, schema.Nested)] for name, kind in kinds.items()}
    done: set = set()
    for start in kinds:
        path, stack = [start], [iter(shows[start])]
        while stack:  # depth first, without recursion: a chain of kinds may be long
            step = next(stack[-1], None)
            if step is None:
                done.add(path.pop())
                stack.pop()
                continue
            where, inner = step
            if inner in path:
                chain = " -> ".join(path[path.index(inner):] + [inner])
                raise CompanionError(f"kinds.{path[-1]}, {where}: kind: shows {inner}, which "
                                     f"shows it again ({chain}): a card cannot show "
                                     "itself", source=source)
            if inner in kinds and inner not in done:
                path.append(inner)
                stack.append(iter(shows[inner]))


def elements_of(kind: schema.Kind) -> list:
    return kind.elements


def _resolved(name: str, raw: dict, source: str, seen: tuple) -> schema.Kind:
    kind = raw[name]
    if kind.extends is None:
        return kind
    if kind.extends in seen + (name,):
        chain = " -> ".join(seen + (name, kind.extends))
        raise CompanionError(f"kinds.{name}.extends: a kind cannot extend itself ({chain})",
                             source=source)
    if kind.extends not in raw:
        raise CompanionError(f"kinds.{name}.extends: no kind {kind.extends!r}"
                             f"{_suggest(kind.extends, raw)} (kinds: {', '.join(raw)})",
                             source=source)
    base = _resolved(kind.extends, raw, source, seen + (name,))
    ids = {el.id for el in base.elements if el.id}
    for key in list(kind.replace) + kind.remove:
        if key not in ids:
            raise CompanionError(f"kinds.{name}: {kind.extends} has no element with id "
                                 f"{key!r}{_suggest(key, ids)} (ids: "
                                 f"{', '.join(sorted(ids)) or 'none'})", source=source)
    # An id may name an element and its versions for other card sizes (`when = "card.w <
    # 140"`): `remove` leaves them all out, `replace` puts its element once, in the first's place.
    inherited, replaced = [], set()
    for el in base.elements:
        if el.id is not None and (el.id in kind.remove or el.id in replaced):
            continue
        if el.id in kind.replace:
            replaced.add(el.id)
        inherited.append(kind.replace.get(el.id, el) if el.id is not None else el)
    return msgspec.structs.replace(
        kind, extends=None, elements=inherited + kind.elements, replace={}, remove=[],
        placeholder=kind.placeholder if kind.placeholder is not None else base.placeholder,
        back=kind.back if kind.back is not None else base.back)


def _walk(elements, prefix: str = ""):
    for i, el in enumerate(elements, 1):
        where = f"{prefix}element {i} ({schema.kind_of(el)}{', ' + el.id if el.id else ''})"
        yield where, el
        for part in schema.INNER:  # a corner's elements, a table's parts
            inner = getattr(el, part, None)
            if isinstance(inner, list):
                yield from _walk(inner, f"{where}, {part}: " if part != "elements"
                                 else where + ", ")


def _check_values(el, where: str, source: str, kinds: dict, fonts: tuple = ()) -> None:
    def fail(field: str, message: str):
        raise CompanionError(f"{where}: {field}: {message}", source=source)
    if el.when is not None:
        try:
            bind.condition(el.when)
        except bind.BindError as e:
            fail("when", str(e))
    for name in ("align", "font", "role", "shape", "valign"):
        value = getattr(el, name, None)
        allowed = {"align": ("left", "center", "right"),
                   "font": (*ROLES, *(f for f in fonts if f not in ROLES)),
                   "role": ("ground", "window", "back", "disc"), "valign": ("top", "middle"),
                   "shape": ("disc", "card") if isinstance(el, schema.Background)
                   else ("circle", "square") if isinstance(el, schema.Circle)
                   else ("circle", "rect")}[name]
        if name == "shape" and isinstance(el, schema.Circle) and "{" in value:
            continue  # a field's value, checked as it is drawn
        if value is not None and value not in allowed:
            fail(name, f"{value!r} is not one of {', '.join(allowed)}"
                       f"{_suggest(value, allowed)}")
    if isinstance(el, schema.Background) and el.fill is None and el.gradient is None:
        fail("fill", "missing (a background needs `fill` or `gradient`)")
    if isinstance(el, schema.Nested) and el.kind not in kinds:
        fail("kind", f"no kind {el.kind!r}{_suggest(el.kind, kinds)} (kinds: "
                     f"{', '.join(kinds)})")


# ---- msgspec's errors, worded -----------------------------------------------------------

def _worded(error: str, kind: str, body) -> str:
    m = _AT.match(error)
    message, path = m["message"], m["path"] or "$"
    where, struct, key = _where(path, kind, body)
    unknown = re.match(r"Object contains unknown field `(.+)`", message)
    if unknown:
        bad = unknown[1]
        fields = _fields(struct)
        return f"{where}: {bad}: unknown field{_suggest(bad, fields)} (fields: " \
               f"{', '.join(fields)})"
    missing = re.match(r"Object missing required field `(.+)`", message)
    if missing:
        if key and struct is not None and struct not in schema.ELEMENTS:  # a table in one
            return f"{where}: {key}.{missing[1]}: missing (every {key} needs it)"
        return f"{where}: {missing[1]}: missing (every {_tag(struct)} needs it)"
    if key == "type" and message.startswith("Invalid value"):
        bad = message.split("'")[1] if "'" in message else message
        types = [schema.kind_of_class(t) for t in schema.ELEMENTS]
        return f"{where}: type: {bad!r} is not an element type{_suggest(bad, types)} " \
               f"(types: {', '.join(types)})"
    if "missing required field `type`" in message:
        return f"{where}: type: missing (one of {', '.join(map(schema.kind_of_class, schema.ELEMENTS))})"
    enum = re.match(r"Invalid enum value '(.*)'", message)
    if enum and struct is not None and key in struct.__struct_fields__:
        allowed = _allowed(struct, key)
        return f"{where}: {key}: {enum[1]!r} is not one of {', '.join(allowed)}" \
               f"{_suggest(enum[1], allowed)}"
    expected = re.match(r"Expected `(.+)`, got `(.+)`", message)
    if expected:
        return f"{where}{': ' + key if key else ''}: {_plain_type(expected[2])} where " \
               f"{_plain_type(expected[1])} is wanted"
    return f"{where}{': ' + key if key else ''}: {message}"


def _where(path: str, kind: str, body):
    """('kinds.demon, element 3 (text)', its struct class, the last key) for a msgspec
    path such as $.elements[2].size."""
    parts = re.findall(r"\.(\w+)|\[(\d+)\]", path)
    where, node, struct = f"kinds.{kind}", body, schema.Kind
    key = None
    i = 0
    while i < len(parts):
        name, index = parts[i]
        if name in ("elements",) and i + 1 < len(parts) and parts[i + 1][1]:
            n = int(parts[i + 1][1])
            node = node.get(name, [])[n] if isinstance(node, dict) else None
            tag = node.get("type") if isinstance(node, dict) else None
            struct = _struct(tag)
            label = f"{tag}, {node['id']}" if isinstance(node, dict) and node.get("id") else tag
            where += f", element {n + 1}" + (f" ({label})" if label else "")
            i += 2
            continue
        if name in ("replace",) and i + 1 < len(parts):
            sub = parts[i + 1][0]
            node = node.get(name, {}).get(sub) if isinstance(node, dict) else None
            struct = _struct(node.get("type") if isinstance(node, dict) else None)
            where += f", replace.{sub}"
            i += 2
            continue
        if name:
            key = name if key is None else f"{key}.{name}"
            if isinstance(node, dict):
                node = node.get(name)
            if name == "placeholder":
                struct = schema.Placeholders
            elif name == "step":
                struct = schema.Step
            elif name == "suffix":
                struct = schema.Suffix
            elif name == "mark":
                struct = schema.Mark
            elif name == "gradient":
                struct = schema.Gradient
        i += 1
    return where, struct, key


def _allowed(struct, key: str) -> list[str]:
    """The values a Literal field takes (schema.Qr's `code`)."""
    import typing

    hint = typing.get_type_hints(struct, include_extras=True).get(key)
    return [str(v) for v in typing.get_args(hint)]


def _struct(tag):
    for cls in schema.ELEMENTS:
        if schema.kind_of_class(cls) == tag:
            return cls
    return None


def _fields(struct) -> list[str]:
    if struct is None:
        return ["type"]
    names = list(struct.__struct_fields__)
    return (["type"] if struct in schema.ELEMENTS else []) + names


def _tag(struct) -> str:
    return schema.kind_of_class(struct) if struct in schema.ELEMENTS else "kind"


def _plain_type(t: str) -> str:
    words = {"str": "text", "float": "a number", "int": "a whole number", "bool": "true or false",
             "array": "a list", "object": "a table", "null": "nothing"}
    return " or ".join(words.get(p.strip(), p.strip()) for p in t.split("|"))


def _suggest(word, choices) -> str:
    import difflib  # only when a key is wrong: a build that loads cleanly never needs it

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
