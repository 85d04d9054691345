"""The designer's pictures on every game's cards: each lands in its kind's art box (read
from the PDF's own drawing operators, and rendered), templated paths give each card its
own picture, one picture is stored once, missing pictures fail or print as placeholders,
and kits without pictures are the kits they were."""

import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from pypdf import PdfReader
from pypdf.generic import ContentStream

from companion import kit
from companion.press import presets
from companion.games import art_readme
from companion.engine import pictures
from companion.press.imposition import plan_grid
from tests.conftest import GAMES

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    from companion.files import images

    images._seen.clear()
    images._digests.clear()


# ---- pictures and data copies -----------------------------------------------------------

def picture(path: Path, n: int, size=(300, 400), fmt="JPEG") -> Path:
    """A picture of our own: a gradient of one hue with a disc and a bar whose places
    depend on n, so every n gives different bytes."""
    w, h = size
    hue = (n * 47) % 256
    im = Image.new("RGB", size)
    d = ImageDraw.Draw(im)
    for y in range(h):
        d.line([(0, y), (w, y)], fill=(hue, 255 - hue, (y * 255) // h))
    d.ellipse([w * 0.2, h * 0.2 + n % 7, w * 0.8, h * 0.2 + w * 0.6 + n % 7],
              fill=(250, 250, 250))
    d.rectangle([0, (n * 13) % h, w, (n * 13) % h + 6], fill=(10, 10, 10))
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return path


def solid(path: Path, colour, size=(300, 300)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path, "JPEG", quality=95)
    return path


def data_copy(tmp_path: Path, game: str, edit) -> Path:
    """The bundled data of `game` in tmp_path, changed by edit(text) -> text."""
    text = (ROOT / "companion" / "layouts" / f"{game}.toml").read_text(encoding="utf-8")
    path = tmp_path / f"{game}.toml"
    path.write_text(edit(text), encoding="utf-8")
    return path


def after(text: str, line: str, added: str) -> str:
    """`added` on the line after the first `line`."""
    assert line in text, line
    return text.replace(line, f"{line}{added}\n", 1)


# ---- where images are drawn: the page's operators, into forms too -----------------------

def _mult(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def placements(pdf: Path) -> list[tuple[int, bytes, tuple]]:
    """(page index, the image's stream bytes, (x0, y0, x1, y1) it covers on the page) for
    every image drawn in the file."""
    reader = PdfReader(pdf)
    out = []

    def walk(stream, resources, ctm, page):
        stack = []
        for operands, op in ContentStream(stream, reader).operations:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _mult([float(v) for v in operands], ctm)
            elif op == b"Do":
                xo = resources["/XObject"][operands[0]].get_object()
                if xo["/Subtype"] == "/Image":
                    xs = [ctm[0] * u + ctm[2] * v + ctm[4] for u, v in ((0, 0), (1, 1))]
                    ys = [ctm[1] * u + ctm[3] * v + ctm[5] for u, v in ((0, 0), (1, 1))]
                    out.append((page, xo._data, (min(xs), min(ys), max(xs), max(ys))))
                else:
                    m = [float(v) for v in xo.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    walk(xo, xo.get("/Resources") or resources, _mult(m, ctm), page)

    for i, page in enumerate(reader.pages):
        contents = page.get_contents()
        if contents is not None:
            walk(contents, page["/Resources"], (1, 0, 0, 1, 0, 0), i)
    return out


def stored_images(pdf: Path) -> int:
    """How many image objects the file holds (each stored once, however often drawn)."""
    return _count_images(PdfReader(pdf))


def _count_images(reader: PdfReader) -> int:
    seen = set()

    def walk(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            x = ref.get_object()
            key = (ref.idnum, ref.generation) if hasattr(ref, "idnum") else id(x)
            if x["/Subtype"] == "/Image":
                seen.add(key)
            elif key not in seen:
                seen.add(("form",) + key)
                walk(x.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return sum(1 for k in seen if k[0] != "form")


def expected_boxes(game: str, kind: str, size, bleed=0.0, back=False, stock="cards"):
    """Where a kind's art box lands on each slot of a sheet: page rectangles."""
    b = pictures.bundled_box(game, kind)
    grid = plan_grid(*presets.paper_size("a4"), *size, presets.sheet_settings(), bleed,
                     spaced=stock == "tokens")
    out = []
    for slot in range(grid.per_sheet):
        placed = grid.back(slot, "long") if back else grid.front(slot)
        w, h = placed.size
        if b.whole_card():  # made for presets' 1/8 in bleed, or the build's if larger
            m = max(bleed, presets.sheet_settings().art_bleed)
            x0, y0, x1, y1 = -m, -m, w + m, h + m
        else:
            x0, y0, x1, y1 = b.x * w, h - (b.y + b.h) * h, (b.x + b.w) * w, h - b.y * h
        xs, ys = zip(placed.to_sheet(x0, y0), placed.to_sheet(x1, y1))
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def near(a, b, tol=0.02):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ---- every game: art on several kinds, each in its box -----------------------------------

def _covenia(folder):
    pics = {"clan": [], "temple": [picture(folder / "art/temple.jpg", 1)],
            "back": [picture(folder / "art/back.jpg", 2, (825, 1125))],
            "token": [picture(folder / "art/token.jpg", 3, (300, 300))]}
    for v in range(1, 11):
        for d in "AB":
            pics["clan"].append(picture(folder / f"art/red-{v}{d}.jpg", v * 2 + (d == "B")))

    def edit(t):
        t = after(t, 'id = "red"\n', 'art = "art/{clan}-{value}{deck}.jpg"\nart_fit = "stretch"')
        return t + ('\n[art]\ntemple = "art/temple.jpg"\ntemple_fit = "stretch"\n'
                    'back = "art/back.jpg"\nback_fit = "stretch"\n'
                    'token = "art/token.jpg"\ntoken_fit = "stretch"\n')
    # kind -> (pictures, cards showing it in cards.pdf/tokens.pdf, on backs?)
    counts = {"clan": (20, "cards.pdf", False), "temple": (5, "cards.pdf", False),
              "back": (105, "cards.pdf", True), "token": (4, "tokens.pdf", None)}
    return edit, pics, counts


def _lugvanion(folder):
    pics = {"character": [picture(folder / "art/spy.jpg", 4)],
            "guild": [picture(folder / "art/forge.jpg", 5)],
            "partisan": [picture(folder / "art/red.jpg", 6, (200, 200))],
            "back": [picture(folder / "art/back.jpg", 7, (825, 1125))]}

    def edit(t):
        t = after(t, 'id = "spy"\n', 'art = "art/{character}.jpg"\nart_fit = "stretch"')
        t = after(t, 'id = "forge"\n', 'art = "art/{guild}.jpg"\nart_fit = "stretch"')
        t = after(t, 'id = "red"\n', 'art = "art/{team}.jpg"\nart_fit = "stretch"')
        return t + '\n[art]\nback = "art/back.jpg"\nback_fit = "stretch"\n'
    counts = {"character": (4, "cards.pdf", False), "guild": (1, "cards.pdf", False),
              "partisan": (22, "tokens.pdf", None), "back": (32 + 4 + 3 + 8 + 12, "cards.pdf",
                                                             True)}
    return edit, pics, counts


def _coverta(folder):
    codes = [f"C{n:02d}" for n in range(1, 41)]
    pics = {"number": [picture(folder / f"art/{c}.jpg", i + 10) for i, c in enumerate(codes)],
            "rule": [picture(folder / "art/parity-keep.jpg", 60),
                     picture(folder / "art/parity-alternate.jpg", 61)]}

    def edit(t):
        t = after(t, "[rule_texts.parity]\n", 'art = "art/{id}.jpg"\nart_fit = "stretch"')
        return t + '\n[art]\nnumber = "art/{code}.jpg"\nnumber_fit = "stretch"\n'
    counts = {"number": (40, "cards.pdf", False), "rule": (2, "cards.pdf", False)}
    return edit, pics, counts


def _vengeance(folder):
    names = ["hajnalka", "myosotis", "thylane", "virag", "zinnia", "witch-6"]
    pics = {"witch": [picture(folder / f"art/{n}.jpg", i + 70) for i, n in enumerate(names)],
            "object": [picture(folder / "art/herb.jpg", 80)],
            "gate": [picture(folder / f"art/gate-{n}.jpg", 81 + n) for n in range(1, 9)],
            "token": [picture(folder / "art/chain.jpg", 95, (200, 200))]}

    def edit(t):
        for name in ("Hajnalka", "Myosotis", "Thylane", "Virág", "Zinnia"):
            t = after(t, f'name = "{name}"\n', 'art = "art/{witch}.jpg"\nart_fit = "stretch"')
        t = after(t, 'name = { placeholder = { en = "Sixth witch: name to come", '
                     'fr = "Sixième sorcière : nom à venir" } }\n',
                  'art = "art/{witch}.jpg"\nart_fit = "stretch"')
        t = after(t, 'id = "herb"\n', 'art = "art/{type}.jpg"\nart_fit = "stretch"')
        t = after(t, "[gates]\n", 'art = "art/gate-{n}.jpg"\nart_fit = "stretch"')
        t = t.replace('{ id = "chain", symbol = "chain",', '{ id = "chain", symbol = "chain", '
                      'art = "art/chain.jpg", art_fit = "stretch",')
        return t
    counts = {"witch": (6, "cards.pdf", False), "object": (26, "cards.pdf", False),
              "gate": (8, "cards.pdf", False), "token": (6, "tokens.pdf", None)}
    return edit, pics, counts


SETUPS = {"covenia": _covenia, "lugvanion": _lugvanion, "coverta": _coverta,
          "vengeance": _vengeance}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_puts_each_kinds_pictures_in_its_box(tmp_path, cli, game):
    edit, pics, counts = SETUPS[game](tmp_path)
    data = data_copy(tmp_path, game, edit)
    r = cli("build", game, "--data", data, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    card = presets.card_size("poker")
    module = kit.game_module(game)
    tokens = kit.prepare(game, kit.Options(data=data))
    token_size = next((f.size for f in tokens.files if getattr(f, "stock", "") == "tokens"),
                      None)
    drawn = {f: placements(tmp_path / "kit" / f) for f in ("cards.pdf", "tokens.pdf")
             if (tmp_path / "kit" / f).exists()}
    for kind, files in pics.items():
        n, pdf, back = counts[kind]
        stock = module.ART[kind].stock
        size = token_size if stock == "tokens" else card
        mine = {p.read_bytes() for p in files}
        # the pictures pass into the PDF byte for byte: the drawn image is one of the files
        shown = [(page, box) for page, data_, box in drawn[pdf] if data_ in mine]
        assert len(shown) == n, (kind, len(shown))
        for page, box in shown:
            on_back = page % 2 == 1
            if back is not None:
                assert on_back == back, (kind, page)
            where = expected_boxes(game, kind, size, back=on_back, stock=stock)
            assert any(near(box, e) for e in where), (kind, page, box)
    # every picture drawn is one of ours: nothing else became an image
    ours = {p.read_bytes() for files in pics.values() for p in files}
    assert all(data_ in ours for found in drawn.values() for _, data_, _ in found)


def test_templated_paths_give_each_card_its_own_picture(tmp_path, cli):
    edit, pics, _ = _covenia(tmp_path)
    data = data_copy(tmp_path, "covenia", edit)
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "kit").code == 0
    first = [(box, d) for page, d, box in placements(tmp_path / "kit" / "cards.pdf")
             if page == 0]
    slots = expected_boxes("covenia", "clan", presets.card_size("poker"))
    assert len(first) == 9  # red 1A to 9A: the first sheet
    for slot, where in enumerate(slots):
        (data_,) = [d for box, d in first if near(box, where)]
        assert data_ == (tmp_path / f"art/red-{slot + 1}A.jpg").read_bytes(), slot
    assert stored_images(tmp_path / "kit" / "cards.pdf") == 20 + 1 + 1  # clans, temple, back


def test_one_picture_on_many_cards_is_stored_once(tmp_path, cli):
    edit, _, _ = _vengeance(tmp_path)
    data = data_copy(tmp_path, "vengeance", edit)
    (tmp_path / "art" / "herb-copy.jpg").write_bytes((tmp_path / "art/herb.jpg").read_bytes())
    assert cli("build", "vengeance", "--data", data, "--out", tmp_path / "kit",
               "--only", "objects").code == 0
    pdf = tmp_path / "kit" / "cards.pdf"
    assert len(placements(pdf)) == 26 and stored_images(pdf) == 1
    # the same bytes under two names (a herb and a mineral) are still one picture
    data.write_text(after(data.read_text(encoding="utf-8"), 'id = "mineral"\n',
                          'art = "art/herb-copy.jpg"'), encoding="utf-8")
    assert cli("build", "vengeance", "--data", data, "--out", tmp_path / "kit2",
               "--only", "objects").code == 0
    pdf = tmp_path / "kit2" / "cards.pdf"
    assert len(placements(pdf)) == 26 + 22 and stored_images(pdf) == 1
    grown = pdf.stat().st_size - (tmp_path / "kit" / "cards.pdf").stat().st_size
    assert grown < (tmp_path / "art/herb.jpg").stat().st_size / 2  # 22 more cards, no copy


# ---- the pictures as printed: rendered ----------------------------------------------------

def render_page(pdf: Path, index: int, dpi: int = 100):
    import pypdfium2

    page = pypdfium2.PdfDocument(str(pdf))[index]
    return page.render(scale=dpi / 72).to_pil().convert("RGB"), page.get_height()


def pixel(image, height, x, y, dpi=100):
    """The colour at page point (x, y), y up."""
    s = dpi / 72
    return image.getpixel((round(x * s), round((height - y) * s)))


def close(a, b, tol=30):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def quadrants(path: Path, size=(600, 400)) -> Path:
    w, h = size
    im = Image.new("RGB", size)
    for i, colour in enumerate([(220, 30, 30), (30, 160, 60), (30, 60, 200), (230, 200, 20)]):
        x0, y0 = (i % 2) * w // 2, (i // 2) * h // 2
        im.paste(colour, (x0, y0, x0 + w // 2, y0 + h // 2))
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path, "JPEG", quality=95)
    return path


def grid_of(bleed=0.0):
    return plan_grid(*presets.paper_size("a4"), *presets.card_size("poker"),
                     presets.sheet_settings(), bleed)


def at(image, height, placed, u, v, dpi=100):
    """The colour at the face's point (u, v) (points from its trim's lower-left)."""
    return pixel(image, height, *placed.to_sheet(u, v), dpi)


def test_a_window_shows_the_picture_cropped_to_its_box_in_place_of_the_emblem(tmp_path, cli):
    # A 3:2 picture in Covenia's 31.8 x 40.4 mm clan window: cover fills it, cropping the
    # sides; the quadrants' colours land in the box's quadrants, the paper stays outside.
    quadrants(tmp_path / "art" / "q.jpg")
    data = data_copy(tmp_path, "covenia", lambda t: after(t, 'id = "red"\n',
                                                          'art = "art/q.jpg"'))
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "kit",
               "--only", "cards").code == 0
    pdf = tmp_path / "kit" / "cards.pdf"
    image, height = render_page(pdf, 0)
    placed = grid_of().front(4)
    w, h = placed.size
    b = pictures.bundled_box("covenia", "clan")
    x0, x1, top, bottom = b.x * w, (b.x + b.w) * w, h - b.y * h, h - (b.y + b.h) * h
    bw, bh = x1 - x0, top - bottom
    assert close(at(image, height, placed, x0 + 0.1 * bw, top - 0.1 * bh), (220, 30, 30))
    assert close(at(image, height, placed, x1 - 0.1 * bw, top - 0.1 * bh), (30, 160, 60))
    assert close(at(image, height, placed, x0 + 0.1 * bw, bottom + 0.1 * bh), (30, 60, 200))
    assert close(at(image, height, placed, x1 - 0.1 * bw, bottom + 0.1 * bh), (230, 200, 20))
    paper = (251, 247, 239)
    assert close(at(image, height, placed, x0 - 4, (top + bottom) / 2), paper, 12)
    assert close(at(image, height, placed, x1 + 4, (top + bottom) / 2), paper, 12)
    # the emblem is not drawn: where its ring (radius 0.25 w round (0.5 w, 0.44 h)) would
    # run, the picture shows
    cx, cy = 0.5 * w, h - 0.44 * h
    assert close(at(image, height, placed, cx + 0.177 * w, cy - 0.177 * w), (230, 200, 20))
    # the yellow clan has no picture: its emblem is drawn as ever, a ring round paper
    # (yellow 1A: sheet 2, slot 1)
    image, height = render_page(pdf, 2)
    placed = grid_of().front(1)
    assert close(at(image, height, placed, cx + 0.15 * w, cy + 0.15 * w), paper, 12)
    ring = [at(image, height, placed, cx + 0.25 * w + d, cy) for d in (-1, -0.5, 0, 0.5, 1)]
    assert any(close(p, (224, 168, 0), 60) for p in ring)


def test_a_whole_card_picture_runs_into_the_bleed_under_the_texts(tmp_path, cli):
    solid(tmp_path / "art" / "aid.jpg", (40, 120, 200), (825, 1125))
    data = data_copy(tmp_path, "covenia", lambda t: t + '\n[art]\naid = "art/aid.jpg"\n')
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "kit", "--only", "aids",
            "--bleed", "3mm")
    assert r.code == 0, r.err
    image, height = render_page(tmp_path / "kit" / "cards.pdf", 0)
    bleed = presets.bleed("3mm")
    placed = grid_of(bleed).front(0)
    w, h = placed.size
    blue = (40, 120, 200)
    assert close(at(image, height, placed, -bleed + 1, -bleed + 1), blue)  # past the trim
    assert close(at(image, height, placed, w - 6, h - 6), blue)  # no panel
    # the title is still printed over it, in the ink's dark colour
    row = [at(image, height, placed, u, h - 0.11 * h + 3) for u in range(60, int(w) - 60)]
    assert any(sum(p) < 250 for p in row)


@pytest.mark.parametrize("bleed", ["0mm", "3mm"])
def test_a_whole_card_picture_is_cut_at_its_own_eighth_inch_whatever_the_bleed(tmp_path, cli,
                                                                             bleed):
    # 825 x 1125 px, made for a 1/8 in bleed: its outer 37.5 px ring (red) is bleed, never
    # inside the trim; what is inside (blue) fills the card exactly.
    im = Image.new("RGB", (825, 1125), (220, 30, 30))
    im.paste((40, 120, 200), (38, 38, 825 - 38, 1125 - 38))
    (tmp_path / "art").mkdir()
    im.save(tmp_path / "art" / "aid.jpg", quality=95)
    data = data_copy(tmp_path, "covenia", lambda t: t + '\n[art]\naid = "art/aid.jpg"\n')
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "kit", "--only", "aids",
               "--bleed", bleed).code == 0
    image, height = render_page(tmp_path / "kit" / "cards.pdf", 0)
    b = presets.bleed(bleed)
    placed = grid_of(b).front(0)
    w, h = placed.size
    for u, v in ((1.5, 1.5), (w - 1.5, h / 2), (w / 2, 1.5)):  # just inside the trim: blue
        assert close(at(image, height, placed, u, v), (40, 120, 200)), (u, v)
    if b:
        assert close(at(image, height, placed, -b + 1, h / 2), (220, 30, 30))  # bleed: red


def test_a_back_with_a_picture_is_that_picture(tmp_path, cli):
    solid(tmp_path / "art" / "back-clan.jpg", (200, 40, 160), (825, 1125))
    solid(tmp_path / "art" / "back-temple.jpg", (40, 200, 60), (825, 1125))
    data = data_copy(tmp_path, "covenia",
                     lambda t: t + '\n[art]\nback = "art/back-{back}.jpg"\n')
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "kit",
               "--only", "cards,temple").code == 0
    pdf = tmp_path / "kit" / "cards.pdf"
    boxes = expected_boxes("covenia", "back", presets.card_size("poker"), back=True)
    image, height = render_page(pdf, 1)
    for x0, y0, x1, y1 in boxes:
        for fx, fy in ((0.5, 0.5), (0.5, 0.62), (0.1, 0.1), (0.95, 0.5)):  # the emblems too
            assert close(pixel(image, height, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)),
                         (200, 40, 160))
    last, height = render_page(pdf, PdfReader(pdf).get_num_pages() - 1)
    assert close(pixel(last, height, *[(a + b) / 2 for a, b in zip(boxes[2][:2], boxes[2][2:])]),
                 (40, 200, 60))  # the temple's own back


def test_a_transparent_back_picture_lies_over_the_backs_ground(tmp_path, cli):
    im = Image.new("RGBA", (825, 1125), (0, 0, 0, 0))  # clear, but for a disc in the middle
    ImageDraw.Draw(im).ellipse([262, 412, 562, 712], fill=(250, 200, 0, 255))
    (tmp_path / "art").mkdir()
    im.save(tmp_path / "art" / "back.png")
    data = data_copy(tmp_path, "covenia", lambda t: t + '\n[art]\nback = "art/back.png"\n')
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "kit",
               "--only", "cards").code == 0
    x0, y0, x1, y1 = expected_boxes("covenia", "back", presets.card_size("poker"), back=True)[0]
    image, height = render_page(tmp_path / "kit" / "cards.pdf", 1)
    at_ = lambda fx, fy: pixel(image, height, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))  # noqa
    assert close(at_(0.5, 0.5), (250, 200, 0))  # the picture
    assert close(at_(0.1, 0.1), (0x2B, 0x22, 0x33))  # the back's own ground through it


# ---- missing pictures, drafts, warnings, errors -------------------------------------------

def test_a_missing_picture_fails_naming_the_card_and_the_path_and_writes_nothing(tmp_path,
                                                                                 cli):
    edit, _, _ = _covenia(tmp_path)
    (tmp_path / "art" / "red-7A.jpg").unlink()
    data = data_copy(tmp_path, "covenia", edit)
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "clan-cards/red-7A" in r.err and "art/red-7A.jpg" in r.err
    assert "no such picture" in r.err
    assert not (tmp_path / "kit").exists()
    # a kit already there stays as it was
    assert cli("build", "covenia", "--out", tmp_path / "kit").code == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "kit").iterdir()}
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "kit").code == 2
    assert {p.name: p.read_bytes() for p in (tmp_path / "kit").iterdir()} == before


def test_without_draft_every_missing_picture_is_counted_in_the_one_line(tmp_path, cli):
    edit, _, _ = _covenia(tmp_path)
    for name in ("red-7A.jpg", "red-2B.jpg", "red-9A.jpg"):
        (tmp_path / "art" / name).unlink()
    (tmp_path / "art" / "red-3A.jpg").write_bytes(b"no picture")
    data = data_copy(tmp_path, "covenia", edit)
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "and 3 more missing or unreadable" in r.err and "--draft" in r.err, r.err
    for name in ("red-7A.jpg", "red-2B.jpg", "red-9A.jpg", "red-3A.jpg"):
        assert name in r.err, name
    assert not (tmp_path / "kit").exists()


def test_draft_prints_placeholders_and_lists_the_missing_pictures(tmp_path, cli):
    edit, _, _ = _covenia(tmp_path)
    for name in ("red-7A.jpg", "red-2B.jpg"):
        (tmp_path / "art" / name).unlink()
    data = data_copy(tmp_path, "covenia", edit)
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "kit", "--draft")
    assert r.code == 0, r.err
    (line,) = [ln for ln in r.err.splitlines() if "--draft" in ln]
    assert "2 pictures missing or unreadable" in line
    assert "red-7A.jpg (clan-cards/red-7A, missing)" in line
    assert "red-2B.jpg (clan-cards/red-2B, missing)" in line
    texts = " ".join(p.extract_text() for p in PdfReader(tmp_path / "kit/cards.pdf").pages)
    assert re.search(r"missing:\s*red-7A\.jpg", texts) and re.search(r"missing:\s*red-2B\.jpg",
                                                                     texts)
    # the other pictures are printed
    assert len([1 for page, _, _ in placements(tmp_path / "kit/cards.pdf")
                if page % 2 == 0]) == 18 + 5


def test_a_picture_under_300_dpi_is_reported_once(tmp_path, cli):
    picture(tmp_path / "art" / "small.jpg", 1, (120, 160))
    data = data_copy(tmp_path, "lugvanion",
                     lambda t: t + '\n[art]\nguild = "art/small.jpg"\n')
    r = cli("build", "lugvanion", "--data", data, "--out", tmp_path / "kit", "--only", "guilds")
    assert r.code == 0, r.err
    (line,) = [ln for ln in r.err.splitlines() if "dpi" in ln]
    guild = next(r for r in art_readme.rows("lugvanion") if r.kind == "guild")
    assert "small.jpg" in line and f"{guild.mm[0]:.1f} × {guild.mm[1]:.1f} mm" in line
    assert "small.jpg: guilds/forge: " in line  # the first card that prints it, by its id


@pytest.mark.parametrize("edit,message", [
    (lambda t: t + '\n[art]\nclans = "x.jpg"\n', "art.clans: not a card kind of covenia"),
    (lambda t: after(t, 'id = "red"\n', 'art = "art/{colour}.jpg"'),
     "clans[0].art: names {colour}, not a field of this card (use {id}, {clan}, {value}, {deck})"),
    (lambda t: after(t, 'id = "red"\n', 'art = "x.jpg"\nart_fit = "fill"'),
     'clans[0].art_fit: "fill" is not one of cover, contain, stretch'),
    (lambda t: t.replace("art = { x = 0.25, y = 0.16, w = 0.5, h = 0.455 }",
                         "art = { x = 0.25, y = 0.16, w = 0, h = 0.455 }")
     + '\n[art]\nclan = "x.jpg"\n', "layout.clan.art.w: the art box needs a width"),
])
def test_bad_art_data_is_one_line_naming_the_field(tmp_path, cli, edit, message):
    data = data_copy(tmp_path, "covenia", edit)
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "kit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert message in r.err
    assert not (tmp_path / "kit").exists()


def test_a_picture_edited_in_place_changes_only_its_cards(tmp_path, cli):
    edit, _, _ = _covenia(tmp_path)
    data = data_copy(tmp_path, "covenia", edit)
    assert cli("build", "covenia", "--data", data, "--out", tmp_path / "a").code == 0
    picture(tmp_path / "art" / "red-7A.jpg", 999)  # same name, new content
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "b", "--changed-since",
            tmp_path / "a" / "manifest.json")
    assert r.code == 0, r.err
    assert "1 of 112 cards changed" in r.out


def test_a_spreadsheet_card_list_takes_an_art_column(tmp_path, cli):
    r = cli("init", "covenia", tmp_path / "p", "--spreadsheets", "csv")
    assert r.code == 0, r.err
    sheet = tmp_path / "p" / "covenia-clans.csv"
    lines = sheet.read_text(encoding="utf-8").splitlines()
    lines[0] += ",art"
    lines[1] += ",art/{clan}-{value}{deck}.jpg"  # the red clan
    lines[2:] = [ln + "," for ln in lines[2:]]
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for v in range(1, 11):
        for d in "AB":
            picture(tmp_path / "p" / f"art/red-{v}{d}.jpg", v)
    r = cli("build", "covenia", "--data", tmp_path / "p" / "covenia.toml", "--out",
            tmp_path / "kit", "--only", "cards")
    assert r.code == 0, r.err
    assert len(placements(tmp_path / "kit" / "cards.pdf")) == 20


# ---- kits without pictures ----------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_default_kits_hold_no_pictures(kits, game):
    folder, _ = kits(game)
    for pdf in folder.glob("*.pdf"):
        assert stored_images(pdf) == 0, pdf.name
        assert b"/Subtype /Image" not in pdf.read_bytes()


@pytest.mark.parametrize("game", GAMES)
def test_a_data_copy_without_art_boxes_or_pictures_builds_the_same_kit(tmp_path, cli, kits,
                                                                      game):
    # A copy made before art boxes existed (no `art = { ... }` in its layout) still builds,
    # byte for byte the default kit; so does one with an empty [art] table.
    folder, _ = kits(game)
    no_boxes = data_copy(tmp_path, game, lambda t: re.sub(r"(?m)^art = \{.*\n", "", t))
    assert not re.search(r"(?m)^art = \{", no_boxes.read_text(encoding="utf-8"))
    r = cli("build", game, "--data", no_boxes, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    for pdf in folder.glob("*.pdf"):
        assert pdf.read_bytes() == (tmp_path / "kit" / pdf.name).read_bytes(), pdf.name
    empty = tmp_path / "empty"
    empty.mkdir()
    data = data_copy(empty, game, lambda t: t + "\n[art]\n")
    assert cli("build", game, "--data", data, "--out", tmp_path / "kit2").code == 0
    for pdf in folder.glob("*.pdf"):
        assert pdf.read_bytes() == (tmp_path / "kit2" / pdf.name).read_bytes(), pdf.name


# ---- what a designer reads ---------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_init_writes_each_kinds_box_and_fields_into_art_readme(tmp_path, cli, game):
    r = cli("init", game, tmp_path / "p")
    assert r.code == 0, r.err
    text = (tmp_path / "p" / "art" / "README.txt").read_text(encoding="utf-8")
    module = kit.game_module(game)
    for row in art_readme.rows(game):
        assert f"\n{row.kind}: {row.title}\n" in text
        assert f"{row.px[0]} x {row.px[1]} px" in text
        assert "fields: " + ", ".join("{" + f + "}" for f in module.ART[row.kind].fields) in text
    # the copy builds with pictures named as the README says, from the art folder
    assert cli("init", game, tmp_path / "p").code == 2  # never overwritten


def test_the_guide_to_your_own_art_lists_every_kinds_box_as_the_data_says():
    readme = (ROOT / "docs" / "own-game.md").read_text(encoding="utf-8")
    assert art_readme.markdown(["covenia", "lugvanion", "coverta", "vengeance"]) in readme


def test_the_art_box_sizes_are_the_layouts_at_poker_size():
    rows = {(r.game, r.kind): r for g in GAMES for r in art_readme.rows(g)}
    clan = rows["covenia", "clan"]
    assert clan.mm == (31.8, 40.4) and clan.px == (375, 478)
    back = rows["vengeance", "back"]
    assert back.whole and back.px == (750, 1050) and back.bleed_px == (825, 1125)
    token = rows["lugvanion", "partisan"]
    assert token.mm == (12.0, 12.0) and token.px == (142, 142)


def test_an_export_shows_the_same_pictures(tmp_path, cli):
    edit, _, _ = _covenia(tmp_path)
    data = data_copy(tmp_path, "covenia", edit)
    r = cli("export", "covenia", "cards-pdf", "--data", data, "--out", tmp_path / "x",
            "--only", "cards")
    assert r.code == 0, r.err
    drawn = placements(tmp_path / "x" / "clan-cards.pdf")
    assert (tmp_path / "art/red-7A.jpg").read_bytes() in {d for _, d, _ in drawn}


@pytest.mark.parametrize("game, entry", [("covenia", 'id = "A"\n'),
                                         ("lugvanion", "[titles]\n")])
def test_art_on_a_table_that_makes_no_card_is_refused_naming_where_art_goes(tmp_path, cli, game,
                                                                          entry):
    text = paths_text(game)
    assert entry in text
    text = text.replace(entry, entry + 'art = "art/x.jpg"\n', 1)
    (tmp_path / f"{game}.toml").write_text(text, encoding="utf-8")
    r = cli("build", game, "--data", tmp_path / f"{game}.toml", "--out", tmp_path / "o")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "makes no card" in r.err and "[art] KIND" in r.err and ".art: " in r.err, r.err
    assert not (tmp_path / "o").exists()


def paths_text(game):
    from companion.files import paths

    return paths.layout(f"{game}.toml").read_text(encoding="utf-8")
