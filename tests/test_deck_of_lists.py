"""One deck from several lists (issue 35: "deck from several tabs merged"): a component's
`cards = { lists = ["creatures", "tides"] }` prints the lists' cards as one deck, in that
order, numbered on from list to list: the same cards, ids and faces as one list holding
them all, and one deck in the Tabletop Simulator export."""

import json

import pytest


def _split_starter(cli, tmp_path):
    r = cli("new", "tabs", str(tmp_path / "tabs"))
    assert r.code == 0, r.err
    folder = tmp_path / "tabs"
    rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    head, body = rows[0], rows[1:]
    (folder / "creatures.csv").write_text(
        "\n".join([head] + [r for r in body if r.startswith("creature,")]) + "\n", encoding="utf-8")
    (folder / "tides.csv").write_text(
        "\n".join([head] + [r for r in body if not r.startswith("creature,")]) + "\n",
        encoding="utf-8")
    return folder


def _built(cli, game, out):
    r = cli("build", str(game), "--out", str(out), "--only", "cards")
    assert r.code == 0, r.err
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_several_lists_print_as_one_deck_like_one_list_holding_them(cli, tmp_path):
    folder = _split_starter(cli, tmp_path)
    game = folder / "tabs.toml"
    one = _built(cli, game, tmp_path / "one")
    one_deck = _deck(cli, game, tmp_path / "one-tts")
    text = game.read_text(encoding="utf-8").replace(
        'cards = { spreadsheet = "cards.csv" }',
        'creatures = { spreadsheet = "creatures.csv" }\ntides = { spreadsheet = "tides.csv" }')
    text = text.replace('cards = "cards"             # the rows of cards.csv',
                        'cards = { lists = ["creatures", "tides"] }')
    assert 'lists = ["creatures", "tides"]' in text
    game.write_text(text, encoding="utf-8")
    merged = _built(cli, game, tmp_path / "merged")
    assert [(c["id"], c.get("digest")) for c in merged["cards"]] == [
        (c["id"], c.get("digest")) for c in one["cards"]]
    assert _deck(cli, game, tmp_path / "merged-tts") == one_deck == 15  # qty included


def _deck(cli, game, out) -> int:
    """How many cards the Tabletop Simulator export's "Cards" deck holds."""
    r = cli("export", str(game), "tts", "--out", str(out))
    assert r.code == 0, r.err
    saved = json.loads((out / "tabs.json").read_text(encoding="utf-8"))
    decks = {o["Nickname"]: len(o["DeckIDs"]) for o in saved["ObjectStates"]}
    return decks["Cards"]


@pytest.mark.parametrize("lists, words", [
    ('[]', "the names of 1 to 50 lists"),
    ('["creatures", 3]', "the names of 1 to 50 lists"),
    ('["nowhere"]', "no table or list [nowhere]"),
    ('["game"]', "is not a list of cards"),
])
def test_a_wrong_lists_entry_is_one_line_naming_the_component(cli, tmp_path, lists, words):
    folder = _split_starter(cli, tmp_path)
    game = folder / "tabs.toml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        'cards = "cards"             # the rows of cards.csv', f"cards = {{ lists = {lists} }}"),
        encoding="utf-8")
    r = cli("build", str(game), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and words in r.err and "components.cards" in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1 and not (tmp_path / "kit").exists()
