"""Scoring every game from the table's phones, against a real uvicorn on 127.0.0.1:
Covenia's entries scored exactly as `companion score covenia --json` scores the same file,
Coverta's rounds as `companion score coverta --json` scores the ledger the API gives,
Vengeance as `companion vengeance resolve --json`, and the history kept across restarts."""

import contextlib
import csv
import io
import os
import json
import sys
import threading
import tomllib
from pathlib import Path

import httpx
from hypothesis import given, settings, strategies as st
import pytest

from companion.cli import main
from tests.web import Server

RULEBOOK = Path(__file__).parent / "data" / "covenia-rulebook.toml"


def cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main([str(a) for a in args])
    except SystemExit as e:
        code = e.code
    return code, out.getvalue(), err.getvalue()


def cli_json(tmp_path: Path, *args, text: str) -> dict:
    f = tmp_path / "in.toml"
    f.write_text(text, encoding="utf-8")
    code, out, err = cli(*args[:-1], f, args[-1])
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "table.sqlite3").start()
    yield s
    s.stop()


def put(server, name, entry, **kw):
    return httpx.put(server.api(f"covenia/players/{name}"), json=entry, timeout=10, **kw)


def covenia_file(players: list[dict], decks: str | None = None) -> str:
    from companion.score.covenia import to_toml

    return to_toml({**({"decks": decks} if decks else {}), "players": players})


END_STATES = {
    "rulebook": tomllib.loads(RULEBOOK.read_text(encoding="utf-8"))["players"],
    "red-tie-3": [
        {"name": "Ana", "area": {"red": [1, 2], "blue": [3]}, "hand": {"yellow": [4]}},
        {"name": "Bo", "area": {"red": [3, 5], "green": [1, 2]}, "hand": {}},
        {"name": "Cy", "area": {"red": [7], "purple": [1, 2, 3]}, "hand": {"blue": [9]}}],
    "red-tie-4": [
        {"name": "Ana", "area": {"red": [1, 2, 3]}, "hand": {}},
        {"name": "Bo", "area": {"red": [1, 2, 3], "yellow": [4]}, "hand": {"green": [5]}},
        {"name": "Cy", "area": {"red": [4, 5, 6], "blue": [9, 10]}, "hand": {}},
        {"name": "Zoé 🎲", "area": {"red": [4, 5, 6], "purple": [1]}, "hand": {"red": [8]}}],
    "empty-hands": [
        {"name": "Ana", "area": {"yellow": [1, 2], "green": [3]}, "hand": {}},
        {"name": "Bo", "area": {"yellow": [5]}, "hand": {}}],
}


@pytest.mark.parametrize("case", sorted(END_STATES))
def test_covenia_score_is_the_clis_json_for_the_same_entries(server, tmp_path, case):
    players = END_STATES[case]
    for p in players:
        r = put(server, p["name"], {"area": p["area"], "hand": p["hand"]})
        assert r.status_code == 200, r.text
    got = httpx.get(server.api("covenia/score"), timeout=10)
    assert got.status_code == 200
    want = cli_json(tmp_path, "score", "covenia", "--json", text=covenia_file(players))
    assert got.json() == want
    if case == "rulebook":
        assert want["players"][0]["total"] == 62 and want["winners"] == ["Emma"]
    if case == "red-tie-4":
        assert [p["red"] for p in want["players"]] == [21, 21, 21, 21]


def test_covenia_entry_is_replaced_deleted_and_refused_in_the_clis_words(server, tmp_path):
    assert put(server, "Ana", {"area": {"red": [1]}, "hand": {}}).status_code == 200
    assert httpx.get(server.api("covenia/score")).status_code == 409  # one player so far
    assert put(server, "Bo", {"area": {"red": [2, 3]}}).status_code == 200
    assert put(server, "Ana", {"area": {"red": [4, 5, 6]}}).status_code == 200  # replaced
    score = httpx.get(server.api("covenia/score")).json()
    assert [p["name"] for p in score["players"]] == ["Ana", "Bo"]
    assert score["winners"] == ["Ana"]
    # A column that falls, and a card in play more often than the decks hold it.
    bad = put(server, "Bo", {"area": {"red": [3, 2]}})
    assert bad.status_code == 400
    code, _, err = cli("score", "covenia", _file(tmp_path, [
        {"name": "Ana", "area": {"red": [4, 5, 6]}, "hand": {}},
        {"name": "Bo", "area": {"red": [3, 2]}, "hand": {}}]))
    assert code == 2 and bad.json()["error"] in err
    assert "a column rises strictly" in bad.json()["error"]
    bad = put(server, "Cy", {"area": {"red": [4]}, "hand": {"red": [4]}})
    assert bad.status_code == 400 and "red 4 is in play more often" in bad.json()["error"]
    assert put(server, "Cy", {"area": {"rouge": [7]}, "nope": 1}).status_code == 400
    assert put(server, "Cy", {"area": {"pink": [7]}}).json()["error"].startswith(
        'players[2] "Cy".area.pink: unknown clan')
    # Nothing refused was kept; a deleted entry is gone.
    assert httpx.delete(server.api("covenia/players/Bo")).status_code == 200
    assert httpx.delete(server.api("covenia/players/Bo")).status_code == 404
    state = httpx.get(server.api("covenia")).json()
    assert [e["name"] for e in state["entries"]] == ["Ana"]
    # Any name, a slash or a tag in it too, is a player's name (sent percent-encoded).
    for name in ("<b>a/b</b>", "Zoé 🎲"):
        assert put(server, name.replace("/", "%2F"), {"hand": {"blue": [9]}}).status_code == 200
        assert name in [e["name"] for e in httpx.get(server.api("covenia")).json()["entries"]]
        assert httpx.delete(server.api(f"covenia/players/{name}")).status_code == 200


def _file(tmp_path, players, decks=None):
    f = tmp_path / "check.toml"
    f.write_text(covenia_file(players, decks), encoding="utf-8")
    return f


def test_changes_follow_the_draws_rules(server):
    entry = {"area": {"red": [1]}}
    assert httpx.put(server.api("covenia/players/Ana"), content=json.dumps(entry),
                     headers={"Content-Type": "text/plain"}).status_code == 400
    assert put(server, "Ana", entry, headers={"Origin": "http://evil.example"}).status_code == 403
    assert httpx.delete(server.api("covenia/players/Ana"),
                        headers={"Origin": "http://evil.example"}).status_code == 403
    assert put(server, "Ana", {"area": {"red": [1] * 3000}}).status_code == 400  # over 4 KB
    assert httpx.put(f"{server.origin}/t/{'x' * 22}/api/covenia/players/Ana",
                     json=entry).status_code == 404
    assert put(server, "A%07na", entry).status_code == 400
    assert put(server, "x" * 41, entry).status_code == 400
    for bad in ([], "x", None, 3, {"area": [1]}, {"area": {"red": "1"}}, {"hand": {"red": [0]}}):
        r = put(server, "Ana", bad)
        assert r.status_code == 400 and r.json()["error"], bad
    assert httpx.get(server.api("covenia")).json()["entries"] == []


def test_covenia_scorebook_pdf_and_close_into_the_history(server):
    from pypdf import PdfReader

    for p in END_STATES["rulebook"]:
        put(server, p["name"], {"area": p["area"], "hand": p["hand"]})
    r = httpx.get(server.api("covenia/scorebook.pdf?lang=fr"), timeout=60)
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(r.content)).pages)
    assert "Emma" in text and "62" in text
    assert httpx.get(server.api("covenia/scorebook.pdf?lang=xx")).status_code == 400
    words = httpx.get(server.api("covenia/explained?lang=fr")).json()
    assert words["players"][0]["rows"]["purple"]["text"] == "violettes\u202f: 3, au carré → 3 × 3 = 9"
    assert words["verdict"] == cli("score", "covenia", RULEBOOK, "--lang", "fr")[1].strip(
        ).splitlines()[-1]
    closed = httpx.post(server.api("covenia/close"), json={})
    assert closed.status_code == 200
    entry = closed.json()
    assert (entry["game"], entry["winners"], entry["scores"]["Emma"]) == (
        "covenia", ["Emma"], 62)
    assert httpx.post(server.api("covenia/close"), json={}).status_code == 409
    assert httpx.get(server.api("covenia")).json()["entries"] == []


def round_(server, body, key):
    return httpx.post(server.api("coverta/rounds"), json=body,
                      headers={"Idempotency-Key": key}, timeout=10)


def test_coverta_rounds_idempotent_undone_and_the_ledger_round_trips(server, tmp_path):
    rounds = [{"hands": {"Ana": 0, "Bo": 3, "Zoé 🎲": 5}, "first_steal": "Bo"},
              {"hands": {"Ana": 2, "Bo": 1, "Zoé 🎲": 1}},
              {"hands": {"Ana": 4, "Bo": 0, "Zoé 🎲": 2}, "first_steal": None}]
    for i, r in enumerate(rounds):
        first = round_(server, r, f"k{i}")
        assert first.status_code == 200, first.text
        assert round_(server, r, f"k{i}").json() == first.json()  # a double tap
        assert first.json()["round"] == i + 1
    assert round_(server, rounds[0], "k1").status_code == 409  # a key for another round
    score = httpx.get(server.api("coverta/score")).json()
    ledger = httpx.get(server.api("coverta/ledger.toml")).text
    assert score == cli_json(tmp_path, "score", "coverta", "--json", text=ledger)
    assert len(score["rounds"]) == 3 and score["rounds"][0] == {"Ana": -1, "Bo": 2, "Zoé 🎲": 5}
    # Undo: the last round only, a repeated undo of the same round takes nothing more
    # (a 409: there is no round 3 now).
    assert httpx.delete(server.api("coverta/rounds/last?round=2")).status_code == 409
    assert httpx.delete(server.api("coverta/rounds/last?round=3")).json()["undone"] == 3
    assert httpx.delete(server.api("coverta/rounds/last?round=3")).status_code == 409
    assert len(httpx.get(server.api("coverta/score")).json()["rounds"]) == 2
    # Bad rounds: the ledger's words, nothing kept.
    bad = round_(server, {"hands": {"Ana": 1, "Bo": 1}}, "k9")
    assert bad.status_code == 400 and bad.json()["error"].startswith("rounds[2].hands.Zoé")
    bad = round_(server, {"hands": {"Ana": 1, "Bo": 1, "Zoé 🎲": 40}}, "k9")
    assert bad.status_code == 400 and "hand count" in bad.json()["error"]
    assert httpx.post(server.api("coverta/rounds"), json=rounds[1]).status_code == 400  # no key
    closed = httpx.post(server.api("coverta/close"), json={}).json()
    assert closed["game"] == "coverta" and closed["scores"] == score["totals"] | {
        p: t for p, t in httpx.get(server.api("history")).json()["games"][-1]["scores"].items()}
    assert httpx.get(server.api("coverta/score")).status_code == 409


def test_a_ledger_toml_with_no_rounds_is_refused_until_a_round(server):
    assert httpx.get(server.api("coverta/ledger.toml")).status_code == 409
    assert httpx.delete(server.api("coverta/rounds/last")).status_code == 409


VENGEANCE = [
    {"herb": 1, "mineral": 1, "potion": 2, "artifacts": ["12:potion", "4:mineral"],
     "incantations": [7]},
    {"herb": 2, "mineral": 2},
    {"potion": 3, "incantations": [7, 2], "artifacts": ["9:potion"]},
    {},
]


@pytest.mark.parametrize("body", VENGEANCE)
def test_vengeance_resolve_is_the_clis_json(server, body):
    args = ["vengeance", "resolve", "--json"]
    for t in ("herb", "mineral", "potion"):
        args += [f"--{t}", body.get(t, 0)]
    for a in body.get("artifacts", []):
        args += ["--artifact", a]
    for n in body.get("incantations", []):
        args += ["--incantation", n]
    code, out, err = cli(*args)
    assert code == 0, err
    r = httpx.post(server.api("vengeance/resolve"), json=body)
    assert r.status_code == 200 and r.json() == json.loads(out)


@pytest.mark.parametrize("body", [[], {"herb": "1"}, {"herb": True}, {"artifacts": ["x"]},
                                  {"artifacts": "12:potion"}, {"incantations": ["7"]},
                                  {"herb": -1}, {"herb": 10**6}, {"what": 1},
                                  {"artifacts": ["14:potion"]}, {"incantations": [7, 7]}])
def test_vengeance_refuses_in_words_never_a_500(server, body):
    r = httpx.post(server.api("vengeance/resolve"), json=body)
    assert r.status_code == 400 and r.json()["error"], r.text


def test_history_survives_a_restart_as_json_and_csv(tmp_path):
    data = tmp_path / "table.sqlite3"
    s = Server(data).start()
    try:
        for p in END_STATES["empty-hands"]:
            put(s, p["name"], {"area": p["area"], "hand": p["hand"]})
        httpx.post(s.api("covenia/close"), json={}).raise_for_status()
        round_(s, {"hands": {"=Ana": 0, "Bo": 3}}, "r1").raise_for_status()
        round_(s, {"hands": {"=Ana": 2, "Bo": 1}, "first_steal": "Bo"}, "r2")
        httpx.post(s.api("coverta/close"), json={}).raise_for_status()
        put(s, "Ana", {"area": {"red": [1]}}).raise_for_status()  # left open
        before = httpx.get(s.api("history")).json()
    finally:
        s.stop()
    again = Server(data).start()
    try:
        after = httpx.get(again.api("history")).json()
        assert after == before
        assert [g["game"] for g in after["games"]] == ["covenia", "coverta"]
        assert after["players"]["Bo"] == {"played": 2, "won": 1, "games": {
            "covenia": {"played": 1, "won": 1}, "coverta": {"played": 1, "won": 0}}}
        assert httpx.get(again.api("covenia")).json()["entries"][0]["name"] == "Ana"
        r = httpx.get(again.api("history.csv"))
        assert r.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(r.text)))
        assert [(x["game"], x["player"], x["won"]) for x in rows] == [
            ("covenia", "Ana", "1"), ("covenia", "Bo", "1"),  # 0 each: shared
            ("coverta", "'=Ana", "1"), ("coverta", "Bo", "0")]
        assert len(again.state()["draws"]) == 0  # the draw's API is as it was
    finally:
        again.stop()


def test_every_change_is_on_the_event_stream(server):
    got, ready = [], threading.Event()

    def read():
        with httpx.stream("GET", server.api("events"), timeout=30) as r:
            event = None
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                    if event == "hello":
                        ready.set()
                elif line.startswith("data: ") and event in ("covenia", "coverta", "history"):
                    got.append((event, json.loads(line[6:])))
                    if len(got) >= 5:
                        return

    t = threading.Thread(target=read, daemon=True)
    t.start()
    assert ready.wait(10)
    put(server, "Ana", {"area": {"red": [1]}})
    put(server, "Bo", {"area": {"red": [2, 3]}})
    round_(server, {"hands": {"Ana": 0, "Bo": 3}}, "e1")
    round_(server, {"hands": {"Ana": 0, "Bo": 3}}, "e1")  # repeated: no event
    httpx.post(server.api("covenia/close"), json={})
    t.join(15)
    assert [e for e, _ in got] == ["covenia", "covenia", "coverta", "covenia", "history"]
    assert got[1][1]["score"]["winners"] == ["Bo"]
    assert got[2][1]["score"]["totals"] == {"Ana": -1, "Bo": 3}


def test_a_lugvanion_game_closes_into_the_history_with_its_guilds_and_governor(tmp_path):
    data = tmp_path / "table.sqlite3"
    s = Server(data, "--players", "red=Ana,blue=Bo,green,yellow").start()
    try:
        assert httpx.post(s.api("lugvanion/close"), json={}).status_code == 409  # nothing held
        rigged = {"red": 8, "blue": 0, "green": 0, "yellow": 0}
        for guild in ("forge", "jewellery"):
            assert s.draw(guild, rigged).json()["winner"] == "red"
        assert s.state()["governor"] == "red"
        closed = httpx.post(s.api("lugvanion/close"), json={})
        assert closed.status_code == 200, closed.text
        entry = closed.json()
        assert (entry["governor"], entry["winners"]) == ("Ana", ["Ana"])
        assert entry["guilds"] == {"forge": "Ana", "jewellery": "Ana", "herbalism": None,
                                   "academy": None}
        assert entry["scores"] == {"Ana": 2, "Bo": 0, "green": 0, "yellow": 0}
        state = s.state()
        assert state["draws"] == [] and state["governor"] is None
        assert all(g["holder"] is None for g in state["guilds"].values())
        assert httpx.post(s.api("undo"), json={"id": 2}).status_code == 409
        assert s.draw("forge", rigged).json()["id"] == 3  # the next game draws on
    finally:
        s.stop()
    again = Server(data).start()
    try:
        assert httpx.get(again.api("history")).json()["games"] == [entry]
        assert [d["id"] for d in again.state()["draws"]] == [3]
    finally:
        again.stop()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 45) | st.sampled_from(
        ["red", "rouge", "Ana", "Bo", "12:potion", "", "x" * 50, "7"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["area", "hand", "red", "blue", "hands", "Ana", "Bo", "first_steal",
                         "herb", "artifacts", "incantations", "name", "decks"]),
        inner, max_size=5),
    max_leaves=20)


def test_no_body_ever_makes_a_500(server):
    """Any JSON to every change: an answer in words (200, 400 or 409), never a 500."""
    calls = [("PUT", "covenia/players/Ana"), ("PUT", "covenia/decks"),
             ("POST", "coverta/rounds"), ("POST", "vengeance/resolve"),
             ("POST", "covenia/close"), ("POST", "coverta/close")]
    seen = set()

    @settings(max_examples=150, deadline=None)
    @given(st.sampled_from(calls), JSON)
    def check(call, body):
        method, path = call
        r = httpx.request(method, server.api(path), json=body, timeout=10,
                          headers={"Idempotency-Key": os.urandom(6).hex()})
        assert r.status_code in (200, 400, 409), (call, body, r.text)
        assert r.json().get("error") or r.status_code == 200
        seen.add(r.status_code)

    check()
    assert 400 in seen
    for path in ("covenia", "covenia/score", "coverta", "coverta/score", "coverta/ledger.toml",
                 "history", "history.csv"):
        assert httpx.get(server.api(path)).status_code in (200, 409)


def test_covenia_decks_are_the_score_files_decks(server, tmp_path):
    """Two players and both decks: the same card twice is allowed while entering (both
    decks may be in play), the score says what the CLI says until the decks are chosen;
    both decks score once a third player is in."""
    players = [{"name": "Ana", "area": {"red": [1, 2]}, "hand": {}},
               {"name": "Bo", "area": {"red": [2]}, "hand": {"blue": [3]}}]
    for p in players:
        assert put(server, p["name"], {"area": p["area"], "hand": p["hand"]}).status_code == 200
    refused = httpx.get(server.api("covenia/score"))
    code, _, err = cli("score", "covenia", _file(tmp_path, players))
    assert refused.status_code == 409 and code == 2 and refused.json()["error"] in err
    assert httpx.put(server.api("covenia/decks"), json={"decks": "A"}).status_code == 400
    assert httpx.put(server.api("covenia/decks"), json={"decks": "x"}).status_code == 400
    assert httpx.put(server.api("covenia/decks"), json={"decks": "ab"}).status_code == 200
    # two players with both decks: refused, as the CLI refuses the file (issue 42)
    refused = httpx.get(server.api("covenia/score"))
    code, _, err = cli("score", "covenia", _file(tmp_path, players, "AB"))
    assert refused.status_code == 409 and code == 2 and refused.json()["error"] in err
    players.append({"name": "Cy", "area": {"green": [4]}, "hand": {}})
    assert put(server, "Cy", {"area": {"green": [4]}, "hand": {}}).status_code == 200
    assert httpx.get(server.api("covenia/score")).json() == cli_json(
        tmp_path, "score", "covenia", "--json", text=covenia_file(players, "AB"))


def test_an_empty_area_or_hand_is_refused_naming_the_field_never_stored(server):
    assert put(server, "Ana", {"area": {"red": [1]}, "hand": {}}).status_code == 200
    for part in ("area", "hand"):
        bad = put(server, "Ana", {"area": {"red": [2]}, "hand": {}, part: None})
        assert bad.status_code == 400
        assert bad.json()["error"].startswith(f"{part}: must be a table of clan = [values]")
        bad = put(server, "Bo", {part: [1, 2]})
        assert bad.status_code == 400 and bad.json()["error"].startswith(f"{part}: ")
    assert httpx.get(server.api("covenia")).json()["entries"] == [
        {"name": "Ana", "area": {"red": [1]}, "hand": {}}]


def test_the_figures_explained_are_worked_out_once_per_state_and_language(tmp_path,
                                                                         monkeypatch):
    """Every phone asks on every update: 50 phones must cost one explanation, never
    a queue on the store's worker."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from companion.score import covenia as sc
    from companion.web import app, look
    from companion.web.store import Store

    calls = []
    real = sc.explain
    monkeypatch.setattr(sc, "explain", lambda *a: calls.append(a) or real(*a))
    guilds = ["forge", "port", "temple"]
    store = Store.open(tmp_path / "t.sqlite3", guilds, None, None,
                       [{"colour": "red", "name": ""}, {"colour": "blue", "name": ""}])
    with TestClient(app.create_app(store, look.load(), ["testserver"])) as client:
        base = f"/t/{store.token}/api/covenia"
        for name, red in (("Ana", [1, 2]), ("Bo", [3])):
            client.put(f"{base}/players/{name}", json={"area": {"red": red}}).raise_for_status()
        client.get(f"{base}/explained?lang=en").raise_for_status()
        one = len(calls)  # what one explanation costs
        assert one > 0
        answers = {lang: [client.get(f"{base}/explained?lang={lang}") for _ in range(20)]
                   for lang in ("en", "fr")}
        once = len(calls)
        assert once == 2 * one  # 41 answers, one explanation per language
        for lang, got in answers.items():
            assert all(r.status_code == 200 and r.content == got[0].content for r in got)
        client.put(f"{base}/players/Bo", json={"area": {"red": [4, 5, 6]}}).raise_for_status()
        after = client.get(f"{base}/explained?lang=en").json()
        assert once < len(calls) <= once + one  # a new state: worked out again
        assert after != answers["en"][0].json()  # Bo's new column, explained
        # The figures and the verdict in the CLI's words.
        res = sc.score({"players": [{"name": "Ana", "area": {"red": [1, 2]}},
                                   {"name": "Bo", "area": {"red": [4, 5, 6]}}]})
        data = sc.words()
        assert after["verdict"] == sc.report(res, data, "en").splitlines()[-1]
        assert [r["text"] for r in after["players"][0]["rows"].values()] == [
            real(res.players[0].reasons[row][0], row, data, "en") for row in sc.ROWS]
    store.close()


def test_a_phone_adds_a_player_to_the_table_once_whatever_the_case(tmp_path):
    s = Server(tmp_path / "t.sqlite3").start()
    try:
        before = httpx.get(s.api("players")).json()["players"]
        got, ready = [], threading.Event()

        def read():
            with httpx.stream("GET", s.api("events"), timeout=30) as r:
                event = None
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        event = line[7:]
                        ready.set()
                    elif line.startswith("data: ") and event == "players":
                        got.append(json.loads(line[6:]))
                        return

        t = threading.Thread(target=read, daemon=True)
        t.start()
        assert ready.wait(10)
        r = httpx.post(s.api("players"), json={"name": "  Zoé  "})
        assert r.status_code == 200
        assert r.json() == {"player": "Zoé", "added": True, "players": [*before, "Zoé"]}
        t.join(10)
        assert got == [{"players": [*before, "Zoé"]}]
        # The same name again, in another case or with spaces: that player, not another.
        for same in ("Zoé", "zoé ", "ZOÉ"):
            again = httpx.post(s.api("players"), json={"name": same}).json()
            assert again == {"player": "Zoé", "added": False, "players": [*before, "Zoé"]}
        assert httpx.post(s.api("players"), json={"name": "Bo"}).json()["added"]
        for bad in ({"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": "a\nb"},
                    {"name": 3}, {}, {"name": "A", "more": 1}, []):
            r = httpx.post(s.api("players"), json=bad)
            assert r.status_code == 400, bad
        assert httpx.post(s.api("players"), json={"name": "Cy"},
                          headers={"Origin": "http://evil.example"}).status_code == 403
    finally:
        s.stop()
    s = Server(tmp_path / "t.sqlite3").start()  # kept in the table file
    try:
        assert httpx.get(s.api("players")).json()["players"] == [*before, "Zoé", "Bo"]
    finally:
        s.stop()
