"""French typography in one place. Every printed string read from the data passes through
`typeset` (companion.files.data.Fields.text), so no French string is fixed by hand:
- a narrow no-break space (U+202F) before : ; ! ? and » and after «, so no line starts
  with punctuation and guillemets hug their words;
- the typographic apostrophe (’) for a straight one between letters ("l'or" -> "l’or");
- numbers with a decimal comma where code formats measures (`number`).
An inline icon `:name:` (companion.engine.markup) is a token, not punctuation: its colons
are never spaced, nor is the space before it changed; after it, punctuation is spaced as
after a word ("Coûte :mana: de moins", "(:shell: ou :wave:) :").
Idempotent: typesetting twice changes nothing."""

import re

NNBSP = "\u202f"  # narrow no-break space
_SPACES = "[ \u00a0\u202f]"

# Patterns compiled at their first use (by re's own cache): an English command never
# pays for them.
# A space (of any kind) or none before ; ! ? », but not inside "://" or "10:30".
_BEFORE_HIGH = rf"(?:{_SPACES}+|(?<=[\w)\]…%*]))([;!?»])"
# A colon that ends a phrase: after a space, or right after a word and before a space/end.
_BEFORE_COLON = rf"{_SPACES}+:|(?<=[\w)\]…%*]):(?=\s|$)"
_AFTER_OPEN = rf"«{_SPACES}*"
_APOSTROPHE = r"(?<=[^\W\d_])'(?=[^\W\d_])"  # letter ' letter only
# An inline icon, as companion.engine.markup reads one: never typeset.
ICON = r":[a-z][a-z0-9_-]*:"


def french(text: str) -> str:
    if ":" not in text or not re.search(ICON, text):
        return _french(text)
    # the text between icons typeset apart, each piece after an icon as after a word
    pieces = re.split(f"({ICON})", text)
    out = [_french(pieces[0])]
    for icon, piece in zip(pieces[1::2], pieces[2::2]):
        out += [icon, _french("x" + piece)[1:]]
    return "".join(out)


def _french(text: str) -> str:
    text = re.sub(_APOSTROPHE, "\u2019", text)
    text = re.sub(_BEFORE_HIGH, lambda m: NNBSP + m.group(1), text)
    text = re.sub(_BEFORE_COLON, NNBSP + ":", text)
    return re.sub(_AFTER_OPEN, "«" + NNBSP, text)


def typeset(text: str, lang: str) -> str:
    return french(text) if lang == "fr" else text


def number(value: float, lang: str, digits: int = 2) -> str:
    """63.5 -> '63.5' in English, '63,5' in French; whole numbers without decimals."""
    s = f"{round(value, digits):g}"
    return s.replace(".", ",") if lang == "fr" else s


# French elides "de" before a vowel: "le plus d’Anguilles", not "le plus de Anguilles". An
# h is left alone (an aspirated h keeps "de": "de Haricots").
_ELIDED_DE = re.compile(r"\b([Dd])e (?=[AEIOUaeiouÀÂÄÉÈÊËÎÏÔÖÙÛÜàâäéèêëîïôöùûüŒœÆæ])")


def elide(text: str, lang: str) -> str:
    """A phrase written with a name after "de" (a designer's category) as French says it."""
    return _ELIDED_DE.sub("\\1\u2019", text) if lang == "fr" else text


def listing(items: list[str], conjunction: str) -> str:
    """['A', 'B', 'C'] -> 'A, B and C' (and 'A and B', 'A')."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"
