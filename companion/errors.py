"""The application's one error type. The CLI turns it into one line and exit status 2."""


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


def shown(value, limit: int = 60) -> str:
    """A value from a user's file or terminal as a message shows it: text quoted with its
    control characters escaped, dates and times as written in TOML, never a Python repr;
    long values cut."""
    import datetime

    if isinstance(value, str):
        text = '"' + escape(value) + '"'
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (datetime.date, datetime.time)):
        text = value.isoformat()
    elif isinstance(value, (int, float)):
        text = str(value)
    elif isinstance(value, list):
        text = "[" + ", ".join(shown(v, limit) for v in value[:5]) + (", ...]" if len(value) > 5 else "]")
    elif isinstance(value, dict):
        text = "{ " + ", ".join(f"{escape(str(k))} = {shown(v, limit)}"
                                for k, v in list(value.items())[:5]) + (", ... }" if len(value) > 5 else " }")
    else:
        text = escape(str(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def escape(text: str) -> str:
    """Control characters (and lone surrogates) as \\xNN / \\uNNNN escapes, so a message
    never moves the terminal's cursor or changes its colours."""
    out = []
    for ch in text:
        o = ord(ch)
        if o < 0x20 or 0x7F <= o < 0xA0 or 0xD800 <= o < 0xE000 or o in (0x2028, 0x2029):
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)
