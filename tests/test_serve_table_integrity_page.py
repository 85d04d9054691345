"""A table is several people acting at once: the phone page never loses, doubles or
misreads an entry. Each test reproduces one thing a real table did (two phones on one
player, a reload, two phones adding one round or drawing one vote, a game ended while a
phone held an entry, an answer lost on the Wi-Fi), in Debian's chromium driven by
playwright against a real `companion serve`."""

import tomllib
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.test_serve_phone_page import SHOTS, browser, enter_bag, lan_link, phone  # noqa: F401
from tests.test_serve_scoring_page import open_game
from tests.web import Server

RULEBOOK = tomllib.loads((Path(__file__).parent / "data" / "covenia-rulebook.toml")
                         .read_text(encoding="utf-8"))["players"]
EMMA = RULEBOOK[0]  # the rulebook's example: 14 cards in her area, 3 in hand, 62 points


@pytest.fixture
def table(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan").start()
    yield s
    s.stop()


@pytest.fixture
def three(tmp_path):
    """A table of three named players: both Covenia decks are in play."""
    s = Server(tmp_path / "t3.sqlite3", "--name", "table.lan",
               "--players", "red=Ana,blue=Bo,green=Cy").start()
    yield s
    s.stop()


def entry(table, name):
    return httpx.get(table.api(f"covenia/players/{name}"))


def value(page, clan, v, part="area"):
    return page.locator(f"#v-{part}-{clan}-{v}")


def pick_player(page, name):
    """Open her entry from the list of the table's players (or add her)."""
    seats = page.locator("#table-players")
    if seats.count() and seats.get_by_role("button", name=name, exact=True).count():
        seats.get_by_role("button", name=name, exact=True).click()
    else:
        page.locator("#covenia-name").fill(name)
        page.locator("#covenia-join").click()
    expect(page.locator("#covenia-entry h2")).to_have_text(name)


def pressed(page) -> set[str]:
    """The value buttons shown pressed: "area-red-4", "hand-green-9"..."""
    ids = page.locator("#covenia-entry button.value[aria-pressed=true]").evaluate_all(
        "bs => bs.map(b => b.id)")
    return {i.removeprefix("v-") for i in ids}


def cards(e: dict) -> set[str]:
    return {f"{part}-{clan}-{v}" for part in ("area", "hand")
            for clan, values in e.get(part, {}).items() for v in values}


def put(table, name, e):
    httpx.put(table.api(f"covenia/players/{name}"),
              json={"area": e["area"], "hand": e.get("hand", {})}).raise_for_status()


def test_a_reopened_page_shows_the_saved_entry_and_one_tap_changes_one_card(browser, table):  # noqa: F811
    page = open_game(browser, table, "Covenia")
    pick_player(page, "Emma")
    for part in ("area", "hand"):
        for clan, values in EMMA[part].items():
            for v in values:
                value(page, clan, v, part).click()
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Saved")
    page.reload()
    expect(page.locator(".live.on")).to_be_visible()
    # Her name over her saved cards, not over an empty grid.
    expect(page.locator("#covenia-entry h2")).to_have_text("Emma")
    expect(page.locator("#v-area-blue-5")).to_have_attribute("aria-pressed", "true")
    assert pressed(page) == cards(EMMA)
    expect(page.locator("#covenia-save")).to_have_text("Saved")
    value(page, "blue", 7).click()
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Saved")
    kept = entry(table, "Emma").json()
    assert cards(kept) == cards(EMMA) | {"area-blue-7"}  # 18 cards, not 1
    assert page.problems == []


def test_two_phones_saving_one_player_lose_nothing_and_the_second_is_told(browser, table):  # noqa: F811
    put(table, "Emma", EMMA)
    one = open_game(browser, table, "Covenia")
    two = open_game(browser, table, "Covenia", locale="fr-FR")
    for page in (one, two):
        pick_player(page, "Emma")
    expect(two.locator("#v-area-blue-5")).to_have_attribute("aria-pressed", "true")
    value(one, "blue", 7).click()
    value(two, "purple", 4).click()
    one.locator("#covenia-save").click()
    expect(one.locator("#covenia-save")).to_have_text("Saved")
    two.locator("#covenia-save").click()
    # The second Save is refused (412): nothing written, and that phone now shows the
    # entry the table holds (with the first phone's card), for her to redo hers.
    error = two.locator("#covenia-entry p.error")
    expect(error).to_contain_text("un autre téléphone a modifié les cartes de Emma")
    expect(two.locator("#v-area-blue-7")).to_have_attribute("aria-pressed", "true")
    expect(two.locator("#v-area-purple-4")).to_have_attribute("aria-pressed", "false")
    assert cards(entry(table, "Emma").json()) == cards(EMMA) | {"area-blue-7"}
    value(two, "purple", 4).click()
    two.locator("#covenia-save").click()
    expect(two.locator("#covenia-save")).to_have_text("Enregistré")
    assert cards(entry(table, "Emma").json()) == cards(EMMA) | {"area-blue-7", "area-purple-4"}
    # The first phone follows: it shows both changes.
    expect(one.locator("#v-area-purple-4")).to_have_attribute("aria-pressed", "true")
    assert one.problems == [] and two.problems == []


def test_two_phones_adding_one_coverta_round_record_it_once(browser, table):  # noqa: F811
    httpx.post(table.api("coverta/rounds"), json={"hands": {"Ana": 0, "Bo": 3}},
               headers={"Idempotency-Key": "first"}).raise_for_status()
    one = open_game(browser, table, "Coverta")
    two = open_game(browser, table, "Coverta")
    for page, counts in ((one, ("2", "0")), (two, ("2", "0"))):
        expect(page.locator("#coverta-round h3")).to_have_text("Round 2")
        page.get_by_label("Ana", exact=True).fill(counts[0])
        page.get_by_label("Bo", exact=True).fill(counts[1])
    one.locator("#coverta-add").click()
    expect(two.locator("#coverta-rounds")).to_contain_text("Round 2")
    two.locator("#coverta-add").click()
    # Refused (409): the round already there is shown, and the table keeps one round 2.
    expect(two.locator("#coverta-there")).to_contain_text("Round 2 on the table: Ana 2 · Bo 0")
    expect(two.locator("#game-coverta p.error")).to_contain_text("another phone added it")
    expect(two.locator("#coverta-rounds tr.there")).to_have_count(1)
    assert len(httpx.get(table.api("coverta")).json()["rounds"]) == 2
    # The next tap is meant: a new round 3, once.
    expect(two.locator("#coverta-round h3")).to_have_text("Round 3")
    two.locator("#coverta-add").click()
    expect(one.locator("#coverta-rounds")).to_contain_text("Round 3")
    assert len(httpx.get(table.api("coverta")).json()["rounds"]) == 3
    assert one.problems == [] and two.problems == []


def test_undoing_a_round_asks_first(browser, table):  # noqa: F811
    httpx.post(table.api("coverta/rounds"), json={"hands": {"Ana": 0, "Bo": 3}},
               headers={"Idempotency-Key": "first"}).raise_for_status()
    page = open_game(browser, table, "Coverta")
    # The person says no: nothing is undone.
    page.evaluate("""() => {
        window.asked = [];
        window.confirm = m => { window.asked.push(m); return false; };
    }""")
    page.locator("#coverta-undo").click()
    expect(page.locator("#coverta-rounds")).to_contain_text("Round 1")
    assert page.evaluate("window.asked") == [
        "Undo round 1? Its points are taken out of the totals."]
    assert len(httpx.get(table.api("coverta")).json()["rounds"]) == 1


def test_two_phones_drawing_one_vote_make_one_draw(browser, three):  # noqa: F811
    one, two = phone(browser), phone(browser)
    for page in (one, two):
        page.goto(lan_link(three))
        expect(page.locator(".live.on")).to_be_visible()
        page.locator("#vote-forge").click()
        enter_bag(page, {"Ana": 3, "Bo": 3, "Cy": 2})
    # The second phone hears nothing of the first's draw before it taps Draw (at once).
    two.evaluate("window.tableSource.close()")
    one.locator("#draw").click()
    expect(one.locator("#winner")).to_be_visible()
    two.locator("#draw").click()
    expect(two.locator("#winner")).to_be_visible()
    draws = three.state()["draws"]
    assert len(draws) == 1  # never two draws for one vote
    expect(two.locator("#seed")).to_have_text(draws[0]["seed"])
    expect(two.locator("#result .notice")).to_contain_text("Another phone drew this vote first")
    assert one.problems == [] and two.problems == []


def test_ending_a_game_clears_every_phones_entry(browser, table):  # noqa: F811
    put(table, "Emma", EMMA)
    put(table, "Bo", {"area": {"red": [5]}})
    page = open_game(browser, table, "Covenia")
    pick_player(page, "Emma")
    value(page, "blue", 7).click()  # a change not saved yet
    httpx.post(table.api("covenia/close"), json={}).raise_for_status()  # another phone
    expect(page.locator("#covenia-entry button.value[aria-pressed=true]")).to_have_count(0)
    value(page, "red", 2).click()
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Saved")
    # The new game holds her one card, nothing of the game that ended.
    assert cards(entry(table, "Emma").json()) == {"area-red-2"}
    assert page.problems == []


def test_a_save_whose_answer_was_lost_is_sent_again_and_said_saved(browser, table):  # noqa: F811
    page = open_game(browser, table, "Covenia")
    pick_player(page, "Emma")
    value(page, "red", 4).click()
    lost = []

    def lose_the_answer(route):
        if route.request.method != "PUT" or lost:
            return route.continue_()
        lost.append(route.request.headers.get("idempotency-key"))
        route.fetch(url=route.request.url.replace("table.lan", "127.0.0.1"))  # saved...
        route.abort("connectionreset")  # ...and the answer never reaches the phone

    page.route("**/api/covenia/players/**", lose_the_answer)
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Saved", timeout=15_000)
    expect(page.locator("#covenia-entry p.error")).to_have_count(0)
    assert lost and lost[0]
    assert cards(entry(table, "Emma").json()) == {"area-red-4"}
    assert page.problems == []


def test_both_copies_of_a_card_enter_a_hand_with_both_decks(browser, three):  # noqa: F811
    # Three at the table: both decks are in play, so a hand may hold both red 5s.
    page = open_game(browser, three, "Covenia")
    pick_player(page, "Ana")
    value(page, "green", 3).click()
    value(page, "red", 5, "hand").click()
    value(page, "red", 5, "hand").click()
    expect(value(page, "red", 5, "hand")).to_have_attribute(
        "aria-label", "Red 5 (hand), both copies")
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Saved")
    assert entry(three, "Ana").json()["hand"] == {"red": [5, 5]}
    # A third tap takes both out.
    value(page, "red", 5, "hand").click()
    expect(value(page, "red", 5, "hand")).to_have_attribute("aria-pressed", "false")
    assert page.problems == []


def test_two_of_three_entries_are_judged_with_both_decks(browser, three):  # noqa: F811
    # Both red 5s are in play (legal with both decks): no one is blamed while the third
    # player has not entered yet.
    put(three, "Ana", {"area": {"red": [5]}})
    put(three, "Bo", {"area": {"red": [5, 6]}})
    page = open_game(browser, three, "Covenia")
    expect(page.locator("#covenia-winner")).to_have_text("Winner: Bo")
    expect(page.locator("#game-covenia")).not_to_contain_text("more often")
    assert page.problems == []


def test_focus_stays_on_a_value_across_a_live_redraw(browser, table):  # noqa: F811
    page = open_game(browser, table, "Covenia")
    pick_player(page, "Emma")
    value(page, "red", 1).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(value(page, "red", 3)).to_be_focused()
    page.locator("#covenia-save").evaluate("n => n.dataset.old = '1'")
    put(table, "Zed", {"area": {"blue": [1]}})  # another phone's entry: a redraw
    expect(page.locator("#covenia-save[data-old]")).to_have_count(0)
    expect(value(page, "red", 3)).to_be_focused()
    page.keyboard.press("Enter")  # the keyboard goes on where it was
    expect(value(page, "red", 3)).to_have_attribute("aria-pressed", "true")
    assert page.problems == []


def test_save_is_a_few_tab_presses_away_and_enter_submits_forms(browser, table):  # noqa: F811
    page = open_game(browser, table, "Covenia")
    page.locator("#covenia-name").fill("Emma")
    page.locator("#covenia-name").press("Enter")  # Enter submits the name
    expect(page.locator("#covenia-entry h2")).to_have_text("Emma")
    value(page, "red", 1).focus()
    presses = 0
    while presses < 40 and not page.evaluate("document.activeElement.id === 'covenia-save'"):
        page.keyboard.press("Tab")
        presses += 1
    assert presses <= 12, presses  # ten value rows, one stop each
    page.locator("#picker").get_by_role("button", name="Vengeance").click()
    page.get_by_label("Potion", exact=True).fill("2")
    page.get_by_label("Potion", exact=True).press("Enter")
    expect(page.locator("#vengeance-winner")).to_contain_text("Winner: Potion")
    assert page.problems == []


def test_an_entry_and_a_game_ended_by_mistake_can_be_deleted_after_asking(browser, table):  # noqa: F811
    put(table, "Emma", EMMA)
    put(table, "Bo", {"area": {"red": [5]}})
    page = open_game(browser, table, "Covenia")
    pick_player(page, "Bo")
    page.locator("#covenia-delete").click()  # confirmed (the dialog is accepted)
    expect(page.locator("#covenia-entries")).not_to_contain_text("Bo")
    assert entry(table, "Bo").status_code == 404
    put(table, "Bo", {"area": {"red": [5]}})
    httpx.post(table.api("covenia/close"), json={}).raise_for_status()
    page.locator("#picker").get_by_role("button", name="History").click()
    expect(page.locator("#past-games")).to_contain_text("Covenia")
    page.locator("#past-games button.danger").first.click()
    expect(page.locator("#past-games")).to_contain_text("No game closed yet.")
    assert httpx.get(table.api("history")).json()["games"] == []
    asked = [p for p in page.problems if p.startswith("dialog: ")]
    assert len(asked) == 2 and "Delete Emma" not in asked[0] and "Bo" in asked[0]
    assert [p for p in page.problems if not p.startswith("dialog: ")] == []


def test_the_history_shows_each_players_win_rate_per_game(browser, table):  # noqa: F811
    for winner in ("Ana", "Bo", "Ana"):
        loser = "Bo" if winner == "Ana" else "Ana"
        put(table, winner, {"area": {"purple": [1, 2]}})
        put(table, loser, {"area": {"purple": [3]}})
        httpx.post(table.api("covenia/close"), json={}).raise_for_status()
    page = open_game(browser, table, "History")
    row = page.locator("#per-player tr", has_text="Ana")
    expect(row).to_contain_text("Covenia: won 2 of 3 (67%)")
    page.get_by_role("button", name="Français").click()
    expect(page.locator("#per-player tr", has_text="Bo")).to_contain_text(
        "Covenia\u202f: 1 gagnée(s) sur 3 (33\u202f%)")
    assert page.problems == []


def test_a_page_load_asks_each_thing_once_and_nothing_is_missing(browser, table):  # noqa: F811
    page = phone(browser)
    asked, failed = [], []
    page.on("request", lambda r: asked.append(r.url.split("?")[0].rsplit("/t/", 1)[-1]))
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    page.wait_for_load_state("networkidle")
    calls = [a.split("/api/", 1)[1] for a in asked if "/api/" in a]
    for call in ("state", "covenia", "coverta", "history", "players", "events"):
        assert calls.count(call) == 1, (call, calls)
    assert failed == []  # the favicon too


def test_the_tables_refusals_are_worded_in_french(browser, table):  # noqa: F811
    page = open_game(browser, table, "Lugvanion", locale="fr-FR")
    page.locator("#lugvanion-close").click()  # nothing held yet
    expect(page.locator("#lugvanion-end p.error")).to_have_text(
        "Pas fait\u202f: aucune guilde n’est encore tenue\u202f: il n’y a rien à terminer")


def test_the_games_are_read_even_when_the_stream_opened_before_their_script_ran(  # noqa: F811
        browser, table):
    """A slow phone: app.js opens the live stream, and games.js arrives only after the
    stream's "open" has come and gone. The history and the entries must still be read
    (the page showed "No game closed yet" over three closed games)."""
    for winner, loser in (("Ana", "Bo"), ("Bo", "Ana")):
        put(table, winner, {"area": {"purple": [1, 2]}})
        put(table, loser, {"area": {"purple": [3]}})
        httpx.post(table.api("covenia/close"), json={}).raise_for_status()
    page = phone(browser)
    held = []
    page.route("**/static/games.js*", lambda route: held.append(route.request.url)
               or route.abort())
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()  # the stream is open, games.js not run
    assert held, "games.js was never asked for"
    page.unroute("**/static/games.js*")
    page.add_script_tag(url=held[0])  # now it arrives: after the stream's "open"
    page.locator("#picker").get_by_role("button", name="History").click()
    expect(page.locator("#per-player tr", has_text="Ana")).to_contain_text(
        "Covenia: won 1 of 2 (50%)")
