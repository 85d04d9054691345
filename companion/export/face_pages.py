"""A kit's cards as every export sees them, and the one way a face becomes a PDF page.

Per component (a deck): each distinct card once with how many copies it has, and each
distinct face once. Cards are the same card when they show the same faces (the same Face
object, or faces with one key, which the sheets draw once and reuse) under the same id:
the four identical aids of a game are one card with a count of 4. A card's id is the one
its game gives, numbered as the manifest numbers it where copies differ ("hermit-crab-2":
a copy printing its number), else its place among the component's distinct cards ("001").

Faces are drawn by their own draw(canvas, w, h, bleed), the function the sheets call: a
page here is one face upright, its trim's lower-left at (bleed across, bleed down)."""

import re
from collections import Counter

import msgspec

from companion.errors import CompanionError, shown
from companion.draw import forms as forms_mod
from companion.draw.print_sheets import Face
from companion.kit.identity import card_ids


def _nothing(c, w, h, bleed) -> None:
    """An empty face: a card without a back, where an export needs one (white)."""


BLANK = Face(_nothing, key="export-blank")


def safe(name: str) -> str:
    """A card id as a file name: letters, digits, '.', '_' and '-' only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-") or "card"


def face_key(face: Face) -> tuple:
    """Faces with equal keys look the same: a keyed face by its key, else the object."""
    return ("key", face.key) if face.key is not None else ("object", id(face))


class Entry(msgspec.Struct):
    """One distinct card of a component."""
    id: str
    count: int
    front: Face
    back: Face | None
    fields: dict = msgspec.field(default_factory=dict)  # its data's, as the build read them


class Deck(msgspec.Struct):
    """A component's cards, each distinct card once."""
    id: str  # the component's id, as in the kit's manifest: the folder of its files
    title: str
    size: tuple[float, float]  # the trim, points
    stock: str  # "cards" or "tokens"
    entries: list[Entry]
    shape: str | None = None  # "hex", "circle", "rounded": pieces cut to a shape; None: cards

    @property
    def cards(self) -> int:
        return sum(e.count for e in self.entries)

    @property
    def shared_back(self) -> Face | None:
        """The back every card of the component shows, if they all show one."""
        keys = {face_key(e.back) if e.back else None for e in self.entries}
        return self.entries[0].back if len(keys) == 1 and self.entries[0].back else None

    def faces(self) -> list[tuple[Face, str, int]]:
        """Each distinct face once, fronts first, as (face, label, cards showing it); the
        label names the card ("007"), a back by its own id ("creature back") else its
        card's, or "back" for a back the whole component shares."""
        shared = self.shared_back
        seen: dict[tuple, list] = {}  # face key -> [face, label, {id(entry): count}]
        sides = [(e, e.front, e.id) for e in self.entries]
        # a back by its own id, if it has one ("creature back"), not its first card's
        sides += [(e, e.back, "back" if shared else f"{e.back.name or e.id} back")
                  for e in self.entries if e.back is not None]
        for e, face, label in sides:
            shown_on = seen.setdefault(face_key(face), [face, label, {}])[2]
            shown_on[id(e)] = e.count  # a card showing it on both sides counts once
        return [(face, label, sum(on.values())) for face, label, on in seen.values()]


def decks(kit) -> list[Deck]:
    """Every card component of a prepared kit (companion.kit.prepare), in kit order."""
    out = []
    for f, comp in kit.card_components():
        groups: dict[tuple, Entry] = {}
        # a card of its own id: the id the manifest gives its first copy ("hermit-crab-2":
        # a kind printing {copy} draws each copy a face of its own, each a card here)
        for card, listed in zip(comp.cards, card_ids(comp.cards)):
            k = (card.id, face_key(card.front), face_key(card.back) if card.back else None)
            if k in groups:
                groups[k].count += 1
            else:
                groups[k] = Entry(listed if card.id else "", 1, card.front, card.back,
                                  card.fields or {})
        entries = list(groups.values())
        for n, e in enumerate(entries, 1):
            e.id = e.id or f"{n:03d}"
        ids = Counter(e.id for e in entries)
        twice = [i for i, n in ids.items() if n > 1]
        if twice:
            raise CompanionError(f"two different cards have the id {shown(twice[0])}",
                                 field=comp.id)
        out.append(Deck(comp.id, comp.title, f.size, f.stock, entries,
                        f.shape.kind if getattr(f, "shape", None) else None))
    return out


class Page(msgspec.Struct, frozen=True):
    """A face on a page of its own: the trim (points) and the bleed around it on each side
    across and down the page; the page is the trim and its bleed. `turned`: the face a
    quarter turn anticlockwise on the page (its top on the left), a landscape card on a
    portrait page."""
    face: Face
    trim: tuple[float, float]
    bleed: tuple[float, float]
    turned: bool = False

    @property
    def size(self) -> tuple[float, float]:
        w, h = self.trim[::-1] if self.turned else self.trim
        return w + 2 * self.bleed[0], h + 2 * self.bleed[1]

    @property
    def key(self) -> tuple:
        """Pages with equal keys are the same picture."""
        return face_key(self.face), self.trim, self.bleed, self.turned


def draw_pages(c, pages: list[Page], boxes: bool = False, forms: bool = True) -> None:
    """Draws each page. A face on more than one page is drawn once, as a form, and reused
    (unless not `forms`: reportlab gives a form only the graphics states set before it
    began, so an opacity inside one is lost to pdfium and poppler).
    With `boxes`, each page's TrimBox is its trim and its BleedBox the whole page."""
    uses = Counter(p.key for p in pages) if forms else Counter()
    forms: dict[tuple, str] = {}
    for p in pages:
        (w, h), (bx, by) = p.trim, p.bleed
        pw, ph = p.size
        c.setPageSize((pw, ph))
        if boxes:
            c.setTrimBox((bx, by, pw - bx, ph - by))
            c.setBleedBox((0, 0, pw, ph))
        fx, fy = (by, bx) if p.turned else (bx, by)  # the bleed across and down the face
        if uses[p.key] > 1 and p.key not in forms:
            name = forms[p.key] = f"face{len(forms) + 1}"
            forms_mod.begin(c, name, (-fx, -fy, w + fx, h + fy))
            p.face.draw(c, w, h, max(bx, by))
            forms_mod.end(c, name)
        c.saveState()
        c.translate(bx, by)
        clip = c.beginPath()
        clip.rect(-bx, -by, pw, ph)
        c.clipPath(clip, stroke=0, fill=0)
        if p.turned:  # the face's lower-left at the trim's lower-right, its top on the left
            c.translate(h, 0)
            c.rotate(90)
        if p.key in forms:
            c.doForm(forms[p.key])
        else:
            p.face.draw(c, w, h, max(bx, by))
        c.restoreState()
        c.showPage()


def write_pdf(path, pages: list[Page], title: str, author: str, boxes: bool = False,
              forms: bool = True) -> None:
    from companion.press.pdf import open_canvas

    c = open_canvas(path, pages[0].size, title, author)
    draw_pages(c, pages, boxes, forms)
    c.save()
