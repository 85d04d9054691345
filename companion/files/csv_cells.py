"""CSV cells a spreadsheet never runs as a formula (issue 43). A text cell led by = + -
@, a tab or a carriage return is written led by a quote, as spreadsheets keep text;
reading takes the quote off again. Numbers are written as they are (-5 stays -5: a
spreadsheet reads it as the number it is). Every CSV the tool writes goes through safe();
every CSV it reads back through unquoted()."""

import re

_LEADS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def safe(value):
    """A cell as written: text that could run as a formula led by a quote; anything else
    (numbers, None) as it is."""
    if isinstance(value, str) and value[:1] in _LEADS and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def unquoted(text: str) -> str:
    """A cell as meant: the quote safe() put before = + - @ taken off."""
    return text[1:] if text[:1] == "'" and text[1:2] in _LEADS else text
