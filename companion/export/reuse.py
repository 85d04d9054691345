"""Exports made again (issue 36): a picture whose faces are unchanged since the last export
into the same folder is neither drawn nor rasterized again, and the files come out byte for
byte as a whole export writes them.

Keys. A tile, a face's page rendered at a pixel size, is keyed by the face's digest (the
one the kit's manifest and --changed-since use: companion.kit.identity, taken from the
export's plan), its page (trim, bleed, quarter turn) and its pixels; a picture, one file's
bytes (a PNG face, a TTS sheet), by its tiles and where each lies, its size and the
encoder's settings (format, dpi recorded, JPEG qualities and size limit, PNG level,
palette). Both with our code's version and reportlab's (companion.kit.drawings), and
pypdfium2's and pillow's, and the version stamp the faces print (no part of a digest):
other code, or another stamp, draws everything again.

The last export. Once an export is in place, an index kept in the cache folder
(companion.files.kept: marshal values behind a checksum), one an output folder and
format, maps each picture's key to the file written (its path in that folder), its size
and its SHA-256. A picture whose key is in the index is taken from that file if it is
still there with those bytes: read, checked, written into the new folder; else made
again. From the last export's files rather than from copies in the cache folder: a
300 dpi export is hundreds of megabytes, which a second copy would double (and the cache
keeps at most 64 files a folder); the checksum makes a file the user edited, cut or
replaced cost its redrawing only, never a wrong byte, and a folder deleted costs a whole
export.

TTS sheets are pasted from tiles, and JPEG is lossy: a sheet with one face changed cannot
be made from the last sheet. So each sheet's tiles are kept in the cache folder too, a
pack a sheet (pixels, zlib-compressed: lossless; named by the sheet's tiles): a changed
sheet renders its changed faces only and pastes the others from the packs, each checked
to be exactly its pixels before it is used; a damaged or foreign one is rendered again.

The outputs are written as before, aside and swapped in whole
(companion.files.atomic.kit_folder); the index is kept once the new folder is in place."""

import hashlib
import json
from functools import cache
from pathlib import PurePosixPath

from companion.export import raster
from companion.export.face_pages import Page, face_key, write_pdf
from companion.files import kept

INDEX = "exports"  # folders of the cache (companion.files.kept)
PACKS = "export-tiles"
LAYOUT = 1  # the index's and the packs' values: another is never read


@cache
def versions() -> str:
    """The code that makes the pixels and the bytes, as it is."""
    from importlib.metadata import version

    import pypdfium2

    from companion.kit.drawings import code_version

    return json.dumps([LAYOUT, code_version(), version("pillow"), version("pypdfium2"),
                       str(getattr(pypdfium2, "PDFIUM_INFO", ""))])  # pdfium's own build


def _hash(value) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def face_digest(ctx, page: Page) -> str:
    """The digest of what the page's face draws (companion.kit.identity.digest): the plan's,
    where it digested the face at this size and bleed, else worked out here."""
    (w, h), bleed = page.trim, max(page.bleed)
    known = ctx.digests.get((face_key(page.face), (w, h), bleed))
    if known is not None:
        return known
    from companion.kit import identity as kit_identity

    return kit_identity.digest(page.face, w, h, bleed)


def _index(value) -> tuple[dict, dict]:
    """(picture key -> (path, sha256, size), tile key -> pack key) from a kept index, or
    empty ones for anything else (another layout, a foreign value)."""
    try:
        layout, pictures, tiles = value
        if layout != LAYOUT:
            return {}, {}
        pictures = {k: (p, s, n) for k, (p, s, n) in pictures.items()
                    if isinstance(k, str) and isinstance(p, str) and isinstance(s, str)
                    and type(n) is int}
        tiles = {k: v for k, v in tiles.items() if isinstance(k, str) and isinstance(v, str)}
        return pictures, tiles
    except (TypeError, ValueError, AttributeError):
        return {}, {}


def _previous(out, path: str, sha: str, size: int) -> bytes | None:
    """The last export's file, if it is still there with the bytes the index says."""
    rel = PurePosixPath(path)
    if rel.is_absolute() or not rel.parts or ".." in rel.parts:
        return None
    try:
        target = out.joinpath(*rel.parts)
        if target.stat().st_size != size:
            return None
        data = target.read_bytes()
    except (OSError, ValueError):
        return None
    return data if hashlib.sha256(data).hexdigest() == sha else None


def _tile_ok(data, w: int, h: int) -> bool:
    """A kept tile is used only if it holds exactly w x h RGB pixels."""
    return isinstance(data, bytes) and raster.pixels(data, w, h) is not None


def _pack(value) -> dict:
    try:
        layout, tiles = value
        return tiles if layout == LAYOUT and isinstance(tiles, dict) else {}
    except (TypeError, ValueError):
        return {}


def run(ctx, pages: list[Page], jobs: list[raster.Job], what: str,
        keep_tiles: bool = False) -> None:
    """Writes every job's files into ctx.stage as raster.run does from `pages` all drawn,
    taking each picture unchanged since the last export into ctx.out from it and drawing
    and rendering only the faces of the others (with `keep_tiles`, those not kept in the
    packs). Sets ctx.drawn and ctx.kept (distinct faces rendered, and not), and ctx.after:
    what keeps the index, called once the export is in place."""
    digests: dict[int, str] = {}
    tile_keys: dict[tuple, str] = {}
    # the version stamp is no part of a face's digest (companion.kit._stamped): a tile
    # keyed by its digest is keyed by the stamp too, or a version bump shows the old one
    from companion.kit import stamp_said

    ver = [versions(), stamp_said(ctx.kit.ctx)]

    def tkey(t: raster.Tile) -> str:
        k = (t.page, t.w, t.h)
        if k not in tile_keys:
            p = pages[t.page]
            if t.page not in digests:
                digests[t.page] = face_digest(ctx, p)
            tile_keys[k] = _hash([ver, "tile", digests[t.page], p.trim, p.bleed, p.turned,
                                  t.w, t.h])
        return tile_keys[k]

    def jkey(job: raster.Job) -> str:
        return _hash([ver, "picture", job.size, job.format, job.dpi, job.max_bytes,
                      job.palette, raster.PNG_LEVEL, raster.JPEG_QUALITIES,
                      [[tkey(t), t.x, t.y, t.w, t.h] for t in job.tiles]])

    index_key = _hash(["index", ctx.format, str(ctx.out)])
    # drawn again cold (companion.press.written found a dangling name): nothing reused
    old_pictures, old_tiles = _index(None if kept.cold else kept.read(INDEX, index_key))
    new_pictures: dict[str, tuple] = {}
    new_tiles: dict[str, str] = {}
    todo: list[tuple[raster.Job, str]] = []
    for job in jobs:
        key = jkey(job)
        got = old_pictures.get(key)
        data = _previous(ctx.out, *got) if got else None
        if data is None:
            todo.append((job, key))
            continue
        for p in job.paths:
            target = ctx.stage / p
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        new_pictures[key] = (job.paths[0], got[1], got[2])
        for t in job.tiles:
            if tkey(t) in old_tiles:
                new_tiles[tkey(t)] = old_tiles[tkey(t)]

    drawn: dict[int, int] = {}  # page -> its page in the PDF drawn now
    if todo:
        with ctx.scratch() as tmp:
            packs: dict[str, dict] = {}
            sourced: set[str] = set()  # tiles taken from the packs: files before the run
            saving: set[str] = set()  # tiles rendered, each saved by one job (if kept)
            run_jobs = []
            for job, _ in todo:
                tiles = []
                for t in job.tiles:
                    k = tkey(t)
                    name = str(tmp / f"{k}.rgb")
                    if keep_tiles and k in old_tiles and k not in sourced and k not in saving:
                        pk = old_tiles[k]
                        if pk not in packs:
                            packs[pk] = _pack(kept.read(PACKS, pk))
                        data = packs[pk].get(k)
                        if _tile_ok(data, t.w, t.h):
                            (tmp / f"{k}.rgb").write_bytes(data)
                            sourced.add(k)
                    if k in sourced:
                        tiles.append(t._replace(page=-1, source=name))
                        continue
                    save = name if keep_tiles and k not in saving else None
                    if save:
                        saving.add(k)
                    tiles.append(t._replace(page=drawn.setdefault(t.page, len(drawn)),
                                            save=save))
                run_jobs.append(job._replace(tiles=tuple(tiles)))
            pdf = None
            if drawn:
                pdf = tmp / "faces.pdf"
                ctx.progress(0, len(drawn), "drawing faces")
                order = sorted(drawn, key=drawn.get)
                write_pdf(pdf, [pages[i] for i in order], f"{ctx.kit.game_name}: faces",
                          ctx.kit.author)
            shas: list[str] = []
            sizes = raster.run(pdf, ctx.stage, run_jobs,
                               lambda done, total: ctx.progress(done, total, what),
                               digests=shas)
            for (job, key), size, sha in zip(todo, sizes, shas):
                new_pictures[key] = (job.paths[0], sha, size)
                if not keep_tiles:
                    continue
                keys = [tkey(t) for t in job.tiles]
                pk = _hash(["pack", sorted(set(keys))])
                if any(k not in sourced or old_tiles.get(k) != pk for k in keys):
                    kept.keep(PACKS, pk, (LAYOUT, {k: (tmp / f"{k}.rgb").read_bytes()
                                                   for k in keys}))
                new_tiles.update(dict.fromkeys(keys, pk))

    ctx.drawn = len(drawn)
    ctx.kept = len({t.page for job in jobs for t in job.tiles}) - len(drawn)
    ctx.after = lambda: kept.keep(INDEX, index_key, (LAYOUT, new_pictures, new_tiles))
