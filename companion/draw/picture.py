"""How a cached picture goes into the PDF. A JPEG (or a picture the cache made a JPEG) is
handed to reportlab by path: its bytes pass straight through. A lossless picture, or one
with transparency, is cached as its streams ready (colour deflated or a JPEG, alpha
deflated): reportlab given a PNG would decode it and deflate colour and alpha again on
every build (~50 ms a picture), so this registers the streams as the PDF's image under the
name reportlab's drawImage gives that path, and drawImage then finds it and only places
it. Stored once per PDF either way."""

from pathlib import Path

from reportlab.lib.utils import _digester
from reportlab.pdfbase.pdfdoc import PDFImageXObject

MASK = "auto"  # what every picture is drawn with: part of reportlab's name for it


def draw(c, pic, x: float, y: float, w: float, h: float) -> None:
    if pic.deflated:
        _register(c, pic)
    if pic.path not in _NAMED:
        _NAMED[pic.path] = None
        CONTENT[_digester(f"{pic.path}{MASK}")] = Path(pic.path).name
    c.drawImage(pic.path, x, y, w, h, mask=MASK)


# reportlab's name for a picture (FormXob.<md5 of its path>) -> the cache file's name (its
# content's digest): the path holds where the cache folder is, so a face's digest drawn
# from its operators (companion.kit.identity) reads the picture by its content instead
CONTENT: dict[str, str] = {}
_NAMED: dict[str, None] = {}


def _register(c, pic) -> None:
    name = _digester(f"{pic.path}{MASK}")  # drawImage's own name for (path, mask)
    doc = c._doc
    if doc.idToObject.get(doc.getXObjectName(name)) is not None:
        return
    codec, colour, alpha = pic.streams()
    image = _xobject(name, pic, "DeviceRGB", codec, colour)
    doc.Reference(image, doc.getXObjectName(name))
    doc.addForm(name, image)
    if alpha:
        smask = _xobject(name + "a", pic, "DeviceGray", "FlateDecode", alpha)
        smask._decode = [0, 1]
        image.smask = doc.Reference(smask, doc.getXObjectName(smask.name))


def _xobject(name: str, pic, space: str, codec: str, stream: bytes) -> PDFImageXObject:
    obj = PDFImageXObject(name)
    obj.width, obj.height = pic.width, pic.height
    obj.colorSpace, obj.bitsPerComponent = space, 8
    obj._filters = (codec,)
    obj.streamContent = stream
    obj.mask = None
    return obj
