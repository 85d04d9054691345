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

MEASURED = "k K g G cs CS sc scn SC SCN Do"  # the operators the measure reads


class Measure(msgspec.Struct):
    most: float = 0.0  # total ink, 0..4
    where: str = ""  # "page 3 (a colour)", "page 3 (a picture)"


def measure(pdf, max_pixels: int = 50_000_000) -> Measure:
    """The most total ink on any page of an open pikepdf document: every k/K, sc/scn in
    DeviceCMYK, g/G (black ink), every CMYK picture's pixels. Pictures past `max_pixels`
    all told are not decoded (the preflight's bounds)."""
    import pikepdf
    from pikepdf import PdfImage

    got = Measure()
    seen: set = set()
    pixels = 0

    def note(value: float, where: str):
        if value > got.most + 1e-9:
            got.most, got.where = value, where

    def walk(content, resources, where, depth):
        nonlocal pixels
        if depth > 12:
            return
        spaces = {"fill": "/DeviceGray", "stroke": "/DeviceGray"}
        # only the operators that set a colour or draw an object: parsed, the rest skipped
        for operands, op in pikepdf.parse_content_stream(content, MEASURED):
            name = str(op)
            if name in ("k", "K") and len(operands) == 4:
                note(sum(float(v) for v in operands), f"{where} (a colour)")
            elif name in ("g", "G") and operands:
                note(1.0 - float(operands[0]), f"{where} (a grey)")
            elif name in ("cs", "CS") and operands:
                spaces["fill" if name == "cs" else "stroke"] = str(operands[0])
            elif name in ("sc", "scn", "SC", "SCN"):
                space = spaces["fill" if name in ("sc", "scn") else "stroke"]
                if space == "/DeviceCMYK" and len(operands) == 4:
                    note(sum(float(v) for v in operands), f"{where} (a colour)")
            elif name == "Do" and operands:
                x = resources.get("/XObject", {}).get(str(operands[0])) if resources else None
                if x is None:
                    continue
                if str(x.get("/Subtype")) == "/Form":
                    walk(x, x.get("/Resources", resources), where, depth + 1)
                elif str(x.get("/ColorSpace")) == "/DeviceCMYK" and x.objgen not in seen:
                    seen.add(x.objgen)
                    pixels += int(x.get("/Width", 0)) * int(x.get("/Height", 0))
                    if pixels <= max_pixels:
                        im = PdfImage(x).as_pil_image()
                        if im.mode == "CMYK":
                            note(picture_max(im), f"{where} (a picture)")

    pages_seen: set = set()
    for n, page in enumerate(pdf.pages, 1):
        contents = page.obj.get("/Contents")
        key = contents.objgen if contents is not None and contents.is_indirect else None
        if key is not None and key != (0, 0):
            if key in pages_seen:  # the same printed page again: measured once
                continue
            pages_seen.add(key)
        walk(page.obj, page.obj.get("/Resources", pikepdf.Dictionary()), f"page {n}", 0)
    return got


def rule(pdf, limit: float) -> list[tuple[str, str, str]]:
    """The preflight's ink rule on an open document: [(rule, where, what)] when its most
    total ink is over `limit` (0..4), else []."""
    got = measure(pdf)
    if got.most <= limit + 0.005:  # 0.5 %: the rounding of four values written to 4 places
        return []
    return [("ink", got.where.split(" (")[0], f"total ink {got.most * 100:.0f} %"
             f"{got.where[len(got.where.split(' (')[0]):]}: over the {limit * 100:.0f} % asked")]
