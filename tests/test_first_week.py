"""Issue 41: what a designer hit in her first week with a game of her own, each defect
pinned by the behaviour it now has."""

import json

import pytest

from tests.test_layout_copies import ADDED
from tests.test_layout_qr import starter_with


# ---- each copy its own id in every export ----------------------------------------------

@pytest.mark.parametrize("fmt", ["png", "cards-pdf", "tts", "preview"])
def test_a_deck_printing_copy_numbers_exports_each_copy_under_the_manifests_id(
        cli, tmp_path, fmt):
    # the starter's creatures print "copy {copy}/{copies}": each copy a face of its own,
    # listed in a build's manifest as hermit-crab, hermit-crab-2, limpet, ..., limpet-3
    game = starter_with(cli, tmp_path, ADDED)
    out = tmp_path / fmt
    r = cli("export", str(game), fmt, "--out", str(out), "--only", "cards",
            *(["--dpi", "72"] if fmt == "png" else []))
    assert r.code == 0, r.err
    said = " ".join(p.read_text(encoding="utf-8") for p in out.glob("*.json"))
    for each in ("hermit-crab", "hermit-crab-2", "limpet-2", "limpet-3", "octopus"):
        assert f'{each}"' in said or f"{each}-front" in said, (each, said)
    assert "octopus-2" not in said  # one copy, one id
    if fmt == "png":
        assert (out / "cards" / "limpet-3-front.png").is_file()


# ---- language and art columns in a deck of several lists -------------------------------

def _bilingual_tabs(cli, tmp_path):
    """The starter's cards in two lists (a spreadsheet's two tabs), each with title.en and
    title.fr columns, the hermit crab with a picture in its art column: one deck of lists."""
    from PIL import Image

    r = cli("new", "tabs", str(tmp_path / "tabs"))
    assert r.code == 0, r.err
    folder = tmp_path / "tabs"
    (folder / "art").mkdir(exist_ok=True)
    Image.new("RGB", (640, 450), (200, 80, 40)).save(folder / "art" / "crab.png")
    rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    head = rows[0].replace("title,", "title.en,title.fr,")

    def french(row):
        kind, title, rest = row.split(",", 2)
        if title == "Hermit Crab":
            rest = rest[:-1] + ",art/crab.png"  # its art column, empty until now
        return ",".join([kind, title, f"Le {title}", rest])
    for name, keep in (("creatures", True), ("tides", False)):
        (folder / f"{name}.csv").write_text("\n".join(
            [head] + [french(r) for r in rows[1:] if r.startswith("creature,") == keep]) + "\n",
            encoding="utf-8")
    game = folder / "tabs.toml"
    text = game.read_text(encoding="utf-8").replace(
        'cards = { spreadsheet = "cards.csv" }',
        'creatures = { spreadsheet = "creatures.csv" }\ntides = { spreadsheet = "tides.csv" }').replace(
        'cards = "cards"             # the rows of cards.csv',
        'cards = { lists = ["creatures", "tides"] }')
    assert 'lists = ["creatures", "tides"]' in text
    game.write_text(text, encoding="utf-8")
    return game


def test_a_two_language_deck_of_lists_builds_in_english_and_french_with_its_pictures(
        cli, tmp_path):
    import subprocess

    from tests import needs

    game = _bilingual_tabs(cli, tmp_path)
    ids = {}
    for lang in ("en", "fr"):
        out = tmp_path / lang
        r = cli("build", str(game), "--out", str(out), "--lang", lang, "--only", "cards")
        assert r.code == 0, r.err
        ids[lang] = [c["id"] for c in json.loads((out / "manifest.json").read_text())["cards"]]
        text = subprocess.run([needs.tool("pdftotext"), str(out / "cards.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
        assert ("Le Hermit Crab" in text) == (lang == "fr"), text
        assert ("LE STORM" in text) == (lang == "fr") and "STORM" in text  # upper case
        images = subprocess.run([needs.tool("pdfimages"), "-list", str(out / "cards.pdf")],
                                capture_output=True, text=True, check=True).stdout
        assert " 640   450 " in images, images  # the art column's picture, printed
    assert ids["en"] == ids["fr"] and "cards/hermit-crab-2" in ids["en"]


# ---- one rule for the version stamp and --changed-since --------------------------------

LOGO = '''
[[kinds.creature.elements]]
type = "image"              # the designer's logo: drawn to digest its pictures' bytes
file = "art/logo.png"
x = 0.8
y = 0.9
w = 0.1
h = 0.06
'''


def _bumped(cli, game, tmp_path, *args) -> dict:
    """Builds `game` at version 0.1, then at 0.2 --changed-since the first: the second
    build's manifest."""
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('# version = "0.1"', 'version = "0.1"', 1), encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "v1"), *args)
    assert r.code == 0, r.err
    cards = json.loads((tmp_path / "v1" / "manifest.json").read_text())["cards"]
    game.write_text(text.replace('# version = "0.1"', 'version = "0.2"', 1), encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "v2"), "--changed-since",
            str(tmp_path / "v1" / "manifest.json"), *args)
    assert r.code == 0, r.err
    assert "nothing to reprint" in r.out, r.out
    assert not (tmp_path / "v2").exists()
    return cards


def _logo(game):
    from PIL import Image

    Image.new("RGB", (120, 80), (30, 110, 140)).save(game.parent / "art" / "logo.png")


def test_a_version_bump_alone_reprints_nothing_for_the_starter_with_landscape_aids(
        cli, tmp_path):
    game = starter_with(cli, tmp_path, ADDED + LOGO)
    _logo(game)
    game.write_text(game.read_text(encoding="utf-8").replace(
        'id_else = "aid"\n', 'id_else = "aid"\nsize = "88x63mm"\n', 1), encoding="utf-8")
    cards = _bumped(cli, game, tmp_path)
    assert {c["component"] for c in cards} == {"cards", "aids"}


def test_a_version_bump_alone_reprints_nothing_for_a_deck_of_lists(cli, tmp_path):
    game = _bilingual_tabs(cli, tmp_path)
    game.write_text(game.read_text(encoding="utf-8").replace(
        "[kinds.tide]\n", ADDED + LOGO + "\n[kinds.tide]\n", 1), encoding="utf-8")
    _logo(game)
    cards = _bumped(cli, game, tmp_path, "--lang", "fr")
    assert len(cards) == 19 and "cards/limpet-3" in {c["id"] for c in cards}


def test_an_export_after_a_version_bump_prints_the_new_stamp_not_the_kept_one(cli, tmp_path):
    # the stamp is no part of a face's digest: the exports' kept pictures are keyed by it
    game = starter_with(cli, tmp_path, "")
    text = game.read_text(encoding="utf-8")
    made = {}
    for version, out in (("0.1", "again"), ("0.2", "again"), ("0.2", "cold")):
        game.write_text(text.replace('# version = "0.1"', f'version = "{version}"', 1),
                        encoding="utf-8")
        r = cli("export", str(game), "png", "--dpi", "72", "--only", "cards", "--out",
                str(tmp_path / out))
        assert r.code == 0, r.err
        made[version, out] = (tmp_path / out / "cards" / "limpet-front.png").read_bytes()
    assert made["0.2", "again"] == made["0.2", "cold"] != made["0.1", "again"]


# ---- Tabletop Simulator types by shape ------------------------------------------------

def test_a_hex_tile_goes_to_tabletop_simulator_as_a_hex_and_a_coin_as_a_circle(cli, tmp_path):
    from tests.test_shapes import SHAPED, _game

    rounded = SHAPED.replace('[components.coins]', '''[components.plates]
kind = "coin"
cards = "coins"
file = "tokens.pdf"
size = "30x20mm"
stock = "tokens"
shape = "rounded"
corner = "3mm"
back = "common"

[components.coins]''')
    game = _game(cli, tmp_path, rounded)
    out = tmp_path / "tts"
    r = cli("export", str(game), "tts", "--out", str(out))
    assert r.code == 0, r.err
    saved = json.loads((out / "vocab.json").read_text(encoding="utf-8"))
    types = {o["Nickname"]: {s["Type"] for s in o["CustomDeck"].values()}
             for o in saved["ObjectStates"]}
    # Tabletop Simulator's custom card types: 0 rounded rectangle, 1 rectangle, 2 rounded
    # hex, 3 hex, 4 circle; our hex tiles are cut with sharp corners
    assert types == {"Cards": {0}, "Player aids": {0}, "tiles": {3}, "coins": {4},
                     "plates": {0}}, types


# ---- a shop's sizes, for every component ----------------------------------------------

def test_a_shop_export_leaves_out_tiles_and_tokens_of_sizes_it_does_not_list_with_a_word(
        cli, tmp_path):
    from tests.test_shapes import SHAPED, _game

    # a third piece, square, of a size The Game Crafter lists (its small square, 2.5 in)
    game = _game(cli, tmp_path, SHAPED.replace('[components.coins]', '''[components.squares]
kind = "coin"
cards = "coins"
file = "tokens.pdf"
size = "2.5x2.5in"
stock = "tokens"
back = "common"

[components.coins]'''))
    out = tmp_path / "tgc"
    r = cli("export", str(game), "png", "--shop", "tgc", "--out", str(out))
    assert r.code == 0, r.err
    said = r.err.strip().splitlines()
    assert len(said) == 2, said
    assert "tiles: 40 x 46 mm pieces, a size The Game Crafter does not list" in said[0]
    assert "coins: 25 x 25 mm pieces" in said[1]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in manifest["components"]] == ["cards", "aids", "squares"]
    assert manifest["left_out"] == [
        {"id": "tiles", "title": "tiles", "stock": "tokens", "size_mm": [40, 46]},
        {"id": "coins", "title": "coins", "stock": "tokens", "size_mm": [25, 25]}]
    guide = (out / "guide.txt").read_text(encoding="utf-8")
    assert "tiles: left out: The Game Crafter lists no 40 x 46 mm size" in guide, guide
    assert next(c for c in manifest["components"] if c["id"] == "squares")["size_px"] == [
        825, 825]  # the shop's picture of that size
    assert not (out / "tiles").exists()
    # named by --only, a piece the shop does not make is refused, and nothing written
    r = cli("export", str(game), "png", "--shop", "mpc", "--only", "cards,tiles", "--out",
            str(tmp_path / "mpc"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "tiles pieces are 40 x 46 mm, a size MakePlayingCards does not list" in r.err
    assert "Traceback" not in r.err and not (tmp_path / "mpc").exists()


# ---- lower bounds: a card, a QR box; QR data against its level ------------------------

def test_a_component_of_a_tenth_of_a_millimetre_is_refused_in_one_line(cli, tmp_path):
    game = starter_with(cli, tmp_path, "")
    game.write_text(game.read_text(encoding="utf-8").replace(
        'id_else = "aid"\n', 'id_else = "aid"\nsize = "0.1x0.1mm"\n', 1), encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert 'vocab.toml: components.aids.size: "0.1x0.1mm" is too small to print and cut: ' \
           "each side at least 10 mm" in r.err
    assert not (tmp_path / "kit").exists()


QR_AT = '''
[[kinds.creature.elements]]
type = "qr"
data = "{{text}}"
level = "{level}"
x = 0.3
y = 0.4
w = "{w}"
h = "20mm"
'''


@pytest.mark.parametrize("level, w, text, words", [
    ("H", "20mm", "é" * 1000, 'qr: data = \'{text}\': 2,000 bytes once filled (UTF-8: an accented '
                              'letter takes 2), over the 1,218 a QR code holds at level H'),
    ("M", "0mm", "short", "kinds.creature, card cards/hermit-crab: qr: w: its box is 0 x 20 "
                          "mm: nothing to draw in (w and h more than 0)"),
    ("M", "-5mm", "short", "qr: w: its box is -5 x 20 mm"),
])
def test_a_qr_code_its_level_cannot_hold_or_in_an_empty_box_is_one_line(
        cli, tmp_path, level, w, text, words):
    game = starter_with(cli, tmp_path, QR_AT.format(level=level, w=w))
    rows = game.parent / "cards.csv"
    lines = rows.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("Moves house when it grows: keep it with another shell.", text)
    rows.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert words in r.err and "Traceback" not in r.err and "overflow" not in r.err, r.err
    assert not (tmp_path / "kit").exists()


@pytest.mark.parametrize("level", ["L", "M", "Q", "H"])
def test_what_each_qr_level_holds_is_what_the_encoder_makes(level):
    # the limits the check names are reportlab's encoder's: a byte more overflows it
    import io

    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode import createBarcodeDrawing, qrencoder
    from reportlab.pdfgen import canvas

    from companion.engine.elements import QR_BYTES

    def fits(n: int) -> bool:
        value = [qrencoder.QRECI(26), qrencoder.QR8bitByte("é" * (n // 2) + "a" * (n % 2))]
        try:
            renderPDF.draw(createBarcodeDrawing("QR", value=value, width=100, height=100,
                                                barLevel=level), canvas.Canvas(io.BytesIO()), 0, 0)
        except Exception as e:  # reportlab's own: "code length overflow"
            assert "overflow" in str(e)
            return False
        return True
    assert fits(QR_BYTES[level]) and not fits(QR_BYTES[level] + 1)


# ---- the cache folder's copies, read within a bound -----------------------------------

def test_a_4_gb_sheet_copy_in_the_cache_is_refused_in_one_line_not_read(
        cli, starter, tmp_path, monkeypatch):
    from companion.files import web_spreadsheet

    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    address = "http://127.0.0.1:9/spreadsheets/d/GONE/edit#gid=7"  # nothing answers there
    copy = web_spreadsheet._cached(web_spreadsheet.csv_url(address))
    copy.parent.mkdir(parents=True)
    with open(copy, "wb") as f:  # 4 GB, sparse: no disk used
        f.truncate(4 * 1024 ** 3)
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text.replace('cards = { spreadsheet = "cards.csv" }',
                                    f'cards = {{ spreadsheet = "{address}" }}', 1), encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "cards.spreadsheet: cannot read http://127.0.0.1:9/" in r.err
    assert "4,294,967,296 bytes: over the" in r.err and "MemoryError" not in r.err


def test_a_4_gb_kept_file_is_not_read_but_worked_out_again(tmp_path, monkeypatch):
    from companion.files import kept

    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    kept.keep("fonts", "k", {"a": 1})
    assert kept.read("fonts", "k") == {"a": 1}
    with open(kept._file("fonts", "k"), "r+b") as f:
        f.truncate(4 * 1024 ** 3)  # sparse
    assert kept.read("fonts", "k") is None


# ---- gradient alone; a file named without .pdf; backs named by their own id ----------

GROUND = '''
[kinds.creature]

[[kinds.creature.elements]]
type = "background"         # a gradient alone, no fill beside it
gradient = { start = "paper", end = "accent", angle = 90 }
'''


def test_a_background_takes_a_gradient_alone(cli, tmp_path):
    game = starter_with(cli, tmp_path, "")
    text = game.read_text(encoding="utf-8")
    head = '[kinds.creature]\n\n[[kinds.creature.elements]]\ntype = "background"'
    at = text.index(head)
    end = text.index("[[kinds.creature.elements]]", at + len(head))
    game.write_text(text[:at] + GROUND + "\n" + text[end:], encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"), "--only", "cards")
    assert r.code == 0, r.err
    assert b"/Sh" in (tmp_path / "kit" / "cards.pdf").read_bytes()  # a shading drew it
    # neither a fill nor a gradient: one line naming the element
    game.write_text(text[:at] + GROUND.replace(
        'gradient = { start = "paper", end = "accent", angle = 90 }', "") + "\n" + text[end:],
        encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit2"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "kinds.creature, element 1 (background): fill: missing (a background needs `fill` " \
           "or `gradient`)" in r.err


def test_a_file_named_without_pdf_gets_it(cli, tmp_path):
    game = starter_with(cli, tmp_path, "")
    game.write_text(game.read_text(encoding="utf-8").replace(
        'id_else = "aid"\n', 'id_else = "aid"\nfile = "tiles"\n', 1), encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text(encoding="utf-8"))
    assert [f["path"] for f in manifest["files"]][:2] == ["cards.pdf", "tiles.pdf"]
    assert (tmp_path / "kit" / "tiles.pdf").is_file() and not (tmp_path / "kit" / "tiles").exists()


def test_the_preview_names_a_back_by_its_own_id_not_its_first_card(cli, tmp_path):
    game = starter_with(cli, tmp_path, "")
    text = game.read_text(encoding="utf-8")
    # each kind its own back: creatures one, tides another
    game.write_text(text.replace(
        'id = "title"                # each card\'s id (its pictures\', the manifest\'s): '
        'hermit-crab\nback = "common"',
        'id = "title"\nback = { each = true, kind = "back", id = "{kind}" }', 1),
        encoding="utf-8")
    out = tmp_path / "preview"
    r = cli("export", str(game), "preview", "--out", str(out), "--only", "cards")
    assert r.code == 0, r.err
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    labels = {f["label"]: f["count"] for c in manifest["components"] for f in c["faces"]}
    assert labels.get("creature back") == 12 and labels.get("tide back") == 3, labels
    assert "hermit-crab back" not in labels
