"""Ink on the press: the shop's total-ink limit and its black rule, for the CMYK that
companion.press.cmyk makes, and the measure of a PDF's total ink (the preflight's
`--ink-limit` rule).

- Ink limit: a colour over the shop's total ink (C+M+Y+K; 240 % at DriveThruCards) has
  its grey component replaced first (the common part of C, M and Y moved to K, only as
  much as brings it under the limit and K can take), then C, M and Y scaled down together
  until it fits. Pictures go through a 3D table (33 steps a channel) of the same limited
  conversion: the table's corners are within the limit and an interpolation of points
  within a limit on a sum stays within it.
- Black: text, lines and small marks in a near-black (CIELAB L* <= 30 and chroma <= 15
  by default, or a colour the game names as an ink) print as black ink alone, at the K
  whose lightness on the press is the lightness the colour would print at; large areas
  of near-black print as the shop's rich black (C60 M40 Y40 K100 at DriveThruCards)."""

import io
import math
from functools import lru_cache

import msgspec

GRID = 33  # steps a channel of the pictures' table
# a fill is a "large area" (rich black, not black ink alone) from this size on: 1 cm²,
# and at least 4 mm across its narrow side (a rule or a bullet stays black ink)
LARGE_AREA = (72 / 2.54) ** 2
LARGE_SIDE = 4 * 72 / 25.4
MARGIN = 0.01  # the pictures' table is held 1 % under the limit: 8-bit rounding, 4 channels


class Rules(msgspec.Struct, frozen=True):
    """A shop's ink rules (export.shops.Press) and a game's own ink colours."""
    limit: float = 4.0  # total ink, 0..4
    rich_black: tuple = (0.0, 0.0, 0.0, 1.0)
    lightness: float = 30.0
    chroma: float = 15.0
    inks: frozenset = frozenset()  # (r, g, b) 0..255: colours the game prints in black ink


def lab(rgb) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour (0..1 each)."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(min(1.0, max(0.0, float(v)))) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def near_black(rgb, rules: Rules) -> bool:
    if tuple(round(min(1.0, max(0.0, float(v))) * 255) for v in rgb) in rules.inks:
        return True
    L, a, b = lab(rgb)
    return L <= rules.lightness and math.hypot(a, b) <= rules.chroma


def limit(cmyk, total: float) -> tuple[float, float, float, float]:
    """`cmyk` (0..1 each) within `total`: grey component replaced, then C, M, Y scaled."""
    c, m, y, k = (min(1.0, max(0.0, float(v))) for v in cmyk)
    over = c + m + y + k - total
    if over <= 1e-9:
        return c, m, y, k
    moved = min(c, m, y, 1.0 - k, over / 2)  # each unit moved takes 3 off and puts 1 on
    c, m, y, k = c - moved, m - moved, y - moved, k + moved
    cmy = c + m + y
    room = max(0.0, total - k)
    if cmy > room and cmy > 0:
        s = room / cmy
        c, m, y = c * s, m * s, y * s
    return c, m, y, k


def total(cmyk) -> float:
    return sum(float(v) for v in cmyk)


# ---- the profile's black ink -----------------------------------------------------------

@lru_cache(maxsize=4)
def _to_lab(profile: bytes):
    from PIL import ImageCms

    return ImageCms.buildTransform(ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                                   ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


def printed_lightness(profile: bytes, cmyk) -> float:
    """L* of a CMYK colour (0..1 each) printed in the profile's condition."""
    from PIL import Image, ImageCms

    px = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
    return ImageCms.applyTransform(px, _to_lab(profile)).getpixel((0, 0))[0] * 100 / 255


@lru_cache(maxsize=4)
def _black_ramp(profile: bytes) -> tuple[float, ...]:
    """L* of black ink alone at K = 0..255, as the profile prints it."""
    from PIL import Image, ImageCms

    im = Image.new("CMYK", (256, 1))
    im.putdata([(0, 0, 0, k) for k in range(256)])
    out = ImageCms.applyTransform(im, _to_lab(profile))
    return tuple(out.getpixel((k, 0))[0] * 100 / 255 for k in range(256))


def black_for(profile: bytes, lightness: float) -> float:
    """The K (0..1) of black ink alone that prints at `lightness` (L*), or the most black
    ink there is when the colour is darker than black ink alone prints."""
    ramp = _black_ramp(profile)
    for k, L in enumerate(ramp):
        if L <= lightness:
            return round(k / 255, 4)
    return 1.0


# ---- pictures --------------------------------------------------------------------------

def table(convert, total_ink: float):
    """A Pillow Color3DLUT from RGB to CMYK: `convert` (an RGB picture to CMYK) sampled on
    the grid, each entry held within `total_ink` less MARGIN."""
    from PIL import Image, ImageFilter

    n = GRID
    grid = Image.new("RGB", (n, n * n))
    grid.putdata([(round(r * 255 / (n - 1)), round(g * 255 / (n - 1)), round(b * 255 / (n - 1)))
                  for b in range(n) for g in range(n) for r in range(n)])
    cmyk = convert(grid)
    values: list[float] = []
    raw = cmyk.tobytes()
    for i in range(0, len(raw), 4):
        values += limit([v / 255 for v in raw[i:i + 4]], total_ink - MARGIN)
    return ImageFilter.Color3DLUT(n, values, channels=4, target_mode="CMYK")


def picture_max(im) -> float:
    """The most total ink (0..4) of any pixel of a CMYK picture."""
    from PIL import ImageMath

    c, m, y, k = im.split()
    s = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return s.getextrema()[1] / 255


# ---- a PDF's total ink (the preflight's rule) ------------------------------------------

class Measure(msgspec.Struct):
    most: float = 0.0  # total ink, 0..4
    where: str = ""  # "page 3 (a colour)", "page 3 (a picture)"


MAX_DEPTH = 12  # forms in forms: the preflight's bound


def measure(pdf, reader=None, max_pixels: int = 50_000_000) -> Measure:
    """The most total ink on any page of an open pikepdf document: every k/K, sc/scn in
    DeviceCMYK, g/G (black ink), every CMYK picture's pixels. Content streams are read
    by the preflight's bounded reader (`reader`: a content_streams.Reader(ink=True), the
    preflight's own when it measures; each stream unpacked and parsed once, within its
    budget), each form and picture measured once; pictures past `max_pixels` all told
    are not decoded (the preflight's bounds)."""
    import pikepdf
    from pikepdf import PdfImage

    from companion.press import content_streams

    if reader is None:
        reader = content_streams.Reader(content_streams.BUDGET, ink=True)
    got = Measure()
    seen: set = set()  # forms and pictures measured
    pixels = 0

    def note(value: float, where: str):
        if value > got.most + 1e-9:
            got.most, got.where = value, where

    def walk(stream, resources, where, depth):
        nonlocal pixels
        try:
            read = reader.read(stream, where)
        except content_streams.Undecodable:  # the preflight's streams rule names it
            return
        if read.ink[1]:
            note(read.ink[0], f"{where} ({read.ink[1]})")
        xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) \
            else None
        if not isinstance(xobjects, pikepdf.Dictionary):
            return
        for name in read.drawn:
            x = xobjects.get(name)
            if not isinstance(x, pikepdf.Stream) or not x.is_indirect or x.objgen in seen:
                continue
            seen.add(x.objgen)
            if str(x.get("/Subtype")) == "/Form":
                if depth < MAX_DEPTH:
                    walk(x, x.get("/Resources", resources), where, depth + 1)
            elif str(x.get("/ColorSpace")) == "/DeviceCMYK":
                pixels += int(x.get("/Width", 0)) * int(x.get("/Height", 0))
                if pixels <= max_pixels:
                    im = PdfImage(x).as_pil_image()
                    if im.mode == "CMYK":
                        note(picture_max(im), f"{where} (a picture)")

    for n, page in enumerate(pdf.pages, 1):
        contents = page.obj.get("/Contents")
        streams = contents if isinstance(contents, pikepdf.Array) else [contents]
        resources = page.obj.get("/Resources", pikepdf.Dictionary())
        for stream in streams:
            if isinstance(stream, pikepdf.Stream):
                walk(stream, resources, f"page {n}", 0)
    return got


def rule(pdf, limit: float, reader=None) -> list[tuple[str, str, str]]:
    """The preflight's ink rule on an open document: [(rule, where, what)] when its most
    total ink is over `limit` (0..4), else []. `reader`: the preflight's (see measure)."""
    got = measure(pdf, reader)
    if got.most <= limit + 0.005:  # 0.5 %: the rounding of four values written to 4 places
        return []
    return [("ink", got.where.split(" (")[0], f"total ink {got.most * 100:.0f} %"
             f"{got.where[len(got.where.split(' (')[0]):]}: over the {limit * 100:.0f} % asked")]
