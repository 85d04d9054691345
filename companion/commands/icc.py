"""`companion icc FILE`: our CMYK output profile (CGATS TR 003, the one the pdfx export
embeds unless given --icc) written to FILE: a profile to start from, or to compare with a
printer's own."""

import click

from companion.errors import escape


@click.command(short_help="Write our CMYK profile (the pdfx export's default) to FILE.",
               epilog="""\b
Examples:
  companion icc MyPress.icc
  companion export covenia pdfx --icc MyPress.icc""")
@click.argument("file", type=click.Path(dir_okay=False))
def icc(file):
    """Write the CMYK profile the pdfx export uses by default (CGATS TR 003, SWOP 2006
    Coated #3) to FILE; give a printer's own profile to the export with --icc."""
    from pathlib import Path

    from companion.files.atomic import replaced
    from companion.press import cmyk

    data = cmyk.shipped().read_bytes()
    with replaced(Path(file)) as tmp:
        tmp.write_bytes(data)
    click.echo(f"{escape(file)}: {cmyk.DEFAULT} ({len(data):,} bytes), the pdfx export's "
               f"default; your printer's own profile goes to: --icc FILE")
