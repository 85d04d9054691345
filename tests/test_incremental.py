"""Incremental rebuilds (issue 36): in a watching process, a card face whose digest has
not changed since the last build is not drawn again, its kept drawing is put back; the
PDF renders as a full build of the same data does, and the checks report every face's
problems as a full build does."""

import csv
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageDraw

from companion import kit
from companion.files import kept
from tests.watching import watching as watch_build


def designer_game(folder: Path, rows: int) -> Path:
    """The starter grown to `rows` creature rows of qty 2, with pictures (one too small:
    a low-resolution warning), the two icons and bold in the texts, one text too long
    for its box (a fit problem): its data file."""
    subprocess.run([sys.executable, "-m", "companion", "new", "big", str(folder)], check=True,
                   capture_output=True)
    for i in range(3):
        size = (630, 441) if i else (40, 28)
        im = Image.new("RGB", size, (60 * i, 120, 200 - 40 * i))
        ImageDraw.Draw(im).ellipse((5, 5, size[0] // 2, size[1] // 2), fill=(250, 40, 90))
        im.save(folder / "art" / f"p{i}.jpg", quality=85)
    with open(folder / "cards.csv", encoding="utf-8") as f:
        listed = list(csv.DictReader(f))
    fields = list(listed[0])
    out = [{"kind": "creature", "title": f"Creature {i}", "qty": "2", "points": str(i % 5),
            "text": f"**Strong:** gains :shell: when played; :wave: twice on turn {i % 7}.",
            "icon": ("shell", "wave")[i % 2], "art": f"art/p{i % 3}.jpg"} for i in range(rows)]
    out[5]["text"] = "A text far too long for its box, " * 30
    with open(folder / "cards.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in out + [r for r in listed if r["kind"] != "creature"]:
            w.writerow({k: r.get(k, "") for k in fields})
    return folder / "big.toml"


def edit_row(data: Path, old: str, new: str) -> None:
    path = data.parent / "cards.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def same_pages(a: Path, b: Path) -> list[int]:
    """The pages (from 1) whose text or pixels differ between two PDFs."""
    da, db = pdfium.PdfDocument(a), pdfium.PdfDocument(b)
    assert len(da) == len(db)
    differ = []
    for i in range(len(da)):
        ta, tb = (d[i].get_textpage().get_text_range() for d in (da, db))
        ia, ib = (d[i].render(scale=60 / 72).to_pil().convert("RGB") for d in (da, db))
        if ta != tb or ImageChops.difference(ia, ib).getbbox() is not None:
            differ.append(i + 1)
    return differ


@pytest.fixture
def watching(monkeypatch):
    monkeypatch.setattr(kept, "in_process", {}, raising=False)  # the code before: none


def build(data: Path, out: Path) -> tuple[dict, list[str]]:
    warnings: list[str] = []
    manifest = kit.build(str(data), kit.Options(only=["cards"], out=out),
                         warn=warnings.append)
    return manifest, warnings


def full_build(data: Path, out: Path, monkeypatch) -> tuple[dict, list[str]]:
    """A build drawing every face: nothing kept in this process nor in a cache folder."""
    monkeypatch.setattr(kept, "in_process", None, raising=False)
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(out.parent / f"{out.name}-cache"))
    return build(data, out)


def test_a_changed_row_redraws_only_its_faces_and_prints_as_a_full_build(
        tmp_path, counted, watching, monkeypatch):
    data = designer_game(tmp_path / "big", 40)
    first, _ = build(data, tmp_path / "w")
    fronts = sum(1 for e in first["cards"] if e["id"].startswith("cards/"))
    # A new letter (its glyph new to the PDF's font subset) on one card, and a picture
    # swapped on another.
    edit_row(data, "Creature 7,", "Créature Ω 7,")
    edit_row(data, "twice on turn 4.,2,4,shell,art/p1.jpg",
             "twice on turn 4.,2,4,shell,art/p2.jpg")
    counted.clear()
    manifest, warnings = build(data, tmp_path / "w")
    # Two rows changed: each row's front is drawn once (its second copy is the same
    # drawing), no other front is drawn again; the backs, one form, are drawn again.
    assert sorted(lb for lb in counted if lb.startswith("cards/")) == [
        "cards/creature-4", "cards/creature-7"]
    assert fronts > 80  # of which 78 not drawn again

    full, full_warnings = full_build(data, tmp_path / "f", monkeypatch)
    assert manifest == full
    assert warnings == full_warnings  # the fit and the pictures' checks, every face's
    assert any("does not fit its box" in w for w in warnings)
    assert any("dpi" in w for w in warnings)
    assert same_pages(tmp_path / "w" / "cards.pdf", tmp_path / "f" / "cards.pdf") == []


def test_a_picture_first_printed_by_a_changed_card_is_still_reported_on_the_next(
        tmp_path, watching, monkeypatch):
    """The low-resolution picture p0 is printed by creature-0, 3, 6, 9; once the first two
    take another picture, the kept faces printing p0 still report it, naming the first of
    them, as a full build does (creature-6: its picture was put back, not drawn, in the
    first build, companion.engine.reused)."""
    data = designer_game(tmp_path / "big", 12)
    build(data, tmp_path / "w")
    edit_row(data, "twice on turn 0.,2,0,shell,art/p0.jpg", "twice on turn 0.,2,0,shell,art/p1.jpg")
    edit_row(data, "twice on turn 3.,2,3,wave,art/p0.jpg", "twice on turn 3.,2,3,wave,art/p1.jpg")
    _, warnings = build(data, tmp_path / "w")
    _, full = full_build(data, tmp_path / "f", monkeypatch)
    assert [w for w in full if "p0.jpg" in w and "creature-6" in w]
    assert warnings == full


def test_a_failed_rebuild_keeps_nothing_it_drew(tmp_path, watching, monkeypatch):
    data = designer_game(tmp_path / "big", 12)
    build(data, tmp_path / "w")
    edit_row(data, "Creature 3,", "Créature ẞ 3,")
    from companion.draw import print_sheets

    def broken(*a, **k):
        raise KeyboardInterrupt  # Ctrl+C in the middle of the sheets
    real = print_sheets.cut_lines
    monkeypatch.setattr(print_sheets, "cut_lines", broken)
    with pytest.raises(KeyboardInterrupt):
        build(data, tmp_path / "w")
    monkeypatch.setattr(print_sheets, "cut_lines", real)
    edit_row(data, "Creature 4,", "Créature Ŋ 4,")
    build(data, tmp_path / "w")
    full_build(data, tmp_path / "f", monkeypatch)
    assert same_pages(tmp_path / "w" / "cards.pdf", tmp_path / "f" / "cards.pdf") == []


def test_a_row_changed_under_watch_gives_the_pdf_a_full_build_gives(tmp_path, monkeypatch):
    data = designer_game(tmp_path / "big", 30)
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "watch-cache"))
    with watch_build(str(data), "--only", "cards", "--out", str(tmp_path / "w")) as w:
        n = w.wait_for("watching")
        edit_row(data, "Creature 11,", "Créature Ω 11,")
        w.wait_for("watching", w.wait_for("rebuilding", n))
    full_build(data, tmp_path / "f", monkeypatch)
    pdf = pdfium.PdfDocument(tmp_path / "w" / "cards.pdf")
    assert "Créature Ω 11" in "".join(page.get_textpage().get_text_range() for page in pdf)
    assert same_pages(tmp_path / "w" / "cards.pdf", tmp_path / "f" / "cards.pdf") == []


def test_a_cold_build_of_an_unchanged_game_draws_again_only_to_define_its_pictures(
        tmp_path, counted, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    data = designer_game(tmp_path / "big", 30)
    first, warnings = build(data, tmp_path / "a")
    cold = [lb for lb in counted if lb.startswith("cards/")]
    counted.clear()
    again, warnings_again = build(data, tmp_path / "b")  # as a new run: from the cache
    fronts = [lb for lb in counted if lb.startswith("cards/")]
    # A picture or an icon is defined in a PDF by the first face placing it: that face is
    # drawn again (the first of each of the three pictures, a tide's), no other of 83.
    assert len(fronts) <= 4, fronts
    assert (again, warnings_again) == (first, warnings)
    assert (tmp_path / "b" / "cards.pdf").read_bytes() == \
        (tmp_path / "a" / "cards.pdf").read_bytes()

    for f in (tmp_path / "cache" / "drawings").iterdir():  # damaged: drawn anew
        f.write_bytes(f.read_bytes()[:-50] + b"x" * 50)
    counted.clear()
    build(data, tmp_path / "c")
    assert [lb for lb in counted if lb.startswith("cards/")] == cold
    assert (tmp_path / "c" / "cards.pdf").read_bytes() == \
        (tmp_path / "a" / "cards.pdf").read_bytes()
