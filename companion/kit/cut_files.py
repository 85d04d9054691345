"""A cutter's files for each sheet of a kit (`build --cutter NAME`): the sheet's cut lines
as SVG (mm, for Inkscape, Silhouette Studio, Design Space, LightBurn) and DXF (ezdxf), in
the sheet's own coordinates, the pieces' paths on the layer "cut", score and fold lines on
"score", registration marks on "regmarks"; for Cricut also the sheet as a 300 dpi PNG.
The paths are press/cut_paths.py's, the same the PDF draws."""

from pathlib import Path as FilePath

from companion.press.cut_paths import Mark, flattened
from companion.press.imposition import Path
from companion.text.units import mm, to_mm

LAYERS = ("cut", "score", "regmarks")
CURVE_STEP = mm(0.5)  # a curve's pieces in the DXF: 0.5 mm along, within 0.01 mm of it


def _d(path: Path, page_h: float) -> str:
    """An SVG path's data in mm, y down from the sheet's top."""
    out = []
    for op, *xy in path:
        pts = " ".join(f"{to_mm(xy[i]):.4f} {to_mm(page_h - xy[i + 1]):.4f}"
                       for i in range(0, len(xy), 2))
        out.append(f"{op} {pts}".strip())
    return " ".join(out)


def svg(page: tuple[float, float], cuts: list[Path], scores: list[Path],
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


def dxf(target: FilePath, cuts: list[Path], scores: list[Path], marks: list[Mark]) -> None:
    """The DXF, in mm, y up from the sheet's lower-left (as the PDF): each piece one
    closed polyline on "cut" (curves cut into short lines), scores on "score", marks
    on "regmarks" (the square as a closed polyline, hatched)."""
    import ezdxf

    doc = ezdxf.new("R2010", units=ezdxf.units.MM)
    for name, colour in zip(LAYERS, (1, 5, 7)):
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()

    def add(path: Path, layer: str) -> None:
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


def png(pdf: FilePath, page: int, dpi: int, target: FilePath) -> None:
    """Page `page` (from 1) of a PDF as a PNG at `dpi`, its resolution written in it."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        picture = doc[page - 1].render(scale=dpi / 72).to_pil()
    finally:
        doc.close()
    picture.save(target, dpi=(dpi, dpi))
