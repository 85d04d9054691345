"""The one place where lengths written as text become points (1/72 inch)."""

import re

from companion.errors import CompanionError, shown

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}
LONGEST = 1000 * 72.0 / 25.4  # one metre: longer is a typo, and would overflow the planning

_LENGTH = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]+)\s*$")
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*x\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]+)\s*$")


def _unit(unit: str, text: str, field: str | None) -> float:
    if unit not in POINTS_PER:
        known = ", ".join(POINTS_PER)
        raise CompanionError(f"unknown unit {shown(unit)} in {shown(text)} (use {known})",
                             field=field)
    return POINTS_PER[unit]


def parse_length(text: str, field: str | None = None) -> float:
    """'63.5mm', '2.5in', '8pt' -> points."""
    m = _LENGTH.match(str(text).lower())
    if not m:
        raise CompanionError(f"{shown(text)} is not a length like '3mm', '0.5in' or '8pt'",
                             field=field)
    return _bounded(float(m.group(1)) * _unit(m.group(2), text, field), text, field)


def parse_size(text: str, field: str | None = None) -> tuple[float, float]:
    """'63x88mm', '2.5x3.5in' -> (width, height) in points."""
    m = _SIZE.match(str(text).lower())
    if not m:
        raise CompanionError(f"{shown(text)} is not a size like '63x88mm' or '2.5x3.5in'",
                             field=field)
    k = _unit(m.group(3), text, field)
    w, h = (_bounded(float(m.group(i)) * k, text, field) for i in (1, 2))
    if w <= 0 or h <= 0:
        raise CompanionError(f"{shown(text)} has a zero side", field=field)
    return w, h


def _bounded(points: float, text: str, field: str | None) -> float:
    if not points <= LONGEST:
        raise CompanionError(f"{shown(text)} is over a metre", field=field)
    return points


def mm(value: float) -> float:
    """Millimetres -> points, for lengths written in code and tests."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    return points / POINTS_PER["mm"]
