"""A player added by mistake (issue 55): renamed or removed while she has no entry in an
open game, over the real `companion serve`; the table's link (its QR code) stays; a player
named when the table was started, or one with an entry, stays, and the answer says why."""

import httpx

from tests.web import Server


def test_a_typo_is_renamed_then_removed_and_the_link_stays(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--players", "red=Alice,blue=Bo").start()
    try:
        link = s.link
        httpx.post(s.api("players"), json={"name": "Chloee"}).raise_for_status()
        r = httpx.put(s.api("players/Chloee"), json={"name": "Chloé"})
        assert r.status_code == 200, r.text
        assert r.json()["players"] == ["Alice", "Bo", "Chloé"]
        assert httpx.get(s.api("players")).json()["named"] == ["Alice", "Bo"]
        r = httpx.delete(s.api("players/Chloé"))
        assert r.status_code == 200 and r.json()["players"] == ["Alice", "Bo"]
        assert s.link == link and httpx.get(link).status_code == 200
        assert httpx.get(s.api("players")).json()["players"] == ["Alice", "Bo"]
    finally:
        s.stop()


def test_a_named_player_a_player_with_an_entry_and_a_taken_name_are_refused(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--players", "red=Alice,blue=Dee").start()
    try:
        for name in ("Bo", "Cy"):
            httpx.post(s.api("players"), json={"name": name}).raise_for_status()
        httpx.put(s.api("covenia/players/Bo"),
                  json={"area": {"red": [1]}, "hand": {}}).raise_for_status()
        named = httpx.delete(s.api("players/Alice"))
        entered = httpx.delete(s.api("players/Bo"))
        taken = httpx.put(s.api("players/Cy"), json={"name": "bo"})
        unknown = httpx.delete(s.api("players/Zed"))
        assert (named.status_code, entered.status_code, taken.status_code,
                unknown.status_code) == (409, 409, 409, 404)
        assert entered.json()["why"]["code"] == "web.player_entered"
        assert httpx.get(s.api("players")).json()["players"] == ["Alice", "Dee", "Bo", "Cy"]
        httpx.delete(s.api("covenia/players/Bo")).raise_for_status()  # her entry deleted
        assert httpx.delete(s.api("players/Bo")).status_code == 200
    finally:
        s.stop()
