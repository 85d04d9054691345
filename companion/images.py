"""The one image cache. Pictures go into PDFs by file path (reportlab then stores each path
once and never decodes it again): a JPEG as it is (its bytes pass straight into the PDF),
anything else converted once by pillow and kept in the user's cache folder under its
content's digest (an opaque picture as a JPEG, quality 92; one with transparency as a PNG
so the alpha survives). Two files with the same content are one picture in the PDF."""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from companion import inputs
from companion.errors import CompanionError

JPEG_QUALITY = 92
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
        data = path.read_bytes()
    except FileNotFoundError:
        raise CompanionError("no such picture", source=str(path)) from None
    except OSError as e:
        raise CompanionError(f"cannot read ({e.strerror})", source=str(path)) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _seen:  # the same content again (any name): the same picture
        _seen[digest] = _prepared(digest, str(path), data)
    return _seen[digest]


_seen: dict[str, Picture] = {}  # digest -> the picture, for this process


def _prepared(digest: str, path: str, data: bytes) -> Picture:
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        import io

        with Image.open(io.BytesIO(data)) as im:
            size, fmt, mode = im.size, im.format, im.mode
            alpha = "A" in im.getbands() or "transparency" in im.info
            if fmt == "JPEG" and mode in ("RGB", "L", "CMYK"):
                return Picture(_as_jpeg_name(path, digest, data), *size, Path(path))
            target = cache_folder() / f"{digest}.{'png' if alpha else 'jpg'}"
            if not target.is_file():
                _convert(im, target, alpha)
            return Picture(str(target), *size, Path(path))
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError) as e:
        raise CompanionError(f"not a picture pillow can read ({type(e).__name__})",
                             source=path) from None


def _as_jpeg_name(path: str, digest: str, data: bytes) -> str:
    """reportlab passes a JPEG through only when its name says .jpg/.jpeg: a JPEG named
    otherwise is copied into the cache under its digest."""
    if path.lower().endswith((".jpg", ".jpeg")):
        return path
    target = cache_folder() / f"{digest}.jpg"
    if not target.is_file():
        _write(target, data)
    return str(target)


def _convert(im, target: Path, alpha: bool) -> None:
    import io

    out = io.BytesIO()
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
