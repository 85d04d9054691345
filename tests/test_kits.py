"""What every game's kit must do, whatever the game (issue 2's engine promises)."""

import re
import tomllib

import pytest
from pypdf import PdfReader

from companion.press import fonts, presets
from companion.files import paths
from tests import needs
from tests.conftest import GAMES
from tests.pdfs import fonts as pdf_fonts, page_texts

BUILDS = [(g, "a4", "en") for g in GAMES] + [(g, "letter", "fr") for g in GAMES]


def data(game):
    return tomllib.loads((paths.LAYOUTS / f"{game}.toml").read_text())


def printed_strings(node, lang, skip=()):
    """Every {en, fr} text in a data file, in one language, but those under `skip` keys."""
    if isinstance(node, dict):
        if set(node) == {"en", "fr"}:
            yield node[lang]
        else:
            for k, v in node.items():
                if k not in skip:
                    yield from printed_strings(v, lang, skip)
    elif isinstance(node, list):
        for v in node:
            yield from printed_strings(v, lang, skip)


@pytest.mark.parametrize("game,paper,lang", BUILDS)
def test_every_pdf_has_the_manifests_page_count_and_the_papers_size(kits, game, paper, lang):
    out, manifest = kits(game, paper, lang)
    w, h = presets.paper_size(paper)
    assert (manifest["game"], manifest["paper"], manifest["lang"]) == (game, paper, lang)
    for f in manifest["files"]:
        reader = PdfReader(out / f["path"])
        assert len(reader.pages) == f["pages"]
        for page in reader.pages:
            assert float(page.mediabox.width) == pytest.approx(w, abs=0.01)
            assert float(page.mediabox.height) == pytest.approx(h, abs=0.01)
        assert set(f) == {"path", "pages", "duplex", "card_size", "components"}
        assert f["duplex"] in ("long", "short", "none")
        assert all(set(c) == {"id", "count"} and c["count"] > 0 for c in f["components"])


@pytest.mark.parametrize("game,paper,lang", BUILDS)
def test_card_sheets_are_front_then_back_and_hold_every_card(kits, game, paper, lang):
    out, manifest = kits(game, paper, lang)
    for f in manifest["files"]:
        if f["card_size"] is None:
            continue
        count = sum(c["count"] for c in f["components"])
        texts = page_texts(out / f["path"])
        per = f["pages"] // 2
        assert f["duplex"] == "long" and f["pages"] % 2 == 0
        assert per >= 1 and count <= per * 150
        for i in range(0, len(texts), 2):  # every back page says it is the backs of its front
            assert ("backs" if lang == "en" else "versos") in texts[i + 1]


@pytest.mark.parametrize("game", GAMES)
def test_duplex_and_no_scaling_are_set_for_the_printer(kits, game):
    out, manifest = kits(game)
    for f in manifest["files"]:
        prefs = PdfReader(out / f["path"]).trailer["/Root"]["/ViewerPreferences"]
        expected = {"long": "/DuplexFlipLongEdge", "none": "/Simplex"}[f["duplex"]]
        assert prefs["/Duplex"] == expected and prefs["/PrintScaling"] == "/None"


@pytest.mark.parametrize("game,paper,lang", BUILDS)
def test_every_font_in_every_pdf_is_embedded(kits, game, paper, lang):
    out, manifest = kits(game, paper, lang)
    for f in manifest["files"]:
        found = pdf_fonts(PdfReader(out / f["path"]))
        assert found and all(embedded for _, embedded in found), found
        assert not any("Helvetica" in name for name, _ in found)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_printed_string_has_its_glyphs_in_the_fonts(game, lang):
    words = tomllib.loads((paths.LAYOUTS / "strings.toml").read_text())
    for s in [*printed_strings(data(game), lang), *printed_strings(words, lang)]:
        for role in ("regular", "bold", "narrow", "narrow-bold"):
            assert fonts.missing_glyphs(fonts.font(role), s) == [], (role, s)


@pytest.mark.parametrize("game,paper,lang", BUILDS)
def test_no_empty_glyph_box_anywhere_in_the_text(kits, game, paper, lang):
    out, manifest = kits(game, paper, lang)
    for f in manifest["files"]:
        assert not any("\x00" in t for t in page_texts(out / f["path"]))


@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_carries_the_calibration_bar_caption_and_its_label(kits, game):
    out, manifest = kits(game, "letter", "fr")
    for f in manifest["files"]:
        if f["card_size"] is None:
            continue
        texts = page_texts(out / f["path"])
        total = f["pages"] // 2
        for i, t in enumerate(texts):
            assert "50 mm" in t
            assert f"feuille {i // 2 + 1} sur {total}" in t


def shingles(s: str, n: int = 7) -> set[tuple[str, ...]]:
    w = re.findall(r"\w+", s.lower())
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_printed_texts_are_our_words_not_the_rulebooks_sentences(game, lang):
    rulebook = set()
    for path in needs.rules().glob(f"{game}.*.txt"):
        rulebook |= shingles(path.read_text())
    assert rulebook
    # The credits name the authors and `quote` cites the witches' lines, both on purpose.
    for s in printed_strings(data(game), lang, skip=("game", "quote")):
        assert not shingles(s) & rulebook, s


@pytest.mark.parametrize("game,author", [("covenia", "Nicolas Valle"),
                                         ("lugvanion", "Pierre Vasseur and Robin Piarulli"),
                                         ("vengeance", "Sergio Matsumoto"),
                                         ("coverta", "Carlos Martin")])
def test_the_authors_are_credited_in_the_guide_and_pdfs(kits, game, author):
    out, manifest = kits(game)
    assert author in (out / "print-guide.txt").read_text()
    for f in manifest["files"]:
        assert author in PdfReader(out / f["path"]).metadata.author


@pytest.mark.parametrize("game", GAMES)
def test_print_guide_names_each_file_how_to_print_it_and_what_it_yields(kits, game):
    out, manifest = kits(game)
    guide = (out / "print-guide.txt").read_text()
    for f in manifest["files"]:
        pages = "1 page" if f["pages"] == 1 else f"{f['pages']} pages"
        assert f"{f['path']} ({pages})" in guide
        for c in f["components"]:
            assert f"{c['count']} × " in guide
    assert "flip on the long edge" in guide and "100%" in guide
