"""A designer's own icons: SVG files named in the data,

    [icons]
    potion = "icons/potion.svg"     # beside the data file

drawn as vectors (svglib reads SVG into reportlab drawings) wherever a built-in symbol
can be: a symbol element, a bullet's mark, `:potion:` in a text. An icon named like a
built-in symbol ("flame") replaces it. Where the SVG says `currentColor`, it takes the
colour the card gives the symbol; its other colours are its own.

An SVG is untrusted input (a file shared in an art pack): it is read as a regular file
of at most 1 MB, inside the data file's folder, and refused, naming the file, if it
declares a DOCTYPE (entities), reaches outside itself (an <image>, a script, a link to
another file or address) or would draw more than 20,000 shapes once its <use> copies
are expanded (a few nested <use> can multiply a small file into millions)."""

import copy
import hashlib
from pathlib import Path

import msgspec

from companion import designer_files
from companion.errors import CompanionError

LIMIT = 1_000_000  # bytes: an icon is a few KB; 1 MB leaves room for a detailed one
MAX_SHAPES = 20_000  # elements drawn once <use> copies are counted
_FORBIDDEN = {"image", "script", "foreignObject", "iframe", "audio", "video"}
_XLINK = "{http://www.w3.org/1999/xlink}href"


class Icon(msgspec.Struct):
    name: str
    path: str
    digest: str  # of the file's bytes: a face's digest follows what the icon prints
    root: object  # the checked SVG tree (lxml)
    drawings: dict = msgspec.field(default_factory=dict)  # by colour: rendered once each

    def draw(self, c, cx: float, cy: float, r: float) -> None:
        """Centred on (cx, cy), fitting the square of side 2 r, as a built-in symbol;
        `currentColor` is the canvas's fill colour."""
        from reportlab.graphics import renderPDF

        ink = getattr(c, "_fillColorObj", None)  # what the caller set, as for a symbol
        key = "#" + ink.hexval()[2:] if hasattr(ink, "hexval") else "#000000"
        drawing = self.drawings.get(key)
        if drawing is None:
            drawing = self.drawings[key] = _render(self, key)
        w, h = float(drawing.width), float(drawing.height)
        if w <= 0 or h <= 0:
            return
        s = 2 * r / max(w, h)
        c.saveState()
        c.translate(cx - w * s / 2, cy - h * s / 2)
        c.scale(s, s)
        renderPDF.draw(drawing, c, 0, 0)
        c.restoreState()


def load(data) -> dict[str, Icon]:
    """The icons [icons] names in `data` (a companion.data.Fields), read and checked."""
    out = {}
    for name, path in designer_files.named_beside(data, "icons").items():
        if path.suffix.lower() != ".svg":
            raise data.sub("icons").error(name, f"{data.table['icons'][name]} is not an .svg "
                                                "file")
        out[name] = _checked(name, path.resolve())
    return out


def _checked(name: str, path: Path) -> Icon:
    from lxml import etree

    raw = designer_files.read_bytes(path, LIMIT, "SVG icon")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError as e:
        raise CompanionError(f"is not an SVG file: {e}", source=str(path)) from None
    if root is None or etree.QName(root).localname != "svg":
        raise CompanionError("is not an SVG file (its root is not <svg>)", source=str(path))
    if root.getroottree().docinfo.doctype:
        raise CompanionError("declares a DOCTYPE: an icon needs none (entities are "
                             "refused)", source=str(path))
    _check_tree(root, str(path))
    return Icon(name, str(path), hashlib.sha256(raw).hexdigest()[:16], root)


def _check_tree(root, where: str) -> None:
    from lxml import etree

    by_id = {}
    every = list(root.iter())  # held, so each node keeps one proxy and id() names it
    for el in every:
        if not isinstance(el.tag, str):
            continue
        local = etree.QName(el).localname
        if local in _FORBIDDEN:
            raise CompanionError(f"holds an <{local}>: an icon is shapes only", source=where)
        for attr, value in el.attrib.items():
            if etree.QName(attr).localname == "href" and not value.startswith("#"):
                raise CompanionError(f"links to {value[:60]!r}: an icon may only refer to "
                                     "its own parts (#id)", source=where)
            if "url(" in value.replace(" ", "") and "url(#" not in value.replace(" ", ""):
                raise CompanionError(f"refers to {value[:60]!r}: an icon may only refer "
                                     "to its own parts (url(#id))", source=where)
        if local == "style" and "@import" in (el.text or ""):
            raise CompanionError("imports a style sheet: an icon may only refer to its "
                                 "own parts", source=where)
        if el.get("id"):
            by_id[el.get("id")] = el
    sizes: dict = {}

    def size(el, seen: tuple) -> int:
        if id(el) in sizes:
            return sizes[id(el)]
        if len(seen) > 200:  # libxml2 keeps a file's nesting under 256; <use> chains too
            raise CompanionError("nests its parts over 200 deep: simplify it", source=where)
        n = 1
        href = el.get(_XLINK) or el.get("href")
        if href and etree.QName(el).localname == "use":
            target = by_id.get(href[1:])
            if target is None or target in seen:
                if target is not None:
                    raise CompanionError(f"<use> refers to itself through {href}",
                                         source=where)
            else:
                n += size(target, seen + (target,))
        for child in el:
            if isinstance(child.tag, str):
                n += size(child, seen + (child,))
            if n > MAX_SHAPES:
                break
        if n > MAX_SHAPES:
            raise CompanionError(f"would draw over {MAX_SHAPES:,} shapes once its <use> "
                                 "copies are expanded: simplify it", source=where)
        sizes[id(el)] = n
        return n
    size(root, (root,))


def _render(icon: Icon, ink: str):
    """The icon as a reportlab drawing, `currentColor` being `ink`."""
    from svglib.svglib import SvgRenderer

    root = copy.deepcopy(icon.root)
    root.set("color", ink)
    drawing = SvgRenderer(icon.path, external_reference_root=str(Path(icon.path).parent)) \
        .render(root)
    if drawing is None:
        raise CompanionError("could not be drawn as an SVG icon", source=icon.path)
    # reportlab's renderer starts every drawing by setting its default font, Helvetica,
    # which the PDF would then name without embedding it (a print shop refuses that): the
    # drawing starts with ours. (An icon's own text is outlines, or absent.)
    from companion import fonts

    drawing.initialFontName = fonts.font("regular")
    return drawing
