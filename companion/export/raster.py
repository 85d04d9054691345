"""Pixels from our own PDF pages, and nothing else: pypdfium2 renders a page to exactly
the pixel size asked (pdfium's own sizing rounds up, giving 826 for 825), pillow only
pastes rendered pages together (or pixels of them rendered earlier: Tile.source) and
encodes them.

An image job names the pages to render, where each lands on the picture, the picture's
size and the files to write; `run` shares jobs between processes (one per core) and
reports each finished job. Kept free of reportlab and the rest of the package: worker
processes import only this module."""

import hashlib
import io
import json
import os
from pathlib import Path
from typing import Callable, NamedTuple

PNG_LEVEL = 1  # zlib level: 2-3x faster than pillow's default, files about 25 % larger
JPEG_QUALITIES = (90, 85, 80, 70, 60)  # tried in turn until the file is under max_bytes
SERIAL_BELOW = 6  # fewer jobs than this: rendered here, without starting processes


class Tile(NamedTuple):
    page: int  # 0-based page of the PDF
    x: int  # where its top-left lands on the picture, pixels
    y: int
    w: int  # its exact size, pixels
    h: int
    # Its pixels made earlier (companion.export.reuse): a file of w x h RGB pixels,
    # zlib-compressed (`pixels`), pasted instead of rendering the page (page is then -1).
    source: str | None = None
    save: str | None = None  # a file its rendered pixels are written to as well, so


class Job(NamedTuple):
    paths: tuple[str, ...]  # every file showing this picture (written from one encoding)
    size: tuple[int, int]
    tiles: tuple[Tile, ...]
    format: str = "png"  # "png" or "jpeg"
    dpi: int | None = None  # recorded in the file
    max_bytes: int | None = None  # JPEG: lower the quality until the file is smaller
    palette: bool = False  # PNG: 256 colours (previews), not RGB


class TooLarge(Exception):
    """A JPEG stayed over its size limit at the lowest quality."""


def render(page, w: int, h: int):
    """A PIL RGB image of exactly w x h pixels: the whole page stretched to it (at most
    a pixel off the page's own proportions)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as c

    bitmap = pdfium.PdfBitmap.new_native(w, h, c.FPDFBitmap_BGR, rev_byteorder=True)
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
    c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, 0, c.FPDF_ANNOT | c.FPDF_REVERSE_BYTE_ORDER)
    image = bitmap.to_pil()
    return image if image.mode == "RGB" else image.convert("RGB")


def pixels(data: bytes, w: int, h: int) -> bytes | None:
    """A tile's RGB pixels from what `tile` saved (zlib, level 1: three times faster than a
    PNG of it), or None if they are not w x h pixels."""
    import zlib

    try:
        raw = zlib.decompressobj().decompress(data, w * h * 3 + 1)
    except (zlib.error, TypeError):
        return None
    return raw if len(raw) == w * h * 3 else None


def tile(doc, t: Tile):
    """A tile's pixels: its page rendered (and saved where it asks), or its source read."""
    from PIL import Image

    if t.source is not None:
        raw = pixels(Path(t.source).read_bytes(), t.w, t.h)
        if raw is None:
            raise ValueError(f"{t.source}: not {t.w} x {t.h} RGB pixels")
        return Image.frombytes("RGB", (t.w, t.h), raw)
    image = render(doc[t.page], t.w, t.h)
    if t.save is not None:
        import zlib

        Path(t.save).write_bytes(zlib.compress(image.tobytes(), 1))
    return image


def picture(doc, job: Job):
    """The job's picture, its tiles rendered from pages of `doc` (or their sources)."""
    from PIL import Image

    whole = (len(job.tiles) == 1 and (job.tiles[0].x, job.tiles[0].y) == (0, 0)
             and (job.tiles[0].w, job.tiles[0].h) == job.size)
    if whole:
        return tile(doc, job.tiles[0])
    canvas = Image.new("RGB", job.size, (255, 255, 255))
    for t in job.tiles:
        canvas.paste(tile(doc, t), (t.x, t.y))
    return canvas


def encode(image, job: Job) -> bytes:
    extra = {"dpi": (job.dpi, job.dpi)} if job.dpi else {}
    if job.format == "png":
        buf = io.BytesIO()
        if job.palette:
            from PIL import Image

            image = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            image.save(buf, "PNG", optimize=True, **extra)
        else:
            image.save(buf, "PNG", compress_level=PNG_LEVEL, **extra)
        return buf.getvalue()
    for quality in JPEG_QUALITIES:
        buf = io.BytesIO()
        image.save(buf, "JPEG", quality=quality, **extra)
        if job.max_bytes is None or buf.tell() < job.max_bytes:
            return buf.getvalue()
    raise TooLarge(f"{job.paths[0]}: over {job.max_bytes} bytes even at JPEG quality "
                   f"{JPEG_QUALITIES[-1]}")


_docs: dict = {}


def _document(pdf: str):
    import pypdfium2 as pdfium

    if pdf not in _docs:
        _docs.clear()
        _docs[pdf] = pdfium.PdfDocument(pdf)
    return _docs[pdf]


class _Pages:
    """The PDF's pages, the document opened when a page is first asked for (a job whose
    tiles all have their sources needs none: `pdf` may be None)."""

    def __init__(self, pdf: str | None):
        self.pdf = pdf

    def __getitem__(self, index: int):
        return _document(self.pdf)[index]


def do_jobs(pdf: str | None, root: str, jobs: list[Job]) -> list[tuple[int, str]]:
    """Renders, encodes and writes each job (in a worker process or here); returns the
    bytes written per job and their SHA-256 (hex). `pdf` None: every tile has a source."""
    sizes = []
    for job in jobs:
        data = encode(picture(_Pages(pdf), job), job)
        for p in job.paths:
            target = Path(root) / p
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        sizes.append((len(data), hashlib.sha256(data).hexdigest()))
    return sizes


def workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run(pdf: Path | None, root: Path, jobs: list[Job],
        progress: Callable[[int, int], None] = lambda done, total: None,
        processes: int | None = None, digests: list | None = None) -> list[int]:
    """Does every job, sharing them between `processes` worker processes (default: one per
    core); returns the bytes written per job, in order (and puts each file's SHA-256 in
    `digests`, if given). A failure stops the rest and is raised (an OSError as the system
    gave it). `pdf` None: every tile has its source."""
    processes = min(processes or workers(), len(jobs))
    total = len(jobs)
    progress(0, total)
    pdf = None if pdf is None else str(pdf)
    if processes <= 1 or total < SERIAL_BELOW:
        done = []
        try:
            for n, job in enumerate(jobs, 1):
                done += do_jobs(pdf, str(root), [job])
                progress(n, total)
        finally:
            _docs.clear()  # the PDF is about to be deleted: let go of it
    else:
        done = _in_processes(pdf, root, jobs, progress, processes)
    if digests is not None:
        digests[:] = [sha for _, sha in done]
    return [size for size, _ in done]


def _plain(job: Job) -> dict:
    """A job as JSON gives it to a worker process (which reads it back with `_job`)."""
    return {**job._asdict(), "tiles": [t._asdict() for t in job.tiles]}


def _in_processes(pdf: str | None, root: Path, jobs: list[Job], progress,
                  processes: int) -> list[tuple[int, str]]:
    """Worker processes (`python -m companion.export.raster`), each given every n-th job
    as JSON on its standard input; each prints "done INDEX BYTES SHA256" per finished job, or
    "oserror ERRNO FILE MESSAGE" and stops. Plain processes rather than multiprocessing,
    which re-runs the parent's main script in each worker."""
    import queue
    import subprocess
    import sys
    import tempfile
    import threading

    import companion

    env = dict(os.environ)
    here = str(Path(companion.__file__).resolve().parents[1])  # this package's folder
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    lines: queue.Queue = queue.Queue()
    procs, errs, readers = [], [], []
    try:
        for w in range(processes):
            share = list(range(w, len(jobs), processes))
            errs.append(tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace"))
            proc = subprocess.Popen([sys.executable, "-m", "companion.export.raster"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=errs[-1], env=env, text=True, encoding="utf-8")
            procs.append(proc)
            readers.append(threading.Thread(target=_read, args=(proc, lines), daemon=True))
            readers[-1].start()
            try:
                proc.stdin.write(json.dumps({"pdf": pdf, "root": str(root), "jobs": [
                    {"index": i, **_plain(jobs[i])} for i in share]}))
                proc.stdin.close()
            except BrokenPipeError:  # it stopped at once: its exit status tells why
                pass
        sizes = [(0, "")] * len(jobs)
        done, running = 0, len(procs)
        while running:
            proc, line = lines.get()
            if line is None:
                running -= 1
                continue
            kind, _, rest = line.partition(" ")
            if kind == "done":
                i, size, sha = rest.split()
                sizes[int(i)] = int(size), sha
                done += 1
                progress(done, len(jobs))
            elif kind == "oserror":
                err, name, message = json.loads(rest)
                raise OSError(err, message, name)
        for proc, err in zip(procs, errs):
            if proc.wait() != 0:
                err.seek(0)
                last = (err.read().strip().splitlines() or ["no message"])[-1]
                raise RuntimeError(f"a rendering process failed: {last}")
        return sizes
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for reader in readers:  # each closes its pipe at the end of it
            reader.join(timeout=5)
        for err in errs:
            err.close()


def _read(proc, lines) -> None:
    with proc.stdout:
        for line in proc.stdout:
            lines.put((proc, line.rstrip("\n")))
    lines.put((proc, None))


def _job(d: dict) -> Job:
    return Job(tuple(d["paths"]), tuple(d["size"]), tuple(Tile(**t) for t in d["tiles"]),
               d["format"], d["dpi"], d["max_bytes"], d["palette"])


def main() -> None:
    """A worker: jobs as JSON on standard input; a line per finished job on standard output."""
    import sys

    task = json.load(sys.stdin)
    for d in task["jobs"]:
        try:
            (size, sha), = do_jobs(task["pdf"], task["root"], [_job(d)])
        except OSError as e:
            print("oserror", json.dumps([e.errno, e.filename, e.strerror or str(e)]),
                  flush=True)
            sys.exit(3)
        print("done", d["index"], size, sha, flush=True)


if __name__ == "__main__":
    main()
