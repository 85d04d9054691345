"""JSON as our manifests are written: one line per top-level key and one per item of a
top-level list, so a person can read and diff them.

json's `indent=` runs the pure-Python encoder: a 2,000-card kit's manifest took 0.03 s of
a 0.6 s build that way; each line here comes from the C encoder (issue 49's speed line).
"""
from __future__ import annotations

import json

_line = json.JSONEncoder(ensure_ascii=False).encode


def readable(value) -> str:
    """`value` as JSON text ending in a newline; parses back to `value`."""
    if not isinstance(value, dict) or not value:
        return _line(value) + "\n"
    return "{\n" + ",\n".join(f"  {_line(str(k))}: {_member(v)}" for k, v in value.items()) \
        + "\n}\n"


def _member(value) -> str:
    if isinstance(value, list) and value:
        return "[\n    " + ",\n    ".join(_line(item) for item in value) + "\n  ]"
    return _line(value)
