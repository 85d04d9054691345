"""The application's one error type. The CLI turns it into one line and exit status 2."""

from companion.rules.values import escape, shown  # noqa: F401  (how values show in messages)


class CompanionError(Exception):
    """Bad input or an impossible request: names the file, the field and what is wrong."""

    def __init__(self, message: str, *, source: str | None = None, field: str | None = None):
        self.message = message
        self.source = source
        self.field = field
        super().__init__(self.line())

    def line(self) -> str:
        where = ": ".join(p for p in (self.source, self.field) if p)
        return f"{where}: {self.message}" if where else self.message
