"""The manifest lists every card with a digest of each face; --changed-since prints only
the cards whose front or back changed."""

import json

from companion.files import paths


def manifest(folder):
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def test_the_manifest_lists_every_card_with_a_stable_id_and_its_faces(tmp_path, cli):
    assert cli("build", "covenia", "--out", tmp_path / "a").code == 0
    assert cli("build", "covenia", "--out", tmp_path / "b").code == 0
    cards = manifest(tmp_path / "a")["cards"]
    assert len(cards) == 100 + 5 + 4 + 1 + 2  # clan cards, Temple, aids, set-up, tokens
    assert len({c["id"] for c in cards}) == len(cards)
    assert cards == manifest(tmp_path / "b")["cards"]  # stable from one build to the next
    aids = [c for c in cards if c["component"] == "aids"]
    assert len({(c["front"], c["back"]) for c in aids}) == 1  # four identical aids


def edited(tmp_path, old, new):
    text = paths.layout("covenia.toml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "covenia.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path / "covenia.toml"


def test_changed_since_prints_exactly_the_cards_whose_faces_changed(tmp_path, cli):
    assert cli("build", "covenia", "--out", tmp_path / "v1").code == 0
    # The purple clan's reminder is on its 20 clan cards only.
    data = edited(tmp_path, "Draw a card: lay it or keep it", "Draw one: lay it or keep it")
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "v2",
            "--changed-since", tmp_path / "v1" / "manifest.json")
    assert r.code == 0, r.err
    m = manifest(tmp_path / "v2")
    printed = {c["id"]: c["count"] for f in m["files"] for c in f["components"]}
    assert printed == {"clan-cards": 20}
    old = {c["id"]: c for c in manifest(tmp_path / "v1")["cards"]}
    changed = [c["id"] for c in m["cards"] if (c["front"], c["back"]) !=
               (old[c["id"]]["front"], old[c["id"]]["back"])]
    assert len(changed) == 20 and "20 of 112 cards changed" in r.out


def test_changed_since_with_nothing_changed_writes_nothing(tmp_path, cli):
    assert cli("build", "covenia", "--out", tmp_path / "v1").code == 0
    r = cli("build", "covenia", "--out", tmp_path / "v2",
            "--changed-since", tmp_path / "v1" / "manifest.json")
    assert r.code == 0 and "none of the 112 cards changed" in r.out
    assert not (tmp_path / "v2").exists()  # no kit of a manifest and a guide alone


def test_changed_since_needs_a_real_manifest(tmp_path, cli):
    (tmp_path / "m.json").write_text("{}")
    r = cli("build", "covenia", "--out", tmp_path / "o", "--changed-since", tmp_path / "m.json")
    assert r.code == 2 and "--changed-since" in r.err and not (tmp_path / "o").exists()


def test_a_clan_name_the_aids_marks_read_changes_the_aids_too(tmp_path, cli):
    """An aid's scoring lines take their mark from the clan they name: renaming a clan
    changes its clan cards, its Temple card and the aids whose marks read it, not the
    tokens."""
    assert cli("build", "covenia", "--out", tmp_path / "v1").code == 0
    data = edited(tmp_path, 'name = { en = "Purple"', 'name = { en = "Violet"')
    r = cli("build", "covenia", "--data", data, "--out", tmp_path / "v2",
            "--changed-since", tmp_path / "v1" / "manifest.json")
    assert r.code == 0, r.err
    printed = {c["id"] for f in manifest(tmp_path / "v2")["files"] for c in f["components"]}
    assert printed == {"clan-cards", "temple", "aids"}
