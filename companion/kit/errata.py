"""A new printing's errata (`build --changed-since OLD/manifest.json`): errata.pdf, each
changed card's face as the earlier kit printed it beside its face in this build, its
changed fields with the words removed struck and the words added underlined, then the new
and the retired cards, after a cover page of counts and the swap list; swap-list.txt, the
same swap list as text; and the manifest's `swap`. What to swap is worked out by
companion.kit.swap (pure); the words are companion/layouts/errata.toml's.

The earlier faces are read from the earlier kit's PDFs, where its manifest says each card
lies (`place`: written by every whole build); a card it gives no place for (a reprint's
manifest, a label sheet) is said to be missing, not drawn."""

import tempfile
import json
import re
from pathlib import Path

from msgspec import Struct

from companion.errors import CompanionError, shown
from companion.files import paths
from companion.files.data import load_fields, read_text
from companion.kit import swap
from companion.press.pdf import open_canvas
from companion.text import changes

PATH = "errata.pdf"
SWAP_PATH = "swap-list.txt"
MAX_PDF_BYTES = 200 * 1024 * 1024  # an earlier kit's PDF is opened only under this size
DPI = 150  # the earlier faces' pixels
MARGIN = 36.0


class Earlier(Struct):
    """An earlier build: its manifest and the folder its PDFs are in."""
    manifest: dict
    folder: Path


def earlier(path: Path, game: str) -> Earlier:
    """The earlier build of `game` whose manifest.json `path` is (--changed-since)."""
    text, source = read_text(path)
    try:
        manifest = json.loads(text)
        for c in manifest["cards"]:
            c["id"], c["front"], c["back"]  # noqa: B018 (each card has them)
        other = manifest.get("game")
    except (ValueError, KeyError, TypeError, AttributeError):
        raise CompanionError("not a manifest.json with a card list (from companion build)",
                             source=source, field="--changed-since") from None
    if other != game:
        raise CompanionError(f"is the manifest of {shown(other)}, not of {game}: give one "
                             f"from an earlier build of {game}", source=source,
                             field="--changed-since")
    return Earlier(manifest, Path(path).parent)


class Words:
    """Our words for the errata and the swap list, in the kit's language."""

    def __init__(self, lang: str):
        self.table, self.lang = load_fields(paths.layout("errata.toml"), english=True), lang

    def swap(self, key: str, **values) -> str:
        return self.table.sub("swap").text(key, self.lang).format(**values)

    def errata(self, key: str, **values) -> str:
        return self.table.sub("errata").text(key, self.lang).format(**values)


def write(stage: Path, manifest: dict, before: Earlier, listed: list[dict], kit,
          game_name: str, author: str) -> None:
    """Writes errata.pdf and swap-list.txt into `stage` and puts `swap` in the manifest."""
    words = Words(kit.opts.lang)
    was = before.manifest.get("version") or words.swap("earlier")
    now = manifest.get("version") or words.swap("now")
    plan = swap.plan(before.manifest["cards"], manifest["cards"])
    titles = {e["component"]: e["card"].component for e in listed}  # the whole kit's
    manifest["swap"] = {"from": was, "to": now, "components": plan}
    text = [words.swap("title", game=game_name, was=was, now=now), "",
            words.swap("intro"), ""]
    said = swap.lines(plan, titles, was, now, words.swap)
    text += said or [words.swap("none"), ""]
    (stage / SWAP_PATH).write_text("\n".join(text), encoding="utf-8")
    _pdf(stage / PATH, plan, before, listed, kit, words, (game_name, author, was, now), said)


def _pdf(path: Path, plan: list[dict], before: Earlier, listed: list[dict], kit, words,
         said: tuple, swap_lines: list[str]) -> None:
    game_name, author, was, now = said
    page = kit.ctx.page
    SIZES.clear()
    SIZES.update({id(card): f.size for f in kit.files if hasattr(f, "size")
                  for comp in f.components for card in comp.cards})
    c = open_canvas(path, page, f"{game_name}: {PATH}", author)
    new_cards = {e["id"]: e for e in listed}
    old_cards = {e["id"]: e for e in before.manifest["cards"]}
    faces = _OldFaces(before)
    cards = [card for p in plan for card in p["cards"]]
    counts = {k: sum(1 for card in cards if card["change"] == k)
              for k in (swap.CHANGED, swap.NEW, swap.RETIRED)}
    # the cover: the title, the counts, how to read the pages, the swap list
    y = page[1] - MARGIN - 16
    _line(c, words.errata("title", game=game_name, was=was, now=now), MARGIN, y, 16, "bold")
    y -= 26
    y = _para(c, words.errata("counts", changed=counts[swap.CHANGED], new=counts[swap.NEW],
                              retired=counts[swap.RETIRED],
                              removed=sum(p["removed"] for p in plan),
                              inserted=sum(p["inserted"] for p in plan)),
              MARGIN, y, page[0] - 2 * MARGIN, 11)
    y = _para(c, words.errata("legend"), MARGIN, y - 4, page[0] - 2 * MARGIN, 11)
    y -= 8
    for text in swap_lines:
        if y < MARGIN:
            c.showPage()
            y = page[1] - MARGIN
        if text.startswith(" "):  # a card's line, under its component's
            y = _para(c, text, MARGIN + 12, y, page[0] - 2 * MARGIN - 12, 9)
        elif text:
            _line(c, text, MARGIN, y, 9, "bold")
            y -= 9 * 1.4
        else:
            y -= 6
    c.showPage()
    for card in cards:
        if card["change"] != swap.CHANGED:
            continue
        old, new = old_cards[card["old"][0]], new_cards[card["new"][0]]
        _changed_page(c, card, old, new, faces, words, was, now, page)
    for change, heading in ((swap.NEW, "new"), (swap.RETIRED, "retired")):
        shown_ = [(card["name"], old_cards[card["old"][0]] if change == swap.RETIRED
                   else new_cards[card["new"][0]]) for card in cards if card["change"] == change]
        if shown_:
            _gallery(c, words.errata(heading), shown_, faces, change == swap.NEW, page, words)
    c.save()


def _changed_page(c, card: dict, old: dict, new: dict, faces, words, was: str, now: str,
                  page: tuple) -> None:
    pw, ph = page
    y = ph - MARGIN - 14
    _line(c, words.errata("changed", name=card["name"]), MARGIN, y, 14, "bold")
    w, h = _card_size(new)
    k = min(1.0, (pw - 3 * MARGIN) / 2 / w, ph * 0.45 / h)
    top = y - 30
    for n, (caption, draw) in enumerate((
            (words.errata("old_face", version=was), lambda x, y_: faces.draw(c, old, x, y_,
                                                                             w * k, h * k)),
            (words.errata("new_face", version=now), lambda x, y_: _new_face(c, new, x, y_, k)))):
        x = MARGIN + n * (w * k + MARGIN)
        _line(c, caption, x, top + 6, 10, "bold")
        if not draw(x, top - h * k):
            _line(c, words.errata("no_face"), x + 4, top - 14, 8)
        c.setLineWidth(0.4)
        c.setStrokeGray(0.6)
        c.rect(x, top - h * k, w * k, h * k, stroke=1, fill=0)
    y = top - h * k - 20
    if len(card["old"]) != len(card["new"]):
        _line(c, words.errata("copies", old=len(card["old"]), new=len(card["new"])),
              MARGIN, y, 10)
        y -= 16
    diff = changes.fields(old.get("fields") or {}, new.get("fields") or {})
    if not diff:  # words that are no card's own field (a clan's reminder): as printed
        was_said, now_said = faces.text(old.get("place")), _new_text(new)
        if was_said is not None and was_said != now_said:
            diff = [(words.errata("printed"), changes.words(was_said, now_said))]
    if not diff:
        _line(c, words.errata("same_words"), MARGIN, y, 10)
    for field, marked in diff:
        _line(c, f"{field}:", MARGIN, y, 10, "bold")
        y = _marked(c, marked, MARGIN + 12, y - 14, pw - 2 * MARGIN - 12, 10) - 6
    c.showPage()


def _gallery(c, heading: str, cards: list, faces, new: bool, page: tuple, words) -> None:
    """Faces in rows, a name under each, as many pages as they take."""
    pw, ph = page
    w, h = _card_size(cards[0][1])
    k = min(0.6, (pw - 2 * MARGIN) / 3.2 / w)
    cols = max(1, int((pw - 2 * MARGIN + 12) // (w * k + 12)))
    rows = max(1, int((ph - 2 * MARGIN - 30) // (h * k + 28)))
    per = cols * rows
    for start in range(0, len(cards), per):
        _line(c, heading, MARGIN, ph - MARGIN - 14, 14, "bold")
        for n, (name, entry) in enumerate(cards[start:start + per]):
            x = MARGIN + (n % cols) * (w * k + 12)
            y = ph - MARGIN - 30 - (n // cols + 1) * (h * k + 28) + 28
            drawn = _new_face(c, entry, x, y, k) if new else faces.draw(c, entry, x, y,
                                                                         w * k, h * k)
            if not drawn:
                _line(c, words.errata("no_face"), x + 4, y + h * k - 14, 7)
            c.setLineWidth(0.4)
            c.setStrokeGray(0.6)
            c.rect(x, y, w * k, h * k, stroke=1, fill=0)
            _line(c, name, x, y - 12, 9)
        c.showPage()


SIZES: dict[int, tuple[float, float]] = {}  # a card of this build (its id()): its size


def _card_size(entry: dict) -> tuple[float, float]:
    card = entry.get("card")
    place = entry.get("place")
    if card is not None and id(card) in SIZES:
        return SIZES[id(card)]
    try:  # an earlier manifest's place: anyone's file, read with care
        w, h = (float(v) for v in place["box"][2:])
        if 1 <= w <= 5000 and 1 <= h <= 5000:
            return (h, w) if int(place.get("turn", 0)) % 180 else (w, h)
    except (TypeError, KeyError, ValueError):
        pass
    return 180.0, 252.0  # poker, for a card no build placed


def _new_face(c, entry: dict, x: float, y: float, k: float) -> bool:
    """This build's face of the card, drawn (vectors), scaled by k."""
    w, h = _card_size(entry)
    c.saveState()
    c.translate(x, y)
    c.scale(k, k)
    p = c.beginPath()
    p.rect(0, 0, w, h)
    c.clipPath(p, stroke=0, fill=0)
    entry["card"].front.draw(c, w, h, 0.0)
    c.restoreState()
    return True


_STAMP = re.compile(r"v\S+ · \d{4}-\d{2}-\d{2}")  # the version stamp: no part of the words


def _words_in(page, box: tuple) -> str:
    """The words printed in a box of a pypdfium2 page, the version stamp left out."""
    x, y, w, h = box
    said = page.get_textpage().get_text_bounded(x, y, x + w, y + h)
    return " ".join(_STAMP.sub(" ", said).split())


def _new_text(entry: dict) -> str:
    """The words this build's face prints: drawn alone into a PDF held in memory, read."""
    import pypdfium2 as pdfium

    w, h = _card_size(entry)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "face.pdf"
        c = open_canvas(path, (w, h), "words", "")
        entry["card"].front.draw(c, w, h, 0.0)
        c.showPage()
        c.save()
        doc = pdfium.PdfDocument(path.read_bytes())
        return _words_in(doc[0], (0, 0, w, h))


class _OldFaces:
    """The earlier kit's faces, read from its PDFs where its manifest places them."""

    def __init__(self, before: Earlier):
        self.folder, self.docs = before.folder, {}

    def draw(self, c, entry: dict, x: float, y: float, w: float, h: float) -> bool:
        picture = self.picture(entry.get("place"))
        if picture is None:
            return False
        from reportlab.lib.utils import ImageReader

        c.drawImage(ImageReader(picture), x, y, w, h)
        return True

    def text(self, place) -> str | None:
        """The words the face printed, or None where the PDF or the place is not there."""
        found = self._page(place)
        return None if found is None else _words_in(found[0], found[1])

    def _page(self, place):
        """(the pypdfium2 page, the face's box on it), or None."""
        try:
            name, number = place["file"], int(place["page"])
            box = tuple(float(v) for v in place["box"])
            assert len(box) == 4
        except (TypeError, KeyError, ValueError, AssertionError):
            return None
        if "/" in name or "\\" in name or name.startswith("."):
            return None  # only a file of the earlier kit's own folder
        doc = self._document(self.folder / name)
        if doc is None or not 1 <= number <= len(doc):
            return None
        return doc[number - 1], box

    def picture(self, place):
        """The face's pixels, upright, or None where the PDF or the place is not there."""
        found = self._page(place)
        if found is None:
            return None
        page, (bx, by, bw, bh) = found
        turn = int(place.get("turn", 0)) % 360
        pw, ph = page.get_size()
        crop = (bx, by, pw - bx - bw, ph - by - bh)
        if min(crop) < -0.5:
            return None
        image = page.render(scale=DPI / 72, crop=tuple(max(0.0, v) for v in crop)).to_pil()
        return image.rotate(-turn, expand=True) if turn else image

    def _document(self, path: Path):
        if path not in self.docs:
            import pypdfium2 as pdfium

            try:
                ok = path.is_file() and path.stat().st_size <= MAX_PDF_BYTES
                self.docs[path] = pdfium.PdfDocument(str(path)) if ok else None
            except (OSError, pdfium.PdfiumError):
                self.docs[path] = None
        return self.docs[path]


def _line(c, text: str, x: float, y: float, size: float, role: str = "regular") -> None:
    from companion.draw import text as typeset

    c.setFillGray(0.1)
    typeset.line(c, text, x, y, role, size, field="errata")


def _para(c, text: str, x: float, y: float, w: float, size: float) -> float:
    """A paragraph from baseline y down; returns the next line's baseline."""
    return _marked(c, [(changes.KEPT, word) for word in text.split()], x, y, w, size)


def _marked(c, marked: list, x: float, y: float, w: float, size: float) -> float:
    """Words in lines from baseline y down, the removed struck through, the added
    underlined (and in colour, which carries nothing the lines do not say)."""
    from companion.draw import text as typeset

    space = typeset.width(" ", "regular", size)
    at = x
    for mark, word in marked:
        ww = typeset.width(word, "regular", size)
        if at > x and at + ww > x + w:
            at, y = x, y - size * 1.4
        colour = {changes.REMOVED: (0.6, 0.1, 0.1), changes.ADDED: (0.05, 0.35, 0.15)}.get(
            mark, (0.1, 0.1, 0.1))
        c.setFillColorRGB(*colour)
        c.setStrokeColorRGB(*colour)
        typeset.line(c, word, at, y, "regular", size, field="errata")
        if mark != changes.KEPT:
            c.setLineWidth(size / 14)
            ly = y + size * 0.3 if mark == changes.REMOVED else y - size * 0.15
            c.line(at, ly, at + ww, ly)
        at += ww + space
    return y - size * 1.4
