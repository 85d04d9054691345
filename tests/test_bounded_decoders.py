"""Pictures and workbooks are decoded under one bound (issue 30): pillow's decoding of a
picture entering the image cache, and a workbook's checks and calamine's read, run in a
worker process (companion.files.bounded) with a deadline and a memory limit. A decoder that
hangs or allocates without end (simulated: pillow or calamine patched here, the patch
inherited by the forked worker) is one CompanionError naming the file within the
(shortened) deadline, and through the CLI one line and exit 2; a picture already in the
cache starts no worker and decodes nothing.

The patched decoders misbehave only in a worker: run in the build's own process (the code
before the bound) they fail the test at once rather than hang it."""

import csv
import os
import struct
import time
import zlib

import pytest
from PIL import Image

from companion.files import bounded, images, spreadsheet
from companion.errors import CompanionError

PARENT = os.getpid()


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    """An empty cache, nothing remembered from another test, one-second deadlines."""
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(images, "_seen", {})
    monkeypatch.setattr(images, "_digests", {})
    monkeypatch.setattr(images, "_refused", {}, raising=False)
    monkeypatch.setattr(images, "SECONDS", 1.0, raising=False)
    monkeypatch.setattr(spreadsheet, "SECONDS", 1.0, raising=False)


def _in_worker() -> None:
    if os.getpid() == PARENT:
        raise AssertionError("decoded in the build's own process, unbounded")


def _hang(*args, **kwargs):
    _in_worker()
    ends = time.monotonic() + 120  # a library's loop that (nearly) never ends: a broken
    while time.monotonic() < ends:  # deadline fails the test rather than hanging it
        pass


def _hog(*args, **kwargs):
    _in_worker()
    held = []
    while True:  # a library's allocations that never end
        held.append(bytes(200_000_000))  # calloc: address space taken, no page touched


class _Calamine:
    """Stands for python_calamine.CalamineWorkbook, its loader misbehaving."""

    def __init__(self, misbehave):
        self.from_filelike = misbehave


def _workers(monkeypatch) -> list:
    """The workers started from now on (the functions they ran)."""
    started = []
    real = bounded.run

    def counted(func, *args, **kwargs):
        started.append(func)
        return real(func, *args, **kwargs)
    monkeypatch.setattr(bounded, "run", counted)
    return started


def picture_file(folder, name="art.png", size=(120, 80)):
    folder.mkdir(parents=True, exist_ok=True)
    Image.new("RGBA", size, (200, 60, 30, 128)).save(folder / name)
    return folder / name


def workbook(path):
    spreadsheet.write(path, {"Cards": [["id", "name"], ["a", "Alpha"], ["b", "Beta"]]})
    return path


def ods(path):
    """A small ODS of the same cells (id, name; a, Alpha; b, Beta)."""
    import zipfile

    def row(*cells):
        return "<table:table-row>" + "".join(
            f'<table:table-cell office:value-type="string"><text:p>{c}</text:p>'
            "</table:table-cell>" for c in cells) + "</table:table-row>"
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
               'office:version="1.2"><office:body><office:spreadsheet>'
               '<table:table table:name="Cards">' + row("id", "name") + row("a", "Alpha")
               + row("b", "Beta") + "</table:table></office:spreadsheet></office:body>"
               "</office:document-content>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument."
                                                "spreadsheet")
        z.writestr("content.xml", content)
    return path


def read_sheet(path):
    return spreadsheet.read({"spreadsheet": path.name}, path.parent, "game.toml", "cards")


# ---- pictures -----------------------------------------------------------------------------

def test_a_picture_decoder_that_hangs_is_stopped_at_the_deadline_naming_the_file(
        tmp_path, monkeypatch):
    pic = picture_file(tmp_path)
    monkeypatch.setattr("PIL.Image.open", _hang)
    started = _workers(monkeypatch)
    with pytest.raises(CompanionError) as e:
        images.picture(pic)
    assert e.value.source == str(pic) and "takes over 1 s" in e.value.message
    assert "\n" not in e.value.line()
    # Asked again (a --draft build: every card showing it), it is refused without a worker.
    with pytest.raises(CompanionError) as again:
        images.picture(pic)
    assert again.value.line() == e.value.line() and len(started) == 1


def test_a_picture_decoder_that_allocates_without_end_is_refused_naming_the_file(
        tmp_path, monkeypatch):
    pic = picture_file(tmp_path)
    monkeypatch.setattr("PIL.ImageFile.ImageFile.load", _hog)
    with pytest.raises(CompanionError) as e:
        images.picture(pic)
    assert e.value.source == str(pic)
    assert f"needs over {images.MEMORY // 1_000_000:,} MB" in e.value.message


def test_a_png_of_millions_of_empty_chunks_is_refused_at_the_deadline(tmp_path):
    """No patch: pillow itself reads a chunk it does not know one by one in Python and
    keeps each: 2 million in 24 MB take 7 s and 280 MB unbounded; 16 million in 192 MB,
    over 2 minutes and 2 GB."""
    small = tmp_path / "small.png"
    Image.new("RGB", (8, 8), (9, 99, 199)).save(small)
    png, end = small.read_bytes(), 8 + 25  # the signature and IHDR
    empty = struct.pack(">I", 0) + b"zzZz" + struct.pack(">I", zlib.crc32(b"zzZz"))
    pic = tmp_path / "chunks.png"
    pic.write_bytes(png[:end] + empty * 2_000_000 + png[end:])
    with pytest.raises(CompanionError) as e:
        images.picture(pic)
    assert e.value.source == str(pic) and "takes over 1 s" in e.value.message


def test_a_picture_already_in_the_cache_starts_no_worker_and_decodes_nothing(
        tmp_path, monkeypatch):
    pics = [picture_file(tmp_path, "clear.png"),  # converted to a .flate file
            picture_file(tmp_path, "opaque.png", (90, 60))]
    exif = Image.Exif()
    exif[0x010F] = "a camera"
    Image.new("RGB", (64, 48), (10, 90, 200)).save(  # copied as it is, segments and all
        tmp_path / "photo.jpg", exif=exif.tobytes(), icc_profile=b"\0" * 150_000,
        comment=b"shot at dawn")
    pics.append(tmp_path / "photo.jpg")
    started = _workers(monkeypatch)
    cold = [images.picture(p) for p in pics]
    assert len(started) == 3 and {f.__name__ for f in started} == {"_decoded"}
    monkeypatch.setattr(images, "_seen", {})  # a new build
    monkeypatch.setattr(images, "_digests", {})
    monkeypatch.setattr("PIL.Image.open", lambda *a, **k: pytest.fail("decoded again"))
    assert [images.picture(p) for p in pics] == cold
    assert len(started) == 3
    assert [(p.width, p.height) for p in cold] == [(120, 80), (90, 60), (64, 48)]


def test_a_damaged_cache_file_is_looked_at_by_the_worker_not_trusted(tmp_path, monkeypatch):
    """A cached file whose size cannot be read (a .flate file's first line) gives no size:
    the worker decides."""
    pic = picture_file(tmp_path)
    cold = images.picture(pic)
    with open(cold.path, "r+b") as f:
        f.write(b"\0" * 8)  # the first line's first bytes
    monkeypatch.setattr(images, "_seen", {})
    started = _workers(monkeypatch)
    assert images.picture(pic) == cold and len(started) == 1


# ---- spreadsheets ---------------------------------------------------------------------------

@pytest.mark.parametrize("ext", ["xlsx", "ods"])
def test_a_spreadsheet_reader_that_hangs_is_stopped_at_the_deadline_naming_the_file(
        tmp_path, monkeypatch, ext):
    sheet = (workbook if ext == "xlsx" else ods)(tmp_path / f"cards.{ext}")
    monkeypatch.setattr("python_calamine.CalamineWorkbook", _Calamine(_hang))
    with pytest.raises(CompanionError) as e:
        read_sheet(sheet)
    assert e.value.source == str(sheet) and "takes over 1 s" in e.value.message


def test_a_spreadsheet_reader_that_allocates_without_end_is_refused_naming_the_file(
        tmp_path, monkeypatch):
    sheet = workbook(tmp_path / "cards.xlsx")
    monkeypatch.setattr("python_calamine.CalamineWorkbook", _Calamine(_hog))
    with pytest.raises(CompanionError) as e:
        read_sheet(sheet)
    assert e.value.source == str(sheet)
    assert f"needs over {spreadsheet.MEMORY // 1_000_000:,} MB" in e.value.message


def test_a_workbook_is_read_in_a_worker_and_its_checks_keep_their_words(tmp_path,
                                                                        monkeypatch):
    sheet = workbook(tmp_path / "cards.xlsx")
    started = _workers(monkeypatch)
    rows = read_sheet(sheet)
    assert [r["name"] for r in rows] == ["Alpha", "Beta"] and len(started) == 1
    with pytest.raises(CompanionError) as e:  # a check's refusal: its source and field
        spreadsheet.read({"spreadsheet": "cards.xlsx", "tab": "Nope"}, tmp_path, "g.toml", "cards")
    assert (e.value.source, e.value.field) == (str(sheet), "tab")
    assert e.value.message == 'no tab "Nope" (tabs: Cards)'


# ---- through the CLI ------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["picture", "spreadsheet"])
def test_through_the_cli_a_hanging_decoder_is_one_line_and_exit_2(starter, cli, monkeypatch,
                                                                   what):
    folder = starter.parent
    text = starter.read_text(encoding="utf-8")
    if what == "picture":
        picture_file(folder / "art", "back.png", (300, 420))
        starter.write_text(text + '\n[art]\nback = "art/back.png"\n', encoding="utf-8")
        monkeypatch.setattr("PIL.Image.open", _hang)
        named = folder / "art" / "back.png"
    else:
        with open(folder / "cards.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        spreadsheet.write(folder / "cards.xlsx", {"Cards": rows})
        starter.write_text(text.replace('spreadsheet = "cards.csv"', 'spreadsheet = "cards.xlsx"'),
                           encoding="utf-8")
        monkeypatch.setattr("python_calamine.CalamineWorkbook", _Calamine(_hang))
        named = folder / "cards.xlsx"
    r = cli("build", starter, "--out", folder / "kit")
    assert r.code == 2, r
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: "), r
    assert str(named) in lines[0] and "takes over 1 s" in lines[0], r
    assert not (folder / "kit").exists()
