"""A designer's vocabulary with no silent trap (issue 35): French typography leaves inline
icons whole; a card's id is the same in every language; a `bullets` element takes markup;
`kind = "{kind}"` on one component leaves the others' picture columns alone (two tabs in
one deck); a condition's field and an :icon: that nothing defines are warnings naming the
file, the element and the name (refused under --strict); `repeat` over a wrong cell names
the cell."""

import json
import re
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.text.typography import NNBSP, french
from tests import needs

AID_EN = "• **Your turn:** draw (:shell: or :wave:)."
AID_FR = "• **À votre tour :** piochez (:shell: ou :wave:) : gardez-la."


# ---- 1. French typography and inline icons ----------------------------------------------

@pytest.mark.parametrize("text,typeset", [
    ("Coûte :mana: de moins", "Coûte :mana: de moins"),
    (":mana::mana: pour", ":mana::mana: pour"),
    (AID_FR, f"• **À votre tour{NNBSP}:** piochez (:shell: ou :wave:){NNBSP}: gardez-la."),
    ("Gagnez :coin:!", f"Gagnez :coin:{NNBSP}!"),  # after an icon as after a word
    ("Règle : voir", f"Règle{NNBSP}: voir"),  # prose as before
])
def test_french_typography_never_enters_an_icon(text, typeset):
    assert french(text) == typeset


_ICON = st.from_regex(r":[a-z][a-z0-9_-]{0,6}:", fullmatch=True)
_WORD = st.text(alphabet="abcé :;!?'«»()", max_size=8)


@given(st.lists(st.one_of(_ICON, _WORD), max_size=8))
def test_every_icon_token_survives_french_typography(parts):
    text = "".join(parts)
    icons = re.findall(r":[a-z][a-z0-9_-]*:", text)
    out = french(text)
    assert re.findall(r":[a-z][a-z0-9_-]*:", out) == icons
    assert french(out) == out  # idempotent


# ---- the starter, edited as the designer did -------------------------------------

def _starter(cli, tmp_path):
    folder = tmp_path / "vocab"
    r = cli("new", "vocab", str(folder))
    assert r.code == 0, r.err
    game = folder / "vocab.toml"
    toml = game.read_text(encoding="utf-8")
    first = re.search(r'  \{ en = "• Your turn:[^\n]*\n', toml).group(0)
    toml = toml.replace(first, f'  {{ en = "{AID_EN}", fr = "{AID_FR}" }},\n')
    game.write_text(toml, encoding="utf-8")
    cards = folder / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    out = ["kind,title.en,title.fr,text.en,text.fr,qty,points,icon,art,rarity"]
    french_titles = {"Hermit Crab": "Bernard-l’ermite", "Sea Star": "Étoile de mer",
                     "Storm": "Tor embrasé"}
    for i, row in enumerate(rows[1:]):
        kind, title, rest = row.split(",", 2)
        text, qty, points, icon, art = rest.rsplit(",", 4)
        en, fr = (("Costs :shell: less.", "Coûte :shell: de moins.") if i == 0 else
                  ("Two :wave::wave: for it.", "Deux :wave::wave: pour elle.") if i == 1
                  else (text, text))
        out.append(",".join([kind, title, french_titles.get(title, title), f'"{en}"',
                             f'"{fr}"', qty, points, icon, art, "rare" if i == 2 else ""]))
    cards.write_text("\n".join(out) + "\n", encoding="utf-8")
    return game


def _pdf_text(pdf) -> str:
    return subprocess.run([needs.tool("pdftotext"), str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def _build(cli, game, out, *args):
    r = cli("build", str(game), "--out", str(out), *args)
    assert r.code == 0, r.err
    return r, json.loads((out / "manifest.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_starters_aid_and_cards_print_their_markup_not_its_marks(cli, tmp_path, lang):
    """Issue 35, what it must show: the aid's **bold** and :icons: (a bullets element) and
    a card's :shell: print, in English and in French; no line is left too wide."""
    game = _starter(cli, tmp_path)
    r, _ = _build(cli, game, tmp_path / "kit", "--lang", lang)
    text = re.sub("[\u00a0\u202f]", " ", _pdf_text(tmp_path / "kit" / "cards.pdf"))
    assert "**" not in text and ":shell" not in text and ":wave" not in text, text
    words = ("Your turn:", "draw (") if lang == "en" else \
        ("À votre tour :", ") : gardez-la.")
    for w in words:
        assert w in text, (w, text)
    assert ("Coûte" if lang == "fr" else "Costs") in text
    assert "does not fit" not in r.err, r.err


# ---- 2. a card's id, the same in every language ------------------------------------------

def test_a_cards_id_is_the_same_in_every_language_and_finds_its_picture(cli, tmp_path):
    game = _starter(cli, tmp_path)
    folder = game.parent
    game.write_text(game.read_text(encoding="utf-8") + '\n[art]\ncreature = "art/{id}.png"\n',
                    encoding="utf-8")
    for name in ("hermit-crab", "sea-star", "anemone", "limpet", "periwinkle", "octopus"):
        Image.new("RGB", (630, 441), (200, 120, 60)).save(folder / "art" / f"{name}.png")
    ids = {}
    for lang in ("en", "fr"):
        _, m = _build(cli, game, tmp_path / lang, "--lang", lang)
        ids[lang] = [c["id"] for c in m["cards"]]
    assert ids["fr"] == ids["en"]
    assert "cards/hermit-crab" in ids["fr"] and "cards/storm" in ids["fr"]


# ---- 4. kind = "{kind}" on one component, a picture column on another ---------------------

@pytest.mark.parametrize("second_kind", ["{kind}", "creature"])
def test_two_tables_in_one_deck_each_take_their_pictures(cli, tmp_path, second_kind):
    """Two card lists (two tabs) printed in one file, the first by each row's kind: the
    second list's art column is its cards' pictures, not "a picture printing nowhere"."""
    r = cli("new", "vocab", str(tmp_path / "vocab"))
    assert r.code == 0, r.err
    folder = tmp_path / "vocab"
    game = folder / "vocab.toml"
    rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    for name in ("limpet", "periwinkle"):
        Image.new("RGB", (630, 441), (60, 120, 200)).save(folder / "art" / f"{name}.png")
    more = [rows[0]] + [r + f"art/{r.split(',')[1].lower()}.png" for r in rows[1:]
                        if r.split(",")[1] in ("Limpet", "Periwinkle")]
    (folder / "more.csv").write_text("\n".join(more) + "\n", encoding="utf-8")
    (folder / "cards.csv").write_text("\n".join(r for r in rows if r.split(",")[1] not in (
        "Limpet", "Periwinkle")) + "\n", encoding="utf-8")
    toml = game.read_text(encoding="utf-8").replace(
        'cards = { spreadsheet = "cards.csv" }',
        'cards = { spreadsheet = "cards.csv" }\nmore = { spreadsheet = "more.csv" }').replace(
        "[components.aids]", f'[components.more]\nkind = "{second_kind}"\ncards = "more"\n'
                             'id = "title"\nback = "common"\nfile = "cards.pdf"\n\n'
                             "[components.aids]")
    game.write_text(toml, encoding="utf-8")
    _, m = _build(cli, game, tmp_path / "kit")
    assert {"more/limpet", "more/periwinkle", "cards/hermit-crab"} <= {c["id"] for c in m["cards"]}
    files = {f["path"]: [c["id"] for c in f["components"]] for f in m["files"]}
    assert files["cards.pdf"][:2] == ["cards", "more"]


# ---- 6. names nothing defines --------------------------------------------------------------

def test_a_misspelt_field_and_icon_are_warnings_and_strict_refuses_them(cli, tmp_path):
    game = _starter(cli, tmp_path)
    toml = game.read_text(encoding="utf-8").replace(
        'fill = "sand"\n', 'fill = "sand"\nwhen = \'rarty == "rare"\'\n', 1)
    game.write_text(toml, encoding="utf-8")
    cards = game.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Costs :shell: less.",
                                                               "Costs :shel: less."),
                     encoding="utf-8")
    r, _ = _build(cli, game, tmp_path / "kit")
    lines = [ln for ln in r.err.splitlines() if "warning" in ln]
    assert any("vocab.toml: kinds.creature, element 9 (badge)" in ln and "rarty" in ln
               and "did you mean rarity?" in ln for ln in lines), r.err
    assert any("vocab.toml: kinds.creature, element 8 (textblock)" in ln and ":shel:" in ln
               and "did you mean :shell:?" in ln and "cards/hermit-crab" in ln
               for ln in lines), r.err
    assert len(lines) == 2, r.err  # the score pad's optional fields are no typo
    strict = cli("build", str(game), "--out", str(tmp_path / "strict"), "--strict")
    assert strict.code == 2 and "rarty" in strict.err, strict.err
    assert not (tmp_path / "strict").exists()


def test_the_starter_as_written_has_no_undefined_name(cli, tmp_path):
    r = cli("new", "vocab", str(tmp_path / "vocab"))
    assert r.code == 0, r.err
    for lang in ("en", "fr"):
        strict = cli("build", str(tmp_path / "vocab" / "vocab.toml"), "--lang", lang,
                     "--out", str(tmp_path / lang), "--strict")
        assert strict.code == 0, strict.err


@pytest.mark.parametrize("cell,words", [
    ("two", 'cards.csv, row 3: column H (cost): repeat = \'cost\': "two" is neither a whole '
            "number of times nor a list"),
    ("", "cards.csv, row 3: column H (cost): blank, and kinds.creature needs it"),
])
def test_repeat_over_a_wrong_cell_names_the_cell(cli, tmp_path, cell, words):
    r = cli("new", "vocab", str(tmp_path / "vocab"))
    assert r.code == 0, r.err
    folder = tmp_path / "vocab"
    cards = folder / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows = [rows[0] + ",cost"] + [r + ("," + cell if " Star," in r else ",1") for r in rows[1:]]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    game = folder / "vocab.toml"
    game.write_text(game.read_text(encoding="utf-8").replace("[kinds.tide]\n", (
        '[[kinds.creature.elements]]\ntype = "symbol"\nname = "shell"\nrepeat = "cost"\n'
        "x = 0.1\ny = 0.9\nr = 0.03\nstep = { x = 0.06 }\n\n[kinds.tide]\n"), 1),
        encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and words in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1


def test_a_colour_the_game_does_not_define_is_a_warning_where_no_face_draws_it(cli, tmp_path):
    """A colour drawn stops the build where it is drawn; one on a kind no card uses yet
    would pass unseen: it is a warning too (refused under --strict)."""
    r = cli("new", "vocab", str(tmp_path / "vocab"))
    assert r.code == 0, r.err
    game = tmp_path / "vocab" / "vocab.toml"
    game.write_text(game.read_text(encoding="utf-8").replace("[kinds.back]\n", (
        '[kinds.spare]\n\n[[kinds.spare.elements]]\ntype = "rect"\nfill = "acent"\n'
        'stroke = "mix(paper, nigth, 0.3)"\n\n[kinds.back]\n'), 1), encoding="utf-8")
    r, _ = _build(cli, game, tmp_path / "kit")
    assert "vocab.toml: kinds.spare, element 1 (rect): fill names the colour 'acent', which " \
        "the game does not define (did you mean accent?)" in r.err, r.err
    assert "stroke names the colour 'nigth'" in r.err and "did you mean night?" in r.err
    strict = cli("build", str(game), "--out", str(tmp_path / "strict"), "--strict")
    assert strict.code == 2 and "acent" in strict.err, strict.err
