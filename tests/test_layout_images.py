"""Issue 35's pictures as elements: `type = "image"`, a designer's picture in its own box,
as many as a kind wants, each file a template beside the game file, with its fit, anchor
and opacity; read as a card's own picture is (missing: the build stops naming the card and
the file; with --draft, a placeholder); a face's digest follows its pictures' bytes."""

import json

import pytest
from PIL import Image

from companion.errors import CompanionError
from companion.engine import kinds

CREST = '''
[[kinds.creature.elements]]
type = "image"
file = "art/{id}-crest.png"
x = 0.7
y = 0.2
w = "12mm"
h = "12mm"

[[kinds.creature.elements]]
type = "image"
file = "art/seal.png"
x = 0.1
y = 0.2
w = "8mm"
h = "8mm"
fit = "contain"
opacity = 0.5
'''
CREATURES = ("hermit-crab", "sea-star", "anemone", "limpet", "periwinkle", "octopus")


def _game(cli, tmp_path, added=CREST, crests=CREATURES):
    folder = tmp_path / "vocab"
    r = cli("new", "vocab", str(folder))
    assert r.code == 0, r.err
    game = folder / "vocab.toml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "[kinds.tide]\n", added + "\n[kinds.tide]\n", 1), encoding="utf-8")
    for i, name in enumerate(crests):
        Image.new("RGB", (200, 200), (40 * i, 200, 90)).save(folder / "art" / f"{name}-crest.png")
    Image.new("RGB", (300, 150), (10, 10, 120)).save(folder / "art" / "seal.png")
    return game


def _fronts(cli, game, out, *args):
    r = cli("build", str(game), "--out", str(out), *args)
    assert r.code == 0, r.err
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return r, {c["id"]: c["front"] for c in m["cards"]}


def test_a_kind_draws_two_pictures_each_in_its_box(cli, tmp_path):
    import pypdfium2 as pdfium

    game = _game(cli, tmp_path)
    _fronts(cli, game, tmp_path / "kit")
    page = pdfium.PdfDocument(tmp_path / "kit" / "cards.pdf")[0]
    images = [o for o in page.get_objects(max_depth=5)
              if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
    assert len(images) == 18  # nine creatures on the first sheet, two pictures each
    sizes = sorted({round((o.get_bounds()[2] - o.get_bounds()[0]) / 72 * 25.4, 1)
                    for o in images})
    assert sizes == [8.0, 12.0], sizes  # the seal contained: its 8 mm width; the crest


def test_a_pictures_bytes_change_its_cards_digest_and_no_other(cli, tmp_path):
    game = _game(cli, tmp_path)
    _, before = _fronts(cli, game, tmp_path / "a")
    Image.new("RGB", (200, 200), (255, 0, 0)).save(game.parent / "art" / "limpet-crest.png")
    _, after = _fronts(cli, game, tmp_path / "b")
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"cards/limpet", "cards/limpet-2", "cards/limpet-3"}, changed


def test_a_missing_picture_names_the_card_and_file_and_draft_prints_a_placeholder(
        cli, tmp_path):
    game = _game(cli, tmp_path, crests=CREATURES[1:])  # no hermit-crab-crest.png
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "hermit-crab-crest.png" in r.err and "cards/hermit-crab" in r.err
    assert len(r.err.strip().splitlines()) == 1, r.err
    r = cli("build", str(game), "--out", str(tmp_path / "draft"), "--draft")
    assert r.code == 0 and "hermit-crab-crest.png" in r.out + r.err


@pytest.mark.parametrize("element,words", [
    (dict(type="image"), "element 1 (image): file: missing"),
    (dict(type="image", file="a.png", fit="fill"), "fit: 'fill' is not one of cover, "
                                                   "contain, stretch"),
    (dict(type="image", file="a.png", anchor="top"), "anchor: 'top' is not one of c, n"),
])
def test_a_wrong_image_is_one_line_naming_the_element_and_key(element, words):
    with pytest.raises(CompanionError) as e:
        kinds.load({"k": {"elements": [element]}}, "game.toml")
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)
