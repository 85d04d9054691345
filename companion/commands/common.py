"""What every command shares: reading an input file or standard input, the language
option, options that name one of a fixed list, and the verdict of a command that is not
bad input."""

from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

import click

from companion.errors import CompanionError, shown


class Failure(Exception):
    """A command's own verdict other than success (for example a draw that does not verify)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


class Named(click.ParamType):
    """A name from a fixed list, in any case ("A4", "Letter", "PNG"): the list's own
    spelling is what the command gets; a name not in it fails in one line listing them.
    `names` is called only when the option is used, so that a list read from the data
    (presets.toml, shops.toml) costs a command that does not use it nothing. `other`, if
    given, takes what is not a name (a card size written 63x88mm, a language of a designer's
    game file) and gives what the command gets, to be checked where it is used."""

    def __init__(self, what: str, names: Iterable[str] | Callable[[], Iterable[str]],
                 other: Callable[[str], str] | None = None):
        self.what, self.names, self.other = what, names, other
        self.name = what.replace(" ", "-")  # the metavar: --paper PAPER

    def choices(self) -> list[str]:
        return list(self.names() if callable(self.names) else self.names)

    def shell_complete(self, ctx, param, incomplete: str):
        """Tab completion (eval "$(_COMPANION_COMPLETE=bash_source companion)"): the names
        that begin with what is typed, in any case."""
        from click.shell_completion import CompletionItem  # only when completing

        return [CompletionItem(c) for c in self.choices()
                if c.casefold().startswith(incomplete.casefold())]

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        choices = self.choices()
        folded = {c.casefold(): c for c in choices}
        key = value.strip().casefold()
        if key in folded:
            return folded[key]
        if self.other is not None:
            return self.other(value.strip())
        self.fail(f"{shown(value)} is not a {self.what}: use {_either(choices)}", param, ctx)


def _either(choices: list[str]) -> str:
    return ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]


def _papers() -> list[str]:
    from companion.press import presets

    return presets.paper_names()


def _card_sizes() -> list[str]:
    from companion.press import presets

    return presets.card_names()


def _flips() -> tuple[str, ...]:
    from companion.press.imposition import FLIPS

    return FLIPS


def _game(ctx, param, value: str | None) -> str | None:
    """GAME as typed (Covenia, ALL): a bundled game's id in its own case; a game file's
    path, or a name that is no game (the command names the games), as it is."""
    from companion import games

    if value is None or games.is_path(value):
        return value
    known = {g.casefold(): g for g in (*games.bundled(), "all")}
    return known.get(value.strip().casefold(), value)


def _complete_game(ctx, param, incomplete: str):
    """Tab completion of GAME: the bundled games and `all`, then game files (the shell's
    own completion of paths)."""
    from click.shell_completion import CompletionItem

    from companion import games

    named = [CompletionItem(g) for g in (*games.bundled(), "all")
             if g.casefold().startswith(incomplete.casefold())]
    return named + [CompletionItem(incomplete, type="file")]


# The options and arguments several commands share.
GAME = {"callback": _game, "shell_complete": _complete_game}
PAPER = Named("paper", _papers)
PAPER_WITH_PDF = Named("paper", _papers, other=str.lower)  # refused without --pdf first
CARD_SIZE = Named("card size", _card_sizes, other=str.lower)  # or WxH: 63x88mm
FLIP = Named("flip", _flips)
WORDS = Named("language", ("en", "fr"))  # our words: en or fr
LANGUAGE = Named("language", ("en", "fr"), other=str.lower)  # a game file's may be any
TIE_RULE = Named("tie rule", ("extra", "redraw"))


def split(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def lang(value: str) -> str:
    value = value.strip().lower()
    if value not in ("en", "fr"):
        raise CompanionError(f"unknown language {value!r} (use en, fr)", field="--lang")
    return value


def read_input(file: str) -> tuple[str, str]:
    """(text, name for messages) of a FILE argument, '-' meaning standard input."""
    from companion.files.data import read_text

    return read_text(file)


@contextmanager
def taken_back_on_failure(where: Path):
    """The list a command adds each file and folder to as it writes them, one by one (a
    game's folder from `new` or `init`); if a write fails, everything listed is taken back,
    newest first, and the failure is one line naming the file (or `where`)."""
    made: list[Path] = []
    try:
        yield made
    except (CompanionError, OSError) as e:
        for path in reversed(made):
            try:
                path.rmdir() if path.is_dir() else path.unlink()
            except OSError:
                pass
        if isinstance(e, CompanionError):
            raise
        raise CompanionError(f"cannot write ({e.strerror or e})",
                             source=str(e.filename or where)) from None
