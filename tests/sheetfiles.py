"""Writing card lists as CSV, XLSX and ODS for the spreadsheet tests: CSV and XLSX as
`companion init --spreadsheets` writes them; ODS by hand (a zip holding content.xml), since the
product writes no ODS."""

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from companion.files import spreadsheet


def table(entries: list[dict]) -> list[list]:
    return spreadsheet.rows_of(entries)


def write(path: Path, rows: list[list], tab: str = "cards") -> Path:
    path = Path(path)
    if path.suffix in (".csv", ".xlsx"):
        spreadsheet.write(path, {tab: rows})
    elif path.suffix == ".ods":
        _ods(path, rows, tab)
    return path


def _ods(path: Path, rows: list[list], tab: str) -> None:
    def cell(v):
        if v is None:
            return "<table:table-cell/>"
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return (f'<table:table-cell office:value-type="float" office:value="{v}">'
                    f"<text:p>{v}</text:p></table:table-cell>")
        return (f'<table:table-cell office:value-type="string"><text:p>{escape(str(v))}'
                "</text:p></table:table-cell>")
    body = "".join("<table:table-row>" + "".join(cell(v) for v in r) + "</table:table-row>"
                   for r in rows)
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="{escape(tab)}">{body}'
        "</table:table></office:spreadsheet></office:body></office:document-content>")
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"'
        ' manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
