"""Opening a PDF canvas the same way everywhere: embedded fonts only, compressed pages,
and print hints (duplex, no scaling) that home printers honour."""

from operator import attrgetter

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from companion.press import fonts

# ASCII85 around every stream is what makes pictures slow and large (DESIGN.md): off, so a
# JPEG's bytes go into the PDF as they are.
rl_config.useA85 = 0

DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "none": "Simplex"}


# What a canvas knows of its graphics state (font, colours, line width...), but for its
# matrix and transparency: what the operators written next may depend on. A drawing
# written once and put back again (companion.layout.reused, a sheet's calibration bar)
# is keyed by it where it begins and leaves it as it found it where it ends.
STATE = tuple(a for a in Canvas.STATE_ATTRIBUTES if a not in ("_currentMatrix", "_extgstate"))
state_of = attrgetter(*STATE)


def open_canvas(path, size: tuple[float, float], title: str, author: str,
                duplex: str = "none") -> Canvas:
    # initialFontName: otherwise every page refers to an unembedded Helvetica.
    c = Canvas(str(path), pagesize=size, initialFontName=fonts.font("regular"),
               pageCompression=1, invariant=1)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("table-companion")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", DUPLEX[duplex])
    return c
