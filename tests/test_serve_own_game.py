"""A designer's own game at the table (`companion serve --game FILE`): the starter game's
score categories, each player's entry scored as `companion score FILE` scores the same
numbers, two phones on one entry told apart, a resend never doubled, the close into the
history and history.csv, and every game of the table listed with its title."""

import contextlib
import csv
import io
import json
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.errors import CompanionError
from tests.test_serve_scoring_api import cli  # the command line in this process

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def game_file(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new")
    code, _, err = cli("new", "tidepool", folder / "tidepool")
    assert code == 0, err
    return folder / "tidepool" / "tidepool.toml"


@contextlib.contextmanager
def table(tmp_path, *games):
    from companion.web import app, look
    from companion.web.store import Store

    store = Store.open(tmp_path / "t.sqlite3", ["forge"], None, None,
                       [{"colour": "red", "name": ""}])
    try:
        with TestClient(app.create_app(store, look.load(games), ["testserver"])) as client:
            yield client, f"/t/{store.token}/api"
    finally:
        store.close()


def test_the_table_lists_its_games_with_the_designers_by_title(tmp_path, game_file):
    with table(tmp_path, game_file) as (client, api):
        games = client.get(f"{api}/games").json()["games"]
    assert [g["id"] for g in games] == ["lugvanion", "covenia", "coverta", "vengeance",
                                        "tidepool"]
    assert games[-1] == {"id": "tidepool", "own": True,
                         "name": {"en": "tidepool", "fr": "tidepool"}}
    assert games[0] == {"id": "lugvanion", "own": False,
                        "name": {"en": "Lugvanion", "fr": "Lugvanion"}}


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-50, 99), st.integers(0, 20)), min_size=1, max_size=5))
def test_the_phones_score_is_the_clis_for_the_same_numbers(tmp_path_factory, game_file,
                                                           numbers):
    tmp = tmp_path_factory.mktemp("t")
    players = [{"name": f"P{i}", "creatures": c, "pairs": p}
               for i, (c, p) in enumerate(numbers)]
    with table(tmp, game_file) as (client, api):
        for p in players:
            r = client.put(f"{api}/games/tidepool/players/{p['name']}",
                           json={k: v for k, v in p.items() if k != "name"})
            assert r.status_code == 200, r.text
        phone = client.get(f"{api}/games/tidepool").json()["score"]
    scores = tmp / "scores.toml"
    scores.write_text("".join(f'[[players]]\nname = "{p["name"]}"\ncreatures = '
                              f'{p["creatures"]}\npairs = {p["pairs"]}\n' for p in players))
    code, out, err = cli("score", game_file, scores, "--json")
    assert code == 0, err
    assert phone == json.loads(out)
    best = max(c + p for c, p in numbers)
    assert phone["winners"] == [p["name"] for p in players
                                if p["creatures"] + p["pairs"] == best]


def test_two_phones_on_one_entry_and_a_resend_never_doubled(tmp_path, game_file):
    with table(tmp_path, game_file) as (client, api):
        base = f"{api}/games/tidepool/players"
        first = client.put(f"{base}/Ana", json={"creatures": 5},
                           headers={"Idempotency-Key": "k1", "If-None-Match": "*"})
        assert first.status_code == 200
        tag = first.headers["ETag"]
        again = client.put(f"{base}/Ana", json={"creatures": 5},
                           headers={"Idempotency-Key": "k1", "If-None-Match": "*"})
        assert again.status_code == 200 and again.headers["ETag"] == tag  # answered once
        # Another phone saves Ana's entry first: the first phone's save is refused, with
        # the entry the table holds, and nothing is written.
        other = client.put(f"{base}/Ana", json={"creatures": 7, "pairs": 1},
                           headers={"If-Match": tag})
        assert other.status_code == 200
        late = client.put(f"{base}/Ana", json={"creatures": 6}, headers={"If-Match": tag})
        assert late.status_code == 412
        assert late.json()["entry"] == {"name": "Ana", "creatures": 7, "pairs": 1}
        state = client.get(f"{api}/games/tidepool").json()
        assert state["entries"] == [{"name": "Ana", "creatures": 7, "pairs": 1}]
        assert state["score"]["players"][0]["total"] == 8


@pytest.mark.parametrize("body, field", [
    ({"pairs": -1}, "pairs"),
    ({"pairs": 1.5}, "pairs"),
    ({"pairs": True}, "pairs"),
    ({"sharks": 2}, "sharks"),
    ([], "body"),
    ({"name": "Bo"}, "name"),
])
def test_a_wrong_entry_is_a_400_naming_the_field_never_stored(tmp_path, game_file, body,
                                                               field):
    with table(tmp_path, game_file) as (client, api):
        r = client.put(f"{api}/games/tidepool/players/Ana", json=body)
        assert r.status_code == 400 and r.json()["error"].startswith(f"{field}: "), r.text
        assert client.get(f"{api}/games/tidepool").json()["entries"] == []


def test_an_unknown_game_is_a_404(tmp_path, game_file):
    with table(tmp_path, game_file) as (client, api):
        r = client.get(f"{api}/games/chess")
        assert r.status_code == 404 and "tidepool" in r.json()["error"]


def test_the_close_goes_into_the_history_and_its_csv_once(tmp_path, game_file):
    with table(tmp_path, game_file) as (client, api):
        for name, creatures, pairs in (("Ana", 9, 2), ("Bo", 12, 0)):
            client.put(f"{api}/games/tidepool/players/{name}",
                       json={"creatures": creatures, "pairs": pairs}).raise_for_status()
        closed = [client.post(f"{api}/games/tidepool/close", json={},
                              headers={"Idempotency-Key": "end-1"}) for _ in range(2)]
        assert closed[0].json() == closed[1].json()  # a resend: one game, not two
        entry = closed[0].json()
        assert entry["game"] == "tidepool" and entry["winners"] == ["Bo"]
        assert entry["scores"] == {"Ana": 11, "Bo": 12}
        history = client.get(f"{api}/history").json()
        assert [g["game"] for g in history["games"]] == ["tidepool"]
        rows = list(csv.DictReader(io.StringIO(client.get(f"{api}/history.csv").text)))
        assert [(r["game"], r["player"], r["score"], r["won"]) for r in rows] == [
            ("tidepool", "Ana", "11", "0"), ("tidepool", "Bo", "12", "1")]
        assert client.get(f"{api}/games/tidepool").json()["entries"] == []


def test_a_game_file_without_scoring_or_with_a_bundled_id_is_refused(tmp_path, game_file):
    from companion.web import look

    plain = tmp_path / "plain.toml"
    plain.write_text('[game]\nid = "plain"\nname = "Plain"\ncredits = "us"\n')
    with pytest.raises(CompanionError) as e:
        look.load([plain])
    assert e.value.source == str(plain) and e.value.field == "scoring"
    named = tmp_path / "named.toml"
    named.write_text(game_file.read_text().replace('id = "tidepool"', 'id = "covenia"'))
    with pytest.raises(CompanionError) as e:
        look.load([named])
    assert e.value.field == "game.id"
    bad = tmp_path / "bad.toml"
    bad.write_text(game_file.read_text().replace('score = "each"', 'score = "double"'))
    with pytest.raises(CompanionError) as e:
        look.load([bad])
    assert e.value.field == "scoring[1].score" and "double" in e.value.message
