"""How a CMYK PDF looks printed, for the press tests: Ghostscript renders its inks as they
are (tiff32nc, no conversion), LittleCMS turns them into sRGB through the file's own
output profile; compared with the RGB kit by CIE76 colour difference (ΔE*ab, D65) and by
mean absolute RGB difference."""

import io
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageChops, ImageCms, ImageStat

from tests.needs import tool


def proof(pdf, page: int, dpi: int, profile: bytes) -> Image.Image:
    """Page `page` (from 1) of a CMYK PDF as sRGB through `profile` (ICC bytes). Ghostscript
    does not smooth edges in this device: render at 3 times `dpi`, then shrink."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "page.tif"
        subprocess.run([tool("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER",
                        "-sDEVICE=tiff32nc", f"-r{3 * dpi}", f"-dFirstPage={page}",
                        f"-dLastPage={page}", f"-sOutputFile={out}", str(pdf)],
                       capture_output=True, check=True, timeout=120)
        im = Image.open(out)
        im.load()
        im = im.resize((round(im.width / 3), round(im.height / 3)), Image.Resampling.BOX)
    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    return ImageCms.applyTransform(im, ImageCms.buildTransform(
        cmyk, ImageCms.createProfile("sRGB"), "CMYK", "RGB"))


def _lab(rgb):
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean ΔE*ab, mean absolute RGB difference 0..255) of two pictures of one size."""
    a, b = a.convert("RGB"), b.convert("RGB").resize(a.size, Image.Resampling.BOX)
    cache: dict = {}
    total = 0.0
    ba, bb = a.tobytes(), b.tobytes()
    pa = [tuple(ba[i:i + 3]) for i in range(0, len(ba), 3)]
    pb = [tuple(bb[i:i + 3]) for i in range(0, len(bb), 3)]
    for u, v in zip(pa, pb):
        for c in (u, v):
            if c not in cache:
                cache[c] = _lab(c)
        la, lb = cache[u], cache[v]
        total += sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5
    diff = ImageStat.Stat(ImageChops.difference(a, b)).mean
    return total / (a.width * a.height), sum(diff) / 3
