"""Label and sticker sheets: each face at its label's place on the sheet's own paper, an
alignment page first, no crop marks; the templates are data (ours and a designer's own,
bounded and checked), and where each label lies is arithmetic checked without drawing."""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from companion.files.data import Fields
from companion.press import label_sheets
from companion.text.units import mm

INCH = 72


def test_avery_5160_is_a_letter_sheet_of_30_labels_3_16_and_1_2_inch_in():
    s = label_sheets.find("avery-5160", None, None)
    assert s.paper == (8.5 * INCH, 11 * INCH)
    assert s.per_sheet == 30
    first, last = s.places[0], s.places[-1]
    assert (first.x, first.top, first.w, first.h) == (13.5, 756, 189, 72)
    # 3 across at a 2 3/4 in pitch, 10 down at 1 in: the last label 1/2 in off the foot
    assert (last.x, last.y) == (13.5 + 2 * 2.75 * INCH, 0.5 * INCH)
    assert s.shape.kind == "rounded"
    assert s.paper[0] - max(b.right for b in s.places) == 13.5  # 3/16 in on the right too
    assert min(b.y for b in s.places) == 36  # and 1/2 in at the foot


def test_avery_l7160_is_an_a4_sheet_of_21_labels_centred():
    s = label_sheets.find("avery-l7160", None, None)
    assert s.paper == pytest.approx((mm(210), mm(297)))
    assert s.per_sheet == 21
    assert (s.places[0].w, s.places[0].h) == pytest.approx((mm(63.5), mm(38.1)))
    left = s.places[0].x
    right = s.paper[0] - max(b.right for b in s.places)
    top = s.paper[1] - s.places[0].top
    bottom = min(b.y for b in s.places)
    assert left == pytest.approx(right, abs=mm(0.01)) and top == pytest.approx(bottom)


@pytest.mark.parametrize("name,paper", [("avery-5294", (612, 792)),
                                        ("hama-50151", (mm(210), mm(297)))])
def test_a_round_label_sheet_in_letter_and_in_a4(name, paper):
    s = label_sheets.find(name, None, None)
    assert s.paper == pytest.approx(paper)
    assert s.shape.kind == "circle"
    assert all(b.w == b.h for b in s.places)


@pytest.mark.parametrize("name", label_sheets.names())
def test_every_bundled_label_lies_on_its_paper_and_over_no_other(name):
    s = label_sheets.find(name, None, None)
    for i, a in enumerate(s.places):
        assert 0 <= a.x and a.right <= s.paper[0] + 0.01
        assert 0 <= a.y and a.top <= s.paper[1] + 0.01
        for b in s.places[i + 1:]:
            assert a.right <= b.x + 0.01 or b.right <= a.x + 0.01 or \
                a.top <= b.y + 0.01 or b.top <= a.y + 0.01


def own(table: dict):
    return label_sheets.template("mine", Fields(table, "game.toml", "label_sheets.mine"))


@settings(max_examples=60, deadline=None)
@given(cols=st.integers(1, 6), rows=st.integers(1, 8), w=st.integers(50, 600),
       h=st.integers(50, 600), gx=st.integers(0, 100), gy=st.integers(0, 100),
       left=st.integers(0, 200), top=st.integers(0, 200))
def test_a_grid_places_row_by_row_from_the_top_left(cols, rows, w, h, gx, gy, left, top):
    w, h, gx, gy, left, top = (v / 10 for v in (w, h, gx, gy, left, top))  # tenths of mm
    assume(left + cols * (w + gx) <= 400 and top + rows * (h + gy) <= 500)  # on the paper
    table = {"paper": "400x500mm", "label": f"{w}x{h}mm", "cols": cols, "rows": rows,
             "left": f"{left}mm", "top": f"{top}mm", "pitch": f"{w + gx}x{h + gy}mm"}
    s = own(table)
    assert s.per_sheet == cols * rows
    for r in range(rows):
        for c in range(cols):
            b = s.places[r * cols + c]
            assert b.x == pytest.approx(mm(left + c * (w + gx)), abs=1e-6)
            assert s.paper[1] - b.top == pytest.approx(mm(top + r * (h + gy)), abs=1e-6)


def test_a_designers_sheet_may_list_its_places():
    s = own({"paper": "100x100mm", "label": "20x20mm", "shape": "circle",
             "places": [{"x": "10mm", "y": "10mm"}, {"x": "60mm", "y": "70mm"}]})
    assert [(round(b.x / mm(1), 6), round(b.y / mm(1), 6)) for b in s.places] == [
        (10, 70), (60, 10)]


HOSTILE = [
    ({"cols": 1000, "rows": 1}, "cols"),
    ({"cols": 30, "rows": 30}, "rows"),
    ({"cols": 0}, "cols"),
    ({"cols": True}, "cols"),
    ({"cols": "3"}, "cols"),
    ({"pitch": "10x20mm"}, "pitch"),  # less than a label: overlapping
    ({"left": "190mm"}, "pitch"),  # off the paper
    ({"left": "-1mm"}, "left"),
    ({"label": "0x20mm"}, "label"),
    ({"paper": "5000x5000mm"}, "paper"),
    ({"shape": "star"}, "shape"),
    ({"shape": "rounded", "corner": "30mm"}, "corner"),
    ({"corner": "1mm"}, "corner"),
    ({"colour": "red"}, "colour"),
    ({"places": [{"x": "0mm", "y": "0mm"}]}, "cols"),  # a grid and places both
]


@pytest.mark.parametrize("change,field", HOSTILE)
def test_a_bad_sheet_is_refused_naming_its_field(change, field):
    from companion.errors import CompanionError

    table = {"paper": "210x297mm", "label": "50x20mm", "cols": 3, "rows": 10,
             "left": "10mm", "top": "10mm", "pitch": "60x25mm", **change}
    with pytest.raises(CompanionError) as e:
        own(table)
    assert f"label_sheets.mine.{field}" in str(e.value)


@pytest.mark.parametrize("name", ["../../evil", "a/b", "", ".hidden", "x" * 65, "é"])
def test_a_sheet_name_is_no_path(name):
    from companion.errors import CompanionError

    with pytest.raises(CompanionError) as e:
        label_sheets.template(name, Fields({"paper": "100x100mm", "label": "20x20mm",
                                            "places": [{"x": "0mm", "y": "0mm"}]},
                                           "game.toml", f"label_sheets.{name}"))
    assert "no sheet name" in str(e.value)


@pytest.mark.parametrize("places,what", [
    ([{"x": "0mm", "y": "0mm"}] * 501, "places"),
    ([{"x": "0mm", "y": "0mm"}, {"x": "10mm", "y": "10mm"}], "overlap"),
    ([{"x": "90mm", "y": "0mm"}], "runs off"),
    ([{"x": "0mm", "y": "0mm", "z": "1mm"}], "z"),
    ([], "places"),
])
def test_a_bad_list_of_places_is_refused(places, what):
    from companion.errors import CompanionError

    with pytest.raises(CompanionError) as e:
        own({"paper": "100x100mm", "label": "20x20mm", "places": places})
    assert what in str(e.value)


def on_sheet(starter, line: str) -> None:
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('id_else = "aid"\n', f'id_else = "aid"\n{line}\n'),
                       encoding="utf-8")


def test_the_starters_aids_on_avery_5160(tmp_path, cli, starter):
    on_sheet(starter, 'label_sheet = "avery-5160"')
    r = cli("build", starter, "--out", tmp_path / "kit")  # on A4: the sheet has its paper
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f.get("sheet") == "avery-5160")
    first = entry["places"][0]
    assert (first["page"], first["x"], first["y"] + first["h"], first["w"], first["h"]) == (
        2, 13.5, 756, 189, 72)  # page 1 is the alignment page
    assert len(entry["places"]) == 4 == entry["components"][0]["count"]
    assert len({(p["x"], p["y"]) for p in entry["places"]}) == 4
    pdf = PdfReader(tmp_path / "kit" / entry["path"])
    assert len(pdf.pages) == entry["pages"] == 2
    assert all((float(p.mediabox.width), float(p.mediabox.height)) == (612, 792)
               for p in pdf.pages)
    assert "Alignment page: Avery 5160" in pdf.pages[0].extract_text()
    assert not any(f.get("sheet") for f in manifest["files"] if f["path"] == "cards.pdf")
    guide = (tmp_path / "kit" / "print-guide.txt").read_text(encoding="utf-8")
    assert "Avery 5160 sheets" in guide


def test_each_face_is_drawn_where_the_manifest_says(tmp_path, cli, starter):
    """The PDF's placements (each face's cm operator) are the manifest's places."""
    import re

    on_sheet(starter, 'label_sheet = "avery-5160"')
    assert cli("build", starter, "--out", tmp_path / "kit").code == 0
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f.get("sheet"))
    pdf = PdfReader(tmp_path / "kit" / entry["path"])
    for n, page in enumerate(pdf.pages, 1):
        ops = page.get_contents().get_data().decode("latin-1")
        drawn = [(float(x), float(y)) for x, y in
                 re.findall(r"1 0 0 1 ([-\d.]+) ([-\d.]+) cm", ops) if (x, y) != ("0", "0")]
        listed = [(p["x"], p["y"]) for p in entry["places"] if p["page"] == n]
        if n == 1:  # the alignment page: outlines, no faces
            assert not listed
        else:
            assert drawn == listed


def test_no_crop_marks_on_a_label_page(tmp_path, cli, starter):
    """Crop marks are 0.5 pt lines drawn in black by the sheets; a label page has none."""
    on_sheet(starter, 'label_sheet = "avery-5160"')
    assert cli("build", starter, "--out", tmp_path / "kit").code == 0
    pdf = PdfReader(tmp_path / "kit" / "labels-avery-5160.pdf")
    content = pdf.pages[1].get_contents().get_data().decode("latin-1")
    assert "0 G" not in content and ".5 w" not in content
    cards = PdfReader(tmp_path / "kit" / "cards.pdf").pages[0].get_contents().get_data()
    assert b".5 w" in cards  # the same check finds the marks where there are some


def test_a_label_sheets_file_holds_only_its_labels(tmp_path, cli, starter):
    """A component after the labels naming their file is refused, not lost."""
    on_sheet(starter, 'label_sheet = "avery-5160"')
    starter.write_text(starter.read_text(encoding="utf-8") + """
[components.more]
kind = "aid"
cards = "aid"
file = "labels-avery-5160.pdf"
""", encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "components.more.file" in r.err and "label sheet" in r.err


def test_a_page_goes_on_no_label_sheet(tmp_path, cli, starter):
    starter.write_text(starter.read_text(encoding="utf-8") + """
[components.notes]
kind = "aid"
cards = "aid"
page = true
label_sheet = "avery-5160"
""", encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "components.notes.label_sheet" in r.err


def test_a_designers_own_round_sheet(tmp_path, cli, starter):
    on_sheet(starter, 'label_sheet = "dots"')
    starter.write_text(starter.read_text(encoding="utf-8") + """
[label_sheets.dots]
name = "Dots"
paper = "100x100mm"
label = "30x30mm"
shape = "circle"
places = [{ x = "5mm", y = "5mm" }, { x = "60mm", y = "60mm" }]
""", encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f.get("sheet") == "dots")
    assert entry["pages"] == 3  # alignment, then 4 aids two a sheet
    assert [(p["page"], round(p["x"] / mm(1), 3)) for p in entry["places"]] == [
        (2, 5), (2, 60), (3, 5), (3, 60)]


@pytest.mark.parametrize("line,field", [
    ('label_sheet = "avery-9999"', "components.aids.label_sheet"),
    ('label_sheet = "avery-5160"\nshape = "circle"', "components.aids.shape"),
    ('label_sheet = "avery-5160"\nsize = "63x88mm"', "components.aids.size"),
    ('label_sheet = "avery-5160"\nfile = "cards.pdf"', "components.aids.file"),
])
def test_a_bad_sheet_on_a_component_is_one_line_exit_2(tmp_path, cli, starter, line, field):
    on_sheet(starter, line)
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert field in r.err and "Traceback" not in r.err
    assert not (tmp_path / "kit").exists()


def test_a_second_side_prints_as_a_label_of_its_own(tmp_path, cli):
    """Covenia's aids hold words on both sides: on labels, 4 fronts then 4 second sides."""
    from companion.files import paths

    data = tmp_path / "covenia.toml"
    text = paths.layout("covenia.toml").read_text(encoding="utf-8")
    data.write_text(text.replace('id_else = "aid"\n', 'id_else = "aid"\nlabel_sheet = "avery-l7160"\n',
                                 1), encoding="utf-8")
    r = cli("build", "covenia", "--data", data, "--only", "aids", "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f.get("sheet") == "avery-l7160")
    assert [p["id"] for p in entry["places"]] == [
        "aid", "aid-2", "aid-3", "aid-4", "aid-back", "aid-back-2", "aid-back-3", "aid-back-4"]
    for p in entry["places"]:
        assert (p["w"], p["h"]) == (pytest.approx(mm(63.5), abs=1e-3),
                                    pytest.approx(mm(38.1), abs=1e-3))


def test_the_docs_sheets_are_valid_sheets():
    """Each [label_sheets.NAME] the reference shows is a sheet the build takes."""
    import re
    import tomllib
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "labels-boxes-decklist.md")
    blocks = re.findall(r"```toml\n(\[label_sheets\..*?)```", doc.read_text(encoding="utf-8"),
                        re.DOTALL)
    assert len(blocks) == 2
    for block in blocks:
        (name, table), = tomllib.loads(block)["label_sheets"].items()
        assert label_sheets.template(name, Fields(table, "doc", f"label_sheets.{name}")).places
