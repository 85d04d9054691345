"""docs/layout-reference.md, written from schema.py itself (each struct's docstring, its
fields, their types, defaults and the comment beside each), so the reference cannot
drift from what the engine reads. `python -m companion.engine.reference` rewrites it; a
test fails when the file and the schema disagree."""

import inspect
import re
import sys
from pathlib import Path

import msgspec

from companion.engine import schema

_COMMENT = re.compile(r"^\s+(\w+):.*?\s{2}#\s+(.+)$")
ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "docs" / "layout-reference.md"


def _comments(cls) -> dict[str, str]:
    out = {}
    for base in reversed(cls.__mro__):
        if base.__module__ != schema.__name__:
            continue
        for line in inspect.getsource(base).splitlines():
            m = _COMMENT.match(line)
            if m:
                out[m.group(1)] = m.group(2).strip()
    return out


def _type(info) -> str:
    words = {msgspec.inspect.StrType: "text", msgspec.inspect.FloatType: "number",
             msgspec.inspect.IntType: "whole number", msgspec.inspect.BoolType: "true/false",
             msgspec.inspect.NoneType: "none"}
    if isinstance(info, msgspec.inspect.UnionType):
        if all(isinstance(t, msgspec.inspect.StructType) for t in info.types):
            return "element"
        return " or ".join(_type(t) for t in info.types)
    if isinstance(info, msgspec.inspect.LiteralType):
        return "one of " + ", ".join(f'"{v}"' for v in info.values)
    if isinstance(info, msgspec.inspect.ListType):
        return f"list of {_type(info.item_type)}"
    if isinstance(info, msgspec.inspect.DictType):
        return f"table of {_type(info.value_type)}"
    if isinstance(info, msgspec.inspect.StructType):
        name = info.cls.__name__
        return "element" if name in {c.__name__ for c in schema.ELEMENTS} else name.lower()
    return words.get(type(info), type(info).__name__.replace("Type", "").lower())


def _default(f) -> str:
    if f.required:
        return "required"
    d = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
    if d is None:
        return "none"
    if isinstance(d, bool):
        return "true" if d else "false"
    if isinstance(d, (list, dict)) and not d:
        return "empty"
    return f"`{d!r}`".replace("'", '"')


def _table(cls, skip: set) -> list[str]:
    info = msgspec.inspect.type_info(cls)
    notes = _comments(cls)
    rows = ["| field | type | default | what it does |", "| --- | --- | --- | --- |"]
    for f in info.fields:
        if f.name in skip:
            continue
        rows.append(f"| `{f.name}` | {_type(f.type)} | {_default(f)} | "
                    f"{notes.get(f.name, '').replace('|', '/')} |")
    return rows


def _doc(cls) -> str:
    return " ".join(inspect.cleandoc(cls.__doc__ or "").split())


def text() -> str:
    common = set(schema._Element.__struct_fields__)  # every element's: in one table
    out = ["# The layout format: reference",
           "",
           "Generated from `companion/engine/schema.py` by `python -m companion.engine.reference`;"
           " do not edit by hand.",
           "",
           inspect.cleandoc(schema.__doc__ or ""),
           "",
           "## A kind: `[kinds.NAME]`",
           "",
           _doc(schema.Kind),
           "",
           *_table(schema.Kind, set()),
           "",
           "### `placeholder`",
           "",
           _doc(schema.Placeholders),
           "",
           *_table(schema.Placeholders, set()),
           "",
           "## Fields every element takes",
           "",
           *_table(schema.Background, set(schema.Background.__struct_fields__) - common),
           "",
           "`step` is a table `{ x = ..., y = ... }`: how far each repeat moves.",
           ""]
    out += ["`gradient` (a rect's, a background's) is a table `{ start = ..., end = ..., "
            "angle = ... }`:", "", _doc(schema.Gradient), "", *_table(schema.Gradient, set()), ""]
    for cls in schema.ELEMENTS:
        out += [f"## `type = \"{schema.kind_of_class(cls)}\"`", "", _doc(cls), "",
                *_table(cls, common), ""]
    out += ["## A component's shape: `[components.NAME]`", "", _doc(schema.ComponentShape), "",
            *_table(schema.ComponentShape, set()), ""]
    out += ["## Every line at every size: `[carries]`", "", _carries(), ""]
    return "\n".join(out).rstrip() + "\n"


def _carries() -> str:
    """The coverage check's own description (companion/engine/coverage.py), its example
    as a TOML block."""
    from companion.engine import coverage

    words, _, example = inspect.cleandoc(coverage.__doc__ or "").partition("\n\n    [")
    example, _, after = ("    [" + example).partition("\n\n")
    return "\n\n".join([" ".join(words.split()), "```toml\n" + inspect.cleandoc(example)
                          + "\n```", " ".join(after.split())])


def main(argv=None) -> int:
    TARGET.write_text(text(), encoding="utf-8")
    print(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
