"""`companion serve` against a real uvicorn process on 127.0.0.1: the JSON API contract,
idempotent draws, live events, restarts after SIGKILL, bad requests and the Governor."""

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
from hypothesis import example, given, settings
from hypothesis import strategies as st
import pytest

from companion.rules import lugvanion as vote
from tests.web import BAG, Server, read_events

GUILDS = ["forge", "jewellery", "herbalism", "academy"]
HEX64 = re.compile(r"^[0-9a-f]{64}$")


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "table.sqlite3").start()
    yield s
    s.stop()


def test_state_lists_players_guilds_tie_rule_and_the_sealed_commitment(server):
    state = server.state()
    assert [p["colour"] for p in state["players"]] == ["red", "blue", "green", "yellow"]
    assert state["guilds"] == {g: {"holder": None} for g in GUILDS}
    assert state["governor"] is None
    assert state["tie_rule"] == "extra"
    assert HEX64.match(state["commitment"])
    assert state["draws"] == []


def test_a_draw_uses_the_published_commitment_and_makes_the_winner_holder(server):
    before = server.state()["commitment"]
    r = server.draw("forge", BAG, key="first")
    assert r.status_code == 200
    d = r.json()
    assert set(d) >= {"id", "guild", "bag", "commitment", "seed", "drawn", "winner",
                      "next_commitment"}
    assert (d["id"], d["guild"], d["bag"]) == (1, "forge", BAG)
    assert d["commitment"] == before == vote.commitment(bytes.fromhex(d["seed"]))
    assert vote.verify(d["bag"], bytes.fromhex(d["seed"]), d["commitment"], d["drawn"]).ok
    assert d["winner"] == vote.lone_leader({c: d["drawn"].count(c) for c in BAG})
    after = server.state()
    assert after["guilds"]["forge"]["holder"] == d["winner"]
    assert after["commitment"] == d["next_commitment"] != before
    assert after["draws"] == [{**d, "undone": False}]


def test_the_same_idempotency_key_returns_the_same_answer_and_draws_nothing(server):
    first = server.draw(key="tap").json()
    again = server.draw(key="tap")
    assert again.status_code == 200 and again.json() == first
    assert len(server.state()["draws"]) == 1


def test_a_key_reused_for_another_draw_is_refused(server):
    server.draw("forge", key="tap")
    r = server.draw("academy", key="tap")
    assert r.status_code == 409 and "Idempotency-Key" in r.json()["error"]
    assert len(server.state()["draws"]) == 1


def test_twenty_concurrent_draws_with_twenty_keys_make_twenty_draws(server):
    with httpx.Client() as client, ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda i: server.draw("forge", key=f"k{i}", client=client),
                                range(20)))
    assert [a.status_code for a in answers] == [200] * 20
    ids = sorted(a.json()["id"] for a in answers)
    assert ids == list(range(1, 21))
    draws = server.state()["draws"]
    assert len(draws) == 20
    # Each draw used the commitment the previous one announced: one unbroken chain.
    for prev, d in zip(draws, draws[1:]):
        assert d["commitment"] == prev["next_commitment"]


def test_twenty_concurrent_draws_with_one_key_make_one_draw(server):
    with httpx.Client() as client, ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda i: server.draw("forge", key="same", client=client),
                                range(20)))
    assert [a.status_code for a in answers] == [200] * 20
    assert len({a.text for a in answers}) == 1
    assert len(server.state()["draws"]) == 1


def test_two_phones_receive_the_same_draw_on_their_event_streams(server):
    phones = [[], []]
    ready = [threading.Event(), threading.Event()]
    threads = [threading.Thread(target=read_events, args=(server.api("events"), 2, got, r))
               for got, r in zip(phones, ready)]
    for t in threads:
        t.start()
    assert all(r.wait(10) for r in ready)
    d = server.draw("herbalism").json()
    undone = httpx.post(server.api("undo"), json={"id": d["id"]}).json()
    for t in threads:
        t.join(15)
    assert phones[0] == phones[1]
    (kind1, first), (kind2, second) = phones[0]
    assert (kind1, first["draw"]) == ("draw", d)
    assert first["guilds"]["herbalism"]["holder"] == d["winner"]
    assert first["commitment"] == d["next_commitment"]
    assert (kind2, second["undone"]) == ("undo", d["id"])
    assert second["guilds"] == undone["guilds"]


def test_each_draw_event_carries_the_table_as_that_draw_left_it(server):
    """Phones check a draw's seal against the commitment the previous event announced,
    so even concurrent draws must each carry their own next commitment."""
    got, ready = [], threading.Event()
    phone = threading.Thread(target=read_events, args=(server.api("events"), 30, got, ready))
    phone.start()
    assert ready.wait(10)
    with httpx.Client() as client, ThreadPoolExecutor(10) as pool:
        list(pool.map(lambda i: server.draw("forge", key=f"c{i}", client=client), range(30)))
    phone.join(20)
    assert len(got) == 30
    for _, event in got:
        assert event["commitment"] == event["draw"]["next_commitment"]
    assert [e["draw"]["id"] for _, e in got] == list(range(1, 31))


def test_undo_gives_the_guild_back_and_keeps_the_draw_marked_undone(server):
    first = server.draw("forge", {"red": 8}).json()
    second = server.draw("forge", {"blue": 8}).json()
    assert server.state()["guilds"]["forge"]["holder"] == "blue"
    r = httpx.post(server.api("undo"), json={"id": second["id"]})
    assert r.status_code == 200 and r.json()["guilds"]["forge"]["holder"] == "red"
    state = server.state()
    assert [d["undone"] for d in state["draws"]] == [False, True]
    assert state["guilds"]["forge"]["holder"] == first["winner"] == "red"
    # A second tap on the same undo changes nothing.
    again = httpx.post(server.api("undo"), json={"id": second["id"]})
    assert again.status_code == 200 and server.state()["guilds"]["forge"]["holder"] == "red"


def test_only_the_last_draw_in_force_can_be_undone(server):
    first = server.draw("forge", {"red": 8}).json()
    server.draw("academy", {"blue": 8})
    r = httpx.post(server.api("undo"), json={"id": first["id"]})
    assert r.status_code == 409 and r.json()["error"].startswith("id:")
    assert httpx.post(server.api("undo"), json={}).json()["guilds"]["academy"] == {
        "holder": None}


def test_a_player_holding_two_guilds_is_declared_governor_and_the_game_stops(server):
    server.draw("forge", {"red": 8})
    assert server.state()["governor"] is None
    server.draw("jewellery", {"red": 7, "blue": 1})
    state = server.state()
    assert state["governor"] == "red"
    refused = server.draw("academy", {"blue": 8})
    assert refused.status_code == 409 and "Governor" in refused.json()["error"]
    httpx.post(server.api("undo"), json={})
    assert server.state()["governor"] is None


def test_sigkill_and_restart_keep_the_token_and_every_answered_draw(tmp_path):
    data = tmp_path / "table.sqlite3"
    s = Server(data).start()
    link = s.link
    answered = []

    def post(i):
        r = s.draw("forge", key=f"k{i}")
        if r.status_code == 200:
            answered.append(r.json())

    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(post, i) for i in range(40)]
        for _ in range(6000):
            if len(answered) >= 10:
                break
            threading.Event().wait(0.005)
        s.kill()
        for f in futures:
            try:
                f.result()
            except httpx.HTTPError:
                pass  # cut off by the kill: never answered
    again = Server(data).start()
    try:
        assert again.link == link  # same token, same port: the printed QR still works
        kept = {d["id"]: d for d in again.state()["draws"]}
        assert len(answered) >= 10
        for d in answered:
            assert kept[d["id"]] == {**d, "undone": False}
        # The sealed seed survived too: the next draw uses the last announced commitment.
        last = kept[max(kept)]
        assert again.state()["commitment"] == last["next_commitment"]
        assert again.draw("forge").json()["commitment"] == last["next_commitment"]
    finally:
        again.stop()


def test_every_draw_in_the_history_verifies_with_companion_lugvanion_verify(server, cli):
    for i in range(6):
        server.draw("forge", BAG if i % 2 else {"red": 3, "blue": 3, "green": 2})
    httpx.post(server.api("undo"), json={})
    draws = server.state()["draws"]
    assert len(draws) == 6 and draws[-1]["undone"]
    for d in draws:
        bag = [f"{c}={n}" for c, n in d["bag"].items()]
        result = cli("lugvanion", "verify", "--seed", d["seed"], "--commitment",
                     d["commitment"], *bag, "--drawn", ",".join(d["drawn"]))
        assert (result.code, result.out.strip()) == (0, "verified"), result.err


BAD_DRAWS = [
    ({"guild": "smithy", "bag": BAG}, "guild"),
    ({"bag": BAG}, "guild"),
    ({"guild": 3, "bag": BAG}, "guild"),
    ({"guild": "forge", "bag": {**BAG, "purple": 0}}, "bag"),
    ({"guild": "forge", "bag": {"red": 3, "blue": 2, "green": 2}}, "bag"),
    ({"guild": "forge", "bag": {"red": 9}}, "bag.red"),
    ({"guild": "forge", "bag": {"red": "3", "blue": 5}}, "bag.red"),
    ({"guild": "forge", "bag": {"red": True, "blue": 7}}, "bag.red"),
    ({"guild": "forge", "bag": {"red": -1, "blue": 9}}, "bag.red"),
    ({"guild": "forge", "bag": [3, 2, 2, 1]}, "bag"),
    ({"guild": "forge", "bag": BAG, "winner": "red"}, "body"),
    (["forge", BAG], "body"),
]


@pytest.mark.parametrize("body,field", BAD_DRAWS,
                         ids=[f"{i}-{f}" for i, (_, f) in enumerate(BAD_DRAWS)])
def test_a_bad_draw_body_is_400_naming_the_field(server, body, field):
    r = httpx.post(server.api("draw"), json=body, headers={"Idempotency-Key": "x"})
    assert r.status_code == 400
    assert r.json()["error"].startswith(field + ":")
    assert server.state()["draws"] == []


@pytest.mark.parametrize("content,headers,field", [
    (b"{not json", {"Content-Type": "application/json", "Idempotency-Key": "x"}, "body"),
    (b'{"guild": "forge", "pad": "' + b"x" * 5000 + b'"}',
     {"Content-Type": "application/json", "Idempotency-Key": "x"}, "body"),
    (b'{"guild": "forge", "bag": {"red": 8}}', {"Content-Type": "application/json"},
     "Idempotency-Key"),
    (b'{"guild": "forge", "bag": {"red": 8}}',
     {"Content-Type": "text/plain", "Idempotency-Key": "x"}, "Content-Type"),
], ids=["not-json", "over-4KB", "no-key", "not-json-type"])
def test_a_malformed_draw_request_is_400_naming_what_is_wrong(server, content, headers, field):
    r = httpx.post(server.api("draw"), content=content, headers=headers)
    assert r.status_code == 400 and r.json()["error"].startswith(field + ":")
    assert server.state()["draws"] == []


def test_a_body_over_4kb_sent_in_chunks_is_refused(server):
    def chunks():
        yield b'{"guild": "forge", "bag": {"red": 8}, "x": "'
        for _ in range(10):
            yield b"y" * 1000
        yield b'"}'

    r = httpx.post(server.api("draw"), content=chunks(),
                   headers={"Content-Type": "application/json", "Idempotency-Key": "x"})
    assert r.status_code == 400 and "4096" in r.json()["error"]


@pytest.mark.parametrize("path", ["/t/{wrong}", "/t/{wrong}/api/state", "/t/{wrong}/api/events",
                                  "/t//api/state", "/api/state", "/"])
def test_a_wrong_or_missing_token_is_404(server, path):
    wrong = server.token[:-1] + ("A" if server.token[-1] != "A" else "B")
    r = httpx.get(server.origin + path.format(wrong=wrong))
    assert r.status_code == 404
    assert server.token not in r.text


def test_a_draw_with_a_wrong_token_draws_nothing(server):
    r = httpx.post(server.api("draw").replace(server.token, "x" * 22), json={
        "guild": "forge", "bag": BAG}, headers={"Idempotency-Key": "x"})
    assert r.status_code == 404 and server.state()["draws"] == []


def test_a_host_header_that_is_not_served_is_refused(server):
    r = httpx.get(server.api("state"), headers={"Host": f"attacker.example:{server.port}"})
    assert r.status_code in (400, 421)
    assert "players" not in r.text


def test_a_host_name_given_with_name_is_served(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan").start()
    try:
        r = httpx.get(s.api("state"), headers={"Host": f"table.lan:{s.port}"})
        assert r.status_code == 200
    finally:
        s.stop()


def test_every_answer_says_no_referrer_and_the_page_forbids_outside_assets(server):
    page = httpx.get(server.link)
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    for r in (page, httpx.get(server.api("state")), httpx.get(server.origin + "/static/app.js"),
              httpx.get(server.api("nothing")), server.draw(bag={"red": 1})):
        assert r.headers["referrer-policy"] == "no-referrer"
    with httpx.stream("GET", server.api("events")) as r:
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["content-type"].startswith("text/event-stream")
    # Every asset the page loads is served here: no http(s):// in it or its files.
    for text in (page.text, httpx.get(server.origin + "/static/app.js").text,
                 httpx.get(server.origin + "/static/page.css").text):
        assert not re.search(r"(src|href)=\"https?://|url\(https?:|//cdn", text)
        assert "crypto.subtle" not in text.replace("no crypto.subtle", "")
        assert "randomUUID" not in text.replace("no crypto.randomUUID", "")


def test_the_page_embeds_player_names_so_that_no_tag_can_open(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--players",
               "red=</script><img src=x onerror=alert(1)>,blue").start()
    try:
        html = httpx.get(s.link).text
        assert "<img" not in html and "</script><" not in html
        assert "\\u003c/script>\\u003cimg src=x onerror=alert(1)>" in html
    finally:
        s.stop()


def test_odds_are_exact_and_match_the_scorer(server):
    r = httpx.get(server.api("odds"), params=BAG).json()
    exact = vote.odds(BAG).exact
    assert r["exact"] == {c: str(p) for c, p in exact.items()}
    bad = httpx.get(server.api("odds"), params={"red": 3, "purple": 5})
    assert bad.status_code == 400 and bad.json()["error"].startswith("bag:")


def test_a_table_can_play_the_redraw_tie_rule(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--tie-rule", "redraw").start()
    try:
        d = s.draw(bag={"red": 4, "blue": 2, "green": 2}).json()
        assert d["tie_rule"] == "redraw" and s.state()["tie_rule"] == "redraw"
        assert vote.verify(d["bag"], bytes.fromhex(d["seed"]), d["commitment"], d["drawn"],
                           "redraw").ok
    finally:
        s.stop()


def test_more_live_streams_than_the_cap_are_refused():
    from companion.web import app

    hub = app.Hub(limit=1)
    hub.join()
    with pytest.raises(app.WebError) as e:
        hub.join()
    assert e.value.status == 503


def test_the_hub_sends_a_burst_in_order_and_a_phone_only_what_came_after_it_joined():
    import asyncio

    from companion.web import app

    async def main():
        hub = app.Hub(window=0.05)
        early = hub.join()
        hub.publish("covenia", {"n": 1})
        late = hub.join()  # joined before the first write: not sent the change before it
        hub.publish("covenia", {"n": 2})
        await asyncio.sleep(0)  # the first write: right after the loop turn
        first_early, first_late = early.get_nowait(), late.get_nowait()
        for k in range(3, 6):  # within the window: held, then one write
            hub.publish("covenia", {"n": k})
        await asyncio.sleep(0.01)
        assert early.empty() and late.empty()
        await asyncio.sleep(0.08)
        rest = early.get_nowait()
        assert late.get_nowait() is rest and early.empty() and late.empty()
        return first_early, first_late, rest

    first_early, first_late, rest = asyncio.run(main())
    assert first_early.count(b"event: covenia") == 2 and b'"n": 1' in first_early
    assert first_late.count(b"event: covenia") == 1 and b'"n": 2' in first_late
    assert [rest.index(f'"n": {k}'.encode()) for k in (3, 4, 5)] == sorted(
        rest.index(f'"n": {k}'.encode()) for k in (3, 4, 5))
    assert b"id: 5\r\n" in rest


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=5),
    max_leaves=12)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"guild": st.sampled_from(GUILDS + ["smithy", ""]) | json_values,
                           "bag": st.dictionaries(st.sampled_from(list(BAG) + ["purple"]),
                                                  st.integers(-2, 9) | json_values,
                                                  max_size=5) | json_values}))


@settings(max_examples=300, deadline=None)
@given(bodies)
@example({"guild": "forge", "bag": {"red": 8}})  # a valid draw, whatever hypothesis finds
@example({"guild": "forge", "bag": {"red": 4, "blue": 4}, "commitment": "c0ffee"})
def test_any_json_body_is_a_checked_draw_or_a_400_naming_a_field(body):
    from companion.web.app import WebError, _check_draw

    try:
        guild, bag, _commitment = _check_draw(body, GUILDS, list(BAG))
    except WebError as e:
        assert e.status == 400 and e.field and e.message
        return
    # the bag as it stands on the guild: a colour without partisans is left out
    assert guild in GUILDS and set(bag) <= set(BAG) and sum(bag.values()) == 8
    assert all(type(n) is int and n > 0 for n in bag.values())
    assert bag == {c: n for c, n in body["bag"].items() if n}
    assert vote.odds(bag).exact  # a bag that passes is one the vote can draw
