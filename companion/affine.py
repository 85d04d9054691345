"""PDF's matrices (a, b, c, d, e, f), as reportlab keeps a canvas's and a PDF's `cm`
writes them: the one place they are multiplied, inverted and applied (the checks' boxes
on a card face, icons' drawings, the PDF/X converter's content)."""


def multiply(m, n) -> tuple:
    """m, then n: the matrix of `m cm` under the matrix n (a point as a row: p * m * n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def invert(m, least: float = 0.0) -> tuple:
    """m's inverse; ValueError where m is singular (its determinant within `least` of 0)."""
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) <= least:
        raise ValueError("a singular matrix")
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def apply(m, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f
