"""A build's printer profile (`build --printer NAME`): loaded and checked against the
build, its correction for every back page, its manifest entry and guide lines."""

import msgspec

from companion.errors import CompanionError, shown
from companion.files import paths, printers
from companion.files.data import load_fields
from companion.press import calibration as cal
from companion.text.typography import number
from companion.text.units import to_mm


def load(name: str, flip: str) -> cal.Profile:
    cal.check_name(name)
    try:
        profile = msgspec.convert(printers.load(name), cal.Profile)
    except msgspec.ValidationError as e:
        raise CompanionError(f"printer profile {shown(name)} is not one ({e})",
                             field="--printer") from None
    if flip == "none":
        raise CompanionError("a printer profile corrects backs: build with --flip long or "
                             "short", field="--printer")
    if profile.flip != flip:
        raise CompanionError(f"printer {shown(name)} was measured flipping on the "
                             f"{profile.flip} edge, this build flips on the {flip}: "
                             f"calibrate with --flip {flip}", field="--printer")
    return profile


def entry(profile: cal.Profile, page: tuple[float, float], flip: str) -> dict:
    """The manifest's "printer": the profile and the matrix every back page is drawn
    through."""
    return {"name": profile.name, "measured_on": profile.paper, "flip": profile.flip,
            "shift_mm": list(profile.shift), "rotation_deg": profile.rotation,
            "scale": profile.scale, "residual_mm": profile.residual,
            "spread_mm": profile.spread, "prints": profile.prints,
            "back_matrix": [round(v, 6) for v in cal.correction(profile, *page, flip)]}


def correction(profile: cal.Profile, page: tuple[float, float], flip: str) -> tuple:
    """The matrix a back page of a file flipping `flip` is drawn through: the profile's,
    when it was measured flipping so (a file of its own flip, a box's, has none)."""
    return cal.correction(profile, *page, flip) if flip == profile.flip else None


def guide(profile: cal.Profile, bleed: float, lang: str) -> list[str]:
    g = load_fields(paths.layout("calibration.toml"), english=True).sub("guide")
    n = lambda v, places=2: number(v, lang, places)  # noqa: E731
    x, y = profile.shift
    if profile.residual is None:
        lines = [g.text("given", lang).format(name=profile.name, x=n(x), y=n(y),
                                              deg=n(profile.rotation, 3))]
    else:
        lines = [g.text("applied", lang).format(
            name=profile.name, paper=profile.paper, flip=profile.flip, prints=profile.prints,
            x=n(x), y=n(y), deg=n(profile.rotation, 3))]
    hidden = max(to_mm(bleed), to_mm(cal.fit_settings()[1]))
    if profile.spread is not None and profile.spread > hidden:
        lines.append(g.text("spread", lang).format(spread=n(profile.spread),
                                                   hidden=n(hidden)))
    return lines + [""]
