"""Reading what a built PDF really holds (pypdf), for the kit tests."""

from pypdf import PdfReader


def fonts(reader: PdfReader) -> set[tuple[str, bool]]:
    """(font name, embedded?) for every font on every page and in every form."""
    found = set()

    def walk(resources, seen):
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            f = font.get_object()
            fds = [f.get("/FontDescriptor")]
            for d in f.get("/DescendantFonts") or []:
                fds.append(d.get_object().get("/FontDescriptor"))
            embedded = any(fd is not None and any(k in fd.get_object() for k in
                           ("/FontFile", "/FontFile2", "/FontFile3")) for fd in fds)
            found.add((str(f["/BaseFont"]), embedded))
        for xo in (resources.get("/XObject") or {}).values():
            x = xo.get_object()
            if id(x) not in seen and x.get("/Subtype") == "/Form":
                seen.add(id(x))
                walk(x.get("/Resources"), seen)

    for page in reader.pages:
        walk(page.get("/Resources"), set())
    return found


def page_texts(path) -> list[str]:
    return [p.extract_text() for p in PdfReader(path).pages]
