"""A sheet's label names every component on it, fitted to the room the band leaves."""

import tomllib

import pytest
from reportlab.pdfbase.pdfmetrics import getAscent, getDescent

from companion.press import fonts, presets
from companion.files import paths
from companion.draw import text
from companion.press.imposition import plan_grid
from companion.draw.print_sheets import fit_label, furniture, label_room
from tests.pdfs import page_texts
from tests.test_print_sheets_drawing import Recorder

S = presets.sheet_settings()
STRINGS = tomllib.loads((paths.LAYOUTS / "strings.toml").read_text())["sheet"]
COVENIA = tomllib.loads((paths.LAYOUTS / "covenia.toml").read_text())["titles"]


def bottom_band_grid(paper="a4"):
    g = plan_grid(*presets.paper_size(paper), *presets.card_size("poker"), S)
    assert g.band_side == "bottom"  # the short band: the least room for a label
    return g


def labeller(lang, n=12, total=13, tail=""):
    return lambda names: STRINGS["label"][lang].format(
        game="Covenia", component=" + ".join(names), n=n, total=total) + tail


def caption(lang):
    return STRINGS["caption"][lang].format(length=50)


def widths(lines, size):
    return [text.width(t, "regular", size) for t in lines]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("tail", ["", " · backs"])
def test_a_mixed_sheet_names_every_component_in_full_within_the_room(lang, tail):
    g = bottom_band_grid()
    names = [COVENIA[k][lang] for k in ("clan-cards", "temple", "aids")]
    room = label_room(g, caption(lang))
    lines, size = fit_label(labeller(lang, tail=tail), names, room, S)
    assert S.label_min <= size <= S.label_size
    assert max(widths(lines, size)) <= room
    joined = " ".join(lines)
    assert all(name in joined for name in names)
    assert "12" in joined and "13" in joined


def test_a_short_label_keeps_its_full_size_on_one_line():
    g = bottom_band_grid()
    lines, size = fit_label(labeller("en"), ["Tokens"], label_room(g, caption("en")), S)
    assert (len(lines), size) == (1, S.label_size)


def test_too_many_long_names_are_cut_short_word_by_word_but_all_named():
    g = bottom_band_grid()
    names = [f"{w} of the Enlightened Circle of Night" for w in
             ("Temple", "Garden", "Tower", "Vault", "Crypt", "Altar")]
    room = label_room(g, caption("fr"))
    lines, size = fit_label(labeller("fr"), names, room, S)
    joined = " ".join(lines)
    assert size == S.label_min and max(widths(lines, size)) <= room
    assert "…" in joined
    assert all(name.split()[0] in joined for name in names)


@pytest.mark.parametrize("flip", [None, "long", "short"])
def test_two_label_lines_at_the_floor_stay_inside_the_band(flip):
    g = bottom_band_grid()
    c = Recorder()
    drawn = []
    c.drawRightString = lambda x, y, s: drawn.append((y, s))
    furniture(c, g, flip, caption("fr"), ["Covenia · Cartes clan +", "Aides · feuille 1 sur 2"],
              S.label_min)
    assert len(drawn) == 2
    font = fonts.font("regular")
    for y, _ in drawn:  # in band coordinates: 0 at the band's outer edge, thickness up
        assert y + getDescent(font, S.label_min) >= 0
        assert y + getAscent(font, S.label_min) <= g.band.h
    assert drawn[0][0] > drawn[1][0]  # first line above


def expected_names(components, per_sheet, sheet):
    """The components with a card on sheet `sheet` (0-based), in order."""
    start, end, names, seen = sheet * per_sheet, (sheet + 1) * per_sheet, [], 0
    for title, count in components:
        if seen < end and seen + count > start:
            names.append(title)
        seen += count
    return names


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "fr")])
def test_every_covenia_card_sheet_is_labelled_with_all_its_components(kits, paper, lang):
    out, manifest = kits("covenia", paper, lang)
    entry = next(f for f in manifest["files"] if f["path"] == "cards.pdf")
    titles = {"clan-cards": COVENIA["clan-cards"][lang], "temple": COVENIA["temple"][lang],
              "aids": COVENIA["aids"][lang], "setup": COVENIA["setup"][lang]}
    components = [(titles[c["id"]], c["count"]) for c in entry["components"]]
    per = plan_grid(*presets.paper_size(paper), *presets.card_size("poker"), S).per_sheet
    texts = page_texts(out / "cards.pdf")
    total = len(texts) // 2
    mixed = 0
    for sheet in range(total):
        names = expected_names(components, per, sheet)
        mixed += len(names) > 1
        # The band is drawn first: the caption, then the label up to "sheet n of N".
        tail = STRINGS["label"][lang].split("{component}")[1].format(n=sheet + 1, total=total)
        for page in (2 * sheet, 2 * sheet + 1):
            flat = " ".join(texts[page].split())
            label = flat[:flat.index(" ".join(tail.split()))]
            assert all(" ".join(name.split()) in label for name in names), (sheet, label)
    assert mixed  # the sheet where clan cards end and the Temple begins
