"""`GET /t/TOKEN/api/playtest?game=ID` (issue 34): the phone table's own history gives the
same figures as `companion playtest GAME history.csv --json` over the same plays: the
240 planted plays closed into a table's history (with the seats, factions, version,
minutes and figures a play records) answer "plays": 240, each seat's and faction's
played, won, rate and 95% interval to 0.01, each version's plays and the findings."""

import csv
import io
import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tests.playtest_data import history

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent


def records(text: str, game: str) -> list[dict]:
    """The plays of a history.csv as the table keeps them (store.close_game's record)."""
    out: dict[str, dict] = {}
    for row in csv.DictReader(io.StringIO(text)):
        if row["game"] != game:
            continue
        r = out.setdefault(row["id"], {"players": [], "scores": {}, "winners": [],
                                       "version": row["version"], "seats": {}, "factions": {},
                                       "minutes": int(row["minutes"]), "figures": {}})
        name = f"{row['player'].lstrip(chr(39))}#{len(r['players'])}"
        r["players"].append(name)
        r["scores"][name] = int(row["score"])
        if row["won"] == "1":
            r["winners"].append(name)
        r["seats"][name] = int(row["seat"])
        r["factions"][name] = row["faction"]
        r["figures"][name] = {k[6:]: int(v) for k, v in row.items() if k.startswith("score:")}
    return list(out.values())


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    from companion.web import app, look
    from companion.web.store import Store

    folder = tmp_path_factory.mktemp("table")
    store = Store.open(folder / "t.sqlite3", ["forge"], None, None,
                       [{"colour": "red", "name": ""}])
    for record in records(history(), "tidepool"):
        store.close_game("tidepool", record)
    store.close_game("covenia", {"players": ["Ana", "Ben"], "scores": {"Ana": 3, "Ben": 2},
                                 "winners": ["Ana"]})  # closed before seats were recorded
    try:
        with TestClient(app.create_app(store, look.load(), ["testserver"])) as client:
            yield client, f"/t/{store.token}/api"
    finally:
        store.close()


def test_the_tables_history_gives_each_seat_and_factions_rate_and_interval(table):
    client, api = table
    r = client.get(f"{api}/playtest", params={"game": "tidepool", "version": "all"})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["game"] == "tidepool" and s["plays"] == 240
    seat = dict(s["seats"]["1"])
    assert seat.pop("score")["n"] == 240
    assert seat == {"played": 240, "won": 108, "rate": 0.45, "low": 0.39, "high": 0.51,
                    "even": 0.25}
    assert [s["seats"][k]["won"] for k in ("2", "3", "4")] == [44, 44, 44]
    assert s["factions"]["reef"]["won"] == 90
    assert {v: f["plays"] for v, f in s["versions"].items()} == {"0.3": 120, "0.4": 120}
    assert {(f["kind"], f.get("seat") or f.get("faction")) for f in s["findings"]} >= {
        ("seat", 1), ("faction", "reef"), ("version_faction", "reef")}
    latest = client.get(f"{api}/playtest", params={"game": "tidepool"}).json()
    assert latest["version"] == "0.4" and latest["plays"] == 120
    assert all(f["version"] == "0.4" for f in latest["findings"])


def test_the_phone_and_the_command_line_give_the_same_figures(table, tmp_path):
    client, api = table
    phone = client.get(f"{api}/playtest", params={"game": "tidepool"}).json()
    (tmp_path / "history.csv").write_text(history(), encoding="utf-8")
    folder = tmp_path / "tidepool"
    shutil.copytree(ROOT / "companion" / "layouts" / "starter", folder)
    (folder / "starter.toml").write_text((folder / "starter.toml").read_text(
        encoding="utf-8").replace("{id}", "tidepool").replace("{name}", "Tidepool"),
        encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "companion", "playtest", folder / "starter.toml",
                        tmp_path / "history.csv", "--out", tmp_path / "r", "--json"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    command = json.loads(r.stdout)
    for key in ("plays", "seats", "factions", "versions", "scores", "margin", "minutes"):
        assert phone[key] == command[key], key
    assert [{k: v for k, v in f.items() if k != "text"} for f in command["findings"]] == \
        phone["findings"]


def test_a_game_closed_before_seats_were_recorded_counts_with_no_seat(table):
    client, api = table
    s = client.get(f"{api}/playtest", params={"game": "covenia"}).json()
    assert s["plays"] == 1 and s["seats"] == {} and s["factions"] == {}
    assert [f["kind"] for f in s["findings"]] == ["too_few"]
    assert client.get(f"{api}/playtest", params={"game": "nothing"}).json()["plays"] == 0


def test_no_game_is_a_400_naming_the_field_and_a_wrong_token_404(table):
    client, api = table
    r = client.get(f"{api}/playtest")
    assert r.status_code == 400 and "game" in r.text
    assert client.get("/t/" + "0" * 43 + "/api/playtest?game=tidepool").status_code == 404
