"""The Lugvanion kit (issue 4): what it holds, checked in the built PDFs."""

import re
import tomllib

import pytest

from companion.files import paths
from tests.pdfs import page_texts

DATA = tomllib.loads((paths.LAYOUTS / "lugvanion.toml").read_text())


def squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def test_manifest_counts_are_the_rulebooks(kits):
    _, m = kits("lugvanion")
    counts = {c["id"]: c["count"] for f in m["files"] for c in f["components"]}
    assert counts == {"characters": 32, "guilds": 4, "circles": 3, "bounties": 8,
                      "objectives": 12, "aids": 4, "setup": 1, "partisans": 44,
                      "gold": 40}


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "fr")])
def test_every_character_is_on_four_team_cards_and_one_bounty(kits, paper, lang):
    out, _ = kits("lugvanion", paper, lang)
    text = "\n".join(page_texts(out / "cards.pdf"))
    for ch in DATA["characters"]:
        name = ch["name"][lang].upper()
        assert len(re.findall(rf"^\s*{re.escape(name)}\s*$", text, re.M)) == 5, name


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "fr")])
def test_every_guild_and_circle_has_its_card(kits, paper, lang):
    out, _ = kits("lugvanion", paper, lang)
    text = "\n".join(page_texts(out / "cards.pdf"))
    for g in DATA["guilds"]:
        assert re.search(rf"^\s*{re.escape(g['name'][lang].upper())}\s*$", text, re.M)
    for c in DATA["circles"]:
        assert re.search(rf"^\s*{re.escape(c['short'][lang].upper())}\s*$", text, re.M)


def test_objectives_are_each_circle_with_each_guild(kits):
    out, _ = kits("lugvanion")
    text = squash(" ".join(page_texts(out / "cards.pdf")))
    tithe = DATA["texts"]["objective_tithe"]["en"]
    gold = DATA["texts"]["objective_guild"]["en"]
    for c in DATA["circles"]:
        assert text.count(squash(tithe.format(circle=c["name"]["en"]))) == len(DATA["guilds"])
    for g in DATA["guilds"]:
        assert text.count(squash(gold.format(guild=g["name"]["en"]))) == len(DATA["circles"])


def test_the_player_aid_states_the_vote_and_its_tie_rule(kits):
    out, _ = kits("lugvanion")
    text = squash(" ".join(page_texts(out / "cards.pdf")))
    assert text.count("Tie (house rule)") == 4  # one aid per player
    assert text.count("The eight characters") == 4


def test_each_character_card_names_its_guild_and_tithe_circle(kits):
    out, _ = kits("lugvanion")
    text = squash(" ".join(page_texts(out / "cards.pdf")))
    circles = {c["id"]: c["name"]["en"] for c in DATA["circles"]}
    guilds = {g["id"]: g["on"]["en"] for g in DATA["guilds"]}  # "in the Forge guild"
    for ch in DATA["characters"]:
        free = DATA["texts"]["free"]["en"].format(on=guilds[ch["guild"]])
        assert free in text
        if ch["circle"] != "copied":
            tithe = DATA["texts"]["tithe"]["en"].format(circle=circles[ch["circle"]])
            assert squash(tithe) in text


def test_teams_differ_by_symbol_so_greyscale_prints_work():
    assert len({t["symbol"] for t in DATA["teams"]}) == len(DATA["teams"]) == 4
    assert len({g["symbol"] for g in DATA["guilds"]}) == 4
    assert len({c["symbol"] for c in DATA["circles"]}) == 3


def test_a_character_naming_an_unknown_guild_is_one_line_naming_the_field(tmp_path, cli):
    d = (paths.LAYOUTS / "lugvanion.toml").read_text().replace('guild = "forge"', 'guild = "mint"', 1)
    (tmp_path / "l.toml").write_text(d)
    r = cli("build", "lugvanion", "--data", tmp_path / "l.toml", "--out", tmp_path / "o")
    assert r.code == 2 and "characters[0].guild" in r.err and "mint" in r.err
    assert not (tmp_path / "o" / "cards.pdf").exists()


def test_only_tokens_builds_the_token_sheet_alone(tmp_path, cli):
    r = cli("build", "lugvanion", "--only", "tokens", "--out", tmp_path)
    assert r.code == 0, r.err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "manifest.json", "print-guide.txt", "tokens.pdf"]
