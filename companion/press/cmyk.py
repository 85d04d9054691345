"""Colour for the press: RGB as drawn turned into CMYK by LittleCMS (Pillow's ImageCms)
through a CMYK output profile, the one shipped (companion/layouts/profiles/) or a
designer's own (`--icc FILE`, read bounded: companion.files.bounded).

Relative colorimetric with black point compensation, as prepress converts RGB artwork;
then the shop's ink rules (companion.press.ink): every colour and picture within its total
ink, a near-black in text, lines and small marks as black ink alone (`ink`), a large
near-black area as its rich black (`area`)."""

from functools import lru_cache
from pathlib import Path

import msgspec

from companion.errors import CompanionError, escape
from companion.files import paths

DEFAULT = "cgats-tr003.icc"
MAX_PROFILE_BYTES = 8_000_000  # a printer's CMYK profile is a few MB at the most
BLACK = (0.0, 0.0, 0.0, 1.0)
RICH_SLACK = 3.0  # L*: a large near-black area this close to the rich black prints as it


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
    from companion.files import designer_files

    try:  # a device, a pipe or a folder refused before a byte is read, as every input
        data = designer_files.read_bytes(path, MAX_PROFILE_BYTES, "ICC profile")
    except CompanionError as e:
        raise CompanionError(e.message, source=str(path), field="--icc") from None
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


def _plain(profile: bytes, im):
    """An RGB picture as CMYK through the profile, before any ink rule."""
    from PIL import ImageCms

    return ImageCms.applyTransform(im.convert("RGB"), _transform(profile))


@lru_cache(maxsize=4)
def _table(profile: bytes, limit: float):
    from companion.press import ink

    return ink.table(lambda im: _plain(profile, im), limit)


class Converter:
    """RGB to CMYK through one profile under a shop's ink rules: colours (0..1 each,
    cached) and pictures."""

    def __init__(self, profile: Profile, rules=None):
        from companion.press import ink

        self.profile = profile
        self.rules = rules or ink.Rules()
        self._colours: dict[tuple, tuple] = {}
        self._inks: dict[tuple, tuple] = {}

    @staticmethod
    def _key(rgb) -> tuple:
        return tuple(round(min(1.0, max(0.0, float(v))) * 255) for v in rgb)

    def colour(self, rgb) -> tuple[float, float, float, float]:
        """The colour as the profile prints it, within the total ink."""
        from companion.press import ink

        key = self._key(rgb)
        got = self._colours.get(key)
        if got is None:
            from PIL import Image

            px = _plain(self.profile.data, Image.new("RGB", (1, 1), key)).getpixel((0, 0))
            got = tuple(round(v, 4) for v in ink.limit([v / 255 for v in px],
                                                      self.rules.limit - 0.0004))
            self._colours[key] = got
        return got

    def ink(self, rgb) -> tuple[float, float, float, float]:
        """For text, lines and small marks: a near-black as black ink alone at the K that
        prints at the colour's own lightness; any other colour as `colour`."""
        from companion.press import ink

        key = self._key(rgb)
        got = self._inks.get(key)
        if got is None:
            if key == (0, 0, 0):
                got = BLACK
            elif ink.near_black([v / 255 for v in key], self.rules):
                L = ink.printed_lightness(self.profile.data, self.colour(rgb))
                got = (0.0, 0.0, 0.0, ink.black_for(self.profile.data, L))
            else:
                got = self.colour(rgb)
            self._inks[key] = got
        return got

    def area(self, rgb) -> tuple[float, float, float, float] | None:
        """For a large area of a near-black (where `ink` gives black ink alone): the
        shop's rich black when the colour prints as dark as it (within RICH_SLACK of its
        L*), else the colour's own four inks; None for any other colour (`ink` is it)."""
        from companion.press import ink

        if not ink.near_black(rgb, self.rules):
            return None
        own = self.colour(rgb)
        rich = tuple(self.rules.rich_black)
        data = self.profile.data
        if ink.printed_lightness(data, own) <= ink.printed_lightness(data, rich) + RICH_SLACK:
            return rich
        return own

    def picture(self, im):
        """An RGB picture as CMYK (mode "CMYK") within the total ink."""
        if self.rules.limit >= 4.0:
            return _plain(self.profile.data, im)
        return im.convert("RGB").filter(_table(self.profile.data, self.rules.limit))
