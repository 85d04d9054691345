"""The one image cache. Pictures go into PDFs by file path (reportlab then stores each path
once and never decodes it again), always a file in the user's cache folder named by its
content's digest: a JPEG copied as it is (its bytes pass straight into the PDF), anything
else converted once by pillow. A lossless picture (PNG, GIF, TIFF, lossless WebP...) stays
lossless: its colour deflated (what a PDF's FlateDecode reads), and its alpha beside it if
some of it is see-through, in one .flate file: the streams as the PDF stores them, which
draw/picture.py puts in without decoding anything. A picture already lossy (a JPEG turned
by its EXIF, JPEG 2000, lossy WebP) becomes a JPEG (quality 92), its alpha, if any,
deflated beside it in a .flate file. Every cache file's name holds the form it is written
in (CACHE_FORM): one of an earlier form is never read as this one. Two files with the same
content are one
picture in the PDF, and a picture edited in place is a new picture (what a face draws,
hence its manifest digest, changes with it).

A picture is a designer's file, so untrusted (art packs are downloaded and shared): it is
read through companion.files.designer_files (a regular file only, MAX_BYTES at most), its pixel
count is checked from its header before anything is decoded (pillow's decompression-bomb
warning made an error), and it is decoded whole once, when it enters the cache, so that a
file cut short or with pixels that print as black is refused then, naming the file. That
decoding and its conversion run in a worker process bounded in time and memory
(companion.files.bounded: SECONDS, MEMORY), which writes the cache files itself; whatever pillow
does with a crafted file, the build gets one line naming it. A build that finds the
picture in the cache decodes nothing and starts no worker: it reads the size from the
cached JPEG's frame header."""

import hashlib
from pathlib import Path

import msgspec

from companion.files import atomic, designer_files, inputs, paths
from companion.errors import CompanionError

JPEG_QUALITY = 92
ORIENTATION = 0x0112  # the EXIF tag saying how a camera held the picture
# then width, height, the colour's codec (DCT or Flate) and its length; a newline; the
# colour, then the alpha (none: opaque)
FLATE_MAGIC = b"table-companion-picture-3"
CACHE_FORM = "3"  # in every cache file's name (form 2: every picture not a JPEG was a JPEG)
CODECS = {b"DCT": "DCTDecode", b"Flate": "FlateDecode"}
LOSSY = {"JPEG", "MPO", "JPEG2000"}  # formats whose pixels are a lossy coding's already
# A tarot card (70 x 120 mm) at 1200 dpi with its 1/8 in bleed is 3607 x 5969 = 21.5 million
# pixels: the most any card here needs. 24 million (a 6000 x 4000 camera photo) leaves room
# and keeps the decoded picture near 100 MB, a few times that while it is converted.
MAX_PIXELS = 24_000_000
# The largest honest file of MAX_PIXELS: 16-bit RGBA, uncompressed (TIFF), is 192 MB.
MAX_BYTES = 200_000_000
# The bound on a picture entering the cache (decoded, converted, written) in its worker.
# Measured on MAX_PIXELS (6000 x 4000) with transparency, the costliest conversion: PNG,
# TIFF, WebP or AVIF take 1 to 2 s on a busy 2-core machine, JPEG 2000 10 to 15 s; the
# worst adds 735 MB to the worker (WebP turned by its EXIF: its decoded pixels and their
# conversions, about 100 MB each; the file's bytes are the build's already). Bounds: 4
# times the slowest, twice the largest.
SECONDS = 60.0
MEMORY = 1_500_000_000
# What prints: the modes converted to RGB(A) as they are; 16-bit grey is scaled down.
PRINTABLE = {"1", "L", "LA", "La", "P", "PA", "RGB", "RGBA", "RGBa", "RGBX", "CMYK",
             "YCbCr", "LAB", "HSV", "I;16", "I;16B", "I;16L", "I;16N", "I"}


class Picture(msgspec.Struct, frozen=True):
    path: str  # what the PDF is given: the JPEG itself or the cached conversion
    width: int  # pixels
    height: int
    source: Path  # the designer's file
    deflated: bool = False  # a .flate file: colour and alpha streams, see `streams`

    def streams(self) -> tuple[str, bytes, bytes]:
        """A .flate file's streams: its colour's PDF filter (DCTDecode or FlateDecode), its
        colour (a JPEG or deflated 8-bit RGB), its alpha (deflated 8-bit grey; empty when
        it is opaque)."""
        try:
            head, _, body = Path(self.path).read_bytes().partition(b"\n")
            magic, _, _, codec, colour = head.split()
            if magic == FLATE_MAGIC and codec in CODECS and 0 < int(colour) <= len(body):
                return CODECS[codec], body[:int(colour)], body[int(colour):]
        except (OSError, ValueError):
            pass
        raise CompanionError("a damaged picture cache file: delete it", source=self.path)


def cache_folder() -> Path:
    """Where pictures ready for a PDF are kept: our cache's images/ (paths.cache)."""
    return paths.cache("images")


def _target(digest: str, kind: str, asked: bool = False) -> Path:
    """The cache file of a picture of content `digest`: "jpg" or "flate"; `asked`: a
    lossless picture made a JPEG as its designer asked (a name of its own)."""
    return cache_folder() / f"{digest}-{CACHE_FORM}{'j' if asked else ''}.{kind}"


def picture(path: Path, jpeg: bool = False) -> Picture:
    """The picture at `path`, ready for the PDF; `jpeg`: its designer asks for a JPEG
    even if the file is lossless. Raises CompanionError if it cannot be read as an
    image."""
    path = Path(path)
    inputs.note(path)
    try:
        st = path.stat()
        stamp = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
    except FileNotFoundError:
        raise CompanionError("no such picture", source=str(path)) from None
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror})", source=str(path)) from None
    digest = _digests.get(stamp)  # a file seen unchanged: not read and hashed again
    data = None
    if digest is None or (digest, jpeg) not in _seen:
        data = designer_files.read_bytes(path, MAX_BYTES, "picture")
        digest = _digests[stamp] = hashlib.sha256(data).hexdigest()
    key = (digest, jpeg)
    if key not in _seen:  # the same content again (any name): the same picture
        _seen[key] = _cached(digest, path, jpeg) or _entered(digest, path, data, jpeg)
    return _seen[key]


_seen: dict[tuple, Picture] = {}  # (digest, jpeg asked) -> the picture, for this process
_digests: dict[tuple, str] = {}  # (path, mtime, size, inode) -> digest, for this process
_refused: dict[str, tuple] = {}  # digest -> (message, source): a --draft build asks once


def _entered(digest: str, path: Path, data: bytes, jpeg: bool) -> Picture:
    """The picture decoded, checked and converted into the cache by a bounded worker."""
    from companion.files import bounded

    if digest not in _refused:
        _pillow()
        try:
            out = bounded.run(_decoded, digest, str(path), data, jpeg, source=str(path),
                              what="picture", seconds=SECONDS, memory=MEMORY)
        except CompanionError as e:  # a bound tripped: the file's doing, whatever it holds
            if e.message.startswith("could not start a worker"):  # the system's: not kept
                raise
            out = ("refused", e.message, e.source)
        if out[0] == "ok":
            _, target, width, height, deflated = out
            return Picture(target, width, height, path, deflated=deflated)
        if out[2] != str(path):  # the cache could not be written: try again next time
            raise CompanionError(out[1], source=out[2])
        _refused[digest] = out[1:]
    message, source = _refused[digest]
    raise CompanionError(message, source=source)


def _pillow() -> None:
    """pillow and its common formats imported here, once, not again in every worker (a
    fork inherits them): half the cost of a small picture's worker."""
    from PIL import Image, ImageOps  # noqa: F401

    Image.preinit()


def _decoded(digest: str, path: str, data: bytes, jpeg: bool = False) -> tuple:
    """In the worker: ("ok", cache file, width, height, deflated), or ("refused", message,
    source) keeping our words for what is wrong with the file."""
    try:
        p = _prepared(digest, path, data, jpeg)
    except CompanionError as e:
        return ("refused", e.message, e.source)
    return ("ok", p.path, p.width, p.height, p.deflated)


def _cached(digest: str, path: Path, jpeg: bool = False) -> Picture | None:
    """The picture as a past build put it in the cache, found with nothing decoded: its
    size from the .flate file's first line or the JPEG's frame header. None when it is
    not there, or its size is not where it should be: the worker then looks."""
    kinds = [("flate", _flate_size, jpeg), ("jpg", _jpeg_size, jpeg)]
    if jpeg:  # a lossy file's cache is the same whatever is asked
        kinds.append(("jpg", _jpeg_size, False))
    for kind, size_of, asked in kinds:
        target = _target(digest, kind, asked)
        size = size_of(target)
        if size:
            return Picture(str(target), *size, path, deflated=kind == "flate")
    return None


def _flate_size(target: Path) -> tuple[int, int] | None:
    """(width, height) from a .flate file's first line; None if there is no such file or
    its first line is not ours."""
    try:
        with open(target, "rb") as f:
            head = f.readline(len(FLATE_MAGIC) + 64).split()
    except OSError:
        return None
    if len(head) != 5 or head[0] != FLATE_MAGIC or not (head[1].isdigit() and
                                                         head[2].isdigit()):
        return None
    w, h = int(head[1]), int(head[2])
    return (w, h) if 0 < w * h <= MAX_PIXELS else None


_FRAMES = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # SOF0-15: not DHT, JPG, DAC
# The segments pillow skips by their length (frames, tables, APPn, comments): a file of
# these alone is walked here exactly as pillow walks it (pillow also steps over bytes
# between segments and over markers without a length: such a file goes to the worker).
_SEGMENTS = (set(range(0xC0, 0xD0)) - {0xC8}) | {0xDB, 0xDD, 0xFE} | set(range(0xE0, 0xF0))


def _jpeg_size(target: Path) -> tuple[int, int] | None:
    """(width, height) from a cached JPEG's segments before its scan, the last frame header
    as pillow reads it; None if there is no such file or it is not so laid out."""
    try:
        with open(target, "rb") as f:
            if f.read(2) != b"\xff\xd8":
                return None
            size = None
            for _ in range(1000):  # a camera writes a dozen segments; ICC profiles, more
                seg = f.read(4)
                if len(seg) < 4 or seg[0] != 0xFF:
                    return None
                if seg[1] == 0xDA:  # the scan: what pillow reads ends here
                    return size
                if seg[1] not in _SEGMENTS or int.from_bytes(seg[2:], "big") < 2:
                    return None
                rest = int.from_bytes(seg[2:], "big") - 2
                if seg[1] in _FRAMES:
                    frame = f.read(5)
                    if len(frame) < 5:
                        return None
                    h, w = int.from_bytes(frame[1:3], "big"), int.from_bytes(frame[3:], "big")
                    size = (w, h) if w and h else None
                    rest -= 5
                f.seek(rest, 1)
    except OSError:
        return None
    return None


def _prepared(digest: str, path: str, data: bytes, jpeg: bool = False) -> Picture:
    """In the worker: the picture checked from its header, decoded and converted into the
    cache (or found there, converted by a past build)."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        import io

        with warnings.catch_warnings():  # pillow's bomb warning is our error, not 2 lines
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))  # reads the header only
        with im:
            size, fmt, mode = im.size, im.format, im.mode
            _check_printable(im, path)
            alpha = "A" in im.getbands() or "transparency" in im.info
            orientation = _orientation(im)
            turned = orientation not in (0, 1)
            if fmt == "JPEG" and mode in ("RGB", "L", "CMYK") and not turned:
                return Picture(_jpeg(path, digest, data, im), *size, Path(path))
            if orientation in (5, 6, 7, 8):  # a quarter turn
                size = size[::-1]
            lossless = not _lossy(fmt, data)
            asked = jpeg and lossless  # a JPEG of a lossless file, as she asks
            lossless = lossless and not jpeg
            for kind in ("flate", "jpg") if alpha or lossless else ("jpg",):  # a past build's
                target = _target(digest, kind, asked)
                if target.is_file():
                    return Picture(str(target), *size, Path(path), deflated=kind == "flate")
            if turned:
                from PIL import ImageOps

                im = ImageOps.exif_transpose(im)
            target = _convert(im, digest, alpha, lossless, asked, path)
            return Picture(str(target), *size, Path(path), deflated=target.suffix == ".flate")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels(path, data) from None
    except UnidentifiedImageError:
        raise CompanionError("not a picture pillow can read (no picture format it knows)",
                             source=path) from None
    except (OSError, ValueError, SyntaxError, EOFError) as e:
        raise CompanionError(_unreadable(e), source=path) from None


def _check_printable(im, path: str) -> None:
    """Refuses, from the header, a picture too large to decode safely or whose pixels
    would print wrong (32-bit float pixels print black)."""
    w, h = im.size
    if w * h > MAX_PIXELS:
        raise CompanionError(_pixels(w, h), source=path)
    if im.mode not in PRINTABLE:
        raise CompanionError(f"holds {im.mode} pixels ({_MODE_WORDS.get(im.mode, 'a kind')} "
                             "a card cannot print): save it as 8-bit RGB, RGBA or grey",
                             source=path)


_MODE_WORDS = {"F": "32-bit floating point, which", "I;32": "32-bit integers, which"}


def _pixels(w: int, h: int) -> str:
    return (f"is {w} × {h} pixels ({w * h / 1e6:.1f} million): over the "
            f"{MAX_PIXELS // 1_000_000} million a picture may have (a tarot card at 1200 dpi "
            "needs 21.5): scale it down")


def _too_many_pixels(path: str, data: bytes) -> CompanionError:
    """pillow refused a bomb before giving its size: the size, read again without limit
    (the header only)."""
    import io

    from PIL import Image

    limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
    try:
        with Image.open(io.BytesIO(data)) as im:
            return CompanionError(_pixels(*im.size), source=path)
    except Exception:  # noqa: BLE001 - the size is only a courtesy
        return CompanionError(f"over the {MAX_PIXELS // 1_000_000} million pixels a "
                              "picture may have", source=path)
    finally:
        Image.MAX_IMAGE_PIXELS = limit


def _unreadable(e: Exception) -> str:
    words = str(e)
    if "truncated" in words or isinstance(e, EOFError):
        return ("is cut short (its data ends before its last pixels): copy or export it "
                "again")
    return f"not a picture pillow can read ({type(e).__name__}: {words[:80]})"


def _orientation(im) -> int:
    """How the camera was held (EXIF), without decoding the pixels: pillow's getexif on a
    PNG decodes it all to look for an EXIF block after them, so a PNG is asked only of
    one before them."""
    if im.format == "PNG" and "exif" not in im.info:
        return 1
    return im.getexif().get(ORIENTATION, 1)


def _jpeg(path: str, digest: str, data: bytes, im) -> str:
    """A JPEG's copy in the cache, named by its digest: reportlab names a picture in the PDF
    by its path (so content names it), and passes a JPEG through only when its name says
    .jpg. A cache that cannot be written: the file itself, if its name says .jpg.
    It is decoded once before it enters the cache (an eighth of its size, which reads
    every byte of it: a file cut short is refused here, not printed half grey)."""
    target = _target(digest, "jpg")
    if not target.is_file():
        im.draft(im.mode, (max(1, im.width // 8), max(1, im.height // 8)))
        im.load()
        try:
            _write(target, data)
        except CompanionError:
            if path.lower().endswith((".jpg", ".jpeg")):
                return path
            raise
    return str(target)


def _lossy(fmt: str, data: bytes) -> bool:
    """Whether a picture's pixels come from a lossy coding already: JPEG, JPEG 2000, or a
    WebP whose picture is a VP8 chunk (a lossless one's is VP8L)."""
    if fmt in LOSSY:
        return True
    if fmt != "WEBP":
        return False
    at = 12  # RIFF, its size, WEBP; then chunks: a fourcc, a size, the data (even-padded)
    for _ in range(64):  # VP8X, ICCP, ANIM, ALPH come before it: a few
        fourcc, size = data[at:at + 4], int.from_bytes(data[at + 4:at + 8], "little")
        if fourcc in (b"VP8 ", b"VP8L") or len(fourcc) < 4:
            return fourcc == b"VP8 "
        at += 8 + size + (size & 1)
    return False


def _convert(im, digest: str, alpha: bool, lossless: bool, asked: bool, path: str) -> Path:
    """Converts once: deflated if the picture is lossless, else a JPEG; with its alpha
    beside it (deflated) if some of it is see-through."""
    import zlib

    if im.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N"):  # 16-bit grey: scaled, not clipped
        im = im.convert("I")
        low, high = im.getextrema()
        if low < 0 or high > 65535:
            raise CompanionError("holds 32-bit integer pixels, which a card cannot print: "
                                 "save it as 8- or 16-bit", source=path)
        im = im.point(lambda v: v * (1 / 256)).convert("L")
    if alpha:
        rgba = im.convert("RGBA")
        mask = rgba.getchannel("A")
        if mask.getextrema() != (255, 255):  # else saved with alpha but opaque all over
            if lossless:
                return _flate(_target(digest, "flate"), im.size, b"Flate", _deflated(rgba),
                              zlib.compress(mask.tobytes()))
            return _flate(_target(digest, "flate", asked), im.size, b"DCT",
                          _jpeg_bytes(_hidden_filled(rgba)), zlib.compress(mask.tobytes()))
        im = rgba
    if lossless:
        return _flate(_target(digest, "flate"), im.size, b"Flate", _deflated(im), b"")
    target = _target(digest, "jpg", asked)
    _write(target, _jpeg_bytes(im))
    return target


def _flate(target: Path, size: tuple, codec: bytes, colour: bytes, alpha: bytes) -> Path:
    _write(target, b"%s %d %d %s %d\n" % (FLATE_MAGIC, *size, codec, len(colour))
           + colour + alpha)
    return target


def _deflated(im) -> bytes:
    """The colour as FlateDecode reads it: 8-bit RGB, row by row, deflated. Level 3: on a
    grainy 750 x 1050 painting 0.04 s and 2.5 % larger than level 6's 0.12 s (level 1:
    0.03 s, 13 % larger)."""
    import zlib

    return zlib.compress(im.convert("RGB").tobytes(), 3)


def _jpeg_bytes(im) -> bytes:
    import io

    out = io.BytesIO()
    im.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY, optimize=False)
    return out.getvalue()


def _hidden_filled(rgba):
    """The colour with what the alpha hides (often black) replaced by the average of what
    shows nearby, so the JPEG's 8 x 8 blocks on an edge do not darken what shows."""
    from PIL import Image

    w, h = rgba.size
    small = rgba.convert("RGBa").resize((max(1, w // 16), max(1, h // 16)), Image.BOX)
    near = small.resize((w, h), Image.BILINEAR).convert("RGBA")  # un-premultiplied: an average
    return Image.composite(rgba, near, rgba.getchannel("A").point(lambda a: 255 if a else 0))


def _write(target: Path, data: bytes) -> None:
    """Written aside and renamed: two builds filling the cache at once never see half a file."""
    try:
        atomic.write_aside(target, data)
    except OSError as e:
        raise CompanionError(f"cannot write the picture cache ({e.strerror})",
                             source=str(target)) from None
