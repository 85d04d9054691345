"""Issue 35's `type = "qr"`: a QR code or a Code 128 barcode of a template, drawn as
vectors with reportlab.graphics.barcode, read back by zbarimg from a page rendered at
300 dpi (pdftoppm -r 300); its data bounded (1,000 characters once filled) and refused in
words; a wrong code type one line naming the element and the key, exit 2."""

import subprocess
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from companion.errors import CompanionError
from companion.engine import kinds
from tests import needs
from tests.test_layout_engine import H, W, drawn, one

QR = '''
[[kinds.creature.elements]]
type = "qr"
data = "vocab:{title}"
x = 0.68
y = 0.79
w = "15mm"
h = "15mm"
'''


def starter_with(cli, tmp_path, added: str) -> Path:
    """The starter as `companion new vocab` writes it, `added` to its creature kind (the
    vocabulary's tests)."""
    folder = tmp_path / "vocab"
    r = cli("new", "vocab", str(folder))
    assert r.code == 0, r.err
    game = folder / "vocab.toml"
    toml = game.read_text(encoding="utf-8")
    game.write_text(toml.replace("[kinds.tide]\n", added + "\n[kinds.tide]\n", 1),
                    encoding="utf-8")
    return game


def read_codes(pdf: Path, page: int = 1) -> list[str]:
    """What zbarimg reads from a page of `pdf` rendered at 300 dpi (pdftoppm -r 300)."""
    with tempfile.TemporaryDirectory() as folder:
        stem = Path(folder) / "page"
        subprocess.run([needs.tool("pdftoppm"), "-r", "300", "-png", "-f", str(page), "-l",
                        str(page), "-singlefile", str(pdf), str(stem)], check=True)
        r = subprocess.run([needs.tool("zbarimg"), "-q", f"{stem}.png"], capture_output=True,
                           text=True)
    return r.stdout.splitlines()


def test_the_starters_creatures_print_their_titles_as_qr_codes_read_back_at_300_dpi(
        cli, tmp_path):
    game = starter_with(cli, tmp_path, QR)
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    codes = read_codes(tmp_path / "kit" / "cards.pdf")
    assert "QR-Code:vocab:Hermit Crab" in codes and codes.count("QR-Code:vocab:Limpet") == 3
    assert len(codes) == 9, codes  # the first sheet's nine cards


# ---- the QR code and the barcode -----------------------------------------------------------

def _face_pdf(table: dict, folder: Path, fields: dict | None = None) -> Path:
    from companion.press.pdf import open_canvas
    from tests.test_layout_engine import engine

    face = engine(table).face("k", fields or {})
    path = folder / "face.pdf"
    c = open_canvas(path, (W, H), "test", "")
    face.draw(c, W, H, 0.0)
    c.showPage()
    c.save()
    return path


def test_a_qr_code_fills_the_largest_square_of_its_box_quiet_zone_included(tmp_path):
    pdf = _face_pdf(one(type="qr", data="vocab:Hermit Crab", x=0.1, y=0.1, w="15mm",
                        h="30mm", ground="red"), tmp_path)
    page = pdfium.PdfDocument(pdf)[0]
    im = page.render(scale=300 / 72).to_pil().convert("RGB")
    dots = 300 / 25.4
    ground = [(x, y) for x in range(0, im.width, 4) for y in range(0, im.height, 4)
              if im.getpixel((x, y)) == (255, 0, 0)]
    xs, ys = [p[0] for p in ground], [p[1] for p in ground]
    side = ((max(xs) - min(xs)) / dots, (max(ys) - min(ys)) / dots)
    assert abs(side[0] - 15) < 0.5 and abs(side[1] - 15) < 0.5, side  # a square, centred
    top = 0.1 * H * 300 / 72 + (15 * dots) / 2  # 30 mm tall box: 7.5 mm down
    assert abs(min(ys) - top) < 6, (min(ys), top)
    dark = im.convert("L").point(lambda v: 255 if v < 60 else 0).getbbox()
    modules = (dark[2] - dark[0]) / dots
    assert 0.6 * 15 < modules < 15 - 1, modules  # inside its 4-module quiet zone


@pytest.mark.parametrize("code,data,read", [
    ("qr", "vocab:{title}", "QR-Code:vocab:Étoile de mer"),
    ("code128", "VOC-{n:03}", "CODE-128:VOC-007"),
])
def test_a_code_is_vectors_read_back_at_300_dpi(tmp_path, code, data, read):
    box = dict(x=0.1, y=0.3, w=0.8, h=0.15) if code == "code128" else \
        dict(x=0.3, y=0.3, w="15mm", h="15mm")
    pdf = _face_pdf(one(type="qr", code=code, data=data, **box), tmp_path,
                    {"title": "Étoile de mer", "n": 7})
    assert read_codes(pdf) == [read]
    assert b"/Subtype /Image" not in pdf.read_bytes()  # drawn as vectors


@pytest.mark.parametrize("element,words", [
    (dict(type="qr", data="{text}"), "qr: data = '{text}': 3,000 characters once filled, over "
                                     "the 1,000"),
    (dict(type="qr", data="{gone}"), "gone"),
    (dict(type="qr", data="{empty}"), "empty for this card"),
    (dict(type="qr", code="code128", data="é{empty}"), "'é' is not ASCII"),
])
def test_a_codes_data_is_bounded_and_refused_in_words(element, words):
    from companion.engine.bind import BindError

    with pytest.raises((BindError, CompanionError)) as e:
        drawn(one(**element), "k", {"text": "x" * 3000, "empty": ""})
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)


# ---- the schema: one line naming the element and the key ----------------------------------

@pytest.mark.parametrize("element,words", [
    (dict(type="qr", data="a", code="ean"), "element 1 (qr): code: 'ean' is not one of qr, "
                                            "code128"),
    (dict(type="qr", data="a", code="code12"), "(did you mean code128?)"),
    (dict(type="qr", data="a", level="Z"), "element 1 (qr): level: 'Z' is not one of L, M"),
    (dict(type="qr"), "element 1 (qr): data: missing"),
])
def test_a_wrong_code_is_one_line_naming_the_element_and_key(element, words):
    with pytest.raises(CompanionError) as e:
        kinds.load({"k": {"elements": [element]}}, "game.toml")
    said = str(e.value)
    assert said.startswith("game.toml: kinds.k, ") and words in said and "\n" not in said, said


def test_a_wrong_code_type_stops_the_build_with_exit_2_and_writes_nothing(cli, tmp_path):
    game = starter_with(cli, tmp_path, added=QR.replace('data = "vocab:{title}"',
                                                       'data = "vocab:{title}"\ncode = "ean"'))
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "vocab.toml: kinds.creature, element 10 (qr): code: 'ean'" in r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert not (tmp_path / "kit").exists()


