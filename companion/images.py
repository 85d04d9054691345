"""The one image cache. Pictures go into PDFs by file path (reportlab then stores each path
once and never decodes it again), always a file in the user's cache folder named by its
content's digest: a JPEG copied as it is (its bytes pass straight into the PDF), anything
else converted once by pillow (an opaque picture as a JPEG, quality 92; one with
transparency as a PNG so the alpha survives). Two files with the same content are one
picture in the PDF, and a picture edited in place is a new picture (what a face draws,
hence its manifest digest, changes with it)."""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from companion import inputs
from companion.errors import CompanionError

JPEG_QUALITY = 92
ORIENTATION = 0x0112  # the EXIF tag saying how a camera held the picture
MAX_PIXELS = 80_000_000  # ~ a 9000 x 9000 picture: larger is a mistake, and would eat memory


@dataclass(frozen=True)
class Picture:
    path: str  # what the PDF is given: the JPEG itself or the cached conversion
    width: int  # pixels
    height: int
    source: Path  # the designer's file


def cache_folder() -> Path:
    """platformdirs' user cache folder (TABLE_COMPANION_CACHE overrides it, e.g. in tests)."""
    override = os.environ.get("TABLE_COMPANION_CACHE")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("table-companion")) / "images"


def picture(path: Path) -> Picture:
    """The picture at `path`, ready for the PDF. Raises CompanionError if it cannot be
    read as an image."""
    path = Path(path)
    inputs.note(path)
    try:
        st = path.stat()
        stamp = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
        digest = _digests.get(stamp)  # a file seen unchanged: not read and hashed again
        data = None
        if digest is None or digest not in _seen:
            data = path.read_bytes()
            digest = _digests[stamp] = hashlib.sha256(data).hexdigest()
    except FileNotFoundError:
        raise CompanionError("no such picture", source=str(path)) from None
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror})", source=str(path)) from None
    if digest not in _seen:  # the same content again (any name): the same picture
        _seen[digest] = _prepared(digest, str(path), data)
    return _seen[digest]


_seen: dict[str, Picture] = {}  # digest -> the picture, for this process
_digests: dict[tuple, str] = {}  # (path, mtime, size, inode) -> digest, for this process


def _prepared(digest: str, path: str, data: bytes) -> Picture:
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        import io

        with Image.open(io.BytesIO(data)) as im:
            size, fmt, mode = im.size, im.format, im.mode
            alpha = "A" in im.getbands() or "transparency" in im.info
            turned = im.getexif().get(ORIENTATION, 1) not in (0, 1)  # a phone's photo
            if fmt == "JPEG" and mode in ("RGB", "L", "CMYK") and not turned:
                return Picture(_jpeg(path, digest, data), *size, Path(path))
            if turned:
                from PIL import ImageOps

                im = ImageOps.exif_transpose(im)
                size = im.size
            target = cache_folder() / f"{digest}.{'png' if alpha else 'jpg'}"
            if not target.is_file():
                _convert(im, target, alpha)
            return Picture(str(target), *size, Path(path))
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError) as e:
        raise CompanionError(f"not a picture pillow can read ({type(e).__name__})",
                             source=path) from None


def _jpeg(path: str, digest: str, data: bytes) -> str:
    """A JPEG's copy in the cache, named by its digest: reportlab names a picture in the PDF
    by its path (so content names it), and passes a JPEG through only when its name says
    .jpg. A cache that cannot be written: the file itself, if its name says .jpg."""
    target = cache_folder() / f"{digest}.jpg"
    if not target.is_file():
        try:
            _write(target, data)
        except CompanionError:
            if path.lower().endswith((".jpg", ".jpeg")):
                return path
            raise
    return str(target)


def _convert(im, target: Path, alpha: bool) -> None:
    import io

    out = io.BytesIO()
    if im.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N"):  # 16-bit grey: scaled, not clipped
        im = im.convert("I").point(lambda v: v * (1 / 256)).convert("L")
    if alpha:
        im.convert("RGBA").save(out, "PNG", compress_level=1)
    else:
        im.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY, optimize=False)
    _write(target, out.getvalue())


def _write(target: Path, data: bytes) -> None:
    """Written aside and renamed: two builds filling the cache at once never see half a file."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    except OSError as e:
        raise CompanionError(f"cannot write the picture cache ({e.strerror})",
                             source=str(target)) from None
