"""Each entry says which phone changed it last, and when (issue 55): the page sends its own
id (X-Phone: 8 to 32 hex digits); the table keeps it with the time beside the entry, in
Covenia and in a designer's game; a script (no header) or a malformed id is no phone; a
deleted entry takes its stamp with it."""

from tests.test_serve_own_game import game_file, table  # noqa: F401

PHONE = {"X-Phone": "0123456789abcdef"}


def test_covenia_keeps_which_phone_changed_an_entry_and_when(tmp_path, game_file):  # noqa: F811
    with table(tmp_path, game_file) as (client, api):
        client.put(f"{api}/covenia/players/Ana", json={"area": {"red": [1]}, "hand": {}},
                   headers=PHONE).raise_for_status()
        client.put(f"{api}/covenia/players/Bo", json={"area": {"red": [2]}, "hand": {}},
                   headers={"X-Phone": "<script>"}).raise_for_status()
        changed = client.get(f"{api}/covenia").json()["changed"]
        assert changed["Ana"]["phone"] == "0123456789abcdef"
        assert changed["Ana"]["at"].endswith("+00:00") and "T" in changed["Ana"]["at"]
        assert changed["Bo"]["phone"] is None  # not a phone's id: not shown as one
        client.delete(f"{api}/covenia/players/Ana").raise_for_status()
        assert set(client.get(f"{api}/covenia").json()["changed"]) == {"Bo"}


def test_a_designers_game_keeps_which_phone_changed_an_entry(tmp_path, game_file):  # noqa: F811
    with table(tmp_path, game_file) as (client, api):
        client.put(f"{api}/games/tidepool/players/Ana", json={"creatures": 3, "pairs": 1},
                   headers=PHONE).raise_for_status()
        client.put(f"{api}/games/tidepool/players/Bo",
                   json={"creatures": 4, "pairs": 0}).raise_for_status()
        changed = client.get(f"{api}/games/tidepool").json()["changed"]
        assert changed["Ana"]["phone"] == "0123456789abcdef" and changed["Bo"]["phone"] is None
        closed = client.post(f"{api}/games/tidepool/close", json={}).json()
        assert closed["game"] == "tidepool"  # the stamps do not stop it closing
