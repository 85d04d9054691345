"""The scorers' one error type: what is wrong, and the field at fault. Values from the
user's input go into messages through `shown` (quoted, control characters escaped, never a
Python repr) and keys into field names through `escape`, as everywhere in the project."""

from companion.errors import escape
from companion.errors import shown as _shown

_DEPTH = 3  # levels of a nested value a message shows


class ScoreError(ValueError):
    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


def plain(text: str) -> bool:
    """Text a person could type: no control characters, no broken (surrogate) characters."""
    return escape(text) == text


def shown(value, limit: int = 60) -> str:
    """companion.errors.shown of `value` cut at a few levels deep: a TOML value can nest
    thousands of levels (a.a.a... = 1), which would overflow its recursion."""
    return _shown(_clip(value, _DEPTH), limit)


class _Cut:
    def __str__(self) -> str:
        return "..."


def _clip(value, depth: int):
    if isinstance(value, list):
        return [_clip(v, depth - 1) for v in value[:6]] if depth else _Cut()
    if isinstance(value, dict):
        return {k: _clip(v, depth - 1) for k, v in list(value.items())[:6]} if depth else _Cut()
    return value
