"""A PDF's content streams read for a check, bounded by what the file holds: each stream
object is unpacked once a document however many pages or forms draw it, its unpacking
stops at what is left of the document's budget, and it is parsed by pikepdf's parser (in
C++) keeping only the operators a check reads, so a stream of millions of other operators
costs no Python object each.

    reader = Reader(budget=32_000_000)
    seen = reader.read(stream)        # a Seen: the watched operators, each kind once
    Reader(budget, ink=True)          # also the most total ink a colour has, objects drawn

A stream that cannot be unpacked is `Undecodable` (the check names it); a file past a
bound is a CompanionError naming the bound."""

import base64
import re
import zlib

from companion.errors import CompanionError

# The operators the preflight reads: RGB colours, colour spaces chosen, PostScript, inline
# pictures (BI ... ID ... EI: pikepdf gives them as one "INLINE IMAGE").
WATCHED = "rg RG cs CS PS BI ID EI"
# Spelled out, for a count made before parsing: more than this many in one stream (as
# bytes, so text and names holding "rg" count too) is refused, not parsed into objects.
MAX_WATCHED = 250_000
BUDGET = 32_000_000  # drawing operators unpacked in one document (the preflight's, docs/pdfx.md)
MAX_DRAWN = 1_000_000  # content streams drawn, pages times streams (a stream once a time)
# An unpacked stream can be at most this many times its packed size (LZW's codes, 12 bits,
# stand for at most 4,096 bytes; Flate's for 1,032; RunLength's for 128): a filter chain
# pikepdf unpacks for us is taken only when even that much fits the budget.
GROWTH = {"/FlateDecode": 1_032, "/LZWDecode": 4_096, "/RunLengthDecode": 128,
          "/ASCII85Decode": 1, "/ASCIIHexDecode": 1}
SHORT_NAMES = {"/Fl": "/FlateDecode", "/LZW": "/LZWDecode", "/RL": "/RunLengthDecode",
               "/A85": "/ASCII85Decode", "/AHx": "/ASCIIHexDecode"}
_WATCHED_BYTES = (b"rg", b"RG", b"cs", b"CS", b"PS", b"BI")
# The operators the ink measure (issue 51, companion.press.ink) reads too: colours in CMYK
# and grey, and the objects drawn; counted as operators (a name between delimiters).
INK_WATCHED = "k K g G sc scn SC SCN Do"
_INK_OPERATOR = re.compile(rb"(?<![^\s\]\)>])(?:[kKgG]|scn?|SCN?|Do)(?=[\s/\[(<%]|$)")
_OBJECT_AT = re.compile(r"<[^<>]* object at 0x[0-9a-fA-F]+>:?\s*")


class Undecodable(Exception):
    """A stream that cannot be unpacked: its words say why, as a designer reads them."""


class Seen:
    """What one content stream does that a check reads, each kind once."""

    __slots__ = ("rgb", "spaces", "inline_spaces", "postscript", "ink", "drawn")

    def __init__(self):
        self.rgb: set[str] = set()  # "rg", "RG"
        self.spaces: dict[str, tuple[str, object]] = {}  # repr -> (operator, operand)
        self.inline_spaces: dict[str, object] = {}  # repr -> an inline picture's /CS
        self.postscript = False
        # read with ink=True: the most total ink (0..4) a colour set here has and what set
        # it ("a colour", "a grey"); the names of the objects drawn (Do), in order
        self.ink: tuple[float, str] = (0.0, "")
        self.drawn: dict[str, None] = {}

    def colour(self, total: float, what: str) -> None:
        if total > self.ink[0] + 1e-9:
            self.ink = (total, what)


def plain_message(text: str) -> str:
    """A library's message without Python's insides (an object's address)."""
    return _OBJECT_AT.sub("", str(text)).strip()[:100]


def _filters(stream) -> tuple[list[str], list]:
    import pikepdf

    names = stream.get("/Filter")
    names = list(names) if isinstance(names, pikepdf.Array) else [] if names is None \
        else [names]
    parms = stream.get("/DecodeParms")
    parms = list(parms) if isinstance(parms, pikepdf.Array) else [parms] * len(names)
    return [SHORT_NAMES.get(str(n), str(n)) for n in names], parms


def _inflate(data: bytes, limit: int) -> bytes:
    """Flate unpacked to at most `limit` + 1 bytes (a bomb stops there)."""
    try:
        out = zlib.decompressobj().decompress(data, limit + 1)
    except zlib.error as e:
        raise Undecodable(f"its Flate data is damaged ({plain_message(e)})") from None
    return out


def _ascii85(data: bytes) -> bytes:
    body = data.strip()
    if body.startswith(b"<~"):
        body = body[2:]
    body = body.split(b"~>", 1)[0]
    try:
        return base64.a85decode(body, ignorechars=b" \t\r\n\x0c\x00")
    except ValueError as e:
        raise Undecodable(f"its ASCII85 data is damaged ({plain_message(e)})") from None


def _ascii_hex(data: bytes) -> bytes:
    body = re.sub(rb"\s", b"", data.split(b">", 1)[0])
    try:
        return bytes.fromhex((body + b"0" * (len(body) % 2)).decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise Undecodable("its hexadecimal data holds a character that is not a digit") \
            from None


def _predicted(parm) -> bool:
    import pikepdf

    if not isinstance(parm, pikepdf.Dictionary):
        return False
    try:
        return int(parm.get("/Predictor", 1)) > 1
    except (TypeError, ValueError):
        return True


def unpack(stream, limit: int) -> bytes:
    """The stream's bytes unpacked, at most `limit` of them: our own bounded decoders for
    the plain filters (Flate without a predictor, ASCII85, hexadecimal), pikepdf's for a
    chain it alone knows when even its largest growth fits the limit."""
    import pikepdf

    names, parms = _filters(stream)
    try:
        data = stream.read_raw_bytes()
    except pikepdf.PdfError as e:
        raise Undecodable(f"it cannot be read ({plain_message(e)})") from None
    plain = {"/FlateDecode": _inflate, "/ASCII85Decode": lambda d, _: _ascii85(d),
             "/ASCIIHexDecode": lambda d, _: _ascii_hex(d)}
    if all(n in plain for n in names) and not any(_predicted(p) for p in parms):
        for name in names:
            data = plain[name](data, limit)
            if len(data) > limit:
                return data
        return data
    unknown = [n for n in names if n not in GROWTH]
    if unknown:
        raise Undecodable(f"it is packed with {unknown[0][1:40]}, not a filter for drawing "
                          "operators")
    most = len(data)
    for name in names:
        most *= GROWTH[name]
    if most > limit:
        raise CompanionError(f"a content stream packed with {', '.join(n[1:] for n in names)} "
                             f"that may unpack to over {limit:,} bytes, more than this "
                             "preflight reads")
    try:
        return stream.read_bytes()
    except pikepdf.PdfError as e:
        raise Undecodable(f"it cannot be unpacked ({plain_message(e)})") from None


class Reader:
    """Content streams read once each, within one budget of unpacked bytes for the
    document and MAX_DRAWN streams drawn."""

    def __init__(self, budget: int, ink: bool = False):
        import pikepdf

        self.pk = pikepdf
        self.ink = ink
        self.watched = f"{WATCHED} {INK_WATCHED}" if ink else WATCHED
        self.left = budget
        self.budget = budget
        self.drawn = 0
        self._read: dict = {}  # the stream's object number (or id) -> Seen or Undecodable
        self._scratch = pikepdf.new()

    def read(self, stream, where: str) -> Seen:
        """What `stream` does (read once); Undecodable if it cannot be unpacked."""
        self.drawn += 1
        if self.drawn > MAX_DRAWN:
            raise CompanionError(f"{where}: over {MAX_DRAWN:,} content streams drawn (pages "
                                 "times streams), the most this preflight reads")
        key = stream.objgen if stream.is_indirect else ("direct", id(stream))
        if key not in self._read:
            try:
                self._read[key] = self._parse(stream, where)
            except Undecodable as e:
                self._read[key] = e
        found = self._read[key]
        if isinstance(found, Undecodable):
            raise found
        return found

    def _parse(self, stream, where: str) -> Seen:
        data = unpack(stream, self.left)
        if len(data) > self.left:
            raise CompanionError(f"{where}: over {self.budget:,} bytes of drawing operators "
                                 "once unpacked, the most this preflight reads in this file")
        self.left -= len(data)
        if sum(data.count(t) for t in _WATCHED_BYTES) > MAX_WATCHED or \
                self.ink and _more_than(_INK_OPERATOR.finditer(data), MAX_WATCHED):
            raise CompanionError(f"{where}: over {MAX_WATCHED:,} colour operators in one "
                                 "content stream, the most this preflight reads")
        copy = self.pk.Stream(self._scratch, data)
        try:
            instructions = self.pk.parse_content_stream(copy, self.watched)
        except self.pk.PdfError as e:
            raise Undecodable(f"its operators cannot be read ({plain_message(e)})") from None
        seen = Seen()
        spaces = {"cs": "/DeviceGray", "CS": "/DeviceGray"}  # what sc/SC are in, for ink
        for operands, operator in instructions:
            op = str(operator)
            if op in _INK_OPERATORS:
                _ink(seen, op, operands, spaces)
            if op in ("rg", "RG"):
                seen.rgb.add(op)
            elif op in ("cs", "CS") and operands:
                seen.spaces.setdefault(repr(operands[0]), (op, operands[0]))
            elif op == "PS":
                seen.postscript = True
            elif op == "INLINE IMAGE" and operands:
                try:
                    cs = operands[0].obj.get("/CS", operands[0].obj.get("/ColorSpace"))
                except (AttributeError, self.pk.PdfError):
                    cs = None
                seen.inline_spaces.setdefault(repr(cs), cs)
        return seen


_INK_OPERATORS = frozenset(INK_WATCHED.split() + ["cs", "CS"])


def _ink(seen: Seen, op: str, operands, spaces: dict) -> None:
    """One operator's part in the ink measure: a CMYK colour's total ink, a grey's black
    ink, the colour space sc/SC set colours in, an object drawn."""
    try:
        if op in ("k", "K") and len(operands) == 4:
            seen.colour(sum(float(v) for v in operands), "a colour")
        elif op in ("g", "G") and len(operands) == 1:
            seen.colour(1.0 - float(operands[0]), "a grey")
        elif op in ("cs", "CS") and operands:
            spaces[op] = str(operands[0])
        elif op in ("sc", "scn", "SC", "SCN"):
            if spaces["cs" if op[0] == "s" else "CS"] == "/DeviceCMYK" and len(operands) == 4:
                seen.colour(sum(float(v) for v in operands), "a colour")
        elif op == "Do" and operands:
            seen.drawn[str(operands[0])] = None
    except (TypeError, ValueError):  # not numbers: the colour is not measured (the
        pass  # colour rule reads the spaces; this one, the numbers)


def _more_than(matches, most: int) -> bool:
    """Whether an iterator gives more than `most` items (read no further)."""
    for n, _ in enumerate(matches, 1):
        if n > most:
            return True
    return False
