"""Cutters (issue 52): every sheet's SVG and DXF cut paths equal the cut lines its PDF
draws (both parsed), the Silhouette marks lie where inkscape-silhouette's data puts them,
Cricut sheets stay within Print Then Cut's 9.25 x 6.75 in, the SVG keeps Inkscape's rules
(viewBox in mm, cut paths unfilled) and the DXF reads back with ezdxf."""

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from math import hypot

import ezdxf
import pytest
from PIL import Image

from companion.files import paths
from companion.press import presets
from companion.text.units import mm, to_mm
from tests.drawn_lines import pages as drawn_pages

TOLERANCE = mm(0.05)
SVG = "{http://www.w3.org/2000/svg}"
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
DATA = tomllib.loads(paths.layout("cutters.toml").read_text(encoding="utf-8"))


def _mm(text: str) -> float:
    return float(text.removesuffix("mm"))


def _build(cli, game, out, *args):
    r = cli("build", game, "--out", out, *args)
    assert r.code == 0, r.err
    return json.loads((out / "manifest.json").read_text())


def _svg_paths(path, layer):
    """Each path of an SVG layer: (its element, its points in PDF points, y up)."""
    root = ET.parse(path).getroot()
    h = _mm(root.get("height"))
    g = next(g for g in root.iter(f"{SVG}g") if g.get(f"{INKSCAPE}label") == layer)
    out = []
    for p in g.iter(f"{SVG}path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p.get("d"))]
        out.append((p, [(mm(nums[i]), mm(h - nums[i + 1])) for i in range(0, len(nums), 2)]))
    return root, out


def _sampled(ops, n=64):
    """Points along a drawn path (its curves evaluated), on the page."""
    out, at = [], None
    for op, *pts in ops:
        if op in ("M", "L"):
            at = pts[0]
            out.append(at)
        elif op == "C":
            p0, (p1, p2, p3) = at, pts
            for i in range(1, n + 1):
                t = i / n
                u = 1 - t
                out.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                                 for a, b, c, d in zip(p0, p1, p2, p3)))
            at = p3
    return out


def _near(p, points) -> float:
    return min(hypot(p[0] - q[0], p[1] - q[1]) for q in points)


def _off_line(p, line) -> float:
    """How far p lies from a polyline (its segments, not only its points)."""
    best = float("inf")
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                                   / (dx * dx + dy * dy)))
        best = min(best, hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best


def _pdf_cut_lines(drawn):
    return [d for d in drawn if d["kind"] == "path" and d["paint"] == "S" and d["ops"]
            and d["ops"][-1] == ("Z",)]


def _check_sheets(out, entry, page_size):
    """Every sheet of a file: its cut files against its PDF page."""
    pages = drawn_pages(out / entry["path"])
    assert [c["page"] for c in entry["cuts"]] == list(range(1, entry["pages"] + 1))
    for cut in entry["cuts"]:
        drawn = _pdf_cut_lines(pages[cut["page"] - 1])
        root, svg_paths = _svg_paths(out / cut["svg"], "cut")
        # Inkscape's rules: a size in mm, a viewBox of the same mm, cut paths unfilled
        w, h = _mm(root.get("width")), _mm(root.get("height"))
        assert root.get("viewBox") == f"0 0 {w:.4f} {h:.4f}"
        assert (w, h) == pytest.approx(tuple(to_mm(v) for v in page_size), abs=1e-3)
        assert len(svg_paths) == cut["pieces"]
        for element, points in svg_paths:
            assert "fill:none" in element.get("style")
            # the same points, each within 0.05 mm, both ways (a line closed by Z or by its
            # first point again)
            match = [d for d in drawn
                     if max(_near(p, [q for _, *qs in d["ops"] for q in qs]) for p in points)
                     < TOLERANCE and max(_near(q, points) for _, *qs in d["ops"] for q in qs)
                     < TOLERANCE]
            assert match, points[:2]
        # score and fold lines (a tuck box's): each a dashed line the PDF draws
        _, scores = _svg_paths(out / cut["svg"], "score")
        assert len(scores) == cut["scores"]
        dashed = [d for d in pages[cut["page"] - 1] if d["dash"] and d["kind"] == "path"]
        for _, points in scores:
            assert any(len(d["ops"]) == 2 and max(_near(p, [d["ops"][0][1], d["ops"][1][1]])
                                                  for p in points) < TOLERANCE
                       for d in dashed), points
        doc = ezdxf.readfile(out / cut["dxf"])
        assert doc.units == ezdxf.units.MM
        assert {"cut", "score", "regmarks"} <= {layer.dxf.name for layer in doc.layers}
        lines = [e for e in doc.modelspace() if e.dxf.layer == "cut"]
        assert len(lines) == cut["pieces"]
        assert len([e for e in doc.modelspace() if e.dxf.layer == "score"]) == cut["scores"]
        for e in lines:
            assert e.dxftype() == "LWPOLYLINE" and e.closed
            pts = [(mm(x), mm(y)) for x, y in e.get_points("xy")]
            # on the PDF's line: every vertex within 0.05 mm of one drawn cut line
            assert any(max(_off_line(p, _sampled(d["ops"])) for p in pts) < TOLERANCE
                       for d in drawn)


@pytest.mark.parametrize("cutter", ["silhouette", "cricut", "laser"])
def test_every_cut_file_equals_the_pdfs_cut_lines(cli, tmp_path, starter, cutter):
    out = tmp_path / cutter
    manifest = _build(cli, starter, out, "--cutter", cutter)
    page = presets.paper_size("a4") if cutter != "cricut" else (mm(9.25 * 25.4), mm(6.75 * 25.4))
    cut = [f for f in manifest["files"] if "cuts" in f]
    assert cut and all(f["duplex"] == "none" and f["cutter"] == cutter for f in cut)
    for entry in cut:
        _check_sheets(out, entry, page)
    # the tuck box's net too: its outline on "cut", its folds on "score"
    box = next(f for f in cut if f["path"] == "boxes.pdf")
    assert all(c["pieces"] == 1 and c["scores"] > 4 for c in box["cuts"])


@pytest.mark.parametrize("rounded", [False, True])
def test_hexes_discs_and_rounded_corners_keep_their_shapes(cli, tmp_path, rounded):
    from tests.test_shapes import SHAPED, _game

    text = SHAPED.replace('shape = "circle"', 'shape = "rounded"\ncorner = "4mm"') \
        if rounded else SHAPED
    game = _game(cli, tmp_path, text)
    out = tmp_path / "kit"
    manifest = _build(cli, game, out, "--cutter", "silhouette", "--only", "tiles,coins")
    (entry,) = [f for f in manifest["files"] if "cuts" in f]
    _check_sheets(out, entry, presets.paper_size("a4"))
    svgs = [(out / c["svg"]).read_text() for c in entry["cuts"]]
    assert any(" C " in s for s in svgs)  # discs and rounded corners are curves
    _, hexes = _svg_paths(out / entry["cuts"][0]["svg"], "cut")
    assert len(hexes[0][1]) == 6  # a hexagon: six corners, closed by Z


def test_the_laser_cut_lies_half_the_kerf_outside_each_piece(cli, tmp_path, starter):
    out = tmp_path / "laser"
    manifest = _build(cli, starter, out, "--cutter", "laser", "--kerf", "0.4mm")
    entry = next(f for f in manifest["files"] if "cuts" in f)
    _, paths_ = _svg_paths(out / entry["cuts"][0]["svg"], "cut")
    w, h = presets.card_size("poker")
    for _, points in paths_:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        size = sorted([max(xs) - min(xs), max(ys) - min(ys)])
        assert size == pytest.approx(sorted([w + mm(0.4), h + mm(0.4)]), abs=mm(0.01))
    assert "0.2 mm" in (out / "print-guide.txt").read_text()
    assert manifest["cutter"]["kerf_mm"] == 0.4 and manifest["cutter"]["marks"] == []
    out = tmp_path / "fr"
    _build(cli, starter, out, "--cutter", "laser", "--lang", "fr")
    assert "0,05 mm (la moitié du trait du laser)" in (out / "print-guide.txt").read_text()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_silhouette_marks_lie_where_its_data_says(cli, tmp_path, starter, paper):
    out = tmp_path / paper
    manifest = _build(cli, starter, out, "--cutter", "silhouette", "--paper", paper)
    m = {k: _mm(v) for k, v in DATA["silhouette"]["paper"][paper].items()}
    square, arm = _mm(DATA["silhouette"]["square"]), _mm(DATA["silhouette"]["arm"])
    entry = next(f for f in manifest["files"] if "cuts" in f)
    page_h = to_mm(presets.paper_size(paper)[1])
    said = manifest["cutter"]["marks"]
    assert [m["kind"] for m in said] == ["square", "L", "L"]
    assert said[0]["points_mm"][0] == [m["left"], m["top"]]
    assert said[1]["points_mm"][1] == [m["left"] + m["x"], m["top"]]
    assert said[2]["points_mm"][1] == [m["left"], m["top"] + m["y"]]
    assert said[1]["line_mm"] == _mm(DATA["silhouette"]["line"])
    for cut in entry["cuts"]:
        root, marks = _svg_paths(out / cut["svg"], "regmarks")
        got = [[(round(to_mm(x), 3), round(page_h - to_mm(y), 3)) for x, y in pts]
               for _, pts in marks]  # mm from the top-left, as the data gives them
        left, top, right, bottom = m["left"], m["top"], m["left"] + m["x"], m["top"] + m["y"]
        assert got[0][:4] == [(left, top), (left + square, top), (left + square, top + square),
                              (left, top + square)]
        assert got[1] == [(right - arm, top), (right, top), (right, top + arm)]
        assert got[2] == [(left + arm, bottom), (left, bottom), (left, bottom - arm)]
        assert "fill:#000000" in marks[0][0].get("style")
        # the PDF draws the same marks, and every piece lies inside them, clear of
        # their corner squares
        drawn = drawn_pages(out / entry["path"])[cut["page"] - 1]
        filled = [d for d in drawn if d["paint"] in ("f", "f*") and d["kind"] == "path"]
        assert any(max(_near(p, [q for _, *qs in d["ops"] for q in qs]) for p in marks[0][1])
                   < TOLERANCE for d in filled)
        _, pieces = _svg_paths(out / cut["svg"], "cut")
        for _, pts in pieces:
            for x, y in pts:
                x, y = to_mm(x), page_h - to_mm(y)
                assert left < x < right and top + arm < y < bottom - arm


def test_cricut_sheets_are_within_print_then_cut_and_come_as_300_dpi_pngs(cli, tmp_path,
                                                                         starter):
    out = tmp_path / "cricut"
    manifest = _build(cli, starter, out, "--cutter", "cricut")
    from pypdf import PdfReader

    for entry in (f for f in manifest["files"] if "cuts" in f):
        for page in PdfReader(out / entry["path"]).pages:
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            assert w <= 9.25 * 72 + 0.01 and h <= 6.75 * 72 + 0.01
        for cut in entry["cuts"]:
            with Image.open(out / cut["png"]) as picture:
                assert picture.size == (round(9.25 * 300), pytest.approx(6.75 * 300, abs=1))
                assert picture.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_a_piece_too_big_for_the_cutter_is_one_line(cli, tmp_path, starter):
    r = cli("build", starter, "--cutter", "cricut", "--card-size", "180x200mm",
            "--out", tmp_path / "k")
    assert r.code == 2 and "does not fit" in r.err and "Cricut" in r.err
    assert len(r.err.strip().splitlines()) == 1
    r = cli("build", starter, "--cutter", "cricut", "--kerf", "0.1mm", "--out", tmp_path / "k")
    assert r.code == 2 and "--kerf" in r.err


@pytest.mark.parametrize("sheet", ["avery-5160", "avery-5294"])
def test_a_label_sheet_gets_a_lasers_cut_files_on_its_labels(cli, tmp_path, starter, sheet):
    from tests.test_label_sheets import on_sheet

    on_sheet(starter, f'label_sheet = "{sheet}"')
    out = tmp_path / "kit"
    manifest = _build(cli, starter, out, "--cutter", "laser", "--kerf", "0mm")
    entry = next(f for f in manifest["files"] if f.get("sheet") == sheet)
    pages = drawn_pages(out / entry["path"])
    assert [c["page"] for c in entry["cuts"]] == list(range(2, entry["pages"] + 1))
    for cut in entry["cuts"]:
        # each label's clip on the PDF page is its cut path, point for point
        clips = [d for d in pages[cut["page"] - 1] if d["kind"] == "path"
                 and d["paint"] == "clip"]
        _, svg_paths = _svg_paths(out / cut["svg"], "cut")
        assert len(svg_paths) == cut["pieces"] == len(
            [p for p in entry["places"] if p["page"] == cut["page"]])
        for _, points in svg_paths:
            assert any(max(_near(p, [q for _, *qs in d["ops"] for q in qs]) for p in points)
                       < TOLERANCE for d in clips)
        assert ezdxf.readfile(out / cut["dxf"]).units == ezdxf.units.MM
    # a Silhouette's marks would fall on the labels: a label sheet gets none
    manifest = _build(cli, starter, tmp_path / "s", "--cutter", "silhouette")
    labels = next(f for f in manifest["files"] if f.get("sheet") == sheet)
    assert "cuts" not in labels
    assert f"{labels['path']}: a label sheet keeps its own layout" in (
        tmp_path / "s" / "print-guide.txt").read_text()
