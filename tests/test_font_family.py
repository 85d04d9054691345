"""Issue 35's font families: `[fonts] body = { regular = ..., bold = ..., italic = ...,
bold_italic = ... }` gives a text in `font = "body"` the designer's own faces for **bold**,
*italic* and ***both*** (today: the bold role, and the upright face slanted); a face the
family lacks is worked out as before. Each face is a designer's font, read and checked as
any ([fonts] title = "..."): in the bounded worker, refused in one line naming it."""

import io
import re
import shutil

import pytest
from pypdf import PdfReader

from companion.errors import CompanionError
from companion.files import paths
from companion.files.data import Fields
from companion.engine import markup
from companion.press import fonts
from companion.press.pdf import open_canvas
from tests.pdfs import fonts as pdf_fonts

SLANTED = re.compile(r"^1 0 \.2 1 \S+ \S+ cm$", re.M)  # markup.SLANT: a slanted upright face


def _family(folder, faces: dict) -> dict:
    """The game's fonts as loaded from a [fonts] table naming `faces` ({face: bundled
    file}), copied beside a game file in `folder`."""
    (folder / "fonts").mkdir(exist_ok=True)
    table = {}
    for face, file in faces.items():
        shutil.copy(paths.FONTS / file, folder / "fonts" / f"{face}.ttf")
        table[face] = f"fonts/{face}.ttf"
    return fonts.load(Fields({"fonts": {"body": table}}, str(folder / "game.toml")))


def _drawn(own: dict, text: str, role: str = "body") -> str:
    """The operators of `text` drawn in `role`, each font by its own name."""
    c = open_canvas(io.BytesIO(), (300, 100), "test", "")
    with fonts.using(own):
        markup.line(c, text, 10, 50, role, 12)
    names = {internal.lstrip("/"): real for real, internal in c._doc.fontMapping.items()}
    return re.sub(r"/(F\d+)(?:\+\d+)? ", lambda m: f"/{names.get(m.group(1), m.group(1))} ",
                  "\n".join(c._code))


def test_a_familys_bold_italic_and_bold_italic_faces_print_their_runs(tmp_path):
    own = _family(tmp_path, {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
                             "italic": "DejaVuSansCondensed.ttf",
                             "bold_italic": "DejaVuSansCondensed-Bold.ttf"})
    assert set(own) == {"body", "body.bold", "body.italic", "body.bold_italic"}
    ops = _drawn(own, "plain **bold** *italic* **and *both* too**")
    for role in own:
        assert f"/{own[role].name} " in ops, (role, ops)
    assert not SLANTED.search(ops), ops  # a real italic: nothing slanted


def test_a_face_the_family_lacks_is_worked_out_as_before(tmp_path):
    own = _family(tmp_path, {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"})
    ops = _drawn(own, "*italic* **and *both* too**")
    assert len(SLANTED.findall(ops)) == 2, ops  # italic: the upright face, slanted; both: bold slanted
    assert f"/{own['body.bold'].name} " in ops and f"/{own['body'].name} " in ops


def test_without_a_family_markup_prints_as_it_always_did():
    ops = _drawn({}, "plain **bold** *italic*", "regular")
    assert len(SLANTED.findall(ops)) == 1 and "/DejaVuSans-Bold " in ops, ops


@pytest.mark.parametrize("table,words", [
    ({"bold": "fonts/b.ttf"}, "fonts.body: a family needs its regular face"),
    ({"regular": "fonts/r.ttf", "oblique": "fonts/o.ttf"},
     "fonts.body.oblique: not a face of a family (faces: regular, bold, italic, bold_italic)"),
    ({"regular": "../outside.ttf"}, "fonts.body.regular: ../outside.ttf is outside"),
    ({"regular": 3}, "fonts.body.regular: must be str"),
])
def test_a_wrong_family_is_one_line_naming_the_face(tmp_path, table, words):
    with pytest.raises(CompanionError) as e:
        fonts.load(Fields({"fonts": {"body": table}}, str(tmp_path / "game.toml")))
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_face_that_is_no_font_is_refused_naming_its_file(tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "r.ttf").write_bytes(b"\x00\x01\x00\x00" + b"\xff" * 200)
    with pytest.raises(CompanionError) as e:
        fonts.load(Fields({"fonts": {"body": {"regular": "fonts/r.ttf"}}},
                          str(tmp_path / "game.toml")))
    assert "fonts/r.ttf: this font could not be read" in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_the_starter_prints_its_card_text_in_a_familys_faces(starter, cli, tmp_path):
    folder = starter.parent
    (folder / "fonts").mkdir()
    for face, file in (("R", "DejaVuSans.ttf"), ("B", "DejaVuSans-Bold.ttf"),
                       ("I", "DejaVuSansCondensed.ttf")):
        shutil.copy(paths.FONTS / file, folder / "fonts" / f"{face}.ttf")
    text = starter.read_text(encoding="utf-8")
    text = text.replace("[icons]", '[fonts]\nbody = { regular = "fonts/R.ttf", bold = '
                        '"fonts/B.ttf", italic = "fonts/I.ttf" }\n\n[icons]', 1)
    text = text.replace('text = "{text}"', 'text = "{text} *Slow.*"\nfont = "body"', 1)
    starter.write_text(text, encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    names = {n for n, _ in pdf_fonts(PdfReader(tmp_path / "kit" / "cards.pdf"))}
    assert any("DejaVuSansCondensed-" in n and "Bold" not in n for n in names), names
