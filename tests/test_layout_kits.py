"""Kinds and components declared in a game's layouts file (issue 21): a new kind of card
touches no Python file. Shown on a copy of Vengeance's data (`companion init`): an "omen"
kind and its cards added in the data alone print on their own sheets, with their back, in
the manifest; the copy carries the whole layout of the demon card, whose elements a
designer moves or removes there; a wrong component is one line naming its key."""

import ast
import json
import re
from pathlib import Path

import pytest

from companion import kit
from companion.engine import face as face_mod
from tests.pdfs import page_texts

ROOT = Path(__file__).resolve().parent.parent

OMENS = '''
[components.omens]
kind = "omen"
cards = "omens"
back = "common"
after = "demons"

[[omens]]
id = "eclipse"
title = { en = "Eclipse", fr = "Éclipse" }
text = { en = "Every witch **discards** one :leaf: herb.", fr = "Chaque sorcière **défausse** une :leaf: herbe." }
qty = 2

[[omens]]
id = "comet"
title = { en = "Comet", fr = "Comète" }
text = { placeholder = { en = "Omen text to come", fr = "Texte du présage à venir" } }

[kinds.omen]
extends = "demon"
remove = ["name", "type-symbol", "type-when", "type-action", "chain", "chains"]
[[kinds.omen.elements]]
type = "text"
text = "{title}"
upper = true
x = 0.5
y = 0.22
size = 0.08
font = "bold"
max_w = 0.8
field = "omens.title"
[[kinds.omen.elements]]
type = "textblock"
text = "{text}"
x = 0.1
y = 0.35
w = 0.8
h = 0.4
size = 0.06
field = "omens.text"
'''


@pytest.fixture
def copy(tmp_path, cli):
    r = cli("init", "vengeance", str(tmp_path / "v"))
    assert r.code == 0, r.err
    return tmp_path / "v" / "vengeance.toml"


def test_a_new_kind_and_its_cards_from_the_data_alone(copy, cli, tmp_path):
    copy.write_text(copy.read_text(encoding="utf-8") + OMENS, encoding="utf-8")
    out = tmp_path / "kit"
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(out), "--only",
            "demons,omens")
    assert r.code == 0, r.err
    m = json.loads((out / "manifest.json").read_text())
    ids = [c["id"] for c in m["cards"]]
    assert ids == ["demons/01", "demons/02", "demons/03", "omens/eclipse", "omens/eclipse-2",
                   "omens/comet"]
    text = "\n".join(page_texts(out / "cards.pdf"))
    assert "ECLIPSE" in text and "discards" in text and "COMET" in text
    assert "Omen text to come" in text  # a placeholder prints in its TO COME box
    assert "Omen text to come" in (out / "print-guide.txt").read_text()


def test_the_copy_holds_the_demons_whole_layout_and_an_edit_moves_it(copy, cli, tmp_path):
    text = copy.read_text(encoding="utf-8")
    assert "[kinds.demon]" in text and "[components.demons]" in text
    assert text.count("[[kinds.demon.elements]]") >= 8 and "[kinds.framed]" in text
    moved = text.replace('id = "emblem"\ntype = "symbol"\nname = "horns"',
                         'id = "emblem"\ntype = "symbol"\nname = "sun"')
    assert moved != text
    copy.write_text(moved, encoding="utf-8")
    out = tmp_path / "kit"
    assert cli("build", "vengeance", "--data", str(copy), "--out", str(out), "--only",
               "demons").code == 0
    before = tmp_path / "before"
    assert cli("build", "vengeance", "--out", str(before), "--only", "demons").code == 0
    digests = lambda folder: [c["front"] for c in json.loads(  # noqa: E731
        (folder / "manifest.json").read_text())["cards"]]
    assert digests(out) != digests(before)


@pytest.mark.parametrize("extra,words", [
    ('[components.omens]\nkind = "omen"\n', "components.omens.kind: no kind 'omen'"),
    ('[components.omens]\nkind = "demon"\nkard = "x"\n', "components.omens.kard: unknown key"),
    ('[components.omens]\nkind = "demon"\ncards = "demons"\nwith = ["types"]\nafter = "wiches"\n',
     "components.omens.after: no component 'wiches'"),
    ('[components.omens]\nkind = "demon"\ncards = "omens"\n',
     "components.omens.cards: no table or list [omens]"),
])
def test_a_wrong_component_is_one_line_naming_its_key(copy, cli, tmp_path, extra, words):
    copy.write_text(copy.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "kit"))
    assert r.code == 2, r.err
    assert words in r.err and len(r.err.strip().splitlines()) == 1, r.err
    assert not (tmp_path / "kit").exists()


def test_a_copy_made_before_kinds_and_components_still_builds_every_card(copy, cli, tmp_path):
    """An older `companion init` copy has no [kinds] or [components]: the bundled game's
    draw its demons, gates and solo cards, so none goes missing."""
    text = copy.read_text(encoding="utf-8")
    start = text.index("# ---- card kinds drawn by the layout engine")
    end = text.index("[layout.gate]")
    copy.write_text(text[:start] + text[end:], encoding="utf-8")
    assert "[components." not in copy.read_text(encoding="utf-8")
    out = tmp_path / "kit"
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(out))
    assert r.code == 0, r.err
    counts = {c["id"]: c["count"] for f in json.loads((out / "manifest.json").read_text())[
        "files"] for c in f["components"]}
    assert counts["demons"] == 3 and counts["gates"] == 8 and counts["solo"] == 6


def test_a_kind_element_may_take_any_field_of_its_type_not_only_the_bundled_ones(
        copy, cli, tmp_path):
    """A layout is checked by the engine's schema, not against the bundled file's
    elements: the emblem given a `when` and a colour the bundled one has not builds."""
    text = copy.read_text(encoding="utf-8")
    edited = text.replace('id = "emblem"\ntype = "symbol"\nname = "horns"',
                          'id = "emblem"\ntype = "symbol"\nname = "horns"\nwhen = "n > 1"')
    assert edited != text
    copy.write_text(edited, encoding="utf-8")
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "kit"),
            "--only", "demons")
    assert r.code == 0, r.err


def test_a_card_table_missing_a_field_its_component_names_is_one_line(copy, cli, tmp_path):
    """The fuzz found it: [aid] without front_title, which components.aids names."""
    text = copy.read_text(encoding="utf-8")
    start = text.index("front_title = ")
    copy.write_text(text[:start] + text[text.index("\n", start) + 1:], encoding="utf-8")
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    assert "components.aids: names {front_title}, not a field" in r.err, r.err


def test_an_old_covenia_copy_keeps_its_temple_aids_and_tokens_and_gets_their_new_fields(
        cli, tmp_path):
    """A Covenia copy from before [kinds], [components] and [backs], whose tokens lack the
    label and inks the token kind names: the bundled ones draw every card, the tokens'
    missing fields come from the bundled tables, and the PDFs print the same words."""
    r = cli("init", "covenia", str(tmp_path / "c"))
    assert r.code == 0, r.err
    path = tmp_path / "c" / "covenia.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("# ---- card kinds drawn by the layout engine")
    end = text.index("\n[layout.clan]\n")
    old = text[:start] + text[end:]
    old = old.replace(old[old.index("first_player = { front"):old.index("\n[scorebook]")],
                      'first_player = { front = "sun", back = "moon" }\n'
                      'shield = { front = "shield", back = "shield" }\n')
    path.write_text(old, encoding="utf-8")
    assert "[kinds." not in old and "label =" not in old
    for out, data in ((tmp_path / "old", ["--data", str(path)]), (tmp_path / "new", [])):
        r = cli("build", "covenia", *data, "--out", str(out))
        assert r.code == 0, r.err
    for name in ("cards.pdf", "tokens.pdf"):
        assert page_texts(tmp_path / "old" / name) == page_texts(tmp_path / "new" / name)
    counts = {c["id"]: c["count"] for f in json.loads(
        (tmp_path / "old" / "manifest.json").read_text())["files"] for c in f["components"]}
    assert counts["temple"] == 5 and counts["aids"] == 4 and counts["tokens"] == 2


def test_cards_from_tables_name_each_card_after_its_table_and_refuse_a_list(
        cli, tmp_path):
    r = cli("init", "covenia", str(tmp_path / "c"))
    path = tmp_path / "c" / "covenia.toml"
    text = path.read_text(encoding="utf-8")
    manifest = tmp_path / "ok" / "manifest.json"
    assert cli("build", "covenia", "--data", str(path), "--out", str(manifest.parent),
               "--only", "tokens").code == 0
    ids = [c["id"] for c in json.loads(manifest.read_text())["cards"]]
    assert ids == ["tokens/first-player", "tokens/shield"]
    path.write_text(text.replace('cards = ["tokens.first_player", "tokens.shield"]',
                                 'cards = ["tokens.first_player", "clans"]'), encoding="utf-8")
    r = cli("build", "covenia", "--data", str(path), "--out", str(tmp_path / "bad"))
    assert r.code == 2 and "components.tokens.cards: [clans] is not a table" in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1


NOTES = """
[components.notes]
kind = "notes-page"
page = true
cards = "notes"
count = "pages"
you_get = "{pages} * {lines}"
file = "notes.pdf"

[notes]
pages = 3
lines = 20

[kinds.notes-page]
[[kinds.notes-page.elements]]
type = "text"
text = "Notes {n} / {pages}"
x = "12mm"
y = "20mm"
size = "14pt"
align = "left"
[[kinds.notes-page.elements]]
type = "line"
repeat = "lines"
step = { y = "10mm" }
x1 = "12mm"
y1 = "30mm"
x2 = "1 - 12mm"
y2 = "30mm"
"""


def test_whole_pages_from_data_alone_a_file_of_their_own_counted_as_the_data_says(
        copy, cli, tmp_path):
    """A page kind (a notes pad) added in the data: each of its cards is a whole page of
    the paper, in its own file, and the print guide counts what `you_get` says."""
    copy.write_text(copy.read_text(encoding="utf-8") + NOTES, encoding="utf-8")
    out = tmp_path / "kit"
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(out))
    assert r.code == 0, r.err
    files = {f["path"]: f for f in json.loads((out / "manifest.json").read_text())["files"]}
    assert files["notes.pdf"]["pages"] == 3
    assert files["notes.pdf"]["components"] == [{"id": "notes", "count": 60}]
    assert [t.strip() for t in page_texts(out / "notes.pdf")] == [
        "Notes 1 / 3", "Notes 2 / 3", "Notes 3 / 3"]


@pytest.mark.parametrize("edit,words", [
    (('file = "notes.pdf"', 'file = "notes.pdf"\nback = "common"'),
     "components.notes.back: a page has no back"),
    (('file = "notes.pdf"', 'file = "cards.pdf"'),
     "components.notes.file: cards.pdf holds other cards already"),
    (("pages = 3", "pages = 3000"), "notes.pages: 3000 is not a number of cards"),
    (('you_get = "{pages} * {lines}"', 'you_get = "{pages} / 7"'),
     "is not a whole number"),
])
def test_a_wrong_page_component_is_one_line(copy, cli, tmp_path, edit, words):
    copy.write_text(copy.read_text(encoding="utf-8") + NOTES.replace(*edit), encoding="utf-8")
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and words in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["covenia", "coverta", "lugvanion", "vengeance"])
def test_no_game_module_draws_every_page_of_its_kit_is_the_engines(game):
    """What stays in games/GAME.py draws nothing: no canvas, no drawing module; every
    card face and back, and every whole page (score books, sheets), is an engine face."""
    source = (ROOT / f"companion/games/{game}.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert not {"c", "canvas"} & {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not re.search(r"\bc\.\w+\(|reportlab|companion\.draw|PageFile", source)
    prepared = kit.prepare(game, kit.Options())
    faces = [f for cf in prepared.files for comp in cf.components for card in comp.cards
             for f in (card.front, card.back) if f is not None]
    assert faces and all(f.draw.func is face_mod._draw for f in faces)
    pages = [cf for cf in prepared.files if isinstance(cf, kit.PageFile)]
    assert pages or game in ("lugvanion", "vengeance")
    for page_file in pages:  # a score book's pages: drawn by components, page = true
        assert page_file.draw.__module__ == "companion.engine.components", page_file.path
