"""`companion docs [PAGE]`: the reference that comes with companion (README.md and the
docs/ pages), as a wheel installs it beside the package (companion.files.paths.docs):
where it is and its pages, or one page printed."""

import click

from companion.errors import CompanionError, escape, shown


@click.command(short_help="The reference: where it is, its pages, or one page.",
               epilog="""\b
Examples:
  companion docs           (the folder and its pages)
  companion docs pdfx      (docs/pdfx.md printed)""")
@click.argument("page", required=False)
def docs(page):
    """Where the reference installed with companion is, with each page's title; or PAGE
    (its name, e.g. own-game or README) printed."""
    from companion.files import paths

    folder = paths.docs()
    if folder is None:
        raise CompanionError("the reference is not installed with this copy of companion "
                             "(install it from its wheel or its source)")
    pages = {"README": folder / "README.md",
             **{p.stem: p for p in sorted((folder / "docs").glob("*.md"))}}
    if page is None:
        click.echo(f"{escape(str(folder))}: README.md and docs/; a page: companion docs PAGE")
        width = max(map(len, pages))
        for name, path in pages.items():
            click.echo(f"  {name:<{width}}  {escape(_title(path))}")
        return
    name = page.removesuffix(".md")
    if name not in pages:
        raise CompanionError(f"no page {shown(page)} (pages: {', '.join(pages)})",
                             field="PAGE")
    click.echo(pages[name].read_text(encoding="utf-8"), nl=False)


def _title(path) -> str:
    """A page's first heading, without its #."""
    with open(path, encoding="utf-8") as f:
        return next((line.lstrip("#").strip() for line in f if line.startswith("#")), "")
