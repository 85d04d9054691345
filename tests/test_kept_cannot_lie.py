"""Issue 49: kept work cannot lie. The three sequences a designer hit, each in one cache
folder, compared after every step with the same run made cold in a fresh cache: pages and
pictures pixel by pixel, poppler and pdfium silent (tests/differential.py).

1. a plain rebuild after an image's opacity was changed, then a quantity;
2. a font file of her family replaced under the same name while `--watch` runs;
3. `png` and `tts` exported again into the same folder after an opacity change, after
   a font replaced under the same name and after a gradient's colours changed."""

import shutil
from pathlib import Path

import pytest
from PIL import Image

from tests.differential import outcome, run, same_as_cold
from tests.test_kept_equals_cold import FONTS, build_warm, check_build, new_game
from tests.watching import watching

ART = '''
[[kinds.creature.elements]]
type = "image"
file = "pics/p.png"
x = 0.3
y = 0.3
w = 0.5
h = 0.3
opacity = 0.25

[[kinds.creature.elements]]
type = "rect"
y = 0.62
h = 0.1
fill = "accent"
gradient = { start = "night", end = "sand", angle = 30 }

[[kinds.creature.elements]]
type = "text"
text = "**{title}** *{points}*"
x = 0.5
y = 0.7
size = 0.06
font = "body"
colour = "paper"
'''

TIDE_BAND = '''
[[kinds.tide.elements]]
type = "rect"
y = 0.8
h = 0.1
fill = "accent"
gradient = { start = "paper", end = "night", angle = 90 }
'''

FAMILY = 'body = { regular = "fonts/body.ttf", bold = "fonts/body-bold.ttf" }'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(folder))
    return folder


def her_game(tmp: Path, cache: Path) -> Path:
    """The starter with a half-transparent picture, gradient bands (one a kind) and a
    title in her own font family; two copies of every card."""
    game = new_game(tmp, ART, fonts=FAMILY, cache=cache)
    with open(game, "a", encoding="utf-8") as f:
        f.write(TIDE_BAND)
    csv = game.parent / "cards.csv"
    head, *rows = csv.read_text(encoding="utf-8").splitlines()
    rows = [",".join(r.split(",")[:-4] + ["2"] + r.split(",")[-3:]) for r in rows]
    csv.write_text("\n".join([head, *rows]) + "\n", encoding="utf-8")
    fonts = game.parent / "fonts"
    fonts.mkdir()
    shutil.copy(FONTS / "DejaVuSansCondensed.ttf", fonts / "body.ttf")
    shutil.copy(FONTS / "DejaVuSans-Bold.ttf", fonts / "body-bold.ttf")
    pic = game.parent / "pics" / "p.png"
    pic.parent.mkdir()
    im = Image.new("RGBA", (60, 40), (200, 40, 40, 140))
    for x in range(60):
        im.putpixel((x, x * 40 // 60), (0, 20, 200, 255))
    im.save(pic)
    return game


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def new_bold_face(game: Path) -> None:
    """Her bold face replaced by another under the same name."""
    shutil.copy(FONTS / "DejaVuSansCondensed-Bold.ttf", game.parent / "fonts" / "body-bold.ttf")


def test_a_plain_rebuild_after_an_opacity_edit_then_a_quantity_edit_prints_as_cold(
        tmp_path, cache):
    game = her_game(tmp_path, cache)
    out = tmp_path / "kit"
    assert build_warm(game, out, cache) == (0, "")
    edit(game, "opacity = 0.25", "opacity = 0.6")
    check_build(tmp_path, game, out, build_warm(game, out, cache), what="opacity edited")
    edit(game.parent / "cards.csv", "Regrows what it loses.,2", "Regrows what it loses.,0")
    check_build(tmp_path, game, out, build_warm(game, out, cache), what="quantity edited")


def test_a_font_of_her_family_replaced_under_watch_prints_its_new_glyphs(tmp_path, cache):
    game = her_game(tmp_path, cache)
    out = tmp_path / "kit"
    with watching(str(game), "--out", str(out)) as w:
        n = w.wait_for("watching")
        new_bold_face(game)
        n = w.wait_for("rebuilding", n)
        n = w.wait_for("watching", n)
        check_build(tmp_path, game, out, (0, ""), what="bold face replaced under --watch")
        edit(game.parent / "cards.csv", "Regrows what it loses.,2", "Regrows what it loses.,3")
        n = w.wait_for("rebuilding", n)
        n = w.wait_for("watching", n)
        check_build(tmp_path, game, out, (0, ""), what=f"then a quantity under --watch {w.lines}")
        assert not [line for line in w.lines if "Traceback" in line or "failed" in line]


@pytest.mark.parametrize("fmt", ["png", "tts"])
def test_an_export_made_again_into_its_folder_after_an_opacity_edit_and_a_new_font(
        tmp_path, cache, fmt):
    game = her_game(tmp_path, cache)
    e = tmp_path / f"export-{fmt}"
    args = ("export", game, fmt) + (("--dpi", "72") if fmt == "png" else ())
    assert outcome(run(*args, "--out", e, cache=cache)) == (0, "")
    edit(game, "opacity = 0.25", "opacity = 0.6")
    warm = outcome(run(*args, "--out", e, cache=cache))
    same_as_cold(tmp_path, warm, e, *args, what=f"{fmt} after an opacity edit")
    new_bold_face(game)
    warm = outcome(run(*args, "--out", e, cache=cache))
    same_as_cold(tmp_path, warm, e, *args, what=f"{fmt} after a font replaced")
    edit(game, 'start = "night", end = "sand", angle = 30', 'start = "sand", end = "ink", '
         'angle = 90')  # 49b's F1: a gradient's colours and angle
    warm = outcome(run(*args, "--out", e, cache=cache))
    same_as_cold(tmp_path, warm, e, *args, what=f"{fmt} after a gradient edit")


# ---- the check of our own output (companion.press.written) -----------------------------

def test_the_check_finds_each_kind_of_name_a_page_uses_and_its_resources_lack():
    from companion.press import written

    code = "q /Gca0.5 gs /Sh1 sh /FormXob.ab Do /CS0 cs BT /F2+0 7.5 Tf (a) Tj ET Q"
    used = written.names_used(code)
    assert used == {"gs": {"Gca0.5"}, "sh": {"Sh1"}, "Do": {"FormXob.ab"}, "cs": {"CS0"},
                    "Tf": {"F2+0"}}
    assert written.missing(used, {"Gca0.5"}, {"FormXob.ab"}, {"Sh1": "Sh1"}, {"CS0": 1},
                           {"F2"}, {"Sh1": object()}) == []
    assert written.missing(used, set(), set(), {}, {}, set(), {}) == [
        "Do FormXob.ab", "Tf F2+0", "cs CS0", "gs Gca0.5", "sh Sh1"]
    assert written.missing(used, {"Gca0.5"}, {"FormXob.ab"}, {"Sh1": "Sh1"}, {"CS0": 1},
                           {"F2"}, {}) == ["sh Sh1"]  # on the page, in no object


def test_a_dangling_name_is_one_line_and_the_kit_drawn_again_cold(tmp_path, cache,
                                                                   monkeypatch):
    """Our bug made on purpose: the page's bookkeeping loses its gradients' shadings while
    kept drawings are put back. The page's check finds it, the build says so in one line
    and draws the whole kit again cold: a kit that every viewer prints, as a build
    without the bug."""
    from companion import kit
    from companion.files import kept
    from companion.press import pdf
    from tests.differential import pdf_pixels

    game = her_game(tmp_path, cache)
    warnings: list[str] = []
    kit.build(str(game), kit.Options(only=["cards"], out=tmp_path / "right"),
              warn=warnings.append)
    right = pdf_pixels(tmp_path / "right" / "cards.pdf")
    real = pdf._Canvas._setShadingUsed

    def losing(c, page):
        if not kept.cold:
            c._shadingUsed = {}
        real(c, page)
    monkeypatch.setattr(pdf._Canvas, "_setShadingUsed", losing)
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "other-cache"))
    said: list[str] = []
    kit.build(str(game), kit.Options(only=["cards"], out=tmp_path / "kit"), warn=said.append)
    bugs = [line for line in said if "our bug" in line]
    assert len(bugs) == 1 and "\n" not in bugs[0] and "drawn again cold" in bugs[0], said
    assert pdf_pixels(tmp_path / "kit" / "cards.pdf") == right


def test_words_in_a_cards_text_that_look_like_an_operator_are_no_dangling_name(tmp_path,
                                                                               cache):
    """A text string reading "and/or Do" or "/x gs" is words, not a name used: the check
    reads the code again without its strings before it calls anything our bug."""
    from companion import kit

    game = her_game(tmp_path, cache)
    edit(game.parent / "cards.csv", "Regrows what it loses.",
         r"Draw and/or Do it: /Gca0.7 gs \(/Sh1 sh) (see /x cs)")
    said: list[str] = []
    kit.build(str(game), kit.Options(only=["cards"], out=tmp_path / "kit"), warn=said.append)
    assert not [line for line in said if "our bug" in line], said
