"""The Coverta kit (issue 6): what the built PDFs hold."""

import re
import tomllib

import pytest

from companion.files import paths
from tests.pdfs import page_texts

DATA = tomllib.loads((paths.LAYOUTS / "coverta.toml").read_text())


def lines(text, word):
    return len(re.findall(rf"^\s*{re.escape(word)}\s*$", text, re.M))


def test_manifest_counts(kits):
    _, m = kits("coverta")
    counts = {c["id"]: c["count"] for f in m["files"] for c in f["components"]}
    assert counts == {"numbers": 40, "rules": 14, "memo": 2, "aids": 5, "setup": 1,
                      "scoresheet": 1}


def test_every_card_code_is_printed_on_its_card(kits):
    out, _ = kits("coverta")
    pages = page_texts(out / "cards.pdf")
    first_sheets = "\n".join(pages[0:8:2])  # four sheets of number cards: C01-C36
    for cd in DATA["cards"][:36]:
        assert lines(first_sheets, cd["code"]) == 1, cd["code"]
    for cd in DATA["cards"][36:]:
        assert lines(pages[8], cd["code"]) >= 1, cd["code"]


def test_each_feature_has_an_alternate_and_a_keep_card_and_two_jokers(kits):
    out, _ = kits("coverta")
    text = "\n".join(page_texts(out / "cards.pdf"))
    assert lines(text, "ALTERNATE") == 7 and lines(text, "KEEP") == 7
    assert text.count("JOKER · Set aside in the standard deal") == 2
    for name in DATA["features"].values():
        assert text.count(name["en"]) >= 2, name


def test_the_ink_colour_is_also_a_suit_mark_for_colour_blind_players(kits):
    out, _ = kits("coverta")
    text = "".join(page_texts(out / "cards.pdf")[:8:2])  # fronts of C01-C36
    reds = sum(c["ink"] == "red" for c in DATA["cards"][:36])
    assert text.count("♦") == 3 * reds and text.count("♠") == 3 * (36 - reds)


def test_the_player_aid_gives_hand_sizes_and_the_variants(kits):
    out, _ = kits("coverta", "letter", "fr")
    text = re.sub(r"\s+", " ", " ".join(page_texts(out / "cards.pdf")))
    assert "Cartes distribuées à chacun (règle maison)" in text and "Voler le tour" in text and "Donne à 3 cartes" in text
    assert "Jeu en continu" in text


@pytest.mark.parametrize("table, key", [("texts", "memo_left"), ("texts", "joker_text"),
                                        ("texts", "sheet_note"), ("texts", "keep"),
                                        ("features", "fill")])
def test_a_text_the_cards_need_missing_from_the_data_is_named_in_one_line(tmp_path, cli, table,
                                                                         key):
    from companion.files import paths

    text = paths.layout("coverta.toml").read_text(encoding="utf-8")
    at = text.index(f"[{table}]")
    text = text[:at] + re.sub(rf"(?m)^{key} = .*\n", "", text[at:], count=1)
    (tmp_path / "c.toml").write_text(text, encoding="utf-8")
    r = cli("build", "coverta", "--data", tmp_path / "c.toml", "--out", tmp_path / "o")
    assert r.code == 2 and f"{table}.{key}: missing" in r.err and "Traceback" not in r.err, r.err
    assert not (tmp_path / "o").exists()
