"""Templates: a text naming a card's fields in braces, "art/{clan}-{value:02}.jpg" or
"When {type} wins", filled from the card. Only {field} and {field:format} are read, never
Python's whole format language: no attribute or item access ({clan.upper}, {value[0]}), no
conversion ({clan!r}), no field inside a format, and a width or precision of at most
MAX_WIDTH ({clan:>1000000000} would build a gigabyte of spaces). A field's name may hold
dots when the fields given have such names ("item.name": the layout engine flattens a
card's nested fields so)."""

import re
from functools import lru_cache

from companion.errors import shown

MAX_WIDTH = 255  # characters: no file system takes a longer file name
_FORMAT = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?"
                     r"(?P<zero>0)?(?P<width>[0-9]+)?(?P<group>[,_])?"
                     r"(?:\.(?P<precision>[0-9]+))?(?P<type>[bcdeEfFgGnosxX%])?", re.S)
_NUMBER_TYPES = "bcdeEfFgGnoxX%"
_INTEGER_TYPES = "bcdoxXn"


class TemplateError(ValueError):
    """What is wrong with a path template, in words ("{clan:d}: format d needs a number,
    and clan is text")."""


def expand(template: str, card_fields: dict, path: bool = True) -> str:
    """`template` with each {field} or {field:format} replaced by the card's value. A
    `path` (a file's name) may hold no NUL character; a printed text or an id may."""
    if path and "\x00" in template:
        raise TemplateError(f"{shown(template)} holds a NUL character: no file is named so")
    out = []
    for literal, piece, name, form in _pieces(template):
        out.append(literal)
        if piece is None:
            continue
        out.append(_field(piece, name, form, card_fields, path))
    return "".join(out)


@lru_cache(maxsize=4096)
def names(template: str) -> tuple[str, ...]:
    """The fields `template` names, in order; TemplateError if it is no template."""
    return tuple(name for _, piece, name, _ in _pieces(template) if piece is not None)


@lru_cache(maxsize=512)
def _pieces(template: str) -> tuple[tuple[str, str | None, str, str | None], ...]:
    """(text before, "{field:format}" as written, field, format or None) in order; the
    text after the last field comes with piece None. {{ and }} are braces."""
    pieces, literal, i, n = [], [], 0, len(template)
    while i < n:
        ch = template[i]
        if ch in "{}" and template.startswith(ch * 2, i):
            literal.append(ch)
            i += 2
        elif ch == "}":
            raise TemplateError(f"{shown(template)} has unpaired braces: a }} with no {{ "
                                "before it (write }} for a brace)")
        elif ch == "{":
            close = template.find("}", i + 1)
            if close < 0:
                raise TemplateError(f"{shown(template)} has unpaired braces: a {{ with no }} "
                                    "after it (write {{ for a brace)")
            piece = template[i:close + 1]
            if "{" in piece[1:]:
                raise TemplateError(f"{_short(piece)}: a brace inside a field (a format "
                                    "cannot name another field)")
            name, colon, form = piece[1:-1].partition(":")
            pieces.append(("".join(literal), piece, name, form if colon else None))
            literal = []
            i = close + 1
        else:
            literal.append(ch)
            i += 1
    pieces.append(("".join(literal), None, "", None))
    return tuple(pieces)


def _field(piece: str, name: str, form: str | None, card_fields: dict,
           path: bool = True) -> str:
    if name not in card_fields:
        fields = ", ".join("{" + k + "}" for k in card_fields)
        own = re.split(r"[.\[!]", name, maxsplit=1)[0]
        if own in card_fields and own != name:
            what = ("a conversion (!r, !s, !a)" if name[len(own)] == "!" else
                    "an attribute or an item of a field" if name[len(own)] == "." else
                    "an item of a field")
            raise TemplateError(f"{_short(piece)}: {what} cannot be named, only the field itself "
                                f"({{{own}}})")
        raise TemplateError(f"names {{{name}}}, not a field of this card (use {fields})")
    value, piece = card_fields[name], _short(piece)
    if form is None or form == "":
        try:
            text = value if isinstance(value, str) else format(value)
        except (ValueError, TypeError, OverflowError) as e:  # an integer of 5,000 digits
            raise TemplateError(f"{piece}: cannot write {name} in a path ({e})") from None
    else:
        text = _formatted(piece, name, form, value)
    if path and "\x00" in text:
        raise TemplateError(f"{piece}: {name} is {shown(text)}, with a NUL character: no file "
                            "is named so")
    return text


def _formatted(piece: str, name: str, form: str, value) -> str:
    m = _FORMAT.fullmatch(form)
    if m is None:
        raise TemplateError(f"{piece}: {shown(form)} is not a format (such as 03, >8 or .2f)")
    for what in ("width", "precision"):
        digits = m[what]
        if digits and (len(digits) > 3 or int(digits) > MAX_WIDTH):
            raise TemplateError(f"{piece}: a {what} of {digits[:12]}"
                                f"{'...' if len(digits) > 12 else ''}: over the {MAX_WIDTH} "
                                "characters a file name may have")
    if m["fill"] in ("/", "\\"):
        raise TemplateError(f"{piece}: a fill of {m['fill']} would make folders of the path")
    kind = m["type"] or ""
    is_text = isinstance(value, str)
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    what = "text" if is_text else "a number" if is_number else type(value).__name__
    if is_text and kind and kind in _NUMBER_TYPES:
        raise TemplateError(f"{piece}: format {kind} needs a number, and {name} is text "
                            f"({_shown(value)})")
    flag = ("a sign" if m["sign"] else "z" if m["z"] else "#" if m["alt"] else
            f"{m['group']} grouping" if m["group"] else
            "= alignment" if m["align"] == "=" else None)
    if is_text and flag:
        raise TemplateError(f"{piece}: {flag} needs a number, and {name} is text "
                            f"({_shown(value)})")
    if is_number and kind == "s":
        raise TemplateError(f"{piece}: format s needs text, and {name} is a number "
                            f"({_shown(value)})")
    if is_number and isinstance(value, int) and m["precision"] and (
            not kind or kind in _INTEGER_TYPES):
        raise TemplateError(f"{piece}: a precision needs a format such as f, e or %, and "
                            f"{name} is a whole number ({_shown(value)})")
    try:
        return format(value, form)
    except (ValueError, TypeError, OverflowError) as e:
        raise TemplateError(f"{piece}: cannot format {name} ({what}) so: {e}") from None


def _short(piece: str) -> str:
    return piece if len(piece) <= 40 else piece[:30] + "...}"


def _shown(value) -> str:
    try:
        return shown(value)
    except ValueError:  # an integer too long to write out
        return "a number of thousands of digits"
