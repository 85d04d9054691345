"""The check of our own output (issue 49): every name a page's or a form's operators use
(a transparency state `gs`, a shading `sh`, a form or picture `Do`, a colour space
`cs`/`CS`, a font `Tf`) is defined in the resources written with it, and the object it
names is in the document. Run on every page and form as it is written, by every build and
export (companion.press.pdf's canvas): a name left dangling is our bug, reported in one
line (Dangling) and the output drawn again cold by the caller, never a silent page that
one viewer prints and another drops.

A walk of the operators as written: one regular expression over a page's code, the same
text reportlab writes as its stream (its texts' strings left out where a name seems
missing: "and/or Do" in a card's text is words)."""

import re

from companion.errors import CompanionError

# a name and the operator using it (a font: its size between); a text's string reading
# "and/or Do" matches too: where a name is found missing, the code is read again without
# its strings (reportlab escapes a string's brackets), so only a real one is reported
_USED = re.compile(r"/([^\s/\[\]()<>{}%]+)(?: -?[\d.]+)? (gs|sh|Do|cs|CS|Tf)\b")
_STRING = re.compile(r"\((?:[^()\\]|\\.)*\)", re.S)
_DEVICE = frozenset({"DeviceRGB", "DeviceCMYK", "DeviceGray", "Pattern"})


class Dangling(CompanionError):
    """A page or form of ours names what its resources lack: our bug, drawn again cold."""


def names_used(code: str) -> dict[str, set[str]]:
    """{operator: the names it uses} in `code`."""
    out: dict[str, set[str]] = {}
    for name, op in _USED.findall(code):
        out.setdefault(op, set()).add(name)
    return out


def missing(used: dict, states, xobjects, shadings, colours, fonts, defined) -> list[str]:
    """What `used` (names_used) names that the resources lack: 'gs Gca0.5', ..."""
    out = [f"gs {n}" for n in used.get("gs", ()) if n not in states]
    out += [f"sh {n}" for n in used.get("sh", ()) if n not in shadings or n not in defined]
    out += [f"Do {n}" for n in used.get("Do", ()) if n not in xobjects]
    out += [f"cs {n}" for op in ("cs", "CS") for n in used.get(op, ())
            if n not in colours and n not in _DEVICE]
    out += [f"Tf {n}" for n in used.get("Tf", ()) if n.split("+")[0] not in fonts]
    return sorted(out)


def _joined(c, obj) -> str:
    """The code of the page or form `obj`, as the canvas joined it (pdf._Canvas: each
    line once, in any order: what is asked is which names its lines hold)."""
    got = c.__dict__.pop("_joined", None)
    if got is not None and got[0] is obj:
        return got[1]
    return "\n".join(c._code)


def _keys(d) -> set:
    """The names a resource dictionary defines (a PDFDictionary, or a plain dict)."""
    if d is None:
        return set()
    return set(d) if isinstance(d, dict) else set(getattr(d, "dict", None) or {})


def check_page(c, page) -> None:
    """The page reportlab is about to add (its stream, ExtGState, XObjects, shadings and
    colours set) checked against what its code uses; Dangling if a name is missing."""
    code = _joined(c, page)
    _check(c, code, page.ExtGState, page.XObjects, c._shadingUsed, c._colorsUsed,
           f"page {c.getPageNumber()}")


def check_form(c, name: str, form, code: str) -> None:
    """A form (companion.draw.forms) once its resources are set; `code`: its operators."""
    c.__dict__.pop("_joined", None)  # the form's, joined as its states were set
    res = form.Resources
    _check(c, code, getattr(res, "ExtGState", None), getattr(res, "XObject", None),
           _keys(getattr(res, "Shading", None)), _keys(getattr(res, "ColorSpace", None)),
           f"form {name}")


def _check(c, code: str, states, xobjects, shadings, colours, where: str) -> None:
    used = names_used(code)
    if not used:
        return
    doc = c._doc
    fonts = _fonts(doc)
    lacking = missing(used, _keys(states), _keys(xobjects), shadings, colours, fonts,
                      doc.idToObject)
    if lacking:  # a text's words, or a name really missing
        lacking = missing(names_used(_STRING.sub("()", code)), _keys(states),
                          _keys(xobjects), shadings, colours, fonts, doc.idToObject)
    if lacking:
        raise Dangling(f"our bug: {where} of {_named(c)} names "
                       f"{', '.join(lacking[:3])} that its resources lack; drawn again cold "
                       "(please report it)")


def _fonts(doc) -> set:
    """The fonts' names a document defines ("F1"), worked out again only when it has more."""
    got = doc.__dict__.get("_companion_fonts")
    if got is None or got[0] != len(doc.fontMapping):
        got = doc._companion_fonts = (len(doc.fontMapping),
                                      {v.lstrip("/") for v in doc.fontMapping.values()})
    return got[1]


def _named(c) -> str:
    name = getattr(c, "_filename", None)
    return name if isinstance(name, str) else "a PDF"


def resources_of(code: list[str], c) -> tuple[dict, dict]:
    """(colour spaces, shadings) the drawing `code` (a canvas's code lines) names, as the
    canvas `c` has them: what it must bring wherever it is put back. Read from its
    operators, not from what was new to the page when it was drawn (a gradient another
    card had put on the page already is named all the same)."""
    text = "\n".join(code)
    if " sh" not in text and " cs" not in text and " CS" not in text:  # most drawings
        return {}, {}
    used = names_used(text)  # those the canvas has: not a text's words ("/Sh1 sh")
    shadings = {n: c._shadingUsed[n] for n in used.get("sh", ()) if n in c._shadingUsed}
    colours = {n: c._colorsUsed[n] for op in ("cs", "CS") for n in used.get(op, ())
               if n in c._colorsUsed}
    return colours, shadings
