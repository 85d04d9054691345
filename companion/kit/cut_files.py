"""A cutter's files for each sheet of a kit (`build --cutter NAME`): the sheet's cut lines
as SVG (mm, for Inkscape, Silhouette Studio, Design Space, LightBurn) and DXF (ezdxf), in
the sheet's own coordinates, the pieces' paths on the layer "cut", score and fold lines on
"score", registration marks on "regmarks"; for Cricut also the sheet as a 300 dpi PNG.
The paths are press/cut_paths.py's, the same the PDF draws; what a build does for a
cutter (its grids, the pages' marks and lines, the files, the guide's lines) is here."""

from pathlib import Path

from companion.errors import CompanionError
from companion.files import paths
from companion.files.data import load_fields
from companion.press import cut_paths
from companion.press.cut_paths import Mark, flattened
from companion.press.imposition import Path as Line
from companion.text.typography import number
from companion.text.units import mm, to_mm

LAYERS = ("cut", "score", "regmarks")
CURVE_STEP = mm(0.5)  # a curve's pieces in the DXF: 0.5 mm along, within 0.01 mm of it


def _d(path: Line, page_h: float) -> str:
    """An SVG path's data in mm, y down from the sheet's top."""
    out = []
    for op, *xy in path:
        pts = " ".join(f"{to_mm(xy[i]):.4f} {to_mm(page_h - xy[i + 1]):.4f}"
                       for i in range(0, len(xy), 2))
        out.append(f"{op} {pts}".strip())
    return " ".join(out)


def svg(page: tuple[float, float], cuts: list[Line], scores: list[Line],
        marks: list[Mark]) -> str:
    w, h = page
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" '
             'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
             f'width="{to_mm(w):.4f}mm" height="{to_mm(h):.4f}mm" '
             f'viewBox="0 0 {to_mm(w):.4f} {to_mm(h):.4f}">']

    def layer(name: str, body: list[str]) -> None:
        lines.append(f'<g inkscape:groupmode="layer" inkscape:label="{name}" id="{name}">')
        lines.extend(body)
        lines.append("</g>")

    layer("cut", [f'<path id="piece-{i + 1}" d="{_d(p, h)}" '
                  'style="fill:none;stroke:#ff0000;stroke-width:0.1"/>'
                  for i, p in enumerate(cuts)])
    layer("score", [f'<path d="{_d(p, h)}" style="fill:none;stroke:#0000ff;'
                    'stroke-width:0.1;stroke-dasharray:1,1"/>' for p in scores])
    layer("regmarks", [
        f'<path d="{_d(m.path, h)}" style="fill:#000000;stroke:none"/>' if m.kind == "square"
        else f'<path d="{_d(m.path, h)}" style="fill:none;stroke:#000000;'
             f'stroke-width:{to_mm(m.width):.4f}"/>' for m in marks])
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def dxf(target: Path, cuts: list[Line], scores: list[Line], marks: list[Mark]) -> None:
    """The DXF, in mm, y up from the sheet's lower-left (as the PDF): each piece one
    closed polyline on "cut" (curves cut into short lines), scores on "score", marks
    on "regmarks" (the square as a closed polyline, hatched)."""
    import ezdxf

    doc = ezdxf.new("R2010", units=ezdxf.units.MM)
    for name, colour in zip(LAYERS, (1, 5, 7)):
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()

    def add(path: Line, layer: str) -> None:
        for points in flattened(path, CURVE_STEP):
            closed = len(points) > 2 and points[0] == points[-1]
            pts = [(to_mm(x), to_mm(y)) for x, y in (points[:-1] if closed else points)]
            msp.add_lwpolyline(pts, close=closed, dxfattribs={"layer": layer})

    for p in cuts:
        add(p, "cut")
    for p in scores:
        add(p, "score")
    for m in marks:
        add(m.path, "regmarks")
    doc.saveas(target)


def png(pdf: Path, page: int, dpi: int, target: Path) -> None:
    """Page `page` (from 1) of a PDF as a PNG at `dpi`, its resolution written in it."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        picture = doc[page - 1].render(scale=dpi / 72).to_pil()
    finally:
        doc.close()
    picture.save(target, dpi=(dpi, dpi))


def plan(f, cutter, paper: str, page, settings, bleed: float):
    """A cutter's grid (press/cut_paths.py); pieces too big for its area are one line
    naming them."""
    try:
        return cut_paths.plan(cutter, paper, page, *f.size, settings, bleed, spaced=f.spaced,
                              shape=f.shape)
    except CompanionError as e:
        what = ", ".join(c.title for c in f.components)
        raise CompanionError(f"{what}: {e.message}", field=e.field) from None


def overlay(grid, cutter, paper: str, sheets: list, c, count: int) -> None:
    """A cutter's front page: its marks and cut lines drawn, the lines kept for its cut
    files."""
    from companion.draw.print_sheets import cutter_page

    cuts = cut_paths.cut_lines(grid, count, cutter.kerf)
    cutter_page(c, cut_paths.marks(cutter, paper, (grid.page_w, grid.page_h)), cuts)
    sheets.append((cuts, []))


def box_overlay(cutter, paper: str, page, sheets: list, c, piece, at) -> None:
    """A cutter's tuck box page: its marks drawn (the net draws its own lines), the
    net's cut and fold lines kept for its cut files."""
    from companion.draw.print_sheets import cutter_page

    cutter_page(c, cut_paths.marks(cutter, paper, page), [])
    cut, folds = cut_paths.net_lines(piece, at)
    sheets.append(([cut], folds))


def write(stage: Path, pdf: str, sheets: list, cutter, paper: str, page,
          first: int = 1) -> list[dict]:
    """Each sheet's cut files beside its PDF (cards-p1.svg, .dxf; Cricut's .png), for the
    manifest's `cuts`; `sheets` (cut lines, score lines) are the PDF's pages from
    `first`."""
    stem, out = Path(pdf).with_suffix(""), []
    marks = cut_paths.marks(cutter, paper, page)
    for n, (cuts, scores) in enumerate(sheets, first):
        names = {k: f"{stem}-p{n}.{k}" for k in ("svg", "dxf")}
        (stage / names["svg"]).write_text(svg(page, cuts, scores, marks), encoding="utf-8")
        dxf(stage / names["dxf"], cuts, scores, marks)
        if cutter.png_dpi:
            names["png"] = f"{stem}-p{n}.png"
            png(stage / pdf, n, cutter.png_dpi, stage / names["png"])
        out.append({"page": n, "pieces": len(cuts), "scores": len(scores), **names})
    return out


def files(stage: Path, f, entry: dict, cutter, paper: str, sheets: list, page) -> dict:
    """A card file's manifest keys for a cutter: `cutter` and `cuts`. A label sheet keeps
    its own layout: cut files only for a cutter that needs no marks on a sheet of its own
    (a laser), its page 1 (the alignment page) without."""
    if f.sheet is None:
        return {"cutter": cutter.key, "cuts": write(stage, f.path, sheets, cutter, paper,
                                                    page)}
    if cutter.marks != "none" or cutter.sheet is not None:
        return {}
    lines = cut_paths.label_lines(f.sheet.shape, entry["places"], entry["pages"],
                                  cutter.kerf)
    return {"cutter": cutter.key, "cuts": write(stage, f.path, [(c, []) for c in lines[1:]],
                                                cutter, paper, f.sheet.paper, first=2)}


def guide(manifest: dict, cutter, lang: str) -> list[str]:
    """The print guide's lines for a cutter: how to cut, and each label sheet left
    without cut files."""
    words = load_fields(paths.layout("cutters.toml"), english=True).sub("words")
    lines = []
    if any(f.get("cutter") for f in manifest["files"]):
        lines += [words.text(cutter.key, lang).format(
            kerf=number(to_mm(cutter.kerf / 2), lang, 3)), ""]
    return lines + [words.text("labels_own", lang).format(path=e["path"])
                    for e in manifest["files"] if e.get("sheet") and "cuts" not in e]
