"""What a play records (issue 34): every closed game keeps each player's seat (1 = the
first player, in the seat order the table sets), her faction where the game file lists
`[game] factions`, the version played, the minutes from the game's first entry to its
close, and every category's figures; history.csv adds version, seat, faction, minutes
and a score:ID column per category after its eight columns, and the JSON history the
same fields. Old table files (history written before) still open and serve empty cells.
Minutes come from stored timestamps (the table file's first-entry stamp, moved back) or
an injected clock, never from waiting."""

import contextlib
import csv
import io
import json
import sqlite3
from datetime import datetime, timedelta, timezone
from importlib.metadata import version
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from companion.errors import CompanionError
from companion.web import look
from companion.web.games import history
from companion.web.store import Store
from tests.web import Server

EIGHT = ["id", "date", "game", "player", "score", "won", "guilds", "governor"]
RECORDED = ["version", "seat", "faction", "minutes"]
COVENIA_IDS = ["red", "yellow", "green", "blue", "purple", "bonus"]


def tidepool(folder: Path, extra: str = 'version = "0.3"\n'
             'factions = ["Otters", "Crabs", "Gulls"]\n') -> Path:
    """The starter game of `companion new`, with `extra` lines in its [game] table."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["new", "tidepool", str(folder / "tidepool")])
    path = folder / "tidepool" / "tidepool.toml"
    text = path.read_text()
    path.write_text(text.replace("[game]\n", "[game]\n" + extra, 1))
    return path


def rows_of(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def move_first_entry(data: Path, game: str, minutes_ago: float) -> None:
    """The open game's first-entry stamp, as the table file keeps it, moved back."""
    conn = sqlite3.connect(data)
    try:
        state = json.loads(conn.execute("SELECT state FROM games WHERE game = ?",
                                        (game,)).fetchone()[0])
        first = datetime.fromisoformat(state["first_entry"])  # stamped by the table
        assert abs(datetime.now(timezone.utc) - first) < timedelta(minutes=5)
        state["first_entry"] = (datetime.now(timezone.utc) - timedelta(minutes=minutes_ago)
                                ).isoformat(timespec="seconds")
        conn.execute("UPDATE games SET state = ? WHERE game = ?", (json.dumps(state), game))
        conn.commit()
    finally:
        conn.close()


def test_history_csv_records_seats_factions_version_minutes_and_figures(tmp_path):
    game = tidepool(tmp_path)
    data = tmp_path / "t.sqlite3"
    s = Server(data, "--game", str(game)).start()
    try:
        for name in ("Ana", "Bo", "Cy"):
            httpx.post(s.api("players"), json={"name": name}).raise_for_status()
        seated = httpx.put(s.api("players/seats"), json={"seats": ["cy", "Ana", "Bo"]})
        assert seated.status_code == 200, seated.text
        assert seated.json() == {"players": ["Cy", "Ana", "Bo"],
                                 "seats": {"Cy": 1, "Ana": 2, "Bo": 3}}
        assert httpx.get(s.api("players")).json()["seats"] == {"Cy": 1, "Ana": 2, "Bo": 3}
        # Covenia: Ana and Bo play, Cy sits this one out (seats 1 and 2 of the game)
        for name, entry in (("Bo", {"area": {"red": [3, 5], "green": [1, 2]}, "hand": {}}),
                            ("Ana", {"area": {"red": [1, 2], "blue": [3]},
                                     "hand": {"yellow": [4]}})):
            httpx.put(s.api(f"covenia/players/{name}"), json=entry).raise_for_status()
        covenia_score = httpx.get(s.api("covenia/score")).json()
        # The designer's game: a faction with each entry, checked against the file's list
        for name, body in (("Ana", {"creatures": 9, "pairs": 2, "faction": "Crabs"}),
                           ("Bo", {"creatures": 12, "pairs": 0, "faction": " otters "}),
                           ("Cy", {"creatures": 5, "pairs": 1})):
            r = httpx.put(s.api(f"games/tidepool/players/{name}"), json=body)
            assert r.status_code == 200, r.text
        bad = httpx.put(s.api("games/tidepool/players/Cy"),
                        json={"creatures": 5, "pairs": 1, "faction": "Sharks"})
        assert bad.status_code == 400 and bad.json()["error"].startswith("faction: ")
        assert "Otters, Crabs, Gulls" in bad.json()["error"]
        assert httpx.get(s.api("games/tidepool")).json()["factions"] == {
            "Ana": "Crabs", "Bo": "Otters"}
    finally:
        s.stop()
    # An evening's length without waiting it: the stamps the table keeps, moved back.
    move_first_entry(data, "covenia", 47.1)
    move_first_entry(data, "tidepool", 95.1)
    s = Server(data, "--game", str(game)).start()  # a restart keeps the first entries
    try:
        httpx.post(s.api("covenia/close"), json={}).raise_for_status()
        httpx.post(s.api("games/tidepool/close"), json={}).raise_for_status()
        r = httpx.get(s.api("history.csv"))
        games = httpx.get(s.api("history")).json()["games"]
    finally:
        s.stop()
    ours = version("table-companion")
    header = r.text.splitlines()[0].split(",")
    assert header == [*EIGHT, *RECORDED, *(f"score:{i}" for i in COVENIA_IDS),
                      "score:creatures", "score:pairs"]
    rows = rows_of(r.text)
    got = {(x["game"], x["player"]): (x["version"], x["seat"], x["faction"], x["minutes"])
           for x in rows}
    assert got == {  # Cy sits out Covenia: Ana and Bo are its seats 1 and 2
        ("covenia", "Ana"): (ours, "1", "", "47"), ("covenia", "Bo"): (ours, "2", "", "47"),
        ("tidepool", "Ana"): ("0.3", "2", "Crabs", "95"),
        ("tidepool", "Bo"): ("0.3", "3", "Otters", "95"),
        ("tidepool", "Cy"): ("0.3", "1", "", "95")}
    by = {(x["game"], x["player"]): x for x in rows}
    for p in covenia_score["players"]:  # every clan's and the bonus' figure, as scored
        row = by[("covenia", p["name"])]
        assert {i: row[f"score:{i}"] for i in COVENIA_IDS} == {
            i: str(p[i]) for i in COVENIA_IDS}
        assert row["score:creatures"] == row["score:pairs"] == ""
    assert {n: (by[("tidepool", n)]["score:creatures"], by[("tidepool", n)]["score:pairs"])
            for n in ("Ana", "Bo", "Cy")} == {"Ana": ("9", "2"), "Bo": ("12", "0"),
                                              "Cy": ("5", "1")}
    assert all(by[("tidepool", n)]["score:red"] == "" for n in ("Ana", "Bo", "Cy"))
    # the JSON history carries the same
    cov, own = games
    assert (cov["version"], cov["seats"], cov["factions"], cov["minutes"]) == (
        ours, {"Ana": 1, "Bo": 2}, {}, 47)
    assert cov["figures"]["Ana"] == {i: next(p[i] for p in covenia_score["players"]
                                             if p["name"] == "Ana") for i in COVENIA_IDS}
    assert (own["version"], own["seats"], own["factions"], own["minutes"]) == (
        "0.3", {"Ana": 2, "Bo": 3, "Cy": 1}, {"Ana": "Crabs", "Bo": "Otters"}, 95)
    assert own["figures"] == {"Ana": {"creatures": 9, "pairs": 2},
                              "Bo": {"creatures": 12, "pairs": 0},
                              "Cy": {"creatures": 5, "pairs": 1}}


def test_an_old_table_file_is_still_served_with_empty_cells(tmp_path):
    """A table whose history and open game were written before plays recorded seats,
    versions, minutes and figures: it opens, and its rows have those cells empty."""
    data = tmp_path / "t.sqlite3"
    s = Server(data, "--players", "red=Ana,blue=Bo").start()
    s.stop()
    conn = sqlite3.connect(data)
    old = {"players": ["Ana", "Bo"], "scores": {"Ana": 3, "Bo": 5}, "winners": ["Bo"],
           "result": {}}
    conn.execute("INSERT INTO history (closed, game, record) VALUES (?, ?, ?)",
                 ("2025-01-02T20:00:00+00:00", "coverta", json.dumps(old)))
    conn.execute("INSERT INTO games VALUES (?, ?, ?)", (
        "covenia", json.dumps({"id": "ab12", "decks": None, "players": [
            {"name": "Ana", "area": {"red": [1]}, "hand": {}},
            {"name": "Bo", "area": {"red": [2]}, "hand": {}}]}),
        "2025-01-02T20:00:00+00:00"))
    conn.commit()
    conn.close()
    s = Server(data).start()
    try:
        old_csv = httpx.get(s.api("history.csv"))
        old_json = httpx.get(s.api("history")).json()["games"]
        httpx.post(s.api("covenia/close"), json={}).raise_for_status()  # no first entry kept
        both = rows_of(httpx.get(s.api("history.csv")).text)
    finally:
        s.stop()
    assert old_csv.status_code == 200
    assert old_csv.text.splitlines()[0].split(",") == [*EIGHT, *RECORDED]
    assert [(x["player"], x["score"], x["version"], x["seat"], x["faction"], x["minutes"])
            for x in rows_of(old_csv.text)] == [("Ana", "3", "", "", "", ""),
                                                ("Bo", "5", "", "", "", "")]
    assert [(g["version"], g["seats"], g["factions"], g["minutes"], g["figures"])
            for g in old_json] == [(None, {}, {}, None, {})]
    assert [(x["game"], x["seat"], x["minutes"], x["score:red"] != "") for x in both] == [
        ("coverta", "", "", False), ("coverta", "", "", False),
        ("covenia", "1", "", True), ("covenia", "2", "", True)]


class Clock:
    def __init__(self):
        self.at = datetime(2026, 5, 1, 19, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.at

    def wait(self, minutes: float) -> None:
        self.at += timedelta(minutes=minutes)


def open_store(path: Path) -> Store:
    return Store.open(path, ["forge", "jewellery", "herbalism", "academy"], None, None,
                      [{"colour": "red", "name": "Ana"}, {"colour": "blue", "name": "Bo"}])


def test_minutes_run_from_the_first_entry_to_the_close_across_a_reopening(tmp_path):
    store, clock = open_store(tmp_path / "t.sqlite3"), Clock()
    store.clock = clock
    entry = {"name": "Ana", "area": {"red": [1]}, "hand": {}}
    store.save_game("covenia", {"id": "g1", "decks": "A", "players": []})  # no entry yet
    clock.wait(5)
    store.save_game("covenia", {"id": "g1", "decks": "A", "players": [entry]})
    clock.wait(30)
    store.save_game("covenia", {**store.games["covenia"], "players": [entry, {**entry,
                                                                            "name": "Bo"}]})
    store.close()
    store = open_store(tmp_path / "t.sqlite3")  # the stamp is in the file
    store.clock = clock
    clock.wait(12.4)
    closed = store.close_game("covenia", {"players": ["Ana", "Bo"], "scores": {},
                                          "winners": []})
    assert (closed["minutes"], closed["seats"]) == (42, {"Ana": 1, "Bo": 2})
    # every entry deleted: the next first entry starts the count again
    store.save_game("covenia", {"id": "g2", "players": [entry]})
    clock.wait(3)
    store.save_game("covenia", {**store.games["covenia"], "players": []})
    clock.wait(20)
    store.save_game("covenia", {**store.games["covenia"], "players": [entry]})
    clock.wait(9)
    assert store.close_game("covenia", {"players": ["Ana"], "scores": {}, "winners": []}
                            )["minutes"] == 9
    # Lugvanion's game runs from its first draw
    clock.wait(60)
    store.draw("forge", {"red": 5, "blue": 3}, "k1")
    clock.wait(25)
    assert store.close_game("lugvanion", {"players": ["Ana", "Bo"], "scores": {},
                                          "winners": []})["minutes"] == 25
    store.close()


NAMES = st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=4), min_size=1,
                 max_size=7, unique=True)


@settings(max_examples=60, deadline=None)
@given(order=NAMES, data=st.data())
def test_a_games_seats_follow_the_tables_order_among_its_own_players(tmp_path_factory,
                                                                      order, data):
    store = open_store(tmp_path_factory.mktemp("seats") / "t.sqlite3")
    try:
        for name in order:
            store.add_player(name)
        seats = data.draw(st.permutations(store.table_players()))
        store.set_seats(list(seats))
        assert store.table_players() == list(seats)
        playing = data.draw(st.lists(st.sampled_from(list(seats)), unique=True, min_size=1))
        strangers = ["Zed"] if data.draw(st.booleans()) else []
        got = store.seats_of(playing + strangers)
        in_order = [n for n in seats if n in playing]
        assert got == {**{n: in_order.index(n) + 1 for n in playing},
                       **{n: None for n in strangers}}
    finally:
        store.close()


def test_the_seat_order_names_every_player_of_the_table_once(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--players", "red=Ana,blue=Bo").start()
    try:
        httpx.post(s.api("players"), json={"name": "Cy"}).raise_for_status()
        for body, field in (({"seats": ["Ana", "Bo"]}, "seats"),
                            ({"seats": ["Ana", "Bo", "ana"]}, "seats[2]"),
                            ({"seats": ["Ana", "Bo", "Dee"]}, "seats[2]"),
                            ({"seats": "Ana"}, "body"), ({}, "body")):
            r = httpx.put(s.api("players/seats"), json=body)
            assert (r.status_code, r.json()["error"].split(": ")[0]) == (400, field), body
        assert httpx.get(s.api("players")).json()["players"] == ["Ana", "Bo", "Cy"]
        ok = httpx.put(s.api("players/seats"), json={"seats": ["Bo", "Cy", "Ana"]})
        assert ok.json()["seats"] == {"Bo": 1, "Cy": 2, "Ana": 3}
        httpx.post(s.api("players"), json={"name": "Dee"}).raise_for_status()
        assert httpx.get(s.api("players")).json()["players"] == ["Bo", "Cy", "Ana", "Dee"]
    finally:
        s.stop()
    again = Server(tmp_path / "t.sqlite3").start()  # kept in the table file
    try:
        assert httpx.get(again.api("players")).json()["seats"] == {
            "Bo": 1, "Cy": 2, "Ana": 3, "Dee": 4}
    finally:
        again.stop()


@pytest.mark.parametrize("line, field", [
    ('factions = "Otters"', "game.factions"),
    ('factions = ["Otters"]', "game.factions"),
    ('factions = ["Otters", "otters"]', "game.factions[1]"),
    ('factions = ["Otters", 3]', "game.factions[1]"),
    ('factions = ["Otters", " Crabs"]', "game.factions[1]"),
])
def test_a_game_files_factions_are_checked_in_one_line_naming_the_field(tmp_path, line,
                                                                        field):
    game = tidepool(tmp_path, line + "\n")
    with pytest.raises(CompanionError) as e:
        look.own_game(game)
    assert (e.value.source, e.value.field) == (str(game), field)
    out = io.StringIO()
    with contextlib.redirect_stderr(out), pytest.raises(SystemExit) as code:
        main(["build", str(game), "--out", str(tmp_path / "kit")])
    assert code.value.code == 2
    assert out.getvalue().count("\n") == 1 and field in out.getvalue()
    assert not (tmp_path / "kit" / "scorepad.pdf").exists()


def test_the_score_pad_has_a_faction_row_only_when_the_file_lists_factions(tmp_path):
    from tests.pdfs import page_texts

    texts = {}
    for name, extra in (("with", 'factions = ["Otters", "Crabs", "Gulls"]\n'), ("without", "")):
        game = tidepool(tmp_path / name, extra)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            main(["build", str(game), "--out", str(tmp_path / name / "kit")])
        texts[name] = page_texts(tmp_path / name / "kit" / "scorepad.pdf")[0]
    assert texts["with"].count("Faction") == 3  # one row a game on the page
    assert "one of: Otters / Crabs / Gulls" in texts["with"]
    assert "Faction" not in texts["without"]


def test_every_csv_column_is_documented():
    for column in (*history.CSV_FIELDS, "score:ID"):
        assert f"{column}:" in history.__doc__ or f"- {column}" in history.__doc__, column
