"""`export png` and `export tts` made again (issue 36): a face unchanged since the last export
into the folder is neither drawn nor rasterized again, a TTS sheet of unchanged faces is
taken as it was, and every file comes out byte for byte as a whole export with an empty
cache writes it. What the cache folder holds is checked before use: damaged or foreign,
it is ignored and the faces drawn again."""

import csv
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import export
from companion.export import raster, reuse
from companion.files import kept

ROWS = 75  # creatures: two TTS face sheets (70 cards a sheet at the most)


def write_rows(game: Path, titles: list[str]) -> None:
    """The starter's cards.csv with one creature a title (qty 1), then its other rows."""
    path = game.parent / "cards.csv"
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    fields = list(rows[0])
    mine = [{"kind": "creature", "title": t, "text": f"{t} keeps to its pool.", "qty": "1",
             "points": str(n % 5), "icon": ("shell", "wave")[n % 2], "art": ""}
            for n, t in enumerate(titles)]
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for row in mine + [r for r in rows if r["kind"] != "creature"]:
            w.writerow({k: row.get(k, "") for k in fields})


TITLES = [f"Creature {n}" for n in range(ROWS)]


@pytest.fixture
def game(starter, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    write_rows(starter, TITLES)
    return starter


def exported(game: Path, fmt: str, out: Path, **opts):
    """Exports; returns the plan's context (ctx.drawn, ctx.kept: faces rendered, and not)."""
    ctx = export.plan(str(game), fmt, export.Options(out=out, **opts))
    export.write(ctx)
    return ctx


def files(folder: Path) -> dict[str, bytes]:
    """Every file's bytes, the folder's own address (in the TTS Saved Object) left out."""
    uri = folder.resolve().as_uri().encode()
    return {p.relative_to(folder).as_posix(): p.read_bytes().replace(uri, b"OUT")
            for p in sorted(folder.rglob("*")) if p.is_file()}


def fresh(game: Path, fmt: str, tmp_path: Path, monkeypatch, name: str, **opts) -> dict:
    """A whole export of the game as it is now, into a new folder with an empty cache."""
    with monkeypatch.context() as m:
        m.setenv("TABLE_COMPANION_CACHE", str(tmp_path / f"empty-cache-{name}"))
        ctx = exported(game, fmt, tmp_path / f"fresh-{name}", **opts)
    assert ctx.kept == 0
    return files(tmp_path / f"fresh-{name}")


FORMATS = {"png": {"dpi": 72}, "tts": {}}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_re_export_after_one_changed_row_renders_that_face_only_and_equals_a_whole_export(
        game, tmp_path, monkeypatch, fmt):
    out = tmp_path / "out"
    first = exported(game, fmt, out, **FORMATS[fmt])
    faces = first.drawn
    assert first.kept == 0 and faces >= ROWS
    again = exported(game, fmt, out, **FORMATS[fmt])
    assert (again.drawn, again.kept) == (0, faces)
    assert files(out) == fresh(game, fmt, tmp_path, monkeypatch, "same", **FORMATS[fmt])

    write_rows(game, TITLES[:72] + ["A changed creature"] + TITLES[73:])
    changed = exported(game, fmt, out, **FORMATS[fmt])
    assert (changed.drawn, changed.kept) == (1, faces - 1)
    assert files(out) == fresh(game, fmt, tmp_path, monkeypatch, "changed", **FORMATS[fmt])


def test_a_tts_sheet_of_unchanged_faces_is_not_rendered_and_a_changed_one_pastes_the_others(
        game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    exported(game, "tts", out)
    write_rows(game, TITLES[:72] + ["A changed creature"] + TITLES[73:])  # on sheet 2
    jobs = []
    real = raster.run

    def recorded(pdf, root, these, *args, **kwargs):
        jobs.extend(these)
        return real(pdf, root, these, *args, **kwargs)

    monkeypatch.setattr("companion.export.raster.run", recorded)
    exported(game, "tts", out)
    assert [j.paths for j in jobs] == [("cards/faces-2.jpg",)]
    (sheet,) = jobs
    assert len(sheet.tiles) == second_sheet(out)
    assert len([t for t in sheet.tiles if t.source is None]) == 1  # the others: kept tiles
    assert files(out) == fresh(game, "tts", tmp_path, monkeypatch, "changed")


def second_sheet(out: Path) -> int:
    """The cards on the creatures' second sheet (the starter's tides are on it too)."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    (cards,) = [c for c in manifest["components"] if c["id"] == "cards"]
    assert [s["face"] for s in cards["sheets"]] == ["cards/faces-1.jpg", "cards/faces-2.jpg"]
    return cards["sheets"][1]["cards"]


def damage(folder: Path) -> int:
    """Flips a byte in the middle of each kept file of the folder."""
    n = 0
    for f in folder.glob("*.marshal"):
        raw = bytearray(f.read_bytes())
        raw[len(raw) // 2] ^= 0xFF
        f.write_bytes(bytes(raw))
        n += 1
    return n


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_damaged_index_is_ignored_and_every_face_drawn_again(game, tmp_path, monkeypatch,
                                                              fmt):
    out = tmp_path / "out"
    faces = exported(game, fmt, out, **FORMATS[fmt]).drawn
    assert damage(tmp_path / "cache" / reuse.INDEX) == 1
    again = exported(game, fmt, out, **FORMATS[fmt])
    assert (again.drawn, again.kept) == (faces, 0)
    assert files(out) == fresh(game, fmt, tmp_path, monkeypatch, "same", **FORMATS[fmt])


def index_key(fmt: str, out: Path) -> str:
    return reuse._hash(["index", fmt, str(out.resolve())])


def test_a_foreign_index_is_ignored_and_never_names_a_file_outside_the_export(
        game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    faces = exported(game, "png", out, dpi=72).drawn
    key = index_key("png", out)
    layout, pictures, tiles = kept.read(reuse.INDEX, key)
    # another layout's value, a value of another shape: nothing taken from them
    for foreign in [(layout + 1, pictures, tiles), "not an index", (layout, [1, 2], {}),
                    (layout, {k: ("x", "y") for k in pictures}, {})]:
        kept.keep(reuse.INDEX, key, foreign)
        again = exported(game, "png", out, dpi=72)
        assert (again.drawn, again.kept) == (faces, 0)
    # every picture said to be a file outside the folder, with that file's checksum
    outside = tmp_path / "secret.png"
    outside.write_bytes(b"not a face")
    sha = hashlib.sha256(outside.read_bytes()).hexdigest()
    for path in ("../secret.png", str(outside)):
        kept.keep(reuse.INDEX, key, (layout, {k: (path, sha, len(b"not a face"))
                                              for k in pictures}, {}))
        again = exported(game, "png", out, dpi=72)
        assert (again.drawn, again.kept) == (faces, 0)
    assert files(out) == fresh(game, "png", tmp_path, monkeypatch, "same", dpi=72)


def test_a_picture_the_user_changed_in_the_last_export_is_drawn_again(game, tmp_path,
                                                                      monkeypatch):
    out = tmp_path / "out"
    faces = exported(game, "png", out, dpi=72).drawn
    edited = sorted(out.rglob("*-front.png"))
    edited[0].write_bytes(edited[0].read_bytes()[:-1] + b"!")  # the same size, not the bytes
    edited[1].write_bytes(edited[1].read_bytes()[:100])  # cut short
    edited[2].unlink()
    again = exported(game, "png", out, dpi=72)
    assert (again.drawn, again.kept) == (3, faces - 3)
    assert files(out) == fresh(game, "png", tmp_path, monkeypatch, "same", dpi=72)


def test_damaged_or_foreign_kept_tiles_are_rendered_again(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    exported(game, "tts", out)
    packs = tmp_path / "cache" / reuse.PACKS
    # sheet 2's pack, the one a change on sheet 2 pastes from: its tiles replaced by
    # pictures of the wrong size, or not pictures, under a valid checksum
    for f in packs.glob("*.marshal"):
        pk = f.name.split("-v")[0]
        layout, tiles = kept.read(reuse.PACKS, pk)
        if len(tiles) != second_sheet(out):
            continue
        bad = dict(tiles)
        wrong, garbage = list(bad)[:2]
        bad[wrong] = tiles[list(tiles)[0]][:-40]  # cut short
        bad[garbage] = b"\x89PNG\r\n\x1a\n not a picture"
        kept.keep(reuse.PACKS, pk, (layout, bad))
        break
    else:
        pytest.fail("no pack for sheet 2")
    write_rows(game, TITLES[:72] + ["A changed creature"] + TITLES[73:])
    again = exported(game, "tts", out)
    assert again.drawn == 3  # the changed face, and the two whose tiles were not ours
    assert files(out) == fresh(game, "tts", tmp_path, monkeypatch, "changed")
    # a pack damaged (its checksum no longer matches): every tile of it rendered again
    assert damage(packs) >= 1
    write_rows(game, TITLES[:71] + ["Another creature"] + TITLES[72:])
    again = exported(game, "tts", out)
    assert again.drawn >= second_sheet(out)
    assert files(out) == fresh(game, "tts", tmp_path, monkeypatch, "other")


def test_a_failed_re_export_leaves_the_last_one_and_what_the_next_one_takes(game, tmp_path,
                                                                           monkeypatch):
    out = tmp_path / "out"
    exported(game, "png", out, dpi=72)
    before = files(out)
    write_rows(game, TITLES[:72] + ["A changed creature"] + TITLES[73:])

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", "faces.pdf")

    with monkeypatch.context() as m:
        m.setattr("companion.export.raster.run", full)
        with pytest.raises(Exception, match="No space left on device"):
            exported(game, "png", out, dpi=72)
    assert files(out) == before
    again = exported(game, "png", out, dpi=72)
    assert again.drawn == 1
    assert files(out) == fresh(game, "png", tmp_path, monkeypatch, "changed", dpi=72)


def test_the_command_says_how_many_faces_it_drew_and_kept(game, tmp_path, cli):
    out = tmp_path / "out"
    first = cli("export", game, "png", "--dpi", "72", "--out", out)
    assert first.code == 0, first.err
    faces = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["faces"]
    assert f"png: {faces} faces drawn, 0 kept" in first.out
    write_rows(game, TITLES[:10] + ["A changed creature"] + TITLES[11:])
    again = cli("export", game, "png", "--dpi", "72", "--out", out)
    assert f"png: 1 faces drawn, {faces - 1} kept" in again.out


def test_other_pixel_settings_draw_every_face_again(game, tmp_path, monkeypatch):
    out = tmp_path / "out"
    faces = exported(game, "png", out, dpi=72).drawn
    assert exported(game, "png", out, dpi=73).drawn == faces
    assert exported(game, "png", out, dpi=73, bleed="2mm").drawn == faces
    assert exported(game, "png", out, dpi=73, bleed="2mm").drawn == 0
    assert files(out) == fresh(game, "png", tmp_path, monkeypatch, "same", dpi=73,
                               bleed="2mm")


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sets(st.integers(0, ROWS - 1), max_size=4))
def test_any_rows_changed_render_those_faces_only(game, tmp_path_factory, monkeypatch,
                                                  changed):
    tmp = tmp_path_factory.mktemp("rows")
    out = tmp / "out"
    write_rows(game, TITLES)
    exported(game, "png", out, dpi=72)
    write_rows(game, [f"{t} changed" if n in changed else t for n, t in enumerate(TITLES)])
    again = exported(game, "png", out, dpi=72)
    assert again.drawn == len(changed)
    assert files(out) == fresh(game, "png", tmp, monkeypatch, "changed", dpi=72)
