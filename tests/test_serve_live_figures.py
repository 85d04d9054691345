"""Live updates carry their figures (issue 34): a Covenia update on the event stream
brings every figure explained in the CLI's words, in both languages, worked out once on
the table (once a write to the phones: the earlier updates of a burst, and the answer to
a save, say they follow), so that no phone asks covenia/explained after an update; a
phone with no copy (a reload, a language it was not sent) still asks, once. The browser tests count the page's requests in Debian's chromium
driven by playwright."""

import json
import threading

import httpx
import pytest
from hypothesis import given, settings, strategies as st
from playwright.sync_api import expect

from tests.test_serve_phone_page import SHOTS, browser, phone  # noqa: F401
from tests.test_serve_scoring_page import EVIL, enter, open_game
from tests.web import Server

ROWS = ("red", "yellow", "green", "blue", "purple", "bonus")
EMMA = {"area": {"red": [1, 4, 6], "yellow": [2, 8], "green": [3], "blue": [4, 5],
                 "purple": [1, 2, 3]}, "hand": {"yellow": [5], "green": [9], "purple": [9]}}


@pytest.fixture
def table(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan").start()
    yield s
    s.stop()


def read_covenia(url: str, want: int, into: list, ready: threading.Event) -> None:
    """Collect `want` Covenia updates from the stream at `url` (run it in a thread), each
    as (its bytes on the stream, its data)."""
    with httpx.stream("GET", url, timeout=30) as r:
        event, size = None, 0
        for line in r.iter_lines():
            size += len(line.encode()) + 2
            if line.startswith("event: "):
                event = line[7:]
                if event == "hello":
                    ready.set()
            elif line.startswith("data: ") and event == "covenia":
                into.append((size, json.loads(line[6:])))
                if len(into) >= want:
                    return
            elif not line:
                event, size = None, 0


def listened(table: Server, want: int, *saves: tuple[str, dict]) -> tuple[list, list]:
    """The Covenia updates a phone on the stream receives while `saves` are made, and
    the saves' answers."""
    got, ready = [], threading.Event()
    reader = threading.Thread(target=read_covenia, args=(table.api("events"), want, got,
                                                         ready), daemon=True)
    reader.start()
    assert ready.wait(30)
    answers = []
    for name, entry in saves:
        answers.append(httpx.put(table.api(f"covenia/players/{name}"), json=entry))
        answers[-1].raise_for_status()
    reader.join(30)
    assert len(got) == want
    return got, [a.json() for a in answers]


def test_an_update_after_a_covenia_save_carries_the_figures_in_each_language(table):
    [(_, first), (_, update)], _ = listened(
        table, 2, ("Emma", EMMA), ("Bo", {"area": {"red": [5]}, "hand": {"red": [3]}}))
    assert "explained" not in first  # one player: no score yet, nothing to explain
    assert set(update["explained"]) == {"en", "fr"}
    for lang in ("en", "fr"):
        # The same words as the explained route's (the same functions), by player and
        # row, the points those of the update's own score.
        answer = httpx.get(table.api(f"covenia/explained?lang={lang}")).json()
        carried = update["explained"][lang]
        assert carried["verdict"] == answer["verdict"]
        assert carried["texts"] == [{row: p["rows"][row]["text"] for row in ROWS}
                                    for p in answer["players"]]
        assert [{row: p[row] for row in ROWS} for p in update["score"]["players"]] == [
            {row: p["rows"][row]["points"] for row in ROWS} for p in answer["players"]]
    assert update["explained"]["en"]["verdict"] == "Winner: Emma"
    assert update["explained"]["fr"]["verdict"] == "Gagnante\u202f: Emma"
    assert update["explained"]["fr"]["texts"][0]["red"].startswith("rouges\u202f: 3")


changes = st.lists(st.tuples(st.sampled_from(["covenia", "coverta", "history"]),
                             st.sampled_from(["plain", "brief", "later"]), st.booleans()),
                   min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(changes)
def test_a_burst_sends_an_update_brief_only_when_a_later_one_of_its_kind_follows(burst):
    """Each change (event; published plain, with a brief, or with a brief and its whole
    data worked out only when sent; a phone joins before it), published in one window:
    every phone gets every change made after it joined, in order, each whole but for those
    with a brief followed by a change of the same event in the write; what is worked out
    when sent is worked out once, only for a change sent whole."""
    import asyncio

    from companion.web import app

    async def main():
        hub = app.Hub(window=60)
        queues = {}
        for n, (event, how, join) in enumerate(burst, 1):
            if join:
                queues[n] = hub.join()  # gets the changes from n on
            full = {"n": n, "explained": {"en": "…"}}
            if how == "later":
                full = (lambda n=n, full=full: worked.append(n) or full)
            hub.publish(event, full, None if how == "plain" else
                        {"n": n, "explained": "follows"})
        hub.flush()  # the burst's one write (the window is not waited for)
        return {n: q.get_nowait() if not q.empty() else b"" for n, q in queues.items()}

    worked = []
    got = asyncio.run(main())
    assert worked == [n for n, (event, how, _) in enumerate(burst, 1) if how == "later"
                      and not any(e == event for e, _, _ in burst[n:])]
    for since, chunk in got.items():
        sent = [m for m in chunk.split(b"\r\n\r\n") if m]
        assert [int(m.split(b"id: ")[1].split(b"\r\n")[0]) for m in sent] == list(
            range(since, len(burst) + 1))
        for n, m in zip(range(since, len(burst) + 1), sent):
            event, how, _ = burst[n - 1]
            later = any(e == event for e, _, _ in burst[n:])
            assert f"event: {event}\r\n".encode() in m and f'"n": {n}'.encode() in m
            assert (b'"explained": "follows"' in m) == (how != "plain" and later)


def test_an_update_stays_small_and_the_figures_are_worked_out_only_for_listeners(table):
    # No phone listening: a save's answer carries no figures (nobody to send them to).
    alone = httpx.put(table.api("covenia/players/Ana"), json={"area": {"red": [1, 2]}})
    alone = httpx.put(table.api("covenia/players/Bo"), json={"area": {"red": [3]}})
    assert alone.json()["score"] is not None and "explained" not in alone.json()
    full = {"area": {c: [1, 2, 3] for c in ROWS[:5]}, "hand": {"red": [9]}}
    got, answers = listened(table, 2, ("Cy", {"area": {c: [4, 5] for c in ROWS[:5]}}),
                            ("Di", full))
    size, update = got[-1]
    assert [p["name"] for p in update["score"]["players"]] == ["Ana", "Bo", "Cy", "Di"]
    # The saving phone's answer says they follow on its stream: no need to ask either.
    assert answers[-1]["explained"] == "follows"
    assert len(update["explained"]["fr"]["texts"]) == 4
    # Four players' figures in two languages: the update about three times the view
    # alone (measured: 4.1 KB on the stream, the view 1.2 KB), where each phone fetched
    # a 2.3 KB answer after it.
    bare = len(json.dumps({k: v for k, v in update.items() if k != "explained"}))
    assert size < 5000 and size < 4 * bare, (size, bare)
    saved = httpx.put(table.api("covenia/players/Di"), json={**full, "hand": {}})
    assert "explained" not in saved.json()  # nobody listens any more


def test_a_phone_shows_the_figures_an_update_brings_without_asking(browser, table):  # noqa: F811
    ana = open_game(browser, table, "Covenia")
    bo = open_game(browser, table, "Covenia", locale="fr-FR")
    asked = {"ana": [], "bo": []}
    for who, page in (("ana", ana), ("bo", bo)):
        page.on("request", lambda r, who=who: "/covenia/explained" in r.url
                and asked[who].append(r.url.rsplit("?", 1)[1]))
    enter(ana, "Emma", EMMA["area"], EMMA["hand"])
    enter(bo, EVIL, {"red": [5], "green": [4, 7], "blue": [6]}, {"red": [3]}, fr=True)
    for page in (ana, bo):
        expect(page.locator("#covenia-explained")).to_contain_text("Emma · 62")
    expect(bo.locator("#covenia-explained li").first).to_contain_text("Rouge\u202f: ")
    expect(ana.locator("#covenia-explained li").first).to_contain_text("Red: ")
    # The phone that saved (its answer) and the one that watched (the live update).
    assert asked == {"ana": [], "bo": []}
    # A language change: the update brought both, nothing to ask.
    ana.locator("#lang").click()
    expect(ana.locator("#covenia-explained li").first).to_contain_text("Rouge\u202f: ")
    assert asked == {"ana": [], "bo": []}
    SHOTS.mkdir(parents=True, exist_ok=True)
    bo.locator("#lang").click()
    expect(bo.locator("#covenia-explained li").first).to_contain_text("Red: ")
    for page in (ana, bo):
        page.locator("#covenia-explained summary").first.click()
    for width in (320, 360):
        for page, lang in ((ana, "fr"), (bo, "en")):
            page.set_viewport_size({"width": width, "height": 720})
            page.locator("#covenia-explained").screenshot(
                path=str(SHOTS / f"phone-covenia-live-figures-{width}-{lang}.png"))
    assert asked == {"ana": [], "bo": []}
    assert ana.problems == [] and bo.problems == []


def test_a_phone_without_a_copy_of_the_figures_asks_once(browser, table):  # noqa: F811
    for name, entry in (("Emma", EMMA), ("Bo", {"area": {"red": [5]}, "hand": {"red": [3]}})):
        httpx.put(table.api(f"covenia/players/{name}"), json=entry).raise_for_status()
    bo = open_game(browser, table, "Covenia", locale="fr-FR")
    asked = []
    bo.on("request", lambda r: "/covenia/explained" in r.url
          and asked.append(r.url.rsplit("?", 1)[1]))
    # A reload (as after the screen slept): the state is read again, without figures.
    with bo.expect_response(lambda r: "/covenia/explained" in r.url):
        bo.reload()
    expect(bo.locator("#covenia-explained li").first).to_contain_text("Rouge\u202f: ")
    assert asked == ["lang=fr"]
    # A language it has no copy of: asked once.
    with bo.expect_response(lambda r: "/covenia/explained" in r.url):
        bo.locator("#lang").click()
    expect(bo.locator("#covenia-explained li").first).to_contain_text("Red: ")
    assert asked == ["lang=fr", "lang=en"]
    # A stale copy: the next update brings the new figures, and nothing is asked.
    total = {p["name"]: p["total"] for p in httpx.put(
        table.api("covenia/players/Bo"), json={"area": {"red": [5, 7]}, "hand": {"red": [3]}}
    ).json()["score"]["players"]}["Bo"]
    expect(bo.locator("#covenia-explained")).to_contain_text(f"Bo · {total}")
    assert asked == ["lang=fr", "lang=en"]
    assert bo.problems == []


def test_a_burst_of_saves_shows_the_last_figures_without_asking(browser, table):  # noqa: F811
    from concurrent.futures import ThreadPoolExecutor

    page = open_game(browser, table, "Covenia")
    asked = []
    page.on("request", lambda r: "/covenia/explained" in r.url and asked.append(r.url))
    # The updates the page receives that leave their figures to the next one.
    page.evaluate("""() => { window.briefs = 0; window.tableSource.addEventListener(
        "covenia", (e) => { if (JSON.parse(e.data).explained === "follows") window.briefs++; });
    }""")
    clans = ROWS[:4]

    def save(k: int) -> dict:
        entry = {"area": {clans[k % 4]: list(range(1, k // 4 + 2))}, "hand": {}}
        r = httpx.put(table.api(f"covenia/players/P{k % 4}"), json=entry, timeout=30)
        r.raise_for_status()
        return r.json()

    with ThreadPoolExecutor(4) as pool:  # four phones saving at once, five times each
        list(pool.map(save, range(4)))
        list(pool.map(save, range(4, 24)))
    final = httpx.get(table.api("covenia/explained?lang=en")).json()
    for p in final["players"]:
        expect(page.locator("#covenia-explained")).to_contain_text(f"{p['name']} · {p['total']}")
    expect(page.locator("#covenia-explained li")).to_contain_text(
        [f"({p['rows'][row]['text']})" for p in final["players"] for row in ROWS])
    assert page.evaluate("window.briefs") > 0  # the burst did go out in shared writes
    assert asked == []
    assert page.problems == []
