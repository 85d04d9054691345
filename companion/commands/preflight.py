"""`companion preflight FILE`: a PDF checked against PDF/X-1a:2003 as a deck printer asks
it (companion.press.preflight); exit 0 when it passes, 1 when it breaks a rule, 2 when it
cannot be read."""

import click

from companion.errors import escape


@click.command(short_help="Check a PDF against PDF/X-1a:2003 (CMYK, no transparency...).",
               epilog="""\b
Examples:
  companion preflight output/covenia/pdfx-drivethrucards/cards.pdf
  companion preflight mydeck.pdf --bleed 0.125in
  companion preflight mydeck.pdf --ink-limit 240""")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--bleed", help="The least bleed beyond the TrimBox on every side, e.g. "
                              "0.125in or 3mm [default: 0.125in].")
@click.option("--ink-limit", type=click.FloatRange(100, 400),
              help="The most total ink (C+M+Y+K, in %) any colour or picture pixel may "
                   "have, e.g. 240 (DriveThruCards); the file's most is reported.")
def preflight(file, bleed, ink_limit):
    """Check FILE against PDF/X-1a:2003: version, output intent, CMYK only, nothing
    transparent, fonts embedded, TrimBox and BleedBox with the bleed."""
    from companion.press import preflight as checks
    from companion.press.presets import bleed as parse_bleed

    least = parse_bleed(bleed or "0.125in")
    limit = None if ink_limit is None else ink_limit / 100
    problems = checks.check_file(file, least, limit)
    if not problems:
        said = ""
        if limit is not None:
            most, where = checks.most_ink_file(file)
            said = f"; total ink at most {most * 100:.0f} % ({where}), within {ink_limit:g} %"
        click.echo(f"{escape(file)}: passes ({checks.VERSION}{escape(said)})")
        return
    for p in problems:
        click.echo(f"{escape(file)}: {escape(p)}")
    raise SystemExit(1)
