"""The phone sheet (`companion serve --game FILE`) follows the scoring language: issue 33's
gemfall (two rounds, a majority, a tie-break) scores over HTTP exactly as `companion score
FILE scores.toml --json` does, with the CLI's words for every figure and the tie-break's
line; a round list of the wrong length is a 400 naming the field; a player's unsaved
figures are scored (POST games/ID/preview) with nothing saved; and a game file with every
kind scores on the phones as on the command line, whatever the figures."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests import gemfall
from tests.test_serve_own_game import table  # a table serving the games given
from tests.test_serve_scoring_api import cli  # the command line in this process


@pytest.fixture(scope="module")
def gemfall_file(tmp_path_factory) -> Path:
    return gemfall.make(tmp_path_factory.mktemp("new"))


@pytest.fixture(scope="module")
def rich_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rich") / "richfall.toml"
    path.write_text(gemfall.RICH, encoding="utf-8")
    return path


def cli_score(tmp: Path, game: Path, players: list[dict], *args) -> tuple[int, str, str]:
    scores = tmp / "scores.toml"
    scores.write_text(gemfall.scores_toml(players), encoding="utf-8")
    return cli("score", game, scores, *args)


def enter(client, api, game: str, players: list[dict]) -> dict:
    for p in players:
        r = client.put(f"{api}/games/{game}/players/{p['name']}",
                       json={k: v for k, v in p.items() if k != "name"})
        assert r.status_code == 200, r.text
    return client.get(f"{api}/games/{game}").json()


def test_gemfall_scores_on_the_phones_as_the_cli_scores_it(tmp_path, gemfall_file):
    with table(tmp_path, gemfall_file) as (client, api):
        state = enter(client, api, "gemfall", gemfall.PLAYERS)
    code, out, err = cli_score(tmp_path, gemfall_file, gemfall.PLAYERS, "--json")
    assert code == 0, err
    assert state["score"] == json.loads(out)  # the same answer, field for field
    assert [p["total"] for p in state["score"]["players"]] == [18, 18, 15]
    assert state["score"]["winners"] == ["Ana"]
    # Every figure in the CLI's words, and the tie-break's line, in English and French.
    for lang in ("en", "fr"):
        code, report, err = cli_score(tmp_path, gemfall_file, gemfall.PLAYERS, "--lang", lang)
        assert code == 0, err
        said = state["explained"][lang]
        assert said["tiebreak"] and all(line in report.splitlines() for line in said["tiebreak"])
        for p, words in zip(state["score"]["players"], said["players"]):
            for cat, text in words.items():
                assert text in report, (p["name"], cat, text)
    assert state["explained"]["en"]["tiebreak"] == [
        "Ana and Ben tie at 18: Gems breaks it (Ana 5; Ben 4)."]
    assert state["explained"]["fr"]["tiebreak"] == [
        "Ana et Ben à égalité à 18\u202f: Gems départage (Ana 5\u202f; Ben 4)."]
    # The majority's places a round: round 1 Ana and Ben share first (4 each), round 2
    # Ana and Cy.
    gems = state["places"]["gems"]
    assert [(x["name"], x["place"], x["points"]) for x in gems[0]] == [
        ("Ana", 1, 4), ("Ben", 1, 4), ("Cy", 3, 0)]
    assert [(x["name"], x["place"], x["points"]) for x in gems[1]] == [
        ("Ana", 1, 4), ("Ben", 3, 0), ("Cy", 1, 4)]


def test_the_phone_page_gets_the_rounds_and_each_categorys_pad_words(tmp_path, gemfall_file):
    from companion.web import look

    page = look.load([gemfall_file]).for_page()["own"][0]
    assert page["rounds"] == 2 and page["tiebreak"] == ["gems"]
    assert page["round"] == {"en": "R{number}", "fr": "M{number}"}  # the pad's columns
    gems = page["categories"][2]
    assert gems["written"] and not gems["listed"]
    assert gems["how"]["en"] == "places 6 / 3; a tie shares them, rounded down"


@pytest.mark.parametrize("body, field", [
    ({"creatures": [5]}, "creatures"),
    ({"creatures": [5, 4, 3]}, "creatures"),
    ({"gems": 3}, "gems"),
    ({"pairs": [1, "two"]}, "pairs[1]"),
    ({"pairs": [1, -1]}, "pairs[1]"),
])
def test_a_round_list_of_the_wrong_shape_is_a_400_naming_the_field(tmp_path, gemfall_file,
                                                                     body, field):
    with table(tmp_path, gemfall_file) as (client, api):
        r = client.put(f"{api}/games/gemfall/players/Ana", json=body)
        assert r.status_code == 400, r.text
        assert r.json()["error"].startswith(f"{field}: "), r.text
        # The preview checks as the save does.
        p = client.post(f"{api}/games/gemfall/preview", json={"name": "Ana", **body})
        assert p.status_code == 400 and p.json()["error"] == r.json()["error"]
        assert client.get(f"{api}/games/gemfall").json()["entries"] == []


def test_the_preview_scores_her_unsaved_figures_and_saves_nothing(tmp_path, gemfall_file):
    ana, ben, cy = gemfall.PLAYERS
    with table(tmp_path, gemfall_file) as (client, api):
        before = enter(client, api, "gemfall", [ana, ben])
        history = client.get(f"{api}/history").json()
        # Cy types her figures: the table scored with them, as it will be once saved.
        r = client.post(f"{api}/games/gemfall/preview", json=cy)
        assert r.status_code == 200, r.text
        seen = r.json()
        assert seen["saved"] is False
        assert [p["total"] for p in seen["score"]["players"]] == [18, 18, 15]
        assert [(x["name"], x["place"]) for x in seen["places"]["gems"][1]] == [
            ("Ana", 1), ("Ben", 3), ("Cy", 1)]
        # Ana changes her round-1 gems on her phone, unsaved: Ben alone is first.
        r = client.post(f"{api}/games/gemfall/preview", json={**ana, "gems": [2, 2]})
        assert [(x["name"], x["points"]) for x in r.json()["places"]["gems"][0]] == [
            ("Ana", 3), ("Ben", 6)]
        assert client.get(f"{api}/games/gemfall").json() == before  # nothing saved
        assert client.get(f"{api}/history").json() == history
        # Her name is checked as a save checks it; a body that is no entry is refused.
        assert client.post(f"{api}/games/gemfall/preview",
                           json={"creatures": [1, 1]}).json()["error"].startswith("name: ")
        assert client.post(f"{api}/games/gemfall/preview", json=[1]).status_code == 400
        # Saved, every phone's GET shows what the preview showed.
        client.put(f"{api}/games/gemfall/players/Cy",
                   json={k: v for k, v in cy.items() if k != "name"}).raise_for_status()
        assert client.get(f"{api}/games/gemfall").json()["score"] == seen["score"]


def test_a_worked_out_category_is_not_written(tmp_path, rich_file):
    with table(tmp_path, rich_file) as (client, api):
        r = client.put(f"{api}/games/richfall/players/Ana", json={"sets": [1, 1]})
        assert r.status_code == 400 and r.json()["error"].startswith("sets: "), r.text


def test_a_game_the_cli_refuses_is_refused_by_serve_in_the_same_words(tmp_path, gemfall_file):
    from companion.errors import CompanionError
    from companion.web import look

    bad = gemfall_file.parent / "bad.toml"  # beside its cards.csv, which the CLI reads
    bad.write_text(gemfall_file.read_text().replace('ties = "share"', 'ties = "half"'))
    with pytest.raises(CompanionError) as served:
        look.load([bad])
    code, _, err = cli("score", bad, tmp_path / "none.toml")
    assert code == 2 and served.value.field == "scoring[2].ties"
    assert served.value.message in err


count = st.integers(0, 6)
values = st.lists(st.integers(-3, 12), max_size=4)
player = st.fixed_dictionaries({
    "cards": st.tuples(values, values).map(list), "low": st.tuples(values, values).map(list),
    "red": st.tuples(count, count).map(list), "blue": st.tuples(count, count).map(list),
    "coins": st.tuples(count, count).map(list), "mult": st.tuples(count, count).map(list),
    "shells": st.tuples(count, count).map(list), "gems": st.tuples(count, count).map(list)})


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(player, min_size=1, max_size=5))
def test_every_kind_scores_on_the_phones_as_on_the_command_line(tmp_path_factory, rich_file,
                                                                figures):
    tmp = tmp_path_factory.mktemp("t")
    players = [{"name": f"P{i}", **f} for i, f in enumerate(figures)]
    with table(tmp, rich_file) as (client, api):
        state = enter(client, api, "richfall", players)
    code, out, err = cli_score(tmp, rich_file, players, "--json")
    assert code == 0, err
    assert state["score"] == json.loads(out)
    code, report, err = cli_score(tmp, rich_file, players, "--lang", "fr")
    assert code == 0, err
    assert all(line in report.splitlines() for line in state["explained"]["fr"]["tiebreak"])
