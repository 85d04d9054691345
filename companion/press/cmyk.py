"""Colour for the press: RGB as drawn turned into CMYK by LittleCMS (Pillow's ImageCms)
through a CMYK output profile, the one shipped (companion/layouts/profiles/) or a
designer's own (`--icc FILE`, read bounded: companion.files.bounded).

Relative colorimetric with black point compensation, as prepress converts RGB artwork;
pure black (0, 0, 0) prints as black ink alone (0, 0, 0, 100 %), so text and lines in
black are not four inks a misregistered press would fringe."""

from functools import lru_cache
from pathlib import Path

import msgspec

from companion.errors import CompanionError, escape
from companion.files import paths

DEFAULT = "cgats-tr003.icc"
MAX_PROFILE_BYTES = 8_000_000  # a printer's CMYK profile is a few MB at the most
BLACK = (0.0, 0.0, 0.0, 1.0)


class Profile(msgspec.Struct, frozen=True):
    """A CMYK output profile: its bytes, its description, where it came from."""
    data: bytes
    description: str
    source: str


def shipped(name: str = DEFAULT) -> Path:
    return paths.LAYOUTS / "profiles" / name


def _read(data: bytes) -> str:
    """In the bounded worker: the profile parsed by LittleCMS; its description."""
    import io

    from PIL import ImageCms
    from companion.files.bounded import Failed

    try:
        p = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ImageCms.PyCMSError) as e:
        raise Failed(f"not an ICC profile LittleCMS reads ({str(e)[:80]})") from None
    info = p.profile
    if info.xcolor_space.strip() != "CMYK":
        raise Failed(f"a {info.xcolor_space.strip()} profile, not a CMYK one")
    if info.device_class.strip() != "prtr":
        raise Failed(f"a '{info.device_class.strip()}' profile, not an output (printer) one")
    try:
        _transform(data)  # the tables LittleCMS builds a transform from: the costly part
    except (OSError, ImageCms.PyCMSError):
        raise Failed("LittleCMS cannot convert to it (its tables are missing or cut "
                     "short)") from None
    # a designer's text, printed in guide.txt and on the terminal: no control character
    return escape((info.profile_description or "").strip()[:200]) or "CMYK profile"


def load(path: Path | None = None) -> Profile:
    """The shipped profile, or the designer's file at `path`, checked: a CMYK output
    profile LittleCMS reads, under MAX_PROFILE_BYTES, within the decoders' bounds."""
    from companion.files import bounded

    if path is None:
        path, source = shipped(), "shipped"
    else:
        source = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_PROFILE_BYTES:
            raise CompanionError(f"an ICC profile of {size:,} bytes: over "
                                 f"{MAX_PROFILE_BYTES // 1_000_000} MB, the most one may be",
                                 source=str(path), field="--icc")
        data = path.read_bytes()
    except OSError as e:
        raise CompanionError(f"cannot read it ({e.strerror or e})", source=str(path),
                             field="--icc") from None
    if source == "shipped":
        return Profile(data, _read(data), source)
    return Profile(data, bounded.run(_read, data, source=str(path), what="ICC profile"), source)


@lru_cache(maxsize=4)
def _transform(data: bytes):
    import io

    from PIL import ImageCms

    srgb = ImageCms.createProfile("sRGB")
    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(data))
    return ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


class Converter:
    """RGB to CMYK through one profile: colours (0..1 each, cached) and pictures."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self._colours: dict[tuple, tuple] = {}

    def colour(self, rgb) -> tuple[float, float, float, float]:
        key = tuple(round(min(1.0, max(0.0, float(v))) * 255) for v in rgb)
        got = self._colours.get(key)
        if got is None:
            if key == (0, 0, 0):
                got = BLACK
            else:
                from PIL import Image

                px = self.picture(Image.new("RGB", (1, 1), key)).getpixel((0, 0))
                got = tuple(round(v / 255, 4) for v in px)
            self._colours[key] = got
        return got

    def picture(self, im):
        """An RGB picture as CMYK (mode "CMYK")."""
        from PIL import ImageCms

        return ImageCms.applyTransform(im.convert("RGB"), _transform(self.profile.data))
