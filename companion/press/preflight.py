"""A preflight of our own for PDF/X-1a:2003 (ISO 15930-4:2003) as a deck printer asks it:
the rules below, checked on any PDF, ours before the export writes it and a designer's
(`companion preflight FILE`: untrusted, read in a bounded worker, every count bounded).
docs/pdfx.md gives the source of each rule.

    problems = preflight.check(data, bleed=9.0)   # [] when it passes

Each problem is one line: the rule's name, where (page N, or the document) and what."""

import io

import msgspec

from companion.errors import CompanionError

VERSION = "PDF/X-1a:2003"
MAX_BYTES = 300_000_000
MAX_PAGES = 5_000
MAX_OPERATORS = 3_000_000  # in one page, its forms included
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
}
MAX_OBJECTS = 2_000_000  # objects scanned for their filters


class Problem(msgspec.Struct, frozen=True):
    rule: str
    where: str  # "page 3", "document"
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what} ({self.rule})"


class _Checker:
    def __init__(self, pdf, bleed: float | None):
        import pikepdf

        self.pk, self.pdf, self.bleed = pikepdf, pdf, bleed
        self.problems: list[Problem] = []
        self.seen_fonts: set = set()
        self.seen_objects: set = set()

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
        head = profile.read_bytes()[:20] if int(profile.get("/Length", 0)) < 50_000_000 else b""
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
        self.count = 0
        self.content(where, page.obj, page.obj.get("/Resources", pk.Dictionary()), 0)

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
            name = str(space)
            if name not in ALLOWED_SPACES:
                self.add("colour", where, f"{what} in {name[1:]}")
            return
        if isinstance(space, pk.Array) and len(space):
            family = str(space[0])
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
            if int(pat.get("/PatternType", 0)) == 2:
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
        if "/SMaskInData" in x and int(x.get("/SMaskInData", 0)):
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
            self.resources(where, font.get("/Resources", pk.Dictionary()), MAX_DEPTH)
            return
        target = font
        if sub == "/Type0":
            kids = font.get("/DescendantFonts")
            target = kids[0] if isinstance(kids, pk.Array) and len(kids) else None
        desc = target.get("/FontDescriptor") if isinstance(target, pk.Dictionary) else None
        if not isinstance(desc, pk.Dictionary) or not any(k in desc for k in FONT_FILES):
            self.add("fonts", where, f"the font {name} is not embedded")

    def content(self, where, stream, res, depth):
        pk = self.pk
        if depth > MAX_DEPTH:
            self.add("postscript", where, "forms nested too deep to check")
            return
        self.resources(where, res, depth)
        try:
            instructions = pk.parse_content_stream(stream)
        except pk.PdfError as e:
            self.add("colour", where, f"content that cannot be read ({str(e)[:60]})")
            return
        for operands, operator in instructions:
            self.count += 1
            if self.count > MAX_OPERATORS:
                raise CompanionError(f"{where}: over {MAX_OPERATORS:,} operators, the most "
                                     "this preflight reads")
            op = str(operator)
            if op in ("rg", "RG"):
                self.add("colour", where, f"an RGB colour ({op})")
            elif op in ("cs", "CS") and operands:
                name = operands[0]
                spaces = res.get("/ColorSpace", pk.Dictionary()) if isinstance(
                    res, pk.Dictionary) else pk.Dictionary()
                space = spaces.get(str(name), name) if str(name) not in (
                    "/DeviceRGB", "/DeviceCMYK", "/DeviceGray", "/Pattern") else name
                self.space(where, space, f"a colour ({op})")
            elif op == "PS":
                self.add("postscript", where, "a PostScript operator")
            elif op == "INLINE IMAGE":
                img = operands[0] if operands else None
                cs = None
                try:
                    cs = img.obj.get("/CS", img.obj.get("/ColorSpace"))
                except AttributeError:
                    pass
                if cs is not None and str(cs) in ("/RGB", "/DeviceRGB"):
                    self.add("colour", where, "an RGB inline picture")


def _items(d):
    import pikepdf

    if not isinstance(d, pikepdf.Dictionary):
        return []
    return list(d.items())[:10_000]


def _within(inner, outer, slack=0.01) -> bool:
    return outer[0] <= inner[0] + slack and outer[1] <= inner[1] + slack and \
        inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack


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
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        return [Problem("encryption", "document", "the file is encrypted")]
    except pikepdf.PdfError as e:
        raise CompanionError(f"not a PDF this preflight reads ({str(e)[:80]})") from None
    with pdf:
        c = _Checker(pdf, bleed)
        c.document()
        if len(pdf.pages) > MAX_PAGES:
            raise CompanionError(f"{len(pdf.pages):,} pages: over {MAX_PAGES:,}, the most "
                                 "this preflight reads")
        if not len(pdf.pages):
            c.add("boxes", "document", "no page")
        for n, page in enumerate(pdf.pages, 1):
            c.page(n, page)
        if ink_limit is not None:  # issue 51's rule: companion.press.ink
            from companion.press import ink
            c.problems += [Problem(*p) for p in ink.rule(pdf, ink_limit)]
        return c.problems


def _check_lines(data: bytes, bleed: float | None, ink_limit: float | None = None) -> list[str]:
    """In the bounded worker: the problems as lines (they pickle)."""
    return [str(p) for p in check(data, bleed, ink_limit)]


def check_file(path, bleed: float | None = None, ink_limit: float | None = None) -> list[str]:
    """A designer's PDF checked in a bounded worker (companion.files.bounded): its problems
    as lines."""
    from pathlib import Path

    from companion.files import bounded

    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise CompanionError(f"a PDF of {size:,} bytes: over {MAX_BYTES // 1_000_000} MB, "
                                 "the most this preflight reads", source=str(path))
        data = path.read_bytes()
    except OSError as e:
        raise CompanionError(f"cannot read it ({e.strerror or e})", source=str(path)) from None
    return bounded.run(_check_lines, data, bleed, ink_limit, source=str(path), what="PDF",
                       seconds=120.0)
