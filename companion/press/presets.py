"""Paper sizes, card sizes and sheet settings, read from companion/layouts/presets.toml."""

from functools import cache

import msgspec

from companion.files import paths
from companion.files.data import Fields, load_toml
from companion.errors import CompanionError, shown
from companion.text.units import parse_length, parse_size, to_mm


class SheetSettings(msgspec.Struct, frozen=True):
    printable_margin: float
    crop_gap: float
    crop_max: float
    crop_min: float
    crop_width: float
    token_gap: float
    furniture_band: float
    calibration_bar: float
    caption_size: float
    label_size: float
    label_min: float
    smallest_card: float
    largest_bleed: float
    art_bleed: float


@cache
def table() -> Fields:
    """companion/layouts/presets.toml, read once."""
    path = paths.LAYOUTS / "presets.toml"
    return Fields(load_toml(path), str(path), english=True)  # our words


def _lookup(kind: str, name: str) -> tuple[float, float] | None:
    section = table().sub(kind)
    if name not in section.table:
        return None
    entry = section.sub(name)
    return parse_size(entry.get("size", str), field=f"{kind}.{name}.size")


def paper_names() -> list[str]:
    return list(table().sub("paper").table)


def card_names() -> list[str]:
    return list(table().sub("card").table)


def paper_size(name: str) -> tuple[float, float]:
    size = _lookup("paper", name.lower())
    if size is None:
        raise CompanionError(f"unknown paper {shown(name)} (use {', '.join(paper_names())})",
                             field="--paper")
    return size


def card_size(spec: str) -> tuple[float, float]:
    """A preset name (poker, euro, ...) or a custom 'WxH' size with one unit."""
    size = _lookup("card", spec.lower())
    if size is not None:
        return size
    if "x" not in spec.lower():
        raise CompanionError(f"unknown card size {shown(spec)} (use {', '.join(card_names())}, "
                             "or WxH like 63x88mm)", field="--card-size")
    return cut_size(parse_size(spec, field="--card-size"), spec, "--card-size")


def cut_size(size: tuple[float, float], spec: str, field: str, source=None) -> tuple[float, float]:
    """A card's or a piece's size, each side at least [sheet] smallest_card: a smaller one
    cannot be cut or read (and a sheet of 0.1 mm cards is millions of them)."""
    least = sheet_settings().smallest_card
    if min(size) < least - 1e-9:
        raise CompanionError(f"{shown(spec)} is too small to print and cut: each side at "
                             f"least {to_mm(least):g} mm", field=field, source=source)
    return size


def bleed(spec: str) -> float:
    value = parse_length(spec, field="--bleed")
    most = sheet_settings().largest_bleed
    if value > most + 1e-9:
        raise CompanionError(f"{shown(spec)} is more bleed than any print needs (at most "
                             f"{to_mm(most):g} mm)", field="--bleed")
    return value


@cache  # asked for every picture drawn (art_bleed); the data is read once anyway
def sheet_settings() -> SheetSettings:
    sheet = table().sub("sheet")
    return SheetSettings(**{k: parse_length(sheet.get(k, str), field=f"sheet.{k}")
                            for k in SheetSettings.__struct_fields__})


def text_limits():
    from companion.text.fit import Limits

    t = table().sub("text")
    return Limits(floor=parse_length(t.get("floor", str), field="text.floor"),
                  safe=parse_length(t.get("safe_zone", str), field="text.safe_zone"),
                  contrast=float(t.get("contrast", (int, float))),
                  contrast_large=float(t.get("contrast_large", (int, float))),
                  large_size=parse_length(t.get("large_size", str), field="text.large_size"),
                  large_size_regular=parse_length(t.get("large_size_regular", str),
                                                  field="text.large_size_regular"))
