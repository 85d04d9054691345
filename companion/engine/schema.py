"""What a layouts file may say of a card kind: every element type and its fields. These
structs are the format's one definition: msgspec validates a file against them on load
(kinds.py words its errors) and reference.py writes docs/layout-reference.md from them.

Placement: `x`, `w` and `r` (and `size`, `radius`) are fractions of the card's width,
`y` and `h` fractions of its height, y measured from the top; a length with a unit
("3mm", "0.2in", "8pt") is absolute, and a fraction may be worked out: "1.2 * {frame}",
"1 - {band} - {frame} * w" (+ - * /, brackets, min and max; `w` and `h` are the card's
width and height, so "0.045 * w" in a y is 4.5% of the width); `stroke_width` likewise
(a fraction of the width, or "0.8pt"). `dash` is in points. Any text
value may name the card's fields in braces ("{name}", "{value:02}", "{item.name}"), and
`{copy}` and `{copies}`: which printed copy of its card this is (from 1) and how many the
card prints (its `qty`), so "copy {copy}/{copies}" prints "copy 1/3", "copy 2/3", "copy
3/3" (a kind naming `{copy}`, or a condition on `copy`, draws each copy a face of its own;
else a card's copies share one face; a card's own field of that name wins).

Markup, in any text: **bold**, *italic*, :icon: (one of the game's icons, at the text's
size) and spans, a part of a text in its own colour, size or font, written as a link is
in Markdown: `[Fire](colour=red)`, `[3](size=1.4 font=title)`, `[**Rare**](colour=#B8860B,
size=0.8)` (`colour=` a colour of the game or "#RRGGBB", `size=` times the text's size
from 0.5 to 2, `font=` a font role; a line holding a larger span stands lower; the
text-limit report measures a text at its smallest span's size).

A `font` is one of our roles (regular, bold, narrow, narrow-bold) or one the game's
`[fonts]` table names: a TTF file (`title = "fonts/Hand.ttf"`) or a family of them (`body
= { regular = "fonts/Body.ttf", bold = ..., italic = ..., bold_italic = ... }`, its
regular face required), whose own faces print a text's **bold**, *italic* and **bold
*italic*** markup (a face it lacks: our bold role, or the upright face slanted).

Every element may be turned and faded: `rotate` (degrees, clockwise, about the centre of
its box: a rect's, a text block's, a code's, a circle's or a symbol's centre, a line's middle, a
text's printed line; a ground's, a picture's or corners': the card's; the fit checks
measure a turned text by its turned box) and `opacity` (from 1, opaque, to 0, unseen:
what is under it shows through; nested opacities multiply).

Every element takes `when` (a condition on the card's fields: `deck == "B"`,
`not art`, `n > 2 and kind != "gate"`, `todo.name` where the name is a placeholder,
`ink_saver` when built with --ink saver), `repeat` (a whole number, a list field, or a field holding a
number: the element is drawn once per item, `{item...}`, `{index}` (from 0) and
`{number}` (from 1), `{count}` (of items) and `odd` / `even` (of number) naming it, its
`when` holding item by item, and moved by `step` each time) and `vars` (names for
values, which a text from the data may use: `vars =
{ type = "{item.name}" }` fills "When {type} wins").

A name nothing defines is said: a field a condition names that no card of the kit has
(`rarty == "rare"`), an `:icon:` in a text that is no icon and a colour the game does not
define on an element no card draws are warnings of the build naming the file, the kind,
the element and the name (refused by --strict); a template, colour, font or symbol naming
nothing where a card draws it stops the build."""

from typing import Annotated, Literal, Union

import msgspec

from companion.press.imposition import HEX_TOPS, SHAPES

# A fraction of the card (a finite number, within ten cards of it), or a length "3mm".
Length = Union[Annotated[float, msgspec.Meta(ge=-10, le=10)], str]
Size = Union[Annotated[float, msgspec.Meta(gt=0, le=2)], str]  # a text's or a radius' size
Width = Union[Annotated[float, msgspec.Meta(ge=0, le=1)], str]  # a line's width
Dash = Annotated[list[Annotated[float, msgspec.Meta(gt=0, le=100)]], msgspec.Meta(max_length=8)]
Count = Annotated[int, msgspec.Meta(ge=0, le=1000)]


class Step(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """How far each repeat moves its element."""
    x: Length = 0.0
    y: Length = 0.0


class Suffix(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A smaller text set after a text, level with its top (a suit mark after a number)."""
    text: str  # what it prints: "{suit}"
    size: Size = 0.05  # of the card's width, or "6pt"
    gap: Length = 0.0  # between the text and it, of the card's width
    field: str | None = None  # the data key it prints, for the text-limit reports


class Mark(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A small symbol beside a shape (its colour told by a mark, for colour-blind players),
    placed in the shape's radii, so it keeps its place at any card size."""
    name: str  # the symbol's name, or "{field}"
    x: Annotated[float, msgspec.Meta(ge=-10, le=10)] = 1.35  # right of the shape's centre, in radii
    y: Annotated[float, msgspec.Meta(ge=-10, le=10)] = 1.05  # below the shape's centre, in radii
    r: Size = 0.06  # its radius, of the card's width
    colour: str = "ink"  # a colour


class Gradient(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A linear gradient filling a shape: from one colour to another, evenly, across the
    shape in the direction of `angle`."""
    start: str  # the colour it starts with: "accent", "#1B2631", "{field}"
    end: str  # the colour it ends with
    angle: Annotated[float, msgspec.Meta(ge=-360, le=360)] = 90.0  # the way it runs, in degrees clockwise: 0 left to right, 90 top to bottom


class _Element(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, tag_field="type"):
    id: str | None = None  # names it (and its versions for other card sizes), so that a kind extending this one can replace or remove it
    when: str | None = None  # a condition on the card's fields; drawn only where it holds
    repeat: Union[Count, str, None] = None  # a count, or a list field of the card
    step: Step | None = None  # how far each repeat moves
    vars: dict[str, str] = {}  # names for values, usable by texts from the data
    first: Union[Count, str] = 0  # of the repeat's list (a bullets' lines): the first item shown, from 0, or "{field}" (none: 0)
    count: Union[Count, str, None] = None  # how many items from there, or "{field}" (none: the rest)
    rotate: Annotated[float, msgspec.Meta(ge=-360, le=360)] = 0.0  # degrees, clockwise, about the centre of its box (a text's: its printed line's)
    opacity: Annotated[float, msgspec.Meta(ge=0, le=1)] = 1.0  # 1 opaque, 0 unseen: each of its marks at that opacity (its fill and outline overlapping show both)


class Background(_Element, tag="background"):
    """The whole card and its bleed in one colour; `shape = "disc"`: a round token's ground,
    a disc running into the bleed past its cut line."""
    fill: str | None = None  # a colour: "#1B2631", a name of [game], "{field}", "mix(a, b, 0.2)", "on(ground, ink, else)"; a background needs `fill` or `gradient`
    cue: bool = False  # the colour is part of the game: never paled by --ink saver
    shape: str = "card"  # card, disc
    gradient: Gradient | None = None  # { start, end, angle }: a linear gradient over the card and its bleed instead of `fill` (its colours paled by --ink saver unless `cue`)


class Rect(_Element, tag="rect"):
    """A rectangle, rounded if `radius`; the whole card when no box is given. `inset`
    places it that far inside every edge instead of x, y, w, h."""
    x: Length = 0.0  # left edge
    y: Length = 0.0  # top edge, from the card's top
    w: Length = 1.0  # width
    h: Length = 1.0  # height
    inset: Length | None = None  # instead of x, y, w, h: this far inside every edge
    radius: Width = 0.0  # rounded corners
    fill: str | None = None  # a colour, or none for no fill
    gradient: Gradient | None = None  # { start, end, angle }: a linear gradient as its fill instead
    stroke: str | None = None  # a colour, or none for no outline
    stroke_width: Width = "1pt"  # a fraction of the card's width, or "0.8pt"
    dash: Dash = []  # dash and gap lengths in points: [2, 1.5]


class Circle(_Element, tag="circle"):
    """A circle round (x, y), of radius r; `shape = "square"`: the square round it (sides
    2 r, of the card's width, at any card size)."""
    x: Length = 0.5  # centre
    y: Length = 0.5  # centre, from the top
    r: Size = 0.1  # radius, of the card's width
    shape: str = "circle"  # circle, square, or a field holding either: "{shape}"
    mark: Mark | None = None  # { name, x, y, r, colour }: a small symbol beside it
    fill: str | None = None  # a colour, or none for no fill
    stroke: str | None = None  # a colour, or none for no outline
    stroke_width: Width = "1pt"  # a fraction of the card's width, or "0.8pt"
    dash: Dash = []  # dash and gap lengths in points


class Line(_Element, tag="line"):
    """A straight line from (x1, y1) to (x2, y2)."""
    x1: Length = 0.0  # start
    y1: Length = 0.0  # start, from the top
    x2: Length = 1.0  # end
    y2: Length = 0.0  # end, from the top
    stroke: str = "ink"  # a colour
    stroke_width: Width = "1pt"  # a fraction of the card's width, or "0.8pt"
    dash: Dash = []  # dash and gap lengths in points


class Text(_Element, tag="text"):
    """One line of text, its baseline at y; shrinks to `max_w` (never under the card's
    6 pt floor: what still does not fit is reported by --strict). Takes **bold**,
    *italic* and :icon: markup. A `suffix` (a suit mark after a number) is aligned with
    the text as one, and only the text shrinks to leave it room in `max_w`."""
    text: str  # what it prints: "{name}", "Gain **2** :coin:"
    x: Length = 0.5  # where it is aligned
    y: Length = 0.5  # its baseline, from the top
    size: Size = 0.05  # of the card's width, or "9pt"
    font: str = "regular"  # regular, bold, narrow, narrow-bold
    colour: str = "ink"  # a colour
    align: str = "center"  # left, center, right: from x
    max_w: Length | None = None  # shrinks to this width
    upper: bool = False  # in capitals
    field: str | None = None  # the data key it prints, for the text-limit reports
    suffix: Suffix | None = None  # { text, size, gap, field }: a smaller text after it, level with its top


class TextBlock(_Element, tag="textblock"):
    """Text wrapped in the box (x, y, w, h) from its top, shrunk until it fits (never
    under the floor). Takes markup. A placeholder value (`{ placeholder = "..." }` in the
    data) draws the kind's hatched TO COME box holding its note."""
    text: str  # what it prints; a placeholder prints as a TO COME box
    x: Length = 0.1  # the box's left edge
    y: Length = 0.1  # the box's top, from the card's top
    w: Length = 0.8  # the box's width
    h: Length = 0.2  # the box's height
    size: Size = 0.05  # the largest size, shrunk until the text fits
    font: str = "regular"  # regular, bold, narrow, narrow-bold
    colour: str = "ink"  # a colour
    align: str = "center"  # left, center
    valign: str = "top"  # top, middle: the lines centred in the box when they fit
    upper: bool = False  # in capitals
    todo: str = "{note}"  # how a placeholder here is listed in the print guide
    leading: Annotated[float, msgspec.Meta(ge=0.5, le=5)] = 1.2  # line height, in sizes
    field: str | None = None  # the data key it prints, for the text-limit reports


class Bullets(_Element, tag="bullets"):
    """Paragraphs from a list field, those starting with "• " as bullets with a mark; all
    shrink together to fit the box (never under the floor). A bullet whose text starts
    with an item's name and a colon ("Red: ...") takes that item's symbol and colour
    (`marks`, a list field of items with name, symbol and colour); else a dot. Takes
    markup, as a text does: "• **Your turn:** draw :coin:"."""
    lines: str  # the list field: "{front}"
    x: Length = 0.07  # the box's left edge
    y: Length = 0.15  # the box's top, from the card's top
    w: Length = 0.86  # the box's width
    h: Length = 0.8  # the box's height
    size: Size = 0.062  # the largest size, shrunk until all fit
    font: str = "regular"  # regular, bold, narrow, narrow-bold
    colour: str = "ink"  # the text's colour
    mark: str = "gold"  # the dots' colour
    marks: str | None = None  # a list field whose items' names pick a bullet's symbol
    gap: Length | None = None  # the space after each paragraph (default: 0.35 of the size)
    field: str | None = None  # the data key, for the text-limit reports ("aid.front")


class Symbol(_Element, tag="symbol"):
    """A named symbol centred on (x, y), of radius r: a built-in one, or one of the
    game's own SVG icons ([icons] potion = "icons/potion.svg"), drawn as vectors, its
    `currentColor` the symbol's colour."""
    name: str  # the symbol's name, or "{field}"
    x: Length = 0.5  # centre
    y: Length = 0.5  # centre, from the top
    r: Size = 0.1  # radius, of the card's width
    colour: str = "ink"  # a colour


class Picture(_Element, tag="picture"):
    """The designer's picture for this card, in the kind's art box. `role = "ground"`
    draws it only when the box is the whole card (under everything, into the bleed);
    "window" only when the box is smaller, with an `edge` line round it if given."""
    role: str = "window"  # ground, window, back (in its box, whatever its size), disc (a token's)
    edge: str | None = None  # a colour for a thin line round a window


class Image(_Element, tag="image"):
    """A picture of the designer's in the box (x, y, w, h), as many as a kind wants, each
    with its own file: `file` a path beside the game file, which may name the card's
    fields ("art/{id}-crest.png"); read and checked as a card's own picture is (and, with
    --draft, a labelled placeholder where it is missing). `fit = "cover"` fills the box,
    cropped about `anchor`; "contain" shows it whole; "stretch" fills it out of shape."""
    file: str  # the picture's path, beside the game file: "art/{id}-crest.png"
    x: Length = 0.1  # the box's left edge
    y: Length = 0.1  # the box's top, from the card's top
    w: Length = 0.3  # the box's width
    h: Length = 0.3  # the box's height
    fit: Literal["cover", "contain", "stretch"] = "cover"  # how it fills the box
    anchor: Literal["c", "n", "ne", "e", "se", "s", "sw", "w", "nw"] = "c"  # the part kept when cropped: c (centre), n (top), sw (bottom left)...
    jpeg: bool = False  # true: kept as a JPEG (quality 92) even if the file is lossless: a painting or photo saved as PNG makes a far smaller PDF


class Badge(_Element, tag="badge"):
    """A shape (circle or rect) holding a short text at its centre."""
    text: str  # a short text: a cost, a number
    shape: str = "circle"  # circle, rect
    x: Length = 0.5  # centre
    y: Length = 0.5  # centre, from the top
    r: Size = 0.08  # half its width
    fill: str = "ink"  # the shape's colour
    colour: str = "paper"  # the text's colour
    font: str = "bold"  # regular, bold, narrow, narrow-bold
    size: Size = 0.06  # the text's size, shrunk to the shape
    field: str | None = None  # the data key it prints


class Corners(_Element, tag="corners"):
    """Its elements, drawn in the top-left and again turned upside down, so a fanned hand
    shows them."""
    elements: list["Element"] = []  # what each corner shows, placed from the top-left


class Nested(_Element, tag="card"):
    """Another kind drawn small in the box (x, y, w, h), with `fields` given here."""
    kind: str  # the kind drawn
    x: Length = 0.1  # the box's left edge
    y: Length = 0.1  # the box's top, from the top
    w: Length = 0.4  # the box's width
    h: Length = 0.4  # the box's height
    fields: dict[str, str] = {}  # the inner card's fields, which may name the outer card's
    of: str | None = None  # a table field holding the inner card's fields: "item" in a repeat


class Table(_Element, tag="table"):
    """Rows of a table in the box (x, y, w, h): a label column, value columns, a header
    row and a row per item of `rows`, then a grid. Each part draws its own elements in its
    own box, where x, y, w, h are fractions of that box and `w`, `h` in a length its size:
    `caption` in the rows left `above` the header, `head` across the header row,
    `column_head` in each value column's header, `row` across each row, `label` in each
    row's label cell and `cell` in each of its value cells. They name the row's item
    `{row.name}`, the column `{column}` (its number from 1, or its item) and `{value}` (the
    row's `values` item for that column)."""
    rows: list[str]  # fields spliced in order: a list gives a row an item, a table one row, a number that many rows
    columns: Union[Count, str] = 1  # value columns: a number, a field holding one, or a list
    x: Length = 0.0  # the box's left edge
    y: Length = 0.0  # the box's top, from the top
    w: Length = 1.0  # the box's width
    h: Length = 1.0  # the box's height: shared by the rows, unless `row_h` is given
    label_w: Length = 0.3  # the label column's width, of the table's width
    row_h: Length | None = None  # a row's height (of the page's or card's height)
    head_h: Annotated[float, msgspec.Meta(ge=0, le=10)] = 1.0  # the header's height, in rows
    above: Annotated[float, msgspec.Meta(ge=0, le=10)] = 0.0  # rows left above the header
    caption: list["Element"] = []  # drawn in the rows above the header
    head: list["Element"] = []  # drawn across the header row
    column_head: list["Element"] = []  # drawn in each value column's header cell
    row: list["Element"] = []  # drawn across each row (a shading)
    cell: list["Element"] = []  # drawn in each value cell
    label: list["Element"] = []  # drawn in each row's label cell, after its value cells
    grid: str | None = None  # the grid's colour, drawn last over the header and rows
    grid_width: Width = "0.5pt"  # its lines' width
    strong: str | None = None  # a condition on a row: a thicker line above it ("not row.symbol")
    strong_width: Width = "1.2pt"  # that line's width


class Qr(_Element, tag="qr"):
    """A QR code (`code = "qr"`) or a Code 128 barcode (`code = "code128"`) of `data`,
    drawn as vectors in the box (x, y, w, h) on its `ground`, quiet zone included: a QR
    code as the largest square the box holds, centred; a barcode filling the box. A
    phone's camera or a scanner reads it back from 15 mm square (a QR code) at 300 dpi.
    `data` is a template ("vocab:{title}") filled for each card, at most 1,000
    characters once filled (Code 128: ASCII only) and, in a QR code, what its level holds:
    2,808 bytes at L, 2,212 at M, 1,578 at Q, 1,218 at H (UTF-8: an accented letter takes
    2). An empty box is refused."""
    data: str  # what it encodes: "vocab:{title}", "{id}"
    code: Literal["qr", "code128"] = "qr"  # qr, or code128 (a barcode of ASCII text)
    level: Literal["L", "M", "Q", "H"] = "M"  # a QR code's error correction: L 7%, M 15%, Q 25%, H 30% of it may be lost
    x: Length = 0.35  # the box's left edge
    y: Length = 0.35  # the box's top, from the card's top
    w: Length = 0.3  # the box's width
    h: Length = 0.3  # the box's height
    colour: str = "ink"  # its modules (bars): a colour
    ground: str | None = "paper"  # behind it, its quiet zone included; none: nothing (a light card ground)


Element = Union[Background, Rect, Circle, Line, Text, TextBlock, Bullets, Symbol, Picture,
                Image, Badge, Corners, Nested, Table, Qr]
ELEMENTS = (Background, Rect, Circle, Line, Text, TextBlock, Bullets, Symbol, Picture, Image,
            Badge, Corners, Nested, Table, Qr)
# The fields added to every element after kits' digests were first written, with their
# defaults: left out of a kind's digest where at them, so that a kit's cards keep theirs.
LATER = {"rotate": 0.0, "opacity": 1.0, "gradient": None}
# The elements' lists of elements (drawn inside them): a table's parts, a corner's.
INNER = ("elements", "caption", "head", "column_head", "row", "cell", "label")


def inner(el) -> list:
    """The elements drawn inside `el` (a corner's, a table's parts), in order."""
    return [e for part in INNER if isinstance(getattr(el, part, None), list)
            for e in getattr(el, part)]


class Placeholders(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """How a placeholder text (one still to be written) prints: a hatched box."""
    word: str = "TO COME"  # its heading; may name a field: "{texts.to_come}"
    ink: str = "#8E44AD"  # the box's outline, heading and note
    ground: str = "paper"  # what its hatching is mixed with


class ComponentShape(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Keys of a component's `[components.NAME]`, beside its `size`, for pieces that are
    no rectangles: hex tiles, round tokens, cards with rounded corners. The shape fills the
    piece's box, its size: a pointy hex is regular in 40x46mm, a flat one in 46x40mm, a
    circle in a square box (in another, an ellipse). Each piece takes its box's place on
    the sheets (a shape other than its file's other components' on sheets of its own); the
    crop marks still mark the boxes, to cut strips with a trimmer, and each front's cut line
    is drawn round it (thin, grey and dashed, as a round token's), to cut along. Its face,
    the art and the ground running into the bleed, is cut to the shape grown by --bleed (a
    hex's sides moved out parallel, a circle's radius, a rounded box's sides and corner),
    its back too. The exports draw the piece's bounding rectangle, the art to its corners
    and no cut line (a print shop cuts the shape with its die): a PNG export's manifest and
    guide name its shape. A wrong value stops the build, naming the file, the component and
    the key."""
    shape: Literal[SHAPES] | None = None  # hex, circle, rounded; none: a rectangle
    hex: Literal[HEX_TOPS] = "pointy"  # a hex's top: a corner (pointy) or a side (flat)
    corner: str = "3mm"  # a rounded piece's corner radius: a length, at most half a side


class Kind(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A kind of card: what its face shows, in drawing order."""
    extends: str | None = None  # a kind whose elements come first (and settings, unless given)
    elements: list[Element] = []  # what the face shows, first drawn first
    replace: dict[str, Element] = {}  # elements of the extended kind replaced, by their `id`
    remove: list[str] = []  # elements of the extended kind left out, by their `id`
    placeholder: Placeholders | None = None  # how a text still to be written prints
    # a card back's ground colour: with --ink saver the ground prints white, and an ink that
    # would not read on white takes this colour
    back: str | None = None
    description: str = ""  # what this kind of card is, for the reader of the file


def builtins(kind) -> dict:
    """A kind as plain data for its digest: every field, but those of LATER at their
    defaults (a card's digest is the same as before they existed)."""
    def pruned(v):
        if isinstance(v, dict):
            return {k: pruned(x) for k, x in v.items() if not (k in LATER and x == LATER[k])}
        if isinstance(v, list):
            return [pruned(x) for x in v]
        return v
    return pruned(msgspec.to_builtins(kind))


def kind_of(element) -> str:
    return kind_of_class(type(element))


def kind_of_class(cls) -> str:
    return cls.__struct_config__.tag
