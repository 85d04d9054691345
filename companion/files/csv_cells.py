"""CSV cells a spreadsheet never runs as a formula (issue 43). A text cell led by = + -
@, a tab or a carriage return is written led by a quote, as spreadsheets keep text;
reading takes the quote off again. Numbers are written as they are (-5 stays -5: a
spreadsheet reads it as the number it is). Every CSV the tool writes is written by
writer(), which puts every header and cell through safe(); every CSV it reads back goes
through unquoted()."""

import csv
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


class _Safe:
    """csv.writer's writerow and writerows, every cell through safe() first."""

    def __init__(self, f, **options):
        self._w = csv.writer(f, lineterminator="\r\n", **options)

    def writerow(self, row) -> None:
        self._w.writerow([safe(v) for v in row])

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)


def writer(f, **options) -> _Safe:
    """The one way the tool writes a CSV: CRLF lines (RFC 4180), no cell a formula."""
    return _Safe(f, **options)
