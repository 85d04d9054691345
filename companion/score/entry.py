"""Lines typed at the terminal by the table commands (`coverta round`, `score covenia`).

Standard input is read as bytes and decoded here: a line that is not UTF-8, or holds a
control character or a lone surrogate (a terminal set to the wrong encoding), is refused
and asked again. It can then never end in a traceback, nor reach a saved file that TOML
readers would reject."""

import sys

import click

from companion.rules.errors import plain

MAX_LINE = 4000  # bytes: a line of names or card values is far shorter
NOT_TEXT = ("  that line is not plain text (a control character, or a character the terminal "
            "did not send as UTF-8): type it again")


def _read_line() -> str | None:
    """The next line without its line ending; bad bytes become lone surrogates (refused by
    the caller); None at the end of the input."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream (tests, embedding): already decoded
        line = sys.stdin.readline(MAX_LINE + 1)
        return line.rstrip("\r\n") if line else None
    data = buffer.readline(MAX_LINE + 1)
    if not data:
        return None
    if len(data) > MAX_LINE and not data.endswith(b"\n"):
        _drain(buffer)
        return "\x00"  # refused as not plain text
    return data.rstrip(b"\r\n").decode("utf-8", "surrogateescape")


def _drain(buffer) -> None:
    """Skip the rest of an overlong line."""
    while True:
        chunk = buffer.readline(MAX_LINE)
        if not chunk or chunk.endswith(b"\n"):
            return


def prompt(text: str, default: str = "") -> str:
    """Ask `text` on standard error and return the line typed (`default` for an empty
    line); re-asks a line that is not plain text. End of input raises EOFError."""
    while True:
        click.echo(f"{text} [{default}]: " if default else f"{text}: ", nl=False, err=True)
        line = _read_line()
        if line is None:
            raise EOFError  # (click ends the line) no answer: exit 1, not as a Ctrl+C
        if len(line) > MAX_LINE or not plain(line):
            click.echo(NOT_TEXT, err=True)
            continue
        return line or default


def echo(text: str) -> None:
    click.echo(text, err=True)


def asking(prompt, lang: str):
    """`prompt` as the language writes a question: `prompt(text, default)` ends it with
    "[default]: ", which French writes with a narrow no-break space before the colon (the
    default then handled here)."""
    if lang != "fr":
        return prompt
    from companion.text.typography import NNBSP

    def ask_fr(text: str, default: str = "") -> str:
        shown_default = f" [{default}]" if default else ""
        return prompt(f"{text}{shown_default}{NNBSP}", "") or default
    return ask_fr
