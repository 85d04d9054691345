"""A designer's TTF fonts made by a careless or hostile designer (issue 30): a character map
of a few kilobytes whose ranges overlap (minutes and gigabytes of reportlab's parse), one
group spanning every 32-bit code, 20,000 groups; composite glyphs that make a PDF's subset
walk every glyph after them (minutes at the save); a map to glyphs the font lacks. Each is
one line naming the file within a few seconds, never a traceback, never a kit. A font whose
file names itself DejaVuSans prints as itself, and never in place of our DejaVuSans.

The fonts are made here: minimal TTFs of the tables reportlab reads, or a bundled font with
a table replaced."""

import hashlib
import struct
import sys
import time

import pytest
from pypdf import PdfReader

from companion.files import bounded, paths
from companion.press import fonts
from companion.errors import CompanionError
from tests.capped import refused_in_one_line, run

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="setrlimit: POSIX")

SECONDS = 2  # the bound's deadline in these tests: a hostile font costs minutes without it


# Minimal TrueType files -----------------------------------------------------------------

def sfnt(tables: dict[str, bytes]) -> bytes:
    """A TrueType file of `tables` (no checksums: reportlab does not check them)."""
    tags = sorted(tables)
    head = bytearray(struct.pack(">IHHHH", 0x00010000, len(tags), 0, 0, 0))
    body = bytearray()
    start = 12 + 16 * len(tags)
    for tag in tags:
        data = tables[tag]
        head += struct.pack(">4sIII", tag.encode("latin-1"), 0, start + len(body), len(data))
        body += data + bytes(-len(data) % 4)
    return bytes(head + body)


def name_table(ps_name: str) -> bytes:
    """A name table giving `ps_name` as the family and PostScript names (Windows, UTF-16)."""
    text = ps_name.encode("utf-16-be")
    records = [(3, 1, 0x409, name_id, len(text), 0) for name_id in (1, 6)]
    return (struct.pack(">HHH", 0, len(records), 6 + 12 * len(records))
            + b"".join(struct.pack(">6H", *r) for r in records) + text)


def cmap_4(segments: list[tuple[int, int]], deltas: list[int] | None = None) -> bytes:
    """A format 4 character map of `segments` (first, last), each segment's characters to
    glyphs 1, 2, 3... unless `deltas` say what to add to its codes."""
    segments = [*segments, (0xFFFF, 0xFFFF)]
    n = len(segments)
    starts = [a for a, _ in segments]
    deltas = [(1 - a + 0x8000) % 0x10000 - 0x8000 for a in starts] if deltas is None \
        else [*deltas, 1]
    ends = [b for _, b in segments]
    body = (struct.pack(">4H", 2 * n, 0, 0, 0) + struct.pack(f">{n}H", *ends) + b"\0\0"
            + struct.pack(f">{n}H", *starts) + struct.pack(f">{n}h", *deltas) + bytes(2 * n))
    return (struct.pack(">HHHHI", 0, 1, 3, 1, 12)
            + struct.pack(">HHH", 4, min(6 + len(body), 0xFFFF), 0) + body)


def cmap_groups(fmt: int, groups: list[tuple[int, int, int]]) -> bytes:
    """A format 12 or 13 character map of `groups` (first, last, glyph)."""
    return (struct.pack(">HHHHI", 0, 1, 3, 10, 12)
            + struct.pack(">HHIII", fmt, 0, 16 + 12 * len(groups), 0, len(groups))
            + b"".join(struct.pack(">III", *g) for g in groups))


def ttf(cmap: bytes, glyphs: int = 2, glyf: bytes = b"", loca: list[int] | None = None,
        ps_name: str = "Hostile") -> bytes:
    """A TrueType font reportlab reads: `glyphs` glyphs 600 units wide, empty unless
    `glyf` and its `loca` (long offsets) are given."""
    long_loca = loca is not None
    head = struct.pack(">IIIIHHqqhhhhHHhhh", 0x10000, 0x10000, 0, 0x5F0F3CF5, 0, 1000, 0, 0,
                       0, -200, 1000, 800, 0, 8, 2, int(long_loca), 0)
    hhea = struct.pack(">I15hH", 0x10000, 800, -200, 0, 1000, *([0] * 11), glyphs)
    os2 = (struct.pack(">HhHHH", 0, 500, 400, 5, 0) + bytes(58)
           + struct.pack(">hh", 800, -200) + bytes(14))
    return sfnt({
        "head": head, "hhea": hhea, "maxp": struct.pack(">IH", 0x10000, glyphs) + bytes(26),
        "OS/2": os2, "post": struct.pack(">IIhhI", 0x30000, 0, -100, 50, 0) + bytes(16),
        "name": name_table(ps_name), "cmap": cmap, "hmtx": struct.pack(">HH", 600, 0) * glyphs,
        "loca": (struct.pack(f">{glyphs + 1}I", *loca) if long_loca
                 else bytes(2 * (glyphs + 1))),
        "glyf": glyf})


def composite_chain(glyphs: int) -> tuple[bytes, list[int]]:
    """Glyph data (and offsets, ascending) where reading a glyph's components runs on into
    every glyph after it, each naming the next: a subset holding one of them walks them
    all, and each of them again (quadratic in the glyphs)."""
    def glyph(i: int, flags: int) -> bytes:
        after = min(i + 1, glyphs - 1)
        # Read as a component record from its start, its header says "more components,
        # glyph `after`" too.
        return struct.pack(">hHhhh", -1, after, 0, 0, 0) + struct.pack(">HHBB", flags, after,
                                                                        0, 0)
    data = b"".join(glyph(i, 0x20) for i in range(glyphs - 1)) + glyph(glyphs - 1, 0)
    return data, [16 * i for i in range(glyphs + 1)]


def replace_table(raw: bytes, tag: str, data: bytes) -> bytes:
    """The font `raw` with its table `tag` replaced by `data` (appended at its end)."""
    (count,) = struct.unpack_from(">H", raw, 4)
    out = bytearray(raw + bytes(-len(raw) % 4))
    for i in range(count):
        entry = 12 + 16 * i
        if raw[entry:entry + 4] == tag.encode("latin-1"):
            struct.pack_into(">II", out, entry + 8, len(out), len(data))
            return bytes(out + data)
    raise KeyError(tag)


EVERY_CHARACTER = [(0x20, 0x20)] + [(0, 0xFFFE)] * 1000  # 8 KB; 66 s and 3.3 GB before
HOSTILE = {
    "format 4, overlapping segments": lambda: ttf(cmap_4(EVERY_CHARACTER)),
    "format 13, every 32-bit code": lambda: ttf(cmap_groups(13, [(0x20, 0x20, 1),
                                                                 (0, 0xFFFFFFFF, 1)])),
    "format 12, 20,000 groups": lambda: ttf(cmap_groups(12, [(0x20, 0x20, 1)]
                                                        + [(0, 0x10FFFF, 1)] * 20_000)),
}


# Helpers --------------------------------------------------------------------------------

@pytest.fixture
def quick(monkeypatch, tmp_path):
    """The bound's deadline made SECONDS (and its memory 500 MB), an empty cache; counts
    the workers started. (bounded.run's defaults are taken when it is defined: setting
    bounded.SECONDS would not reach them.)"""
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    started = []
    real = bounded.run

    def run_quickly(*args, **kwargs):
        started.append(kwargs.get("source"))
        return real(*args, **{**kwargs, "seconds": SECONDS, "memory": 500_000_000})
    monkeypatch.setattr(bounded, "run", run_quickly)
    return started


def refused(tmp_path, raw: bytes) -> CompanionError:
    """The error a designer's font `raw` (fonts/Display.ttf) stops a build with."""
    path = tmp_path / "fonts" / "Display.ttf"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(raw)
    with pytest.raises(CompanionError) as e:
        fonts._game_font("title", path, raw)
    return e.value


def use_font(starter, raw: bytes, file: str = "fonts/Display.ttf") -> None:
    """The starter game printing its card titles in the font `raw`."""
    (starter.parent / file).parent.mkdir(exist_ok=True)
    (starter.parent / file).write_bytes(raw)
    text = starter.read_text(encoding="utf-8")
    text = text.replace("[icons]", f'[fonts]\ntitle = "{file}"\n\n[icons]', 1)
    text = text.replace('size = 0.075\nfont = "bold"', 'size = 0.075\nfont = "title"', 1)
    starter.write_text(text, encoding="utf-8")


def one_line(r, *words) -> None:
    assert r.code == 2 and "Traceback" not in r.err, r.err
    assert r.err.count("\n") == 1 and r.err.startswith("companion: "), r.err
    for w in words:
        assert w in r.err, (w, r.err)


# Character maps of overlapping ranges ---------------------------------------------------

@pytest.mark.parametrize("kind", HOSTILE)
def test_a_character_map_of_overlapping_ranges_is_one_line_before_any_parse(
        tmp_path, quick, kind):
    line = refused(tmp_path, HOSTILE[kind]()).line()
    assert "\n" not in line and line.startswith(str(tmp_path / "fonts" / "Display.ttf") + ": ")
    assert "character map (cmap) lists over 1,114,112 characters" in line, line
    assert quick == []  # no worker: the check needs no parse


def test_the_check_reads_no_more_ranges_than_the_map_has_bytes_for():
    # 12-byte units, each the head of a format 12 subtable whose groups are the units after
    # it (first 1, last 0: no character): 60,000 subtables, 1.8 billion groups to read.
    units = 60_000
    unit = struct.pack(">HHII", 12, 0, 1, 0)
    at = 4 + 8 * units
    cmap = (struct.pack(">HH", 0, units)
            + b"".join(struct.pack(">HHI", 3, 10, at + 12 * i) for i in range(units))
            + unit * units + bytes(4))
    start = time.process_time()  # CPU, not wall clock: a loaded machine does not fail it
    assert fonts._mapped(ttf(cmap)) == 0
    assert time.process_time() - start < 5  # reading every group: hours


@pytest.mark.parametrize("kind", HOSTILE)
def test_the_bound_alone_stops_them_in_seconds(tmp_path, quick, monkeypatch, kind):
    monkeypatch.setattr(fonts, "_mapped", lambda raw: 0)  # as if the check missed them
    line = refused(tmp_path, HOSTILE[kind]()).line()
    assert "\n" not in line and line.startswith(str(tmp_path / "fonts" / "Display.ttf") + ": ")
    assert f"takes over {SECONDS} s to read" in line or "needs over 500 MB" in line, line
    assert len(quick) == 1


@pytest.mark.parametrize("kind", HOSTILE)
def test_companion_build_refuses_them_in_one_line_quickly(tmp_path, kind):
    (tmp_path / "home").mkdir()
    r = run(tmp_path / "home", "new", "Moth Lanterns")
    assert r.code == 0, r
    starter = tmp_path / "home" / "moth-lanterns" / "moth-lanterns.toml"
    use_font(starter, HOSTILE[kind]())
    r = run(tmp_path / "home", "build", str(starter), "--out", str(tmp_path / "kit"),
            env={"TABLE_COMPANION_CACHE": str(tmp_path / "cache")})
    refused_in_one_line(r, "fonts/Display.ttf: ", "character map (cmap)")
    assert r.cpu < 10 and r.peak_mb < 300, r  # before: minutes and gigabytes
    assert not (tmp_path / "kit").exists()


# Glyphs a PDF's subset cannot take ------------------------------------------------------

def test_composite_glyphs_that_make_a_subset_explode_are_refused_before_the_save(
        starter, cli, tmp_path, quick):
    glyf, loca = composite_chain(4000)  # a 96 KB file: 10 s at each save before; 65,535: hours
    use_font(starter, ttf(cmap_4([(0x20, 0x7E)]), glyphs=4000, glyf=glyf, loca=loca))
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    one_line(r, "fonts/Display.ttf: ", f"this font takes over {SECONDS} s to read")
    assert not (tmp_path / "kit").exists()


@pytest.mark.parametrize("raw, words", [
    # Saving the PDF looked glyph 34 up in a font of 2: an IndexError's traceback, before.
    (lambda: ttf(cmap_4([(0x20, 0x20), (0x21, 0x7E)], deltas=[1 - 0x20, 1])),
     "its character map (cmap) gives U+0021 glyph 34, past its 2 glyphs"),
    (lambda: ttf(cmap_4([(0x20, 0x20)]), glyphs=3, glyf=bytes(64), loca=[0, 32, 16, 48]),
     "its glyph locations (loca) go backwards: glyphs overlap"),
    # A composite glyph whose components run past its end: struct.error at the save.
    (lambda: ttf(cmap_4([(0x20, 0x20)]), glyf=struct.pack(">5h2H", -1, 0, 0, 0, 0, 0x20, 1)
                 + bytes(2), loca=[0, 0, 16]),
     "its glyphs cannot be put in a PDF (unpack requires a buffer of 2 bytes)"),
], ids=["cmap past the glyphs", "loca backwards", "composite cut short"])
def test_glyphs_a_subset_cannot_take_are_one_line_naming_the_file(tmp_path, quick, raw,
                                                                  words):
    error = refused(tmp_path, raw())
    line = error.line()
    assert "\n" not in line and "fonts/Display.ttf: " in line and words in line, line


# A font that names itself DejaVuSans -----------------------------------------------------

def impostor() -> bytes:
    """Our condensed bold with its name table saying DejaVuSans: other glyphs and widths
    under the name of our regular font."""
    raw = (paths.FONTS / "DejaVuSansCondensed-Bold.ttf").read_bytes()
    return replace_table(raw, "name", name_table("DejaVuSans"))


def table(program: bytes, tag: bytes) -> bytes:
    """The table `tag` of a TrueType font program."""
    (count,) = struct.unpack_from(">H", program, 4)
    for i in range(count):
        name, _, at, length = struct.unpack_from(">4sIII", program, 12 + 16 * i)
        if name == tag:
            return program[at:at + length]
    raise KeyError(tag)


def embedded(pdf) -> dict[str, bytes]:
    """Each font's PDF name -> its embedded program's OS/2 table (which a subset copies as
    it is: weight, width, the vendor's panose): whose font it is."""
    out = {}
    for page in PdfReader(pdf).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            program = font["/FontDescriptor"].get_object()["/FontFile2"].get_object()
            out[str(font["/BaseFont"])] = table(program.get_data(), b"OS/2")
    return out


def assert_ours_and_theirs_apart(pdf, raw: bytes) -> None:
    ours = table((paths.FONTS / "DejaVuSans.ttf").read_bytes(), b"OS/2")
    theirs = table(raw, b"OS/2")
    assert ours != theirs
    found = embedded(pdf)
    # The body texts and the footer: in our DejaVuSans.
    named = {n: os2 for n, os2 in found.items() if n.endswith("+DejaVuSans")}
    assert named and all(os2 == ours for os2 in named.values()), found.keys()
    # The titles: in the designer's font, under a name of its own (its digest).
    digest = hashlib.sha256(raw).hexdigest()[:12]
    own = {n: os2 for n, os2 in found.items() if n.endswith(f"+DejaVuSans-{digest}")}
    assert own and all(os2 == theirs for os2 in own.values()), found.keys()


def test_a_font_named_dejavusans_never_replaces_ours(tmp_path):
    """In a process of its own, the designer's font read before ours (as a build does)."""
    (tmp_path / "home").mkdir()
    assert run(tmp_path / "home", "new", "Moth Lanterns").code == 0
    starter = tmp_path / "home" / "moth-lanterns" / "moth-lanterns.toml"
    raw = impostor()
    use_font(starter, raw)
    r = run(tmp_path / "home", "build", str(starter), "--out", str(tmp_path / "kit"),
            env={"TABLE_COMPANION_CACHE": str(tmp_path / "cache")})
    assert r.code == 0, r
    assert_ours_and_theirs_apart(tmp_path / "kit" / "cards.pdf", raw)


def test_a_font_named_dejavusans_prints_as_itself_after_ours(starter, cli, tmp_path, quick):
    """Our fonts registered first (a second build in one process: watch mode, a server)."""
    fonts.register()
    raw = impostor()
    use_font(starter, raw)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert_ours_and_theirs_apart(tmp_path / "kit" / "cards.pdf", raw)


def test_a_faces_own_name_keeps_only_plain_characters_and_its_digest(tmp_path, quick):
    raw = replace_table((paths.FONTS / "DejaVuSans.ttf").read_bytes(), "name",
                        name_table("Odd#Name\x01" + "x" * 200))
    path = tmp_path / "Display.ttf"
    path.write_bytes(raw)
    name = fonts._game_font("title", path, raw).name
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(name).face.name
    digest = hashlib.sha256(raw).hexdigest()[:12].encode()
    assert face == b"OddName" + b"x" * 33 + b"-" + digest, face


# A warm build ---------------------------------------------------------------------------

def test_a_warm_build_starts_no_worker(starter, cli, tmp_path, quick, monkeypatch):
    raw = (paths.FONTS / "DejaVuSansCondensed-Bold.ttf").read_bytes()
    use_font(starter, raw)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    # the cold build parsed the designer's font in a worker (the starter's icons too)
    assert sum(source.endswith(".ttf") for source in quick) == 1
    assert list((tmp_path / "cache" / "fonts").glob("*.marshal"))
    fonts._registered.cache_clear()  # as a new process: only the cache folder remembers

    def no_worker(*args, **kwargs):
        raise AssertionError("a warm build started a worker")
    monkeypatch.setattr(bounded, "run", no_worker)
    r = cli("build", str(starter), "--out", str(tmp_path / "kit2"))
    assert r.code == 0, r.err
    # Read back, the designer's face still goes by its own name.
    names = {n for n in embedded(tmp_path / "kit2" / "cards.pdf")}
    digest = hashlib.sha256(raw).hexdigest()[:12]
    assert any(n.endswith(f"+DejaVuSansCondensed-Bold-{digest}") for n in names), names
