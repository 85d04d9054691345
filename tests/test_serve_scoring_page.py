"""The other games on the phone page, in Debian's chromium driven by playwright: the game
picker, two phones entering their Covenia areas and seeing the same totals and winner, a
Coverta round entered on one phone showing on the other, Vengeance's resolver and the
history. Screenshots at phone size in output/screenshots/."""

import httpx
import pytest
from playwright.sync_api import expect

from tests.test_serve_phone_page import SHOTS, browser, lan_link, phone  # noqa: F401
from tests.web import Server

EVIL = "<b>Zoé</b>"


@pytest.fixture
def table(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan").start()
    yield s
    s.stop()


def open_game(browser, table, game, locale="en-GB"):  # noqa: F811
    page = phone(browser, locale)
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    page.locator("#picker").get_by_role("button", name=game).click()
    return page


FRENCH = {"red": "Rouge", "yellow": "Jaune", "green": "Vert", "blue": "Bleu", "purple": "Violet"}


def enter(page, name, area, hand=None, fr=False):
    page.locator("#covenia-name").fill(name)
    page.get_by_role("button", name="M’ajouter à la table" if fr else "Add me to the table").click()
    for part, cards in (("area", area), ("hand", hand or {})):
        for clan, values in cards.items():
            word = FRENCH[clan] if fr else clan.capitalize()
            said = {"area": "zone", "hand": "main"}[part] if fr else part
            for v in values:
                page.get_by_role("button", name=f"{word} {v} ({said})", exact=True).click()
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Enregistré" if fr else "Saved")


def test_two_phones_enter_their_covenia_areas_and_see_the_same_winner(browser, table):  # noqa: F811
    ana = open_game(browser, table, "Covenia")
    bo = open_game(browser, table, "Covenia", locale="fr-FR")
    enter(ana, "Emma", {"red": [6, 1, 4], "yellow": [2, 8], "green": [3], "blue": [4, 5],
                        "purple": [1, 2, 3]}, {"yellow": [5], "green": [9], "purple": [9]})
    enter(bo, EVIL, {"red": [5], "green": [4, 7], "blue": [6]}, {"red": [3]}, fr=True)
    # The rulebook's example: Emma 62, and the French phone says so too.
    expect(ana.locator("#covenia-winner")).to_have_text("Winner: Emma")
    expect(bo.locator("#covenia-winner")).to_have_text("Gagnant·e : Emma")
    expect(ana.locator("table.scores")).to_contain_text("62")
    expect(bo.locator("#covenia-explained")).to_contain_text("Emma · 62")
    expect(bo.locator("table.scores")).to_contain_text(EVIL)  # a name shown as text
    assert bo.locator("table.scores b").count() == 0
    score = httpx.get(table.api("covenia/score")).json()
    assert [p["total"] for p in score["players"]] == [62, 12]
    SHOTS.mkdir(parents=True, exist_ok=True)
    ana.screenshot(path=str(SHOTS / "phone-covenia.png"), full_page=True)
    assert ana.problems == [] and bo.problems == []


def test_a_coverta_round_entered_on_one_phone_shows_on_the_other(browser, table):  # noqa: F811
    one = open_game(browser, table, "Coverta")
    two = open_game(browser, table, "Coverta")
    one.locator("#coverta-players").fill("Ana, Bo, Cy")
    one.locator("#coverta-players").press("Enter")
    one.locator("#coverta-players").blur()
    for name, n in (("Ana", "0"), ("Bo", "3"), ("Cy", "5")):
        one.get_by_label(name, exact=True).fill(n)
    one.locator("select").select_option("Bo")
    one.locator("#coverta-add").click()
    expect(two.locator("#coverta-rounds")).to_contain_text("Round 1")
    expect(two.locator("#coverta-leader")).to_have_text("Leading: Ana")
    assert httpx.get(table.api("coverta/score")).json()["totals"] == {"Ana": -1, "Bo": 2, "Cy": 5}
    two.screenshot(path=str(SHOTS / "phone-coverta.png"), full_page=True)
    assert one.problems == [] and two.problems == []


def test_vengeance_resolver_and_the_history_page(browser, table):  # noqa: F811
    page = open_game(browser, table, "Vengeance")
    page.get_by_label("Herb", exact=True).fill("1")
    page.get_by_label("Mineral", exact=True).fill("1")
    page.get_by_label("Potion", exact=True).fill("2")
    page.get_by_label("Artifacts played (e.g. 12:potion, 4:mineral)").fill("12:potion, 4:mineral")
    page.get_by_label("Incantations played (e.g. 7 2)").fill("7")
    page.locator("#vengeance-resolve").click()
    expect(page.locator("#vengeance-winner")).to_contain_text("Winner:")
    page.screenshot(path=str(SHOTS / "phone-vengeance.png"), full_page=True)
    for name, entry in (("Ana", {"area": {"yellow": [1, 2]}}), ("Bo", {"area": {"red": [3]}})):
        httpx.put(table.api(f"covenia/players/{name}"), json=entry).raise_for_status()
    httpx.post(table.api("covenia/close"), json={}).raise_for_status()
    page.locator("#picker").get_by_role("button", name="History").click()
    expect(page.locator("#past-games")).to_contain_text("Covenia")
    expect(page.locator("#per-player")).to_contain_text("1 played, 1 won")
    page.screenshot(path=str(SHOTS / "phone-history.png"), full_page=True)
    assert page.problems == []


def test_the_tables_players_are_offered_in_every_game(browser, table):  # noqa: F811
    page = open_game(browser, table, "Covenia")
    # A name typed on one phone is a table player: offered on the next, in every game.
    enter(page, "Ana", {"red": [1]})
    httpx.post(table.api("players"), json={"name": "Bo"}).raise_for_status()
    other = open_game(browser, table, "Covenia")
    expect(other.locator("#table-players")).to_contain_text("Ana")
    expect(other.locator("#table-players")).to_contain_text("Bo")
    other.locator("#table-players").get_by_role("button", name="Bo", exact=True).click()
    other.get_by_role("button", name="Red 2 (area)", exact=True).click()
    other.locator("#covenia-save").click()
    expect(other.locator("#covenia-winner")).to_be_visible()
    known = httpx.get(table.api("players")).json()["players"]
    assert known[-2:] == ["Ana", "Bo"]
    other.locator("#picker").get_by_role("button", name="Coverta").click()
    expect(other.locator("#coverta-players")).to_have_value(", ".join(known))
    for p in known:
        expect(other.get_by_label(p, exact=True)).to_be_visible()
    assert page.problems == [] and other.problems == []


def test_the_decks_are_chosen_on_the_page(browser, table):  # noqa: F811
    for name, entry in (("Ana", {"area": {"red": [1, 2]}}), ("Bo", {"area": {"red": [2]}})):
        httpx.put(table.api(f"covenia/players/{name}"), json=entry).raise_for_status()
    page = open_game(browser, table, "Covenia")
    expect(page.locator("#game-covenia")).to_contain_text("more often than decks A hold it")
    page.locator("#covenia-decks").get_by_role("button", name="AB", exact=True).click()
    # two players take one deck (issue 42): both decks score once a third is in
    expect(page.locator("#game-covenia")).to_contain_text("do not suit 2 players")
    httpx.put(table.api("covenia/players/Cy"), json={"area": {"green": [4]}}).raise_for_status()
    expect(page.locator("#covenia-winner")).to_have_text("Winner: Ana")
    assert httpx.get(table.api("covenia")).json()["decks"] == "AB"
    expect(page.locator("#covenia-decks .tab.on")).to_have_text("AB")
    assert page.problems == []


def test_lugvanion_ends_from_the_page(browser, table):  # noqa: F811
    table.draw("forge", {"red": 8})
    page = open_game(browser, table, "Lugvanion")
    page.locator("#lugvanion-close").click()  # confirmed (the dialog is accepted)
    page.locator("#picker").get_by_role("button", name="History").click()
    expect(page.locator("#past-games")).to_contain_text("Lugvanion")
    assert [g["game"] for g in httpx.get(table.api("history")).json()["games"]] == ["lugvanion"]
    assert [p for p in page.problems if not p.startswith("dialog: ")] == []


def test_french_words_and_typography_on_the_page(browser, table):  # noqa: F811
    for name, entry in (("Ana", {"area": {"yellow": [1, 2]}}), ("Bo", {"area": {"red": [3]}})):
        httpx.put(table.api(f"covenia/players/{name}"), json=entry).raise_for_status()
    page = open_game(browser, table, "Covenia", locale="fr-FR")
    rows = page.locator("#covenia-explained li")
    expect(rows.first).to_contain_text("\u202f: ")
    assert all(": " not in r.replace("\u202f: ", "") for r in rows.all_inner_texts())
    page.locator("#picker").get_by_role("button", name="Vengeance").click()
    page.get_by_label("Potion", exact=True).fill("2")
    page.get_by_label("Minéral", exact=True).fill("1")
    page.get_by_label("Artefacts joués (ex.\u202f12:potion, 4:minéral)").fill("12:potion")
    page.locator("#vengeance-resolve").click()
    expect(page.locator("#game-vengeance ol.steps")).to_contain_text(
        "retire toutes les potions (2)")
    httpx.post(table.api("covenia/close"), json={}).raise_for_status()
    page.locator("#picker").get_by_role("button", name="Historique").click()
    expect(page.locator("#per-player")).to_contain_text("1 jouée, 1 gagnée")
    expect(page.locator("#per-player")).to_contain_text("1 jouée, 0 gagnée")
    assert page.problems == []


def test_a_phone_that_slept_catches_up_with_a_coverta_round_made_meanwhile(browser, table):  # noqa: F811
    page = open_game(browser, table, "Coverta")
    expect(page.get_by_text("No round yet.")).to_be_visible()
    # A locked screen: the stream is cut (a server restart) and nothing comes back until
    # the wake-up (visibilitychange), which fetches the games again.
    page.route("**/api/events", lambda route: route.abort())
    page.route("**/api/coverta", lambda route: route.abort())
    table.kill()
    expect(page.locator(".live.on")).to_have_count(0)
    table.start()
    httpx.post(table.api("coverta/rounds"), json={"hands": {"Ana": 0, "Bo": 4}},
               headers={"Idempotency-Key": "slept-1"}).raise_for_status()
    page.wait_for_timeout(500)
    expect(page.get_by_text("No round yet.")).to_be_visible()
    page.unroute("**/api/coverta")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#coverta-rounds")).to_contain_text("Round 1")
    expect(page.locator("#coverta-leader")).to_have_text("Leading: Ana")


def test_the_filled_score_book_downloads_as_a_pdf_in_the_phones_language(browser, table):  # noqa: F811
    for name, entry in (("Ana", {"area": {"yellow": [1, 2]}}), ("Bo", {"area": {"red": [3]}})):
        httpx.put(table.api(f"covenia/players/{name}"), json=entry).raise_for_status()
    page = open_game(browser, table, "Covenia", locale="fr-FR")
    link = page.locator("#game-covenia a[href*='scorebook.pdf']")
    expect(link).to_be_visible()
    assert link.get_attribute("href").endswith("scorebook.pdf?lang=fr")
    with page.expect_download() as got:
        link.click()
    data = open(got.value.path(), "rb").read()
    assert data.startswith(b"%PDF-") and b"Ana" in data or len(data) > 2000
    from pypdf import PdfReader
    import io

    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Ana" in text and "Bo" in text
    assert page.problems == []


def test_an_entry_the_rules_refuse_is_refused_on_the_page_in_its_language(browser, table):  # noqa: F811
    # Deck A alone holds one red 2: a player cannot hold it twice (area and hand).
    httpx.put(table.api("covenia/decks"), json={"decks": "A"}).raise_for_status()
    page = open_game(browser, table, "Covenia", locale="fr-FR")
    page.locator("#covenia-name").fill("Ana")
    page.get_by_role("button", name="M’ajouter à la table").click()
    page.get_by_role("button", name="Rouge 2 (zone)", exact=True).click()
    page.get_by_role("button", name="Rouge 2 (main)", exact=True).click()
    page.locator("#covenia-save").click()
    error = page.locator("#game-covenia p.error")
    expect(error).to_contain_text("rouge 2")
    expect(error).not_to_contain_text("more often")  # the French words, not the CLI's
    assert httpx.get(table.api("covenia")).json()["entries"] == []  # nothing kept
    assert page.problems == []


def test_the_footer_credits_the_authors_of_the_game_shown(browser, table):  # noqa: F811
    page = open_game(browser, table, "Covenia", locale="fr-FR")
    footer = page.locator("#credits")
    expect(footer).to_contain_text("Covenia : un jeu de Nicolas Valle")
    expect(footer).not_to_contain_text("Lugvanion")
    page.locator("#picker").get_by_role("button", name="Vengeance").click()
    expect(footer).to_contain_text("Sergio Matsumoto")
    page.locator("#picker").get_by_role("button", name="Historique").click()
    for authors in ("Nicolas Valle", "Carlos Martin", "Pierre Vasseur", "Sergio Matsumoto"):
        expect(footer).to_contain_text(authors)
    page.screenshot(path=str(SHOTS / "phone-history-credits.png"), full_page=True)
    assert page.problems == []


def redrawn_by_another_phone(page, table, marker):  # noqa: F811
    """Another phone's change reaches this one (a live redraw): `marker` (a selector) is
    tagged first, and the redraw is seen when the tagged node has been replaced."""
    page.locator(marker).evaluate("n => n.dataset.old = '1'")
    httpx.put(table.api("covenia/players/Zed"), json={"area": {"red": [1]}}).raise_for_status()
    expect(page.locator(f"{marker}[data-old]")).to_have_count(0)


def test_what_a_phone_is_typing_survives_a_live_update_from_another(browser, table):  # noqa: F811
    page = open_game(browser, table, "Coverta")
    page.locator("#coverta-players").fill("Ana, Bo")
    page.locator("#coverta-players").press("Enter")
    page.locator("#coverta-players").blur()
    page.get_by_label("Ana", exact=True).fill("4")
    page.locator("#coverta-steal").select_option("Bo")
    page.get_by_label("Bo", exact=True).click()
    page.keyboard.type("12")
    redrawn_by_another_phone(page, table, "#coverta-add")
    expect(page.get_by_label("Ana", exact=True)).to_have_value("4")
    expect(page.get_by_label("Bo", exact=True)).to_have_value("12")
    expect(page.locator("#coverta-steal")).to_have_value("Bo")
    expect(page.get_by_label("Bo", exact=True)).to_be_focused()  # typing goes on
    page.keyboard.type("3")
    expect(page.get_by_label("Bo", exact=True)).to_have_value("123")
    # Vengeance's counts and Covenia's name field too
    page.locator("#picker").get_by_role("button", name="Vengeance").click()
    page.get_by_label("Potion", exact=True).fill("2")
    redrawn_by_another_phone(page, table, "#vengeance-resolve")
    expect(page.get_by_label("Potion", exact=True)).to_have_value("2")
    page.locator("#picker").get_by_role("button", name="Covenia").click()
    page.locator("#covenia-name").fill("Chl")
    redrawn_by_another_phone(page, table, "#covenia-name")
    expect(page.locator("#covenia-name")).to_have_value("Chl")
    assert page.problems == []


def test_a_coverta_round_the_rules_refuse_is_refused_in_french(browser, table):  # noqa: F811
    page = open_game(browser, table, "Coverta", locale="fr-FR")
    page.locator("#coverta-players").fill("Ana, Bo")
    page.locator("#coverta-players").press("Enter")
    page.locator("#coverta-players").blur()
    page.get_by_label("Ana", exact=True).fill("2")
    page.get_by_label("Bo", exact=True).fill("40")  # a deck of 40, one turned up: 39 at most
    page.locator("#coverta-add").click()
    error = page.locator("#game-coverta p.error")
    expect(error).to_have_text(
        "Pas fait\u202f: Bo\u202f: 40 n’est pas un nombre de cartes en main (0 à 39)")
    expect(error).not_to_contain_text("hand count")  # the French words, not the CLI's
    assert httpx.get(table.api("coverta")).json()["open"] is False  # nothing kept
    expect(page.get_by_label("Bo", exact=True)).to_have_value("40")  # to be corrected
    assert page.problems == []


def test_a_negative_vengeance_count_is_refused_in_french_on_the_page(browser, table):  # noqa: F811
    page = open_game(browser, table, "Vengeance", locale="fr-FR")
    page.get_by_label("Herbe", exact=True).fill("-1")
    page.locator("#vengeance-resolve").click()
    error = page.locator("#game-vengeance p.error")
    expect(error).to_contain_text("-1 n’est pas un nombre d’objets")
    assert page.problems == []
