"""`companion check GAME`: can every player tell the cards apart? Every face of the kit
(each distinct front and back) is drawn and rendered, then seen as designed, with
deuteranopia, protanopia and tritanopia, and printed in greyscale
(companion.draw.vision). Two faces that differ only by colour (the same shapes, icons and
words, region for region) are alike in a view when every colour telling them apart
falls too close there (companion/layouts/legibility.toml says how close, and why): a
finding, one line each. legibility.pdf shows the findings and every face in each view,
side by side; the summary gives each component's smallest text and lowest contrast.

The comparison is arithmetic on pixels (structure, alike), checked alone by the tests;
the rest draws and writes."""

import hashlib
import json
import tempfile
from pathlib import Path

import msgspec
import numpy as np

from companion.draw import vision
from companion.files import paths
from companion.files.data import load_fields

PATH = "legibility.pdf"
KIND = "legibility"  # its folder's manifest "format"


class Limits(msgspec.Struct, frozen=True):
    hue_chroma: float
    contrast: float
    least_area: float
    dpi: int
    sheet_dpi: int


def limits() -> Limits:
    t = load_fields(paths.layout("legibility.toml")).sub("legibility")
    return Limits(t.get("hue_chroma", float), t.get("contrast", float),
                  t.get("least_area", float), t.get("dpi", int), t.get("sheet_dpi", int))


class Seen(msgspec.Struct):
    """A distinct face of the kit: what it is called, and its pixels once rendered."""
    label: str  # "cards/red-1", "cards (back)"
    component: str
    side: str  # "front" or "back"
    face: object  # companion.draw.print_sheets.Face
    size: tuple
    pixels: object = None  # H x W x 3 uint8, unsmoothed (compared)
    picture: object = None  # H x W x 3 uint8, smoothed (shown)


class Region(msgspec.Struct, frozen=True):
    """Where two faces alike but for colour differ: its colour on each, how far apart
    they look in the view (hue and chroma CIEDE2000, the lightnesses' contrast)."""
    a: str
    b: str
    hue_chroma: float
    contrast: float


class Finding(msgspec.Struct):
    view: str
    a: str  # the two faces' labels (the first pair found)
    b: str
    regions: list[Region]
    pairs: int = 1  # how many pairs of faces are alike by the same colours

    def line(self, limits_: Limits) -> str:
        said = "; ".join(f"{r.a} and {r.b} (hue and chroma {r.hue_chroma:.1f} under "
                         f"{limits_.hue_chroma:g}, contrast {r.contrast:.2f}:1 under "
                         f"{limits_.contrast:g}:1)" for r in self.regions)
        more = f", and {self.pairs - 1} more pairs alike so" if self.pairs > 1 else ""
        return f"{self.view}: {self.a} and {self.b} differ only by colour: {said}{more}"


# ---- the arithmetic --------------------------------------------------------------

def structure(rgb: np.ndarray) -> tuple[str, np.ndarray, np.ndarray]:
    """A face's regions: (a key equal for two faces whose pixels fall into the same
    same-coloured regions, whatever the colours; each region's colour; its pixel count),
    the regions in the order their first pixel is met."""
    colours, first, inverse, counts = np.unique(_packed(rgb), return_index=True,
                                                return_inverse=True, return_counts=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    labels = rank[inverse.reshape(-1)].astype(np.uint32)
    key = hashlib.sha256(np.asarray(rgb.shape[:2]).tobytes() + labels.tobytes()).hexdigest()
    return key, _unpacked(colours[order]), counts[order]


def hex_of(rgb) -> str:
    return "#{:02X}{:02X}{:02X}".format(*(int(v) for v in rgb))


def alike(palette_a: np.ndarray, palette_b: np.ndarray, areas: np.ndarray, view: str,
          lim: Limits) -> list[Region] | None:
    """Two faces of one structure (their regions' colours, the regions' areas): the
    regions telling them apart, when each one's colours are too close in `view`; None
    when one of them tells them apart there (or none differs enough to count)."""
    from companion.text.fit import contrast

    counted = (np.any(palette_a != palette_b, axis=1)
               & (areas >= lim.least_area * areas.sum()))
    if not counted.any():
        return None
    a = palette_a[counted] / 255.0
    b = palette_b[counted] / 255.0
    sa, sb = vision.seen(a, view), vision.seen(b, view)
    la, lb = vision.lab(sa), vision.lab(sb)
    lb_level = lb.copy()
    lb_level[:, 0] = la[:, 0]  # the lightnesses made equal: hue and chroma alone
    hue_chroma = np.atleast_1d(vision.ciede2000(la, lb_level))
    ratios = [contrast(tuple(x), tuple(y)) for x, y in zip(sa, sb)]
    if any(d >= lim.hue_chroma or r >= lim.contrast for d, r in zip(hue_chroma, ratios)):
        return None
    return [Region(hex_of(x), hex_of(y), float(d), float(r))
            for x, y, d, r in zip(palette_a[counted], palette_b[counted], hue_chroma, ratios)]


def findings(seen: list[Seen], lim: Limits) -> list[Finding]:
    """Every pair of faces of one side alike in a view, gathered by view and colours."""
    groups: dict[tuple, list] = {}
    for s in seen:
        key, palette, areas = structure(s.pixels)
        groups.setdefault((s.side, key), []).append((s, palette, areas))
    out: dict[tuple, Finding] = {}
    known: dict[tuple, list | None] = {}  # faces told apart by the same colours: once
    for members in groups.values():
        for i, (s, pa, areas) in enumerate(members):
            for t, pb, _ in members[i + 1:]:
                differ = np.any(pa != pb, axis=1)
                colours = (pa[differ].tobytes(), pb[differ].tobytes(),
                           (areas[differ] >= lim.least_area * areas.sum()).tobytes())
                for view in vision.VIEWS:
                    if (colours, view) not in known:
                        known[colours, view] = alike(pa, pb, areas, view, lim)
                    regions = known[colours, view]
                    if regions is None:
                        continue
                    said = (view, tuple(sorted((r.a, r.b) for r in regions)))
                    if said in out:
                        out[said].pairs += 1
                    else:
                        out[said] = Finding(view, s.label, t.label, regions)
    order = {v: n for n, v in enumerate(vision.VIEWS)}
    return sorted(out.values(), key=lambda f: order[f.view])


def seen_as(picture: np.ndarray, view: str) -> np.ndarray:
    """A face's pixels as seen in `view`: each distinct colour worked out once."""
    if view == "designed":
        return picture
    colours, inverse = np.unique(_packed(picture), return_inverse=True)
    shown = np.round(vision.seen(_unpacked(colours) / 255.0, view) * 255).astype(np.uint8)
    return shown[inverse.reshape(-1)].reshape(picture.shape)


def _packed(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's colour as one number (0xRRGGBB): a 1-D unique is fast."""
    flat = rgb.reshape(-1, 3).astype(np.uint32)
    return (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]


def _unpacked(packed: np.ndarray) -> np.ndarray:
    return np.stack([(packed >> 16) & 255, (packed >> 8) & 255, packed & 255],
                    axis=1).astype(np.uint8)


# ---- drawing and reading ----------------------------------------------------------

def faces_of(kit) -> list[Seen]:
    """The kit's distinct faces, fronts then backs, each named by its first card."""
    from companion.kit import card_list

    out, known = [], set()
    for entry in card_list(kit, 0.0):
        card = entry["card"]
        for side in ("front", "back"):
            face = getattr(card, side)
            digest = entry[side]
            if face is None or (side, digest) in known:
                continue
            known.add((side, digest))
            label = entry["id"] if side == "front" else f"{entry['component']} (back)"
            if side == "back" and face.name:
                label = f"{entry['component']} (back {face.name})"
            out.append(Seen(label, entry["component"], side, face, _size(kit, entry)))
    return sorted(out, key=lambda s: s.side != "front")


def _size(kit, entry) -> tuple:
    for f, comp in kit.card_components():
        if comp.id == entry["component"]:
            return f.size
    raise KeyError(entry["component"])


def render(seen: list[Seen], lim: Limits) -> dict[str, dict]:
    """Draws every face into a PDF of its own pages and renders each twice (unsmoothed to
    compare, smoothed to show); returns each component's smallest text size and lowest
    contrast as drawn: {component: {"size": pt, "contrast": ratio}}."""
    import pypdfium2 as pdfium

    from companion.press import presets
    from companion.press.pdf import open_canvas
    from companion.text import fit

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "faces.pdf"
        c = open_canvas(path, seen[0].size if seen else (100, 100), "faces", "")
        with fit.recording(presets.text_limits()) as rec:
            for s in seen:
                c.setPageSize(s.size)
                rec.wrap(s.face.draw, s.label)(c, *s.size, 0.0)
                c.showPage()
        c.save()
        doc = pdfium.PdfDocument(str(path))
        for n, s in enumerate(seen):
            page = doc[n]
            s.pixels = page.render(scale=lim.dpi / 72, no_smoothtext=True, no_smoothimage=True,
                                   no_smoothpath=True, rev_byteorder=True).to_numpy()[..., :3]
            s.picture = page.render(scale=lim.sheet_dpi / 72,
                                    rev_byteorder=True).to_numpy()[..., :3]
        doc.close()
    return _summary(rec, {s.label: s.component for s in seen})


def _summary(rec, components: dict[str, str]) -> dict[str, dict]:
    from companion.text.fit import contrast

    out: dict[str, dict] = {}
    for m in rec.measures:
        comp = components.get(m.face)
        if comp is None or m.exempt:  # exempt: a card shown small on a card (an example)
            continue
        d = out.setdefault(comp, {"size": None, "contrast": None})
        d["size"] = m.size if d["size"] is None else min(d["size"], m.size)
        if m.ground is not None:
            r = contrast(tuple(m.ink), tuple(m.ground))
            d["contrast"] = r if d["contrast"] is None else min(d["contrast"], r)
    return out


class Report(msgspec.Struct):
    game: str
    folder: Path
    findings: list
    summary: dict
    lines: list  # the findings, a line each
    faces: int


def check(name: str, lang: str, card_size: str, out: Path | None = None) -> Report:
    """Checks the game `name`, writes legibility.pdf and a manifest.json into `out`
    (default output/GAME-check), the folder replaced whole; returns the report."""
    from companion import kit
    from companion.files.atomic import kit_folder

    prepared = kit.prepare(name, kit.Options(lang=lang, card_size=card_size))
    lim = limits()
    seen = faces_of(prepared)
    summary = render(seen, lim)
    found = findings(seen, lim)
    out = Path(out) if out else paths.output() / f"{prepared.name}-check"
    report = Report(prepared.name, out, found, summary, [f.line(lim) for f in found],
                    len(seen))
    with kit_folder(out, KIND) as stage:
        _pdf(stage / PATH, prepared, seen, report, lim)
        manifest = {"format": KIND, "game": prepared.name, "lang": lang,
                    "card_size": card_size, "faces": len(seen),
                    "findings": [msgspec.to_builtins(f) for f in found],
                    "summary": summary, "limits": msgspec.to_builtins(lim)}
        (stage / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n",
                                             encoding="utf-8")
    return report


def summary_lines(report: Report) -> list[str]:
    out = []
    for comp, d in report.summary.items():
        size = f"{d['size']:.1f} pt" if d["size"] is not None else "no text"
        ratio = f"{d['contrast']:.2f}:1" if d["contrast"] is not None else "none measured"
        out.append(f"{comp}: smallest text {size}, lowest contrast {ratio}")
    return out


def _pdf(path: Path, prepared, seen: list[Seen], report: Report, lim: Limits) -> None:
    from reportlab.lib.pagesizes import landscape

    from companion.press.pdf import open_canvas

    page = landscape(tuple(sorted(prepared.ctx.page)))
    c = open_canvas(path, page, f"{prepared.game_name}: {PATH}", prepared.author)
    margin = 30.0
    y = page[1] - margin - 14
    head = [(f"{prepared.game_name}: legibility", 14, "bold"),
            (f"{report.faces} faces seen as designed, with deuteranopia, protanopia and "
             "tritanopia (Machado et al. 2009, severity 100, through colorspacious) and in "
             "greyscale (the same lightness L*).", 9, "regular"),
            (f"Alike: faces that differ only by colour, every colour telling them apart "
             f"within {lim.hue_chroma:g} CIEDE2000 in hue and chroma and under "
             f"{lim.contrast:g}:1 in contrast.", 9, "regular"), ("", 9, "regular")]
    head += [(line, 9, "regular") for line in summary_lines(report)] + [("", 9, "regular")]
    head += [(line, 9, "regular") for line in report.lines] or [("No findings.", 9, "regular")]
    for text, size, role in head:
        for part in _wrapped(text, role, size, page[0] - 2 * margin):
            if y < margin:
                c.showPage()
                y = page[1] - margin - 14
            _text(c, part, margin, y, size, role)
            y -= size * 1.4
    c.showPage()
    by_label = {s.label: s for s in seen}
    for f in report.findings:  # each finding: the two faces, as designed and as seen
        _text(c, f"{f.view}: {f.a} and {f.b}", margin, page[1] - margin - 12, 12, "bold")
        row = [by_label[f.a], by_label[f.b]]
        _row(c, row, ["designed", f.view], margin, page[1] - margin - 30, page, margin)
        c.showPage()
    _sheets(c, seen, page, margin)
    c.save()


def _row(c, faces: list[Seen], views: list[str], x0: float, top: float, page, margin) -> None:
    """Each face in each view, side by side, captioned."""
    w, h = faces[0].size
    k = min((page[0] - 2 * margin) / (len(faces) * len(views)) / (w + 12),
            (top - margin - 14) / h)
    x = x0
    for view in views:
        for s in faces:
            _picture(c, seen_as(s.picture, view), x, top - 14 - h * k, s.size[0] * k,
                     s.size[1] * k)
            _text(c, f"{view}: {s.label}", x, top - 8, 8, "regular")
            x += (w + 12) * k


def _sheets(c, seen: list[Seen], page, margin) -> None:
    """Contact sheets: a row a face, its five views side by side."""
    views = vision.VIEWS
    cell_w = (page[0] - 2 * margin - 120) / len(views)
    top = page[1] - margin
    y = top
    for s in seen:
        w, h = s.size
        k = min((cell_w - 8) / w, 150 / h)
        if y - h * k - 16 < margin or y == top:
            if y != top:
                c.showPage()
            y = top
            for n, view in enumerate(views):
                _text(c, view, margin + 120 + n * cell_w, y - 10, 9, "bold")
            y -= 18
        _text(c, s.label, margin, y - 10, 7, "regular")
        for n, view in enumerate(views):
            _picture(c, seen_as(s.picture, view), margin + 120 + n * cell_w, y - h * k,
                     w * k, h * k)
        y -= h * k + 8
    c.showPage()


def _picture(c, pixels: np.ndarray, x: float, y: float, w: float, h: float) -> None:
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    c.drawImage(ImageReader(Image.fromarray(pixels)), x, y, w, h)


def _wrapped(text: str, role: str, size: float, width: float) -> list[str]:
    from companion.draw import text as typeset

    return typeset.wrap(text, role, size, width) if text else [""]


def _text(c, text: str, x: float, y: float, size: float, role: str) -> None:
    from companion.draw import text as typeset

    if text:
        c.setFillGray(0.1)
        typeset.line(c, text, x, y, role, size, field="legibility")
