"""What every export works from: each component's distinct cards with their counts and
stable ids, each face drawn once; and pixels rendered in worker processes exactly as
here, their failures raised."""

import errno
from dataclasses import dataclass

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings, strategies as st
from pypdf import PdfReader

from companion.errors import CompanionError
from companion.export import face_pages, raster
from companion.draw.print_sheets import Card, Face


def paint(grey):
    def draw(c, w, h, bleed):
        c.setFillGray(grey)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    return draw


@dataclass
class FakeComponent:
    id: str
    title: str
    cards: list


@dataclass
class FakeFile:
    size: tuple = (180.0, 252.0)
    stock: str = "cards"


class FakeKit:
    def __init__(self, *components):
        self.components = components

    def card_components(self):
        return [(FakeFile(), c) for c in self.components]


POOL_FRONTS = [Face(paint(i / 10)) for i in range(4)] + [Face(paint(0.9), key="k-front")]
POOL_BACKS = [Face(paint(0.5), key="back"), Face(paint(0.6)), None,
              POOL_FRONTS[0], POOL_FRONTS[4]]  # a face on both sides, as tokens have


@st.composite
def decks_of_cards(draw):
    """Cards as games make them: new Card objects, the same object repeated, faces shared
    by key or by object."""
    made = [Card("T", draw(st.sampled_from(POOL_FRONTS)), draw(st.sampled_from(POOL_BACKS)))
            for _ in range(draw(st.integers(1, 8)))]
    cards = []
    for card in made:
        cards += [card] * draw(st.integers(1, 4))
    return draw(st.permutations(cards))


@settings(max_examples=200, deadline=None)
@given(decks_of_cards())
def test_every_card_is_counted_once_under_a_distinct_card_with_its_faces(cards):
    (deck,) = face_pages.decks(FakeKit(FakeComponent("c", "T", cards)))
    assert deck.cards == len(cards)
    keys = [(face_pages.face_key(e.front), e.back and face_pages.face_key(e.back)) for e in deck.entries]
    assert len(set(keys)) == len(keys)  # each distinct card once
    for e in deck.entries:
        same = [c for c in cards if face_pages.face_key(c.front) == face_pages.face_key(e.front)
                and (c.back and face_pages.face_key(c.back)) == (e.back and face_pages.face_key(e.back))]
        assert e.count == len(same)
    assert [e.id for e in deck.entries] == [f"{n:03d}" for n in range(1, len(deck.entries) + 1)]
    # each face once; its count the cards that show it, on either side
    shown = deck.faces()
    assert len({face_pages.face_key(f) for f, _, _ in shown}) == len(shown)
    for face, _, count in shown:
        k = face_pages.face_key(face)
        assert count == sum(1 for c in cards if face_pages.face_key(c.front) == k
                            or (c.back is not None and face_pages.face_key(c.back) == k))


def test_a_games_own_card_ids_are_kept_numbered_as_the_manifest_numbers_them():
    front = Face(paint(0.2))
    cards = [Card("T", front, None, id="red-7"), Card("T", Face(paint(0.3)), None, id="blue/1")]
    (deck,) = face_pages.decks(FakeKit(FakeComponent("c", "T", cards)))
    assert [e.id for e in deck.entries] == ["red-7", "blue/1"]
    assert face_pages.safe("blue/1") == "blue-1"
    # two faces under one id (a kind printing {copy}: each copy its own face): "x", "x-2"
    copies = [Card("T", front, None, id="x"), Card("T", Face(paint(0.3)), None, id="x")]
    (deck,) = face_pages.decks(FakeKit(FakeComponent("c", "T", copies)))
    assert [e.id for e in deck.entries] == ["x", "x-2"]
    # an id the numbering gives already: refused, not two files of one name
    clash = copies + [Card("T", Face(paint(0.4)), None, id="x-2")]
    with pytest.raises(CompanionError):
        face_pages.decks(FakeKit(FakeComponent("c", "T", clash)))


def test_a_face_on_many_pages_is_drawn_once_as_a_form(tmp_path):
    calls = []
    back = Face(lambda c, w, h, b: calls.append(1) or paint(0.4)(c, w, h, b), key="b")
    pages = [face_pages.Page(f, (180, 252), (9, 9)) for f in
             [Face(paint(0.1)), back, Face(paint(0.2)), back, Face(paint(0.3)), back]]
    face_pages.write_pdf(tmp_path / "f.pdf", pages, "t", "a", boxes=True)
    assert calls == [1]
    reader = PdfReader(tmp_path / "f.pdf")
    assert len(reader.pages) == 6
    assert all("/TrimBox" in p for p in reader.pages)


def jobs(n: int):
    return [raster.Job((f"{i}/a.png", f"{i}/b.png"), (60 + i, 80),
                       (raster.Tile(i % 3, 0, 0, 60 + i, 80),), "png", 100) for i in range(n)]


@pytest.fixture
def pdf(tmp_path):
    path = tmp_path / "p.pdf"
    face_pages.write_pdf(path, [face_pages.Page(Face(paint(g)), (100, 140), (5, 5)) for g in
                           (0.2, 0.5, 0.8)], "t", "a")
    return path


def test_worker_processes_write_exactly_what_this_process_writes(pdf, tmp_path):
    done = []
    here = raster.run(pdf, tmp_path / "here", jobs(9), processes=1)
    there = raster.run(pdf, tmp_path / "there", jobs(9), lambda d, t: done.append((d, t)),
                       processes=2)
    assert here == there
    for i in range(9):
        for name in ("a.png", "b.png"):
            assert (tmp_path / "there" / str(i) / name).read_bytes() == \
                (tmp_path / "here" / str(i) / "a.png").read_bytes()
    assert done[0] == (0, 9) and done[-1] == (9, 9) and len(done) == 10


def test_a_worker_that_cannot_write_raises_the_systems_error(pdf, tmp_path):
    root = tmp_path / "out"
    root.mkdir()
    (root / "5").write_text("a file where a folder should be")
    with pytest.raises(OSError) as e:
        raster.run(pdf, root, jobs(9), processes=2)
    assert e.value.errno in (errno.EEXIST, errno.ENOTDIR)


def test_a_picture_is_rendered_at_exactly_the_size_asked(pdf):
    page = pdfium.PdfDocument(str(pdf))[0]
    for w, h in [(825, 1125), (826, 1124), (1, 1), (7, 3)]:
        assert raster.render(page, w, h).size == (w, h)


def test_a_worker_that_fails_otherwise_is_reported_with_its_last_line(pdf, tmp_path):
    broken = jobs(8) + [raster.Job(("x.png",), (10, 10), (raster.Tile(99, 0, 0, 10, 10),))]
    with pytest.raises(RuntimeError) as e:
        raster.run(pdf, tmp_path / "out", broken, processes=2)
    assert "a rendering process failed" in str(e.value)
