"""Colours as others see them: with a colour vision deficiency (deuteranopia, protanopia,
tritanopia) and printed in greyscale, and how far apart two colours look (CIEDE2000).
Pure arithmetic on sRGB values in 0..1 (numpy arrays, any shape ending in 3); nothing
drawn, nothing read.

- The simulations are Machado, Oliveira and Fernandes (2009), "A Physiologically-based
  Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), at severity 100
  (dichromacy), as colorspacious implements them (its "sRGB1+CVD" space; its matrices
  are the paper's own, interpolated by severity).
- The greyscale print keeps each colour's CIE lightness L* (a neutral grey of the same
  relative luminance), as an office printer's or a copier's greyscale does.
- The distance is CIEDE2000 (CIE 142-2001), written here from Sharma, Wu and Dalal
  (2005), "The CIEDE2000 Color-Difference Formula: Implementation Notes", whose test
  pairs tests/test_legibility.py checks; colorspacious gives CIELab (D65)."""

import numpy as np

VIEWS = ("designed", "deuteranopia", "protanopia", "tritanopia", "greyscale")
_CVD = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly",
        "tritanopia": "tritanomaly"}


def seen(rgb, view: str):
    """The sRGB colours (0..1) as seen in `view` (one of VIEWS)."""
    from colorspacious import cspace_convert

    rgb = np.asarray(rgb, dtype=float)
    if view == "designed":
        return rgb
    if view == "greyscale":
        grey = _grey(rgb)
        return np.repeat(grey[..., None], 3, axis=-1)
    space = {"name": "sRGB1+CVD", "cvd_type": _CVD[view], "severity": 100}
    return np.clip(cspace_convert(rgb, space, "sRGB1"), 0.0, 1.0)


def _grey(rgb):
    """The sRGB grey level of the same relative luminance (hence the same L*)."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    y = linear @ np.array([0.2126, 0.7152, 0.0722])
    return np.where(y <= 0.0031308, 12.92 * y, 1.055 * np.power(y, 1 / 2.4) - 0.055)


def lab(rgb):
    """CIELab (D65) of sRGB colours (0..1)."""
    from colorspacious import cspace_convert

    return cspace_convert(np.asarray(rgb, dtype=float), "sRGB1", "CIELab")


def ciede2000(lab1, lab2):
    """CIEDE2000 colour difference of CIELab colours (kL = kC = kH = 1), elementwise."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=float), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=float), -1, 0)
    c_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_bar ** 7 / (c_bar ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.where(c1p == 0, 0.0, np.degrees(np.arctan2(b1, a1p)) % 360)
    h2p = np.where(c2p == 0, 0.0, np.degrees(np.arctan2(b2, a2p)) % 360)
    dl, dc = L2 - L1, c2p - c1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1p * c2p == 0, 0.0, dh)
    d_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_bar, cp_bar = (L1 + L2) / 2, (c1p + c2p) / 2
    h_sum, h_gap = h1p + h2p, np.abs(h1p - h2p)
    h_bar = np.where(h_gap <= 180, h_sum / 2,
                     np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2))
    h_bar = np.where(c1p * c2p == 0, h_sum, h_bar)
    t = (1 - 0.17 * np.cos(np.radians(h_bar - 30)) + 0.24 * np.cos(np.radians(2 * h_bar))
         + 0.32 * np.cos(np.radians(3 * h_bar + 6)) - 0.20 * np.cos(np.radians(4 * h_bar - 63)))
    d_theta = 30 * np.exp(-(((h_bar - 275) / 25) ** 2))
    rc = 2 * np.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25.0 ** 7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_bar, 1 + 0.015 * cp_bar * t
    rt = -np.sin(np.radians(2 * d_theta)) * rc
    return np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (d_h / sh) ** 2
                   + rt * (dc / sc) * (d_h / sh))


def distance(rgb1, rgb2, view: str):
    """How far apart two sRGB colours look in `view`: CIEDE2000 of what is seen."""
    return ciede2000(lab(seen(rgb1, view)), lab(seen(rgb2, view)))


def hex_rgb(value: str):
    """'#D62728' as sRGB 0..1."""
    v = value.lstrip("#")
    return np.array([int(v[i:i + 2], 16) / 255 for i in (0, 2, 4)])
