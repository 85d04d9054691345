"""User values as messages show them: quoted, control characters escaped, dates as
written in TOML, never a Python repr, long or deep values cut. Pure text, used by every
layer's error messages (scorers' and the application's)."""

DEPTH = 3  # levels of a nested value a message shows: a TOML value can nest thousands


def shown(value, limit: int = 60, depth: int = DEPTH) -> str:
    """A value from a user's file or terminal as a message shows it: text quoted with its
    control characters escaped, dates and times as written in TOML, never a Python repr;
    long values cut, and nested ones after `depth` levels."""
    import datetime

    if isinstance(value, str):
        text = '"' + escape(value) + '"'
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (datetime.date, datetime.time)):
        text = value.isoformat()
    elif isinstance(value, (int, float)):
        text = str(value)
    elif isinstance(value, (list, dict)) and depth <= 0:
        text = "[...]" if isinstance(value, list) else "{ ... }"
    elif isinstance(value, list):
        text = "[" + ", ".join(shown(v, limit, depth - 1) for v in value[:5]) + (
            ", ...]" if len(value) > 5 else "]")
    elif isinstance(value, dict):
        text = "{ " + ", ".join(f"{escape(str(k))} = {shown(v, limit, depth - 1)}"
                                for k, v in list(value.items())[:5]) + (
            ", ... }" if len(value) > 5 else " }")
    else:
        text = escape(str(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def escape(text: str) -> str:
    """Control characters (and lone surrogates) as \\xNN / \\uNNNN escapes, so a message
    never moves the terminal's cursor or changes its colours."""
    if text.isascii() and text.isprintable():  # nothing to escape: most names and keys
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if o < 0x20 or 0x7F <= o < 0xA0 or 0xD800 <= o < 0xE000 or o in (0x2028, 0x2029):
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)
