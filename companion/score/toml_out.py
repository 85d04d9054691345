"""TOML written by the table commands (ledgers, saved score files): dumped by tomlkit and
read back with tomllib before anything is written, so a file we write is always one we
(and any TOML reader) can read, holding exactly what was meant."""

import tomllib

from companion.errors import CompanionError


def checked_dump(doc, want: dict, what: str) -> str:
    """tomlkit's text of `doc`, once tomllib reads it back as exactly `want`."""
    import tomlkit

    try:
        text = tomlkit.dumps(doc)
        ok = tomllib.loads(text) == want
    except Exception:  # tomlkit or a round-trip failure: refuse, write nothing
        ok = False
    if not ok:
        raise CompanionError(f"cannot write {what} so that it reads back as entered")
    return text
