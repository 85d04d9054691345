"""Values bound to a card: templates ("{name}", "{value:02}", through companion.text.templates),
conditions (`when`), colours by name and lengths. A card's fields are a flat dict whose
keys may hold dots ("item.name", "clan.colour"): nested tables are flattened so."""

import ast
import math
import re
from collections.abc import Mapping
from functools import lru_cache, partial

import msgspec
from reportlab.lib.colors import Color

from companion.text import templates
from companion.draw import colour as colours
from companion.errors import shown
from companion.text.units import parse_length


class BindError(ValueError):
    """What is wrong with a value of an element, in words; kinds.py and face.py name the
    file, the kind and the element. `field`: the card's field whose value is wrong, when
    the element names one alone ("{clan.colour}"), so the error can name the data entry."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@lru_cache(maxsize=4096)
def whole_field(template: str) -> str | None:
    """"name" for the template "{name}" (one field alone, no format), else None."""
    t = template.strip()
    if t.startswith("{") and t.endswith("}") and t.count("{") == 1 and ":" not in t:
        return t[1:-1]
    return None


class Placeholder(msgspec.Struct, frozen=True):
    """A text still to be written: prints as a hatched TO COME box holding `note`."""
    note: str

    def __str__(self) -> str:
        return self.note


def flat(fields: dict, prefix: str = "") -> dict:
    """{"item": {"name": "herb"}} -> {"item.name": "herb", "item": {...}}: nested tables
    readable as dotted names, the table itself kept for `repeat` and `in`."""
    out = {}
    for k, v in fields.items():
        key = f"{prefix}{k}"
        out[key] = v
        if isinstance(v, dict):
            out.update(flat(v, key + "."))
    return out


def text(template: str, scope: dict, again: bool = True):
    """A template filled from the card's fields. A value that is a Placeholder alone
    ("{name}" where name is one) stays a Placeholder. A text taken from the data may name
    fields itself (a rulebook line "When {type} wins"): filled once more, when `again`."""
    if "{" not in template and "}" not in template:
        return template
    # Filled once for each set of values it names: a kit fills the same few templates
    # with the same values on every card of a clan or a team.
    try:
        values = tuple(scope.get(name, _NONE) for name in templates.names(template))
    except templates.TemplateError as e:
        raise BindError(str(e), whole_field(template)) from None
    if not all(v is _NONE or type(v) in _KEPT_TYPES and not (type(v) is str and "{" in v)
               for v in values):  # a text filled again, a table, a date: filled afresh
        return _text(template, scope, again)
    # Keyed by type and, for a number, by how it prints: 1, 1.0, true, 0.0 and -0.0
    # are equal in Python and print apart.
    key = (template, again, tuple((type(v), repr(v) if type(v) is float else v)
                                  for v in values))
    try:
        return _FILLED[key]
    except KeyError:
        pass
    if len(_FILLED) >= 8192:
        _FILLED.clear()
    _FILLED[key] = out = _text(template, scope, again)
    return out


_NONE = object()  # a field the card does not have
_FILLED: dict = {}
_KEPT_TYPES = (str, int, float, bool, Placeholder)


def _text(template: str, scope: dict, again: bool):
    whole = whole_field(template)
    if whole is not None and isinstance(scope.get(whole), Placeholder):
        return scope[whole]
    try:
        out = templates.expand(template, _printable(scope), path=False)
        if again and whole is not None and isinstance(scope.get(whole), str) and "{" in out:
            out = templates.expand(out, _printable(scope), path=False)
    except templates.TemplateError as e:
        raise BindError(str(e), whole) from None
    return out


class _Printable(Mapping):
    """The card's fields as a template reads them: a placeholder as its note; a table or a
    list is no value to print. A view, not a copy: a card has a hundred fields and a
    face fills dozens of templates."""

    def __init__(self, scope: dict):
        self.scope = scope

    def __getitem__(self, key):
        v = self.scope[key]
        if isinstance(v, (dict, list)):
            raise KeyError(key)
        return str(v) if isinstance(v, Placeholder) else v

    def __contains__(self, key) -> bool:
        return key in self.scope and not isinstance(self.scope[key], (dict, list))

    def __iter__(self):
        return (k for k, v in self.scope.items() if not isinstance(v, (dict, list)))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _printable(scope: dict) -> Mapping:
    return _Printable(scope)


# ---- conditions: `when = 'deck == "B" and not art'` --------------------------------------
# A small safe language read with Python's own parser, whatever is not listed refused:
# names (dotted), strings, numbers, true/false, lists; == != < <= > >= in, not in; and, or,
# not. No call, no attribute of a value, no index.

_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}


@lru_cache(maxsize=1024)
def condition(source: str):
    """The condition as a function of a card's fields, read once; BindError if it is not
    one. `holds(condition(source), scope)` tells whether it holds for a card."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as e:
        raise BindError(f"{source!r} is not a condition ({e.msg})") from None
    except (RecursionError, MemoryError):
        raise _too_deep(source) from None
    _check_depth(tree.body, source)
    _check(tree.body, source)
    return _compiled(tree.body)


# How deep a condition or a worked-out length may nest (`not not …`, `1 - a - b - …`): a
# real one nests a few levels; a deeper one would overflow Python's stack when drawn.
MAX_DEPTH = 100


def _too_deep(source: str) -> "BindError":
    return BindError(f"{shown(source[:40] + ('…' if len(source) > 40 else ''))} nests over "
                     f"{MAX_DEPTH} levels deep (each not, operator or bracket is one): "
                     "simplify it")


def _check_depth(tree, source: str) -> None:
    """Refuses a tree nested over MAX_DEPTH levels, walked without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(source)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _check(node, source: str) -> None:
    ok = (ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Compare, ast.Name,
          ast.Attribute, ast.Constant, ast.List, ast.Tuple, ast.Load, *_COMPARE)
    for n in ast.walk(node):
        if not isinstance(n, ok):
            raise BindError(f"{source!r}: {type(n).__name__.lower()} is not allowed in a "
                            "condition (names, texts, numbers, lists, == != < > in, and, "
                            "or, not)")
        if isinstance(n, ast.Attribute) and not isinstance(n.value, (ast.Name, ast.Attribute)):
            raise BindError(f"{source!r}: only a field's name may hold dots")


@lru_cache(maxsize=1024)
def condition_names(source: str) -> tuple[str, ...]:
    """The fields a condition names ("rarity", "item.name"), in order, each once."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, RecursionError, MemoryError):
        return ()
    out = []

    def walk(node):
        if isinstance(node, (ast.Name, ast.Attribute)) and not (
                isinstance(node, ast.Attribute) and not isinstance(node.value,
                                                                   (ast.Name, ast.Attribute))):
            name = _dotted(node)
            if name not in ("true", "false") and name not in out:
                out.append(name)
            return
        for child in ast.iter_child_nodes(node):
            walk(child)
    walk(tree.body)
    return tuple(out)


def holds(condition, scope: dict) -> bool:
    return bool(condition(scope))


def _dotted(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return f"{_dotted(node.value)}.{node.attr}"


def _compiled(node):
    """The checked tree as nested functions of the scope: each card's test runs no parser
    and walks no tree (a kit tests its conditions thousands of times)."""
    if isinstance(node, ast.Constant):
        value = node.value
        return lambda scope: value
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = _dotted(node)
        if name in ("true", "false"):
            truth = name == "true"
            return lambda scope: truth
        return partial(_field_value, name)
    if isinstance(node, (ast.List, ast.Tuple)):
        parts = [_compiled(e) for e in node.elts]
        return lambda scope: [p(scope) for p in parts]
    if isinstance(node, ast.UnaryOp):
        operand = _compiled(node.operand)
        return lambda scope: not operand(scope)
    if isinstance(node, ast.BoolOp):
        parts = [_compiled(v) for v in node.values]
        if isinstance(node.op, ast.And):
            return lambda scope: all(p(scope) for p in parts)
        return lambda scope: any(p(scope) for p in parts)
    left = _compiled(node.left)
    steps = [(_COMPARE[type(op)], _compiled(right))
             for op, right in zip(node.ops, node.comparators)]
    return partial(_compare, left, steps)


def _field_value(name: str, scope: dict):
    if name not in scope:  # a field this card does not have: empty, not an error
        return None
    v = scope[name]
    return str(v) if isinstance(v, Placeholder) else v


def _compare(left, steps, scope: dict) -> bool:
    a = left(scope)
    for compare, right in steps:
        b = right(scope)
        try:
            if not compare(a, b):
                return False
        except TypeError:  # 3 < "a", or `in` a number: does not hold
            return False
        a = b
    return True


# ---- colours and lengths -------------------------------------------------------------------

def colour(value: str, scope: dict, palette: dict) -> Color:
    """"#1B2631", a name from the game's colours ("night"), a field holding either
    ("{item.colour}"), or "mix(a, b, 0.2)" (0: a, 1: b); "A or B": B where A names a
    field the card does not have ("{clan.text_colour} or {clan.colour}")."""
    if " or " in value:
        first, _, rest = value.partition(" or ")
        try:
            return colour(first, scope, palette)
        except BindError:
            return colour(rest, scope, palette)
    v = text(value, scope, again=False) if "{" in value else value
    v = str(v).strip()
    if " or " in v and v != value:  # a field naming "A or B": read as written so
        return colour(v, scope, palette)
    if v.startswith("on(") and v.endswith(")"):  # an ink on a ground paled by --ink saver
        parts = [p.strip() for p in v[3:-1].split(",")]
        if len(parts) != 3:
            raise BindError(f"{value!r}: on takes a ground, an ink and the ink to use when "
                            "the paled ground would not show it: on(night, gold, night)")
        from companion.draw import card

        return card.ink_on(*(colour(p, scope, palette) for p in parts))
    if v.startswith("mix(") and v.endswith(")"):
        parts = [p.strip() for p in v[4:-1].split(",")]
        if len(parts) != 3:
            raise BindError(f"{value!r}: mix takes two colours and a share: mix(a, b, 0.2)")
        try:
            t = float(parts[2])
        except ValueError:
            raise BindError(f"{value!r}: {parts[2]!r} is not a share from 0 to 1") from None
        return colours.mix(colour(parts[0], scope, palette), colour(parts[1], scope, palette), t)
    if v in palette:
        return palette[v]
    found = colours.parse(v)
    if found is None:
        field = whole_field(value)
        raise BindError(f"{shown(v if field else value)} is not a colour: '#C0392B', one of the "
                        f"game's colours ({', '.join(sorted(palette)) or 'none'}) or "
                        f"mix(a, b, 0.2){_nearest(v, palette)}", field)
    return found


def _nearest(word: str, names) -> str:
    """": did you mean accent?" for a name one typo away from one the game has."""
    import difflib

    near = difflib.get_close_matches(word, sorted(names), n=1, cutoff=0.75)
    return f": did you mean {near[0]}?" if near else ""


def length(value, across: float, scope: dict | None = None) -> float:
    """A fraction of `across` (the card's width or height), or a length with a unit. A
    fraction may be worked out: "1.2 * {frame}", "1 - {band} - {frame} * w" (+ - * /,
    brackets, min and max; `w` and `h` are the card's width and height, so "0.045 * w" in
    a y is 4.5% of the width), and hold lengths: "1 - 12mm", "min(10pt, 0.4 * h)"."""
    if isinstance(value, str):
        scope = scope or {}
        v = text(value, scope, again=False) if "{" in value else value
        if isinstance(v, str):  # the same for every card of this size: worked out once
            return _fixed_length(v, value, across, scope.get(CARD_W), scope.get(CARD_H))
        return _length(v, value, across, scope)
    return float(value) * across


@lru_cache(maxsize=4096)
def _fixed_length(v: str, value: str, across: float, w, h) -> float:
    return _length(v, value, across, {CARD_W: w, CARD_H: h})


def _length(v, value: str, across: float, scope: dict) -> float:
    """`v`, the length `value` with its fields filled in, in points."""
    try:
        number = float(v)
    except ValueError:
        number = _worked(str(v), across, scope)
    if number is not None:
        if not math.isfinite(number) or abs(number) > 10:
            raise BindError(f"{value!r} is not a fraction of the card (from -10 to 10)")
        return number * across
    try:
        return parse_length(v)
    except Exception as e:  # noqa: BLE001 - CompanionError: its words, here
        raise BindError(getattr(e, "message", str(e))) from None


# ---- lengths worked out: "1 - {band} - 0.045 * w" -------------------------------------------
# The card's size, in points, as a face's scope holds it (face.py), for `w` and `h`.
CARD_W, CARD_H = "card.w", "card.h"
_ARITH = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
          ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}


# A length with a unit inside arithmetic ("1 - 12mm"): read as a number of that unit.
_UNITS = {"_mm": 72 / 25.4, "_cm": 720 / 25.4, "_in": 72.0, "_pt": 1.0}
_WITH_UNIT = re.compile(r"(?<![\w.])(\d+\.?\d*|\.\d+)\s*(mm|cm|in|pt)\b")


@lru_cache(maxsize=1024)
def _sum(source: str):
    """The parsed arithmetic, or None if `source` is none (a length alone: "3mm")."""
    if _WITH_UNIT.fullmatch(source.strip()):
        return None
    try:
        tree = ast.parse(_WITH_UNIT.sub(r"(\1 * _\2)", source.strip()), mode="eval").body
    except SyntaxError:
        return None
    except (RecursionError, MemoryError):
        raise _too_deep(source) from None
    _check_depth(tree, source)
    for n in ast.walk(tree):
        ok = isinstance(n, (ast.BinOp, ast.UnaryOp, ast.USub, ast.UAdd, ast.Load, *_ARITH)) or \
            (isinstance(n, ast.Constant) and type(n.value) in (int, float)) or \
            (isinstance(n, ast.Name) and n.id in ("w", "h", "min", "max", *_UNITS)) or \
            (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id in ("min", "max") and n.args and not n.keywords)
        if not ok:
            return None
    return tree


def _worked(source: str, across: float, scope: dict) -> float | None:
    tree = _sum(source)
    if tree is None:
        return None

    def value(n):
        if isinstance(n, ast.Constant):
            return float(n.value)
        if isinstance(n, ast.Name) and n.id in _UNITS:
            return _UNITS[n.id] / across
        if isinstance(n, ast.Name):
            size = scope.get(CARD_W if n.id == "w" else CARD_H)
            if not isinstance(size, float):
                raise BindError(f"{source!r}: {n.id} (the card's size) only in a card's lengths")
            return size / across
        if isinstance(n, ast.UnaryOp):
            return -value(n.operand) if isinstance(n.op, ast.USub) else value(n.operand)
        if isinstance(n, ast.Call):
            return (min if n.func.id == "min" else max)(value(a) for a in n.args)
        try:
            return _ARITH[type(n.op)](value(n.left), value(n.right))
        except ZeroDivisionError:
            raise BindError(f"{source!r} divides by zero") from None
    return value(tree)


def number(source: str, scope: dict) -> int:
    """A whole number worked out from fields: "{games_per_page} * {pages}"."""
    v = str(text(source, scope, again=False)) if "{" in source else source
    tree = _sum(v)
    try:
        value = float(v) if tree is None else _worked(v, 1.0, {})
    except (ValueError, TypeError):
        value = None
    if value is None or not math.isfinite(value) or value != int(value) or \
            not 0 <= value <= 100_000:
        raise BindError(f"{source!r} is not a whole number from 0 to 100000")
    return int(value)
