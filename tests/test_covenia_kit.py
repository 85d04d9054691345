import json
import re
import tomllib

import pytest
from pypdf import PdfReader

from companion.files import paths
from companion.press import presets
from companion.press.imposition import plan_grid
from companion.text.units import mm
from tests.pdfs import page_texts

DATA = tomllib.loads((paths.LAYOUTS / "covenia.toml").read_text())
CLANS = DATA["clans"]


def squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def test_manifest_has_the_agreed_shape_and_counts(kit_a4_en):
    out, m = kit_a4_en
    assert set(m) == {"game", "paper", "lang", "ink", "files", "cards", "boxes"}
    assert (m["game"], m["paper"], m["lang"]) == ("covenia", "a4", "en")
    by_path = {f["path"]: f for f in m["files"]}
    cards = by_path["cards.pdf"]
    assert cards == {"path": "cards.pdf", "pages": 26, "duplex": "long", "card_size": "poker",
                     "components": [{"id": "clan-cards", "count": 100},
                                    {"id": "temple", "count": 5}, {"id": "aids", "count": 4},
                                    {"id": "setup", "count": 1}]}
    assert by_path["tokens.pdf"]["components"] == [{"id": "tokens", "count": 2}]
    assert by_path["scorebook.pdf"]["duplex"] == "none"
    assert (out / "print-guide.txt").is_file()


def test_the_repeated_back_is_one_form_drawn_on_every_back_sheet(kit_a4_en):
    out, _ = kit_a4_en
    reader = PdfReader(out / "cards.pdf")
    back = reader.pages[1]
    xobjects = back["/Resources"]["/XObject"]
    assert list(xobjects) == ["/FormXob.back-clan"]
    content = back.get_contents().get_data().decode("latin-1")
    assert content.count("/FormXob.back-clan Do") == 9


def test_a_string_the_font_cannot_show_fails_the_build_not_the_print(tmp_path, cli):
    data = (paths.LAYOUTS / "covenia.toml").read_text().replace('"Red", fr', '"Red 🜂", fr')
    (tmp_path / "d.toml").write_text(data)
    r = cli("build", "covenia", "--data", tmp_path / "d.toml", "--out", tmp_path / "out")
    assert r.code == 2 and "U+1F702" in r.err and len(r.err.strip().splitlines()) == 1
    assert not any(p.suffix == ".pdf" for p in (tmp_path / "out").glob("*"))


@pytest.mark.parametrize("fixture,lang", [("kit_a4_en", "en"), ("kit_letter_fr", "fr")])
def test_each_clan_name_is_on_its_twenty_cards_and_its_temple_card(request, fixture, lang):
    out, _ = request.getfixturevalue(fixture)
    text = "\n".join(page_texts(out / "cards.pdf"))
    for clan in CLANS:
        assert len(re.findall(rf"^\s*{clan['name'][lang].upper()}\s*$", text, re.M)) == 21


@pytest.mark.parametrize("fixture,lang", [("kit_a4_en", "en"), ("kit_letter_fr", "fr")])
def test_each_ritual_is_on_its_temple_card(request, fixture, lang):
    out, _ = request.getfixturevalue(fixture)
    pages = page_texts(out / "cards.pdf")
    title = DATA["titles"]["temple"][lang]
    temple_text = squash(" ".join(p for p in pages if title in p))
    for clan in CLANS:
        assert squash(clan["ritual"][lang]) in temple_text


def test_print_guide_says_how_to_print_each_file(kit_a4_en):
    out, _ = kit_a4_en
    guide = (out / "print-guide.txt").read_text()
    assert "cards.pdf (26 pages)" in guide and "flip on the long edge" in guide
    assert "100 × Clan cards" in guide and "9 per sheet" in guide
    assert "scorebook.pdf (2 pages)" in guide and "single-sided" in guide


def test_only_and_flip_none_build_the_parts_asked_for_without_backs(tmp_path, cli):
    r = cli("build", "covenia", "--only", "temple,aids", "--flip", "none", "--out", tmp_path)
    assert r.code == 0, r.err
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert [f["path"] for f in m["files"]] == ["cards.pdf"]
    f = m["files"][0]
    # 5 Temple cards, 4 aids, the set-up card and their 5 second sides as faces of their
    # own: 2 pages
    assert f["duplex"] == "none" and f["pages"] == 2
    assert f["components"] == [{"id": "temple", "count": 5}, {"id": "aids", "count": 4},
                               {"id": "setup", "count": 1}]


def test_short_flip_and_bleed_change_pages_as_the_grid_says(tmp_path, cli):
    r = cli("build", "covenia", "--only", "cards", "--flip", "short", "--bleed", "3mm",
            "--out", tmp_path)
    assert r.code == 0, r.err
    m = json.loads((tmp_path / "manifest.json").read_text())
    grid = plan_grid(*presets.paper_size("a4"), *presets.card_size("poker"),
                     presets.sheet_settings(), mm(3))
    assert grid.per_sheet < 9
    assert m["files"][0]["pages"] == 2 * -(-100 // grid.per_sheet)
    prefs = PdfReader(tmp_path / "cards.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge"


def test_a_designer_edits_a_ritual_in_their_copy_and_rebuilds(tmp_path, cli):
    data = (paths.LAYOUTS / "covenia.toml").read_text().replace(
        "Take any other card lying in the Temple into your hand.",
        "Take two Temple cards, then give one back.")
    (tmp_path / "mine.toml").write_text(data)
    r = cli("build", "covenia", "--data", tmp_path / "mine.toml", "--only", "temple",
            "--out", tmp_path / "out")
    assert r.code == 0, r.err
    assert "Take two Temple cards, then give one back." in squash(
        " ".join(page_texts(tmp_path / "out" / "cards.pdf")))


@pytest.mark.parametrize("args,field", [
    (["--paper", "a5"], "--paper"),
    (["--bleed", "3furlong"], "--bleed"),
    (["--card-size", "300x300mm"], "--card-size"),
    (["--card-size", "jumbo"], "--card-size"),
    (["--lang", "de"], "--lang"),
    (["--flip", "sideways"], "--flip"),
    (["--only", "dice"], "--only"),
])
def test_bad_options_exit_2_with_one_line_and_write_nothing(tmp_path, cli, args, field):
    out = tmp_path / "out"
    r = cli("build", "covenia", *args, "--out", out)
    assert r.code == 2
    assert len(r.err.strip().splitlines()) == 1 and field in r.err and "Traceback" not in r.err
    assert not out.exists()


@pytest.mark.parametrize("old,new,where", [
    ('colour = "#C0392B"', 'colour = "crimson"', "clans[0].colour: \"crimson\" is not a colour"),
    ('symbol = "flame"', 'symbol = "flam"', "clans[0].symbol: unknown symbol \"flam\""),
])
def test_bad_data_names_the_file_and_field(tmp_path, cli, old, new, where):
    """A clan's value that a card prints wrong is named in the clan's entry, not in the
    kind that draws it."""
    data = (paths.LAYOUTS / "covenia.toml").read_text().replace(old, new)
    (tmp_path / "d.toml").write_text(data)
    r = cli("build", "covenia", "--data", tmp_path / "d.toml", "--out", tmp_path / "o")
    assert r.code == 2 and f"d.toml: {where}" in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1


def test_a_failed_build_leaves_the_previous_kit_untouched(tmp_path, cli, monkeypatch):
    assert cli("build", "covenia", "--out", tmp_path).code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    from companion.draw import print_sheets
    real = print_sheets.render

    def failing(c, cards, grid, flip, words, *rest):
        real(c, cards[:20], grid, flip, words, *rest)
        raise KeyboardInterrupt  # the user hits Ctrl-C half way through

    monkeypatch.setattr(print_sheets, "render", failing)
    monkeypatch.setattr("companion.kit.render", failing)
    r = cli("build", "covenia", "--lang", "fr", "--out", tmp_path)
    assert r.code == 130
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert after == before  # same files, same bytes, no staging folder left


def test_build_all_builds_every_game_into_its_own_folder(tmp_path, cli):
    r = cli("build", "all", "--only", "aids", "--out", tmp_path)
    assert r.code == 0, r.err
    assert (tmp_path / "covenia" / "manifest.json").is_file()


def test_clans_differ_by_symbol_not_only_colour_and_decks_by_mark():
    assert len({c["symbol"] for c in CLANS}) == len(CLANS) == 5
    assert len({c["colour"] for c in CLANS}) == 5
    assert len({d["mark"] for d in DATA["decks"]}) == 2


def test_every_command_has_help_with_examples(cli):
    top = cli("--help")
    assert top.code == 0 and "build" in top.out and "score" in top.out
    for args in (["build"], ["score"], ["score", "covenia"]):
        r = cli(*args, "--help")
        assert r.code == 0 and "Examples:" in r.out, args
