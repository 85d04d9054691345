"""A game of your own from a blank folder (issue 22): `companion new` writes a game file,
a card list, two icons and a picture guide holding a starter game that builds as it is;
the card list drives the cards; a wrong row is one line naming its file, row and column;
every export takes the game's file."""

import json

import pytest
from PIL import Image

from tests.pdfs import page_texts
from tests.watching import watching

STARTER_CARDS = 2 + 2 + 1 + 3 + 3 + 1 + 1 + 1 + 1  # qty of cards.csv's rows


def _build(cli, starter, out, *args):
    r = cli("build", str(starter), "--out", str(out), *args)
    assert r.code == 0, r.err
    return json.loads((out / "manifest.json").read_text())


def test_new_writes_a_game_that_builds_with_no_edit(starter, cli, tmp_path):
    folder = starter.parent
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) \
        == ["art/README.txt", "cards.csv", "icons/shell.svg", "icons/wave.svg",
            "moth-lanterns.toml"]
    m = _build(cli, starter, tmp_path / "kit")
    counts = {c["id"]: c["count"] for f in m["files"] for c in f["components"]}
    assert counts == {"cards": STARTER_CARDS, "aids": 4, "scorepad": 6}  # 3 games, 2 pages
    assert m["game"] == "moth-lanterns"
    text = " ".join(page_texts(tmp_path / "kit" / "cards.pdf"))
    for words in ("Hermit Crab", "HIGH TIDE", "Moth Lanterns", "Highest total wins."):
        assert words in text, words
    readme = (folder / "art" / "README.txt").read_text()
    assert "creature" in readme and "53.3 x 37.3 mm" in readme


def test_a_row_added_to_the_card_list_appears_on_its_card(starter, cli, tmp_path):
    cards = starter.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8")
                     + "creature,Sea Otter,Floats on its back.,1,6,wave,\n", encoding="utf-8")
    m = _build(cli, starter, tmp_path / "kit")
    assert "cards/sea-otter" in [c["id"] for c in m["cards"]]
    assert "Sea Otter" in " ".join(page_texts(tmp_path / "kit" / "cards.pdf"))


@pytest.mark.parametrize("old,new,words", [
    ("creature,Sea Star", "monster,Sea Star", 'cards.csv, row 3: column A (kind): "monster" is no kind'),
    ("1,4,wave", "1,4,kraken", 'cards.csv, row 4: column F (icon): unknown symbol "kraken"'),
    ("kind,title,", "kind,name,", "cards.csv, row 2: no column title: kinds.creature prints "
                                  "{title} (the columns: kind, name, text, points, icon)"),
])
def test_a_wrong_row_is_one_line_naming_its_row_and_column(starter, cli, tmp_path, old, new,
                                                           words):
    cards = starter.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and words in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1 and not (tmp_path / "kit").exists()


def test_new_never_writes_over_a_folder_in_use(starter, cli):
    r = cli("new", "Moth Lanterns")
    assert r.code == 2 and "already exists" in r.err
    assert cli("new", 'A "quoted" name').code == 2


def test_the_starter_game_exports_for_a_shop_and_for_tabletop_simulator(starter, cli, tmp_path):
    r = cli("export", str(starter), "png", "--shop", "tgc", "--out", str(tmp_path / "png"))
    assert r.code == 0, r.err
    pngs = sorted((tmp_path / "png").rglob("*.png"))
    assert pngs and {Image.open(p).size for p in pngs} == {(825, 1125)}
    r = cli("export", str(starter), "tts", "--out", str(tmp_path / "tts"))
    assert r.code == 0, r.err
    save = json.loads((tmp_path / "tts" / "moth-lanterns.json").read_text())
    assert [(o["Name"], o["Nickname"], len(o["DeckIDs"])) for o in save["ObjectStates"]] == [
        ("DeckCustom", "Cards", STARTER_CARDS), ("DeckCustom", "Player aids", 4)]
    r = cli("export", str(starter), "cards-pdf", "--out", str(tmp_path / "cards-pdf"))
    assert r.code == 0, r.err
    from pypdf import PdfReader

    page = PdfReader(tmp_path / "cards-pdf" / "cards.pdf").pages[0]
    mm = 72 / 25.4
    trim, bleed = page.trimbox, page.bleedbox
    assert (round(float(trim.width) / mm, 1), round(float(trim.height) / mm, 1)) == (63.5, 88.9)
    assert float(trim.left) == 9 and float(bleed.width) - float(trim.width) == 18  # 1/8 in
    r = cli("export", str(starter), "preview", "--out", str(tmp_path / "preview"))
    assert r.code == 0, r.err
    assert sorted(p.name for p in (tmp_path / "preview").glob("*.png")) == [
        "aids.png", "cards.png"]


def test_a_game_file_takes_draft_strict_and_changed_since(starter, cli, tmp_path):
    assert cli("build", str(starter), "--strict", "--out", str(tmp_path / "one")).code == 0
    cards = starter.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8")
                     + "creature,Sea Otter,Floats.,1,5,wave,art/otter.png\n", encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "two"))
    assert r.code == 2 and "art/otter.png: cards/sea-otter: no such picture" in r.err
    r = cli("build", str(starter), "--draft", "--changed-since",
            str(tmp_path / "one" / "manifest.json"), "--out", str(tmp_path / "three"))
    assert r.code == 0, r.err
    assert "printed as placeholders: " in r.err
    assert "1 of 20 cards changed since " in r.out and r.out.strip().endswith(": cards/sea-otter")
    assert json.loads((tmp_path / "three" / "manifest.json").read_text())["changed"] == [
        "cards/sea-otter"]
    assert "Sea Otter" in " ".join(page_texts(tmp_path / "three" / "cards.pdf"))
    # Another game's manifest is no earlier build of this one.
    r = cli("build", "covenia", "--changed-since", str(tmp_path / "one" / "manifest.json"),
            "--out", str(tmp_path / "four"))
    assert r.code == 2 and "--changed-since: is the manifest of \"moth-lanterns\", not of " \
        "covenia" in r.err and not (tmp_path / "four").exists()


def test_a_game_file_is_watched_with_its_card_list(starter, tmp_path):
    """A save of the card list beside the game file rebuilds."""
    out = tmp_path / "kit"
    with watching(str(starter), "--out", str(out)) as w:
        n = w.wait_for("watching")
        cards = starter.parent / "cards.csv"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Hermit Crab", "Coconut Crab"),
                         encoding="utf-8")
        w.wait_for("watching", w.wait_for("rebuilding", n))
        assert "Coconut Crab" in " ".join(page_texts(out / "cards.pdf"))


def test_export_takes_draft_and_each_shop_has_its_folder(starter, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cards = starter.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8")
                     + "creature,Sea Otter,Floats.,1,5,wave,art/otter.png\n", encoding="utf-8")
    r = cli("export", str(starter), "png", "--shop", "tgc")
    assert r.code == 2 and "art/otter.png: cards/sea-otter: no such picture" in r.err
    assert not (tmp_path / "output").exists()
    for shop, size in (("tgc", (825, 1125)), ("mpc", (822, 1122))):
        r = cli("export", str(starter), "png", "--shop", shop, "--draft")
        assert r.code == 0, r.err
        assert "--draft: 1 picture missing or unreadable, printed as placeholders: " in r.err
        folder = tmp_path / "output" / "moth-lanterns" / f"png-{shop}"
        assert Image.open(folder / "cards" / "sea-otter-front.png").size == size
    # The two shops' pictures side by side, neither replacing the other.
    assert sorted(p.name for p in (tmp_path / "output" / "moth-lanterns").iterdir()) == [
        "png-mpc", "png-tgc"]
