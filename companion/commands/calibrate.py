"""`companion calibrate`: a printer's duplex error measured (the calibration sheet, its
readings fitted) and kept as a named profile that `build --printer NAME` corrects for."""

import click

from companion.commands import common
from companion.errors import CompanionError, escape


@click.group(short_help="Measure a printer's duplex error; keep it as a printer profile.",
             epilog="""\b
Examples:
  companion calibrate duplex --paper a4 --flip long
  companion calibrate duplex --printer office --read "0.8,-1.2 0.6,-1.2 0.4,-1.2 0.8,-1.0 0.6,-1.0 0.4,-1.0"
  companion calibrate duplex --printer office --shift 0.8,-1.2 --rotate 0.3
  companion calibrate list
  companion calibrate remove office""")
def calibrate():
    """Printer profiles: backs that land on their fronts."""


def _pair(value: str | None, field: str) -> tuple[float, float] | None:
    if value is None:
        return None
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise CompanionError(f"{value!r} is not X,Y in mm like 0.8,-1.2", field=field) from None
    if abs(x) > 50 or abs(y) > 50:
        raise CompanionError(f"{value!r}: a shift of more than 50 mm is no printer's",
                             field=field)
    return x, y


@calibrate.command(short_help="Write the calibration sheet, or fit its readings.")
@click.option("--paper", type=common.PAPER, default="a4", show_default=True)
@click.option("--flip", type=common.Named("flip", ("long", "short")), default="long",
              show_default=True, help="How the printer turns the sheet over.")
@click.option("--lang", type=common.WORDS, default="en", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False),
              help="The sheet's PDF (default: output/calibration-duplex-PAPER-FLIP.pdf).")
@click.option("--printer", help="The profile to keep: its name (letters, digits, - _).")
@click.option("--read", "reads", multiple=True,
              help="One print's readings, place A to F, each ACROSS,UP in mm, e.g. "
                   "\"0.8,-1.2 0.6,-1.2 ...\"; once for each print.")
@click.option("--shift", help="X,Y in mm: the back's shift measured another way (right, up +).")
@click.option("--rotate", type=float, help="Degrees, anticlockwise seen from the front.")
def duplex(paper, flip, lang, out, printer, reads, shift, rotate):
    """Without --printer, write the two-sided calibration sheet; with it, fit the readings
    (--read, or asked for) or keep --shift/--rotate, as the printer's profile."""
    from companion.press import calibration as cal, presets

    if printer is None:
        if reads or shift or rotate is not None:
            raise CompanionError("name the printer these are for", field="--printer")
        _write_sheet(paper, flip, lang, out)
        return
    cal.check_name(printer)
    page = presets.paper_size(paper)
    if shift is not None or rotate is not None:
        if reads:
            raise CompanionError("give readings or a shift and a turn, not both", field="--read")
        x, y = _pair(shift, "--shift") or (0.0, 0.0)
        if rotate is not None and abs(rotate) > 10:
            raise CompanionError(f"{rotate} degrees is no printer's turn", field="--rotate")
        profile = cal.Profile(printer, paper, flip, (x, y), rotate or 0.0)
    else:
        count = len(cal.scales(*page)) // 2
        texts = list(reads) or _asked(count)
        prints = [cal.parse_readings(t, count) for t in texts]
        f = cal.fit(prints, *page)
        profile = cal.profile_from_fit(printer, paper, flip, f, prints)
    _keep(profile)


def _asked(count: int) -> list[str]:
    """Readings typed print by print at prompts; an empty line ends."""
    texts = []
    while True:
        n = len(texts) + 1
        line = click.prompt(f"print {n}: {count} readings ACROSS,UP (A to last), "
                            "empty to finish" if texts else
                            f"print 1: {count} readings ACROSS,UP (A to last)",
                            default="", show_default=False, err=True)
        if not line.strip():
            if texts:
                return texts
            raise CompanionError("no readings given", field="--read")
        texts.append(line)


def _keep(profile) -> None:
    import msgspec

    from companion.files import printers

    path = printers.save(profile.name, msgspec.to_builtins(profile))
    click.echo(f"{escape(profile.name)}: {describe(profile)}")
    click.echo(f"kept in {escape(str(path))}; use: companion build GAME --printer "
               f"{escape(profile.name)}")


def describe(profile) -> str:
    x, y = profile.shift
    said = (f"back shifted {x:+.2f}, {y:+.2f} mm, turned {profile.rotation:+.3f}°"
            + (f", scale {profile.scale:.4f}" if profile.scale != 1 else ""))
    said += f" ({profile.paper}, flip {profile.flip}"
    if profile.residual is not None:
        said += f", {profile.prints} print{'s' * (profile.prints != 1)}, residual " \
                f"{profile.residual:.2f} mm"
    if profile.spread is not None:
        said += f", spread {profile.spread:.2f} mm"
    return said + (")" if profile.residual is not None else ", given by hand)")


def _write_sheet(paper: str, flip: str, lang: str, out: str | None) -> None:
    from pathlib import Path

    from companion.draw import calibration as drawing
    from companion.files import paths
    from companion.files.atomic import replaced
    from companion.files.data import load_fields
    from companion.press import presets
    from companion.press.pdf import open_canvas

    page = presets.paper_size(paper)
    target = Path(out) if out else paths.output() / f"calibration-duplex-{paper}-{flip}.pdf"
    target.parent.mkdir(parents=True, exist_ok=True)
    words = load_fields(paths.layout("calibration.toml"), english=True).sub("words")
    name = presets.table().sub("paper").sub(paper).get("name", str)
    with replaced(target) as tmp:
        c = open_canvas(tmp, page, "Duplex calibration", "table-companion", flip)
        drawing.render(c, *page, flip, drawing.Words(words, lang, name, flip))
        c.save()
    click.echo(f"{escape(str(target))}: 2 pages; print it double-sided (flip {flip}), "
               "read it against a window, then: companion calibrate duplex --printer NAME "
               "--read ...")


@calibrate.command(name="list", short_help="The printer profiles kept.")
def list_():
    """The printer profiles kept, one a line."""
    import msgspec

    from companion.files import printers
    from companion.press import calibration as cal

    names = printers.names()
    if not names:
        click.echo("no printer profiles yet: companion calibrate duplex")
    for name in names:
        try:
            profile = msgspec.convert(printers.load(name), cal.Profile)
        except msgspec.ValidationError as e:
            click.echo(f"{escape(name)}: unreadable ({escape(str(e))})")
            continue
        click.echo(f"{escape(name)}: {describe(profile)}")


@calibrate.command(short_help="Remove a printer profile.")
@click.argument("name")
def remove(name):
    """Remove the printer profile NAME."""
    from companion.files import printers
    from companion.press import calibration as cal

    path = printers.remove(cal.check_name(name))
    click.echo(f"{escape(name)}: removed ({escape(str(path))})")
