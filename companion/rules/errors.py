"""The scorers' one error type: what is wrong, and the field at fault. Values from the
user's input go into messages through `shown` (quoted, control characters escaped, never a
Python repr) and keys into field names through `escape`, as everywhere in the project."""

from companion.rules.values import escape, shown  # noqa: F401  (re-exported for the scorers)


class ScoreError(ValueError):
    """`message` is the command line's English. `code` (e.g. "covenia.players_count") and
    `params` say the same without words, for a caller that words it in its own language
    (the phone page: companion/layouts/phone.toml's text "why_" + the code with "_" for "."). A code
    is stable: its meaning and its params' names never change."""

    def __init__(self, field: str, message: str, code: str | None = None,
                 params: dict | None = None):
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})
        super().__init__(self.line())

    def line(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


def plain(text: str) -> bool:
    """Text a person could type: no control characters, no broken (surrogate) characters."""
    return escape(text) == text
