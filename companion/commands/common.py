"""What every command shares: reading an input file or standard input, the language
option, and the verdict of a command that is not bad input."""


from companion.errors import CompanionError


class Failure(Exception):
    """A command's own verdict other than success (for example a draw that does not verify)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def split(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def lang(value: str) -> str:
    if value not in ("en", "fr"):
        raise CompanionError(f"unknown language {value!r} (use en, fr)", field="--lang")
    return value


def read_input(file: str) -> tuple[str, str]:
    """(text, name for messages) of a FILE argument, '-' meaning standard input."""
    from companion.data import read_text

    return read_text(file)
