"""Phones acting at once, against a real uvicorn on 127.0.0.1: HTTP preconditions on a
Covenia entry (412), a Coverta round's number and a draw's seal (409) let exactly one of
several simultaneous changes through, and tell the others what the table holds."""

import threading

import httpx
import pytest

from tests.web import Server

PHONES = 8
TRIES = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("conflicts") / "table.sqlite3").start()
    yield s
    s.stop()


def at_once(calls) -> list[httpx.Response]:
    """Each call on its own thread, released together."""
    start = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i, call):
        with httpx.Client(timeout=30) as client:
            start.wait()
            out[i] = call(client)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r is not None for r in out)
    return out


def entry(server, name):
    return httpx.get(server.api(f"covenia/players/{name}"), timeout=10)


def test_covenia_etag_if_match_and_412(server):
    put = httpx.put(server.api("covenia/players/Ana"), json={"area": {"red": [1]}})
    tag = put.headers["ETag"]
    assert put.json()["etag"] == tag == entry(server, "Ana").headers["ETag"]
    assert httpx.get(server.api("covenia")).json()["etags"]["Ana"] == tag
    newer = httpx.put(server.api("covenia/players/Ana"), json={"area": {"red": [1, 2]}},
                      headers={"If-Match": tag})
    assert newer.status_code == 200 and newer.headers["ETag"] != tag
    stale = httpx.put(server.api("covenia/players/Ana"), json={"area": {"red": [9]}},
                      headers={"If-Match": tag})
    assert stale.status_code == 412
    body = stale.json()
    assert body["why"]["code"] == "web.entry_changed"
    assert body["entry"]["area"] == {"red": [1, 2]} and body["etag"] == newer.headers["ETag"]
    assert entry(server, "Ana").json()["area"] == {"red": [1, 2]}  # nothing written
    gone = httpx.delete(server.api("covenia/players/Ana"), headers={"If-Match": tag})
    assert gone.status_code == 412 and entry(server, "Ana").status_code == 200
    twice = httpx.put(server.api("covenia/players/Ana"), json={"area": {}},
                      headers={"If-None-Match": "*"})
    assert twice.status_code == 412
    nobody = httpx.put(server.api("covenia/players/Zed"), json={"area": {}},
                       headers={"If-Match": "*"})
    assert nobody.status_code == 412 and entry(server, "Zed").status_code == 404
    assert entry(server, "Zed").json()["why"]["code"] == "web.no_entry"


def test_a_resent_save_is_answered_as_first_and_written_once(server):
    tag = httpx.put(server.api("covenia/players/Bo"), json={"area": {}}).headers["ETag"]
    body, headers = {"area": {"blue": [3]}}, {"If-Match": tag, "Idempotency-Key": "save-bo"}
    first = httpx.put(server.api("covenia/players/Bo"), json=body, headers=headers)
    again = httpx.put(server.api("covenia/players/Bo"), json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.json()["etag"] == first.json()["etag"]
    other = httpx.put(server.api("covenia/players/Bo"), json={"area": {}}, headers=headers)
    assert other.status_code == 409


@pytest.mark.parametrize("attempt", range(TRIES))
def test_phones_saving_one_entry_at_once_one_wins_the_rest_412(server, attempt):
    name = f"Cy{attempt}"
    tag = httpx.put(server.api(f"covenia/players/{name}"), json={"area": {}}).headers["ETag"]
    answers = at_once([lambda c, v=v: c.put(server.api(f"covenia/players/{name}"),
                                            json={"area": {"purple": [v]}},
                                            headers={"If-Match": tag})
                       for v in range(1, PHONES + 1)])
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [412] * (PHONES - 1)
    won = next(r for r in answers if r.status_code == 200)
    assert entry(server, name).json()["area"] == won.json()["entries"][-1]["area"] or \
        entry(server, name).headers["ETag"] == won.headers["ETag"]
    httpx.delete(server.api(f"covenia/players/{name}"))


@pytest.mark.parametrize("attempt", range(TRIES))
def test_phones_adding_one_coverta_round_at_once_record_it_once(server, attempt):
    before = len(httpx.get(server.api("coverta")).json()["rounds"])
    answers = at_once([lambda c, i=i: c.post(server.api("coverta/rounds"), json={
        "round": before + 1, "hands": {"Ana": 0, "Bo": 3}},
        headers={"Idempotency-Key": f"r{attempt}-{i}"}) for i in range(PHONES)])
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * (PHONES - 1)
    for r in answers:
        if r.status_code == 409:
            assert r.json()["why"]["code"] == "web.round_taken"
            assert r.json()["there"]["hands"] == {"Ana": 0, "Bo": 3}
    assert len(httpx.get(server.api("coverta")).json()["rounds"]) == before + 1


@pytest.mark.parametrize("attempt", range(TRIES))
def test_phones_drawing_one_vote_at_once_make_one_draw(server, attempt):
    state = server.state()
    if state["governor"]:
        httpx.post(server.api("lugvanion/close"), json={}).raise_for_status()
        state = server.state()
    seal, made = state["commitment"], len(state["draws"])
    answers = at_once([lambda c, i=i: c.post(server.api("draw"), json={
        "guild": "forge", "bag": {"red": 4, "blue": 4}, "commitment": seal},
        headers={"Idempotency-Key": f"d{attempt}-{i}"}) for i in range(PHONES)])
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] + [409] * (PHONES - 1)
    drawn = next(r for r in answers if r.status_code == 200).json()
    for r in answers:
        if r.status_code == 409:
            assert r.json()["why"]["code"] == "web.commitment_used"
            assert r.json()["draw"]["id"] == drawn["id"]
            assert r.json()["draw"]["seed"] == drawn["seed"]
    assert len(server.state()["draws"]) == made + 1


def test_a_made_up_seal_is_409_with_the_table_seal_and_a_bad_one_400(server):
    r = httpx.post(server.api("draw"), json={"guild": "forge", "bag": {"red": 8},
                                             "commitment": "ab" * 32},
                   headers={"Idempotency-Key": "stale"})
    assert r.status_code == 409 and r.json()["why"]["code"] == "web.commitment_stale"
    assert r.json()["commitment"] == server.state()["commitment"]
    bad = httpx.post(server.api("draw"), json={"guild": "forge", "bag": {"red": 8},
                                               "commitment": "XYZ"},
                     headers={"Idempotency-Key": "bad"})
    assert bad.status_code == 400


def test_a_closed_game_leaves_the_history_once_and_says_so_after(server):
    httpx.put(server.api("covenia/players/Dee"), json={"area": {"green": [4]}})
    httpx.put(server.api("covenia/players/Eve"), json={"area": {"green": [5]}})
    httpx.post(server.api("covenia/close"), json={},
               headers={"Idempotency-Key": "close-1"}).raise_for_status()
    again = httpx.post(server.api("covenia/close"), json={},
                       headers={"Idempotency-Key": "close-1"})
    games = httpx.get(server.api("history")).json()["games"]
    assert again.status_code == 200 and again.json()["id"] == games[-1]["id"]
    assert [g["game"] for g in games].count("covenia") == 1
    gid = games[-1]["id"]
    out = httpx.delete(server.api(f"history/{gid}"), headers={"Idempotency-Key": "rm"})
    assert out.status_code == 200
    assert httpx.delete(server.api(f"history/{gid}"),
                        headers={"Idempotency-Key": "rm"}).status_code == 200
    gone = httpx.delete(server.api(f"history/{gid}"))
    assert gone.status_code == 404 and gone.json()["why"]["code"] == "web.no_history_game"
    assert all(g["id"] != gid for g in httpx.get(server.api("history")).json()["games"])
