"""A preflight of our own for PDF/X-1a:2003 (ISO 15930-4:2003) as a deck printer asks it:
the rules below, checked on any PDF, ours before the export writes it and a designer's
(`companion preflight FILE`: untrusted, read in a bounded worker, every count bounded).
docs/pdfx.md gives the source of each rule.

    problems = preflight.check(data, bleed=9.0)   # [] when it passes

Each problem is one line: the rule's name, where (page N, or the document) and what."""

import io

import msgspec

from companion.errors import CompanionError
from companion.press import content_streams
from companion.press.content_streams import Undecodable, plain_message

VERSION = "PDF/X-1a:2003"
MAX_BYTES = 300_000_000
MAX_PAGES = 5_000
# Drawing operators unpacked in one document, each content stream once however often it
# is drawn: this much, and four times the file's own size beyond it (a page's operators
# pack three to five times smaller; pictures are not operators).
CONTENT_BYTES = content_streams.BUDGET
CONTENT_GROWTH = 4
MAX_DEPTH = 12  # forms in forms, patterns in forms...
ALLOWED_SPACES = {"/DeviceCMYK", "/DeviceGray", "/Pattern"}
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")
RULES = {
    "version": "the file is PDF 1.4 or earlier (PDF/X-1a:2003 is built on PDF 1.4)",
    "pdfx-version": 'the Info dictionary says GTS_PDFXVersion "PDF/X-1a:2003"',
    "info": "the Info dictionary has a Title, a CreationDate and a ModDate",
    "trapped": "Trapped is /True or /False",
    "id": "the trailer has a file ID",
    "encryption": "the file is not encrypted",
    "output-intent": "one GTS_PDFX output intent naming its condition, with a CMYK "
                     "output profile",
    "boxes": "every page has a TrimBox and a BleedBox, within its MediaBox",
    "bleed": "the BleedBox reaches the bleed asked for beyond the TrimBox on every side",
    "colour": "no RGB, ICC-based, Lab or calibrated colour, in the content, pictures or "
              "gradients (CMYK and grey only, spot colours with a CMYK or grey alternate)",
    "transparency": "no soft mask, constant alpha under 1 or blend mode, no picture with "
                    "an alpha channel, no transparency group",
    "fonts": "every font used is embedded",
    "actions": "no JavaScript, actions or annotations other than printer's marks",
    "postscript": "no PostScript in the file, no transfer function",
    "compression": "no LZW compression",
    "streams": "every content stream can be unpacked and read",
    "values": "every value the rules read is of its kind (a number where a number is due)",
    "ink": "no colour or picture pixel over the total ink asked (--ink-limit)",
}
# Inline pictures may name their colour space in short (ISO 32000-1, table 93).
INLINE_SPACES = {"/G": "/DeviceGray", "/RGB": "/DeviceRGB", "/CMYK": "/DeviceCMYK",
                 "/I": "/Indexed"}
MAX_OBJECTS = 2_000_000  # objects scanned for their filters


class Problem(msgspec.Struct, frozen=True):
    rule: str
    where: str  # "page 3", "document"
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what} ({self.rule})"


class _Checker:
    def __init__(self, pdf, bleed: float | None, streams):
        import pikepdf

        self.pk, self.pdf, self.bleed = pikepdf, pdf, bleed
        self.problems: list[Problem] = []
        self.seen_fonts: set = set()
        self.seen_objects: set = set()
        self.streams = streams  # a content_streams.Reader

    def add(self, rule, where, what):
        p = Problem(rule, where, what)
        if p not in self.problems and len(self.problems) < 200:
            self.problems.append(p)

    def document(self):
        pk, pdf = self.pk, self.pdf
        if pdf.is_encrypted:
            self.add("encryption", "document", "the file is encrypted")
        if pdf.pdf_version > "1.4":
            self.add("version", "document", f"PDF {pdf.pdf_version}, not 1.4 or earlier")
        info = pdf.trailer.get("/Info")
        info = info if isinstance(info, pk.Dictionary) else pk.Dictionary()
        if str(info.get("/GTS_PDFXVersion", "")) != VERSION:
            self.add("pdfx-version", "document",
                     f"GTS_PDFXVersion is {str(info.get('/GTS_PDFXVersion', 'missing'))[:40]!r}")
        for key in ("/Title", "/CreationDate", "/ModDate"):
            if not str(info.get(key, "")).strip():
                self.add("info", "document", f"no {key[1:]}")
        if str(info.get("/Trapped", "")) not in ("/True", "/False"):
            self.add("trapped", "document",
                     f"Trapped is {str(info.get('/Trapped', 'missing'))[:20]}, not /True or /False")
        ids = pdf.trailer.get("/ID")
        if not isinstance(ids, pk.Array) or len(ids) != 2:
            self.add("id", "document", "no file ID")
        self.intent()
        root = pdf.Root
        if "/OpenAction" in root or "/AA" in root:
            self.add("actions", "document", "an action when the file opens")
        names = root.get("/Names")
        if isinstance(names, pk.Dictionary) and "/JavaScript" in names:
            self.add("actions", "document", "JavaScript")
        for n, obj in enumerate(pdf.objects):
            if n >= MAX_OBJECTS:
                raise CompanionError(f"over {MAX_OBJECTS:,} objects, the most this preflight "
                                     "reads")
            if isinstance(obj, pk.Stream) and "LZWDecode" in str(obj.get("/Filter", "")):
                self.add("compression", "document", "a stream compressed with LZW")
                break

    def intent(self):
        pk = self.pk
        intents = self.pdf.Root.get("/OutputIntents")
        found = [oi for oi in (intents if isinstance(intents, pk.Array) else [])
                 if isinstance(oi, pk.Dictionary) and str(oi.get("/S")) == "/GTS_PDFX"]
        if len(found) != 1:
            self.add("output-intent", "document",
                     f"{len(found)} GTS_PDFX output intents, not one")
            return
        oi = found[0]
        if not str(oi.get("/OutputConditionIdentifier", "")).strip():
            self.add("output-intent", "document", "no OutputConditionIdentifier")
        if not str(oi.get("/Info", "")).strip():
            self.add("output-intent", "document", "no Info (what the profile is)")
        profile = oi.get("/DestOutputProfile")
        if not isinstance(profile, pk.Stream):
            self.add("output-intent", "document", "no DestOutputProfile")
            return
        length = _number(profile.get("/Length", 0))
        head = profile.read_bytes()[:20] if length is not None and length < 50_000_000 \
            else b""
        if len(head) < 20 or head[16:20] != b"CMYK" or head[12:16] != b"prtr":
            self.add("output-intent", "document",
                     "its profile is not a CMYK output (printer) profile")

    def page(self, n: int, page):
        pk = self.pk
        where = f"page {n}"
        media = self._box(page.obj.get("/MediaBox")) if "/MediaBox" in page.obj else None
        media = media or self._box(page.mediabox)
        trim = self._box(page.obj.get("/TrimBox")) or self._box(page.obj.get("/ArtBox"))
        bleed = self._box(page.obj.get("/BleedBox"))
        if trim is None or bleed is None:
            self.add("boxes", where, "no TrimBox" if trim is None else "no BleedBox")
        else:
            if media is not None and not _within(bleed, media):
                self.add("boxes", where, "the BleedBox goes past the MediaBox")
            if not _within(trim, bleed):
                self.add("boxes", where, "the TrimBox goes past the BleedBox")
            elif self.bleed is not None:
                least = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2],
                            bleed[3] - trim[3])
                if least < self.bleed - 0.01:
                    self.add("bleed", where, f"{least:.2f} pt of bleed on one side, under "
                                             f"{self.bleed:.2f} pt")
        for annot in page.obj.get("/Annots", []) or []:
            if isinstance(annot, pk.Dictionary) and \
                    str(annot.get("/Subtype")) not in ("/PrinterMark", "/TrapNet"):
                self.add("actions", where, f"a {str(annot.get('/Subtype'))[1:20]} annotation")
        if "/AA" in page.obj:
            self.add("actions", where, "an action")
        self._group(where, page.obj)
        res = page.obj.get("/Resources", pk.Dictionary())
        self.resources(where, res, 0)
        contents = page.obj.get("/Contents")
        streams = contents if isinstance(contents, pk.Array) else [contents]
        for stream in streams:
            if isinstance(stream, pk.Stream):
                self.operators(where, stream, res)
        for annot in page.obj.get("/Annots", []) or []:
            self.appearance(where, annot)

    def appearance(self, where, annot):
        """A printer's mark is drawn by its appearance streams: checked as forms."""
        pk = self.pk
        ap = annot.get("/AP") if isinstance(annot, pk.Dictionary) else None
        if not isinstance(ap, pk.Dictionary):
            return
        for _, shown in _items(ap):
            forms = [shown] if isinstance(shown, pk.Stream) else \
                [f for _, f in _items(shown) if isinstance(f, pk.Stream)]
            for form in forms:
                if not self._seen(form):
                    self.content(where, form, form.get("/Resources", pk.Dictionary()), 1)

    def _box(self, box):
        if not isinstance(box, (self.pk.Array, list)) or len(box) != 4:
            return None
        try:
            x0, y0, x1, y1 = (float(v) for v in box)
        except (TypeError, ValueError):
            return None
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def _group(self, where, obj):
        group = obj.get("/Group")
        if isinstance(group, self.pk.Dictionary) and str(group.get("/S")) == "/Transparency":
            self.add("transparency", where, "a transparency group")

    def space(self, where, space, what, depth=0):
        """A colour space as PDF/X-1a takes it: CMYK, grey, or spot/indexed/pattern over them."""
        pk = self.pk
        if depth > 4:
            self.add("colour", where, f"{what}: a colour space nested too deep")
            return
        if isinstance(space, pk.Name):
            name = INLINE_SPACES.get(str(space), str(space))
            if name not in ALLOWED_SPACES:
                self.add("colour", where, f"{what} in {name[1:]}")
            return
        if isinstance(space, pk.Array) and len(space):
            family = INLINE_SPACES.get(str(space[0]), str(space[0]))
            if family == "/Indexed" and len(space) > 1:
                self.space(where, space[1], what, depth + 1)
            elif family in ("/Separation", "/DeviceN") and len(space) > 2:
                self.space(where, space[2], what, depth + 1)
            elif family == "/Pattern":
                if len(space) > 1:
                    self.space(where, space[1], what, depth + 1)
            elif family in ("/DeviceCMYK", "/DeviceGray"):
                pass
            else:
                self.add("colour", where, f"{what} in {family[1:]}")
            return
        self.add("colour", where, f"{what} in an unreadable colour space")

    def resources(self, where, res, depth):
        """What a content stream may draw with: its pictures, gradients, graphics states."""
        pk = self.pk
        if not isinstance(res, pk.Dictionary):
            return
        for name, gs in _items(res.get("/ExtGState")):
            if not isinstance(gs, pk.Dictionary):
                continue
            for key in ("/ca", "/CA"):
                if key in gs:
                    try:
                        if float(gs[key]) < 1.0:
                            self.add("transparency", where, f"a constant alpha {key[1:]} "
                                                            f"{float(gs[key]):g}")
                    except (TypeError, ValueError):
                        self.add("transparency", where, f"an unreadable {key[1:]}")
            if "/SMask" in gs and str(gs.SMask) != "/None":
                self.add("transparency", where, "a soft mask")
            if "/BM" in gs:
                modes = gs.BM if isinstance(gs.BM, pk.Array) else [gs.BM]
                if any(str(m) not in ("/Normal", "/Compatible") for m in modes):
                    self.add("transparency", where, f"a blend mode {str(modes[0])[1:20]}")
            for key in ("/TR", "/TR2"):
                if key in gs and str(gs[key]) != "/Default":
                    self.add("postscript", where, "a transfer function")
        for name, sh in _items(res.get("/Shading")):
            if isinstance(sh, (pk.Dictionary, pk.Stream)):
                self.space(where, sh.get("/ColorSpace"), "a gradient")
        for name, pat in _items(res.get("/Pattern")):
            if not isinstance(pat, (pk.Dictionary, pk.Stream)) or self._seen(pat):
                continue
            if _number(pat.get("/PatternType", 0)) == 2:
                sh = pat.get("/Shading")
                if isinstance(sh, (pk.Dictionary, pk.Stream)):
                    self.space(where, sh.get("/ColorSpace"), "a gradient")
            elif isinstance(pat, pk.Stream):
                self.content(where, pat, pat.get("/Resources", pk.Dictionary()), depth + 1)
        for name, x in _items(res.get("/XObject")):
            if not isinstance(x, pk.Stream) or self._seen(x):
                continue
            sub = str(x.get("/Subtype"))
            if sub == "/Image":
                self.image(where, x)
            elif sub == "/PS" or "/PS" in x:
                self.add("postscript", where, "a PostScript object")
            elif sub == "/Form":
                self._group(where, x)
                if "/OPI" in x:
                    self.add("postscript", where, "an OPI reference")
                self.content(where, x, x.get("/Resources", res), depth + 1)
        for name, font in _items(res.get("/Font")):
            self.font(where, font)

    def _seen(self, obj) -> bool:
        key = obj.objgen if obj.is_indirect else id(obj)
        if key in self.seen_objects:
            return True
        self.seen_objects.add(key)
        return False

    def image(self, where, x):
        if "/SMask" in x:
            self.add("transparency", where, "a picture with an alpha channel (SMask)")
        if "/SMaskInData" in x and _number(x.get("/SMaskInData", 0)) != 0:
            self.add("transparency", where, "a picture with an alpha channel (SMaskInData)")
        if "/OPI" in x:
            self.add("postscript", where, "an OPI reference")
        if bool(x.get("/ImageMask", False)):
            return
        if "/ColorSpace" in x:
            self.space(where, x.ColorSpace, "a picture")
        elif "/JPXDecode" not in str(x.get("/Filter", "")):
            self.add("colour", where, "a picture without a colour space")
        else:
            self.add("colour", where, "a JPEG 2000 picture (not in PDF 1.4)")

    def font(self, where, font):
        pk = self.pk
        if not isinstance(font, pk.Dictionary):
            return
        key = font.objgen if font.is_indirect else id(font)
        if key in self.seen_fonts:
            return
        self.seen_fonts.add(key)
        sub = str(font.get("/Subtype"))
        name = str(font.get("/BaseFont", "?"))[1:60]
        if sub == "/Type3":
            res = font.get("/Resources", pk.Dictionary())
            self.resources(where, res, MAX_DEPTH)
            for _, glyph in _items(font.get("/CharProcs")):
                if isinstance(glyph, pk.Stream):
                    self.operators(where, glyph, res)
            return
        target = font
        if sub == "/Type0":
            kids = font.get("/DescendantFonts")
            target = kids[0] if isinstance(kids, pk.Array) and len(kids) else None
        desc = target.get("/FontDescriptor") if isinstance(target, pk.Dictionary) else None
        if not isinstance(desc, pk.Dictionary) or not any(k in desc for k in FONT_FILES):
            self.add("fonts", where, f"the font {name} is not embedded")

    def content(self, where, stream, res, depth):
        """A form's or pattern's drawing: what it may draw with, then its operators."""
        if depth > MAX_DEPTH:
            self.add("postscript", where, "forms nested too deep to check")
            return
        self.resources(where, res, depth)
        self.operators(where, stream, res)

    def operators(self, where, stream, res):
        """The colours one content stream sets, read once a document (its names resolved
        in the resources it is drawn with)."""
        pk = self.pk
        try:
            seen = self.streams.read(stream, where)
        except Undecodable as e:
            self.add("streams", where, f"a content stream that cannot be unpacked: {e}")
            return
        for op in sorted(seen.rgb):
            self.add("colour", where, f"an RGB colour ({op})")
        if seen.postscript:
            self.add("postscript", where, "a PostScript operator")
        spaces = res.get("/ColorSpace") if isinstance(res, pk.Dictionary) else None
        spaces = spaces if isinstance(spaces, pk.Dictionary) else pk.Dictionary()
        for op, name in seen.spaces.values():
            self.space(where, self._named_space(name, spaces), f"a colour ({op})")
        for cs in seen.inline_spaces.values():
            if cs is not None:
                self.space(where, self._named_space(cs, spaces), "an inline picture")

    def _named_space(self, space, spaces):
        """A colour space as given, or the resource its name stands for."""
        if isinstance(space, self.pk.Name) and str(space) not in INLINE_SPACES and \
                str(space) not in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray", "/Pattern"):
            return spaces.get(str(space), space)
        return space


def _items(d):
    import pikepdf

    if not isinstance(d, pikepdf.Dictionary):
        return []
    return list(d.items())[:10_000]


def _number(value):
    """A PDF number as a float; None when the value is something else."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _within(inner, outer, slack=0.01) -> bool:
    return outer[0] <= inner[0] + slack and outer[1] <= inner[1] + slack and \
        inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack


# What a file that is not a PDF starts with, to say what it is instead.
MAGIC = ((b"\x89PNG", "a PNG picture"), (b"\xff\xd8\xff", "a JPEG picture"),
         (b"GIF8", "a GIF picture"), (b"II*\x00", "a TIFF picture"),
         (b"MM\x00*", "a TIFF picture"), (b"RIFF", "a WebP picture or a sound"),
         (b"PK\x03\x04", "a ZIP archive (an XLSX, ODS or DOCX file is one)"),
         (b"%!PS", "a PostScript file"), (b"<svg", "an SVG picture"),
         (b"<?xml", "an XML file (an SVG?)"), (b"\x00\x01\x00\x00", "a font"),
         (b"OTTO", "a font"), (b"wOF", "a web font"))


def _not_a_pdf(data: bytes) -> str | None:
    """What is wrong with bytes that cannot be a whole PDF, in a designer's words."""
    if not data:
        return "empty file"
    if b"%PDF-" not in data[:1024]:
        head = data[:64].lstrip()
        kind = next((name for magic, name in MAGIC if head.startswith(magic)), None)
        return f"not a PDF: it starts like {kind}" if kind else \
            "not a PDF: it does not start with %PDF-"
    if b"%%EOF" not in data[-2048:]:
        return "cut short: no end of file (%%EOF)"
    return None


def _open(data: bytes):
    import pikepdf

    wrong = _not_a_pdf(data)
    if wrong:
        raise CompanionError(wrong)
    try:
        return pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        raise
    except (pikepdf.PdfError, RuntimeError, ValueError) as e:
        raise CompanionError(f"a PDF whose structure cannot be read "
                             f"({plain_message(e)})") from None


def check(data: bytes, bleed: float | None = None,
          ink_limit: float | None = None) -> list[Problem]:
    """The problems of a PDF (its bytes) against the rules; `bleed` (points): the least
    bleed a page needs beyond its TrimBox, None: any; `ink_limit`: the most total ink
    (0..4) a colour or a picture's pixel may have, None: any."""
    import pikepdf

    if len(data) > MAX_BYTES:
        raise CompanionError(f"a PDF of {len(data):,} bytes: over {MAX_BYTES // 1_000_000} MB, "
                             "the most this preflight reads")
    try:
        pdf = _open(data)
    except pikepdf.PasswordError:
        return [Problem("encryption", "document", "the file is encrypted")]
    with pdf:
        c = _Checker(pdf, bleed, _reader(data, ink=ink_limit is not None))
        _guarded(c, "document", c.document)
        if len(pdf.pages) > MAX_PAGES:
            raise CompanionError(f"{len(pdf.pages):,} pages: over {MAX_PAGES:,}, the most "
                                 "this preflight reads")
        if not len(pdf.pages):
            c.add("boxes", "document", "no page")
        for n, page in enumerate(pdf.pages, 1):
            _guarded(c, f"page {n}", c.page, n, page)
        if ink_limit is not None:  # issue 51's rule: companion.press.ink
            _guarded(c, "document", _ink, c, pdf, ink_limit)
        return c.problems


def _reader(data: bytes, ink: bool):
    """The document's content-stream reader: its budget of unpacked bytes, and whether
    it reads the ink measure's operators too (each stream then parsed once for both)."""
    return content_streams.Reader(CONTENT_BYTES + CONTENT_GROWTH * len(data), ink=ink)


def _ink(checker, pdf, limit: float) -> None:
    from companion.press import ink

    for rule, where, what in ink.rule(pdf, limit, checker.streams):
        checker.add(rule, where, what)


def _guarded(checker, where, step, *args):
    """One step of the check; a value of the wrong kind or a part the library cannot read
    is a problem named where it is, not a stop."""
    import pikepdf

    try:
        step(*args)
    except (TypeError, ValueError) as e:
        checker.add("values", where, f"a value that is not of its kind ({plain_message(e)})")
    except (pikepdf.PdfError, RuntimeError) as e:
        checker.add("streams", where, f"a part that cannot be read ({plain_message(e)})")


def _check_lines(data: bytes, bleed: float | None,
                 ink_limit: float | None = None) -> list[str]:
    """In the bounded worker: the problems as lines (they pickle)."""
    return [str(p) for p in check(data, bleed, ink_limit)]


def check_file(path, bleed: float | None = None, ink_limit: float | None = None) -> list[str]:
    """A designer's PDF checked in a bounded worker (companion.files.bounded): its problems
    as lines."""
    from pathlib import Path

    from companion.files import bounded, designer_files

    path = Path(path)
    data = designer_files.read_bytes(path, MAX_BYTES, "PDF")
    return bounded.run(_check_lines, data, bleed, ink_limit, source=str(path), what="PDF",
                       seconds=120.0)


def _most_ink(data: bytes) -> tuple[float, str]:
    """In the bounded worker: the most total ink of a PDF (its bytes) and where."""
    from companion.press import ink

    with _open(data) as pdf:
        got = ink.measure(pdf, _reader(data, ink=True))
    return got.most, got.where


def most_ink_file(path) -> tuple[float, str]:
    """A PDF's most total ink (0..4) and where, read in a bounded worker (a designer's
    file), for `companion preflight --ink-limit`'s report."""
    from pathlib import Path

    from companion.files import bounded, designer_files

    data = designer_files.read_bytes(Path(path), MAX_BYTES, "PDF")
    return bounded.run(_most_ink, data, source=str(path), what="PDF", seconds=120.0)
