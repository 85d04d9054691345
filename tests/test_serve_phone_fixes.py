"""What four players felt at a phone table (issue 34), each pinned on a 320 x 568 and a
360 x 640 phone, in English and French, in Debian's chromium driven by playwright against
a real `companion serve`: every player's total in view, a save kept and sent again while
the table (the laptop) is down, with a banner that says so, unsaved taps and the chosen
player kept across a reload, a draw collision on another guild that keeps the bag, a
Vengeance turn shown on every phone, a join button that says what it does, her name that
brings her grid up, and Save and Draw on screen. Screenshots in
output/screenshots/phonefix/."""

import contextlib
import io

import httpx
import pytest
from playwright.sync_api import expect

from companion.cli import main
from companion.web.games.vengeance import resolve

from tests.test_serve_phone_page import SHOTS, browser, enter_bag, lan_link  # noqa: F401
from tests.web import Server

NAMES = ("Alexandrine-Léonore", "Bo", "Cy", "Dominique")
PHONES = {"320": (320, 568), "360": (360, 640)}
FOLDER = SHOTS / "phonefix"


def fr(locale: str) -> bool:
    return locale.startswith("fr")


@pytest.fixture
def table(tmp_path):
    """Four named players (long names, as at a real table) and a designer's game."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["new", "tidepool", str(tmp_path / "tidepool")])
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan",
               "--players", ",".join(f"{c}={n}" for c, n in
                                     zip(("red", "blue", "yellow", "green"), NAMES)),
               "--game", str(tmp_path / "tidepool" / "tidepool.toml")).start()
    yield s
    s.stop()


def phone(browser, table, size, locale, game=None):  # noqa: F811
    w, h = PHONES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True,
                                  has_touch=True, locale=locale)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    if game:
        page.locator("#picker").get_by_role("button", name=game).click()
    return page


def shot(page, name: str, full: bool = False) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(FOLDER / f"{name}.png"), full_page=full)


def in_view(page, selector: str, scroll: bool = False) -> None:
    """Waits until the element is whole in the viewport and on top there (a tap on it
    reaches it, no scrolling). `scroll`: brought into view first (a redraw by a live
    update may replace it meanwhile: each try finds it again)."""
    page.wait_for_function("""([sel, scroll]) => {
        const e = document.querySelector(sel);
        if (!e) return false;
        if (scroll) e.scrollIntoView({block: 'center'});
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight
            || r.right > innerWidth) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && (hit === e || e.contains(hit));
    }""", arg=[selector, scroll])


both = pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
sizes = pytest.mark.parametrize("size", sorted(PHONES))


@both
@sizes
def test_every_players_total_is_whole_on_the_phone(browser, table, size, locale):  # noqa: F811
    for i, name in enumerate(NAMES):
        v = [2 * i + 1, 2 * i + 2]
        httpx.put(table.api(f"covenia/players/{name}"),
                  json={"area": {c: v for c in ("red", "yellow", "green", "blue", "purple")},
                        "hand": {"yellow": [9 + i % 2]}}).raise_for_status()
    httpx.post(table.api("coverta/rounds"), json={"hands": dict(zip(NAMES, (0, 3, 5, 1)))},
               headers={"Idempotency-Key": "fit"}).raise_for_status()
    covenia = {p["name"]: p["total"]
               for p in httpx.get(table.api("covenia")).json()["score"]["players"]}
    coverta = httpx.get(table.api("coverta")).json()["score"]["totals"]
    page = phone(browser, table, size, locale, "Covenia")
    for game, want in (("covenia", covenia), ("coverta", coverta)):
        if game == "coverta":
            page.locator("#picker").get_by_role("button", name="Coverta").click()
        lines = page.locator(f"#{game}-totals li")
        expect(lines).to_have_count(4)
        for i, name in enumerate(NAMES):
            expect(lines.nth(i).locator(".who")).to_have_text(name)
            expect(lines.nth(i).locator(".points")).to_have_text(str(want[name]))
            in_view(page, f"#{game}-totals li:nth-child({i + 1}) .points", scroll=True)
        in_view(page, f"#{game}-totals li:first-child", scroll=True)
        shot(page, f"{game}-totals-{size}-{locale[:2]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size][0]
    assert page.problems == []


@both
@sizes
def test_a_save_made_while_the_table_is_down_is_sent_again_when_it_is_back(
        browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale, "Covenia")
    keys = []
    page.on("request", lambda r: keys.append(r.headers.get("idempotency-key"))
            if r.method == "PUT" and "/covenia/players/" in r.url else None)
    page.locator("#seat-1").click()
    page.locator("#v-area-red-4").click()
    banner = page.locator("#unreachable")
    expect(banner).to_be_hidden()
    table.kill()
    page.locator("#covenia-save").click()
    # Not the phone's fault: the table (the laptop) is named, and the change is kept.
    said = "La table (l’ordinateur) est injoignable" if fr(locale) else \
        "The table (the laptop) cannot be reached"
    expect(banner).to_contain_text(said)
    expect(page.locator("#covenia-entry .error")).to_have_count(0)
    assert "Wi-Fi" not in banner.inner_text()
    shot(page, f"unreachable-{size}-{locale[:2]}")
    table.start()
    expect(page.locator("#covenia-save")).to_have_text("Enregistré" if fr(locale) else "Saved")
    expect(banner).to_be_hidden()
    assert httpx.get(table.api("covenia/players/Bo")).json()["area"] == {"red": [4]}
    assert len(keys) >= 2 and len(set(keys)) == 1, keys  # sent again, with its key
    assert page.problems == []


@both
@sizes
def test_unsaved_taps_and_the_chosen_player_come_back_after_a_reload(
        browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale, "Covenia")
    page.locator("#seat-2").click()
    taps = [("area", "red", 3), ("area", "red", 5), ("area", "blue", 7), ("hand", "green", 2),
            ("area", "purple", 10)]
    for part, clan, v in taps:
        page.locator(f"#v-{part}-{clan}-{v}").click()
    page.reload()
    expect(page.locator("#covenia-entry h2")).to_have_text("Cy")
    for part, clan, v in taps:
        expect(page.locator(f"#v-{part}-{clan}-{v}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#covenia-save")).to_have_text("Enregistrer" if fr(locale) else "Save")
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Enregistré" if fr(locale) else "Saved")
    assert httpx.get(table.api("covenia/players/Cy")).json()["hand"] == {"green": [2]}
    # Once saved, the draft goes; a draft of a game that ends goes with it.
    page.locator("#v-area-yellow-1").click()
    httpx.put(table.api("covenia/players/Bo"), json={"area": {"red": [1]}}).raise_for_status()
    httpx.post(table.api("covenia/close"), json={}).raise_for_status()  # another phone
    expect(page.locator("#covenia-entry button.value[aria-pressed=true]")).to_have_count(0)
    page.reload()
    expect(page.locator("#covenia-entry h2")).to_have_text("Cy")
    expect(page.locator("#covenia-entry button.value[aria-pressed=true]")).to_have_count(0)
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('draft'))") == []
    # A designer's game remembers who she is too.
    page.locator("#picker").get_by_role("button", name="tidepool").click()
    page.locator("#own-tidepool-seat-3").click()
    expect(page.locator("#own-tidepool-entry h2")).to_have_text("Dominique")
    page.reload()
    expect(page.locator("#own-tidepool-entry h2")).to_have_text("Dominique")
    page.locator("#picker").get_by_role("button", name="Covenia").click()
    expect(page.locator("#covenia-entry h2")).to_have_text("Cy")
    assert page.problems == []


@both
@sizes
def test_a_coverta_round_typed_and_not_added_comes_back_after_a_reload(
        browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale, "Coverta")
    for i, n in enumerate(("2", "0", "7", "1")):
        page.locator(f"#coverta-count-{i}").fill(n)
    page.locator("#coverta-steal").select_option("Cy")
    page.reload()
    for i, n in enumerate(("2", "0", "7", "1")):
        expect(page.locator(f"#coverta-count-{i}")).to_have_value(n)
    expect(page.locator("#coverta-steal")).to_have_value("Cy")
    page.locator("#coverta-add").click()
    expect(page.locator("#coverta-totals li")).to_have_count(4)
    assert httpx.get(table.api("coverta")).json()["rounds"][0]["hands"] == dict(
        zip(NAMES, (2, 0, 7, 1)))
    page.reload()  # added: nothing of it left to bring back
    expect(page.locator("#coverta-totals li")).to_have_count(4)
    expect(page.locator("#coverta-count-2")).to_have_value("")
    assert page.problems == []


@both
@sizes
def test_a_draw_on_another_guild_keeps_this_phones_bag_and_says_why(
        browser, table, size, locale):  # noqa: F811
    one = phone(browser, table, size, "en-GB")
    two = phone(browser, table, size, locale)
    one.locator("#vote-forge").click()
    enter_bag(one, {"Bo": 8})
    two.locator("#vote-herbalism").click()
    enter_bag(two, {"Cy": 5, "Dominique": 3})
    # The second phone hears nothing of the first's draw before it taps Draw (at once).
    two.evaluate("window.tableSource.close()")
    one.locator("#draw").click()
    expect(one.locator("#winner")).to_have_text("Bo wins the Forge")
    two.locator("#draw").click()
    notice = two.locator("#vote-notice")
    expect(notice).to_contain_text(
        "Un autre téléphone a tiré Forge d’abord (tirage n°\u00a01). Rien n’a été tiré "
        "pour Herboristerie" if fr(locale) else
        "Another phone drew Forge first (draw #1). Nothing was drawn for Herbalism")
    # Its bag is kept, under the table's new seal; nothing of the other draw to undo here.
    expect(two.locator("#vote .count")).to_have_text(["0", "0", "5", "3"])
    expect(two.locator("#vote .hex")).to_have_text(table.state()["commitment"])
    expect(two.locator("#result")).to_be_hidden()
    shot(two, f"collision-{size}-{locale[:2]}")
    two.locator("#draw").click()
    expect(two.locator("#winner")).to_be_visible()
    draws = table.state()["draws"]
    assert [d["guild"] for d in draws] == ["forge", "herbalism"]
    undo = "Annuler ce tirage" if fr(locale) else "Undo this draw"
    expect(two.get_by_role("button", name=undo)).to_be_visible()
    # The first phone sees the second's draw live, with no Undo: it did not draw it.
    expect(one.locator("#winner")).to_contain_text("Herbalism")
    expect(one.get_by_role("button", name="Undo this draw")).to_have_count(0)
    assert one.problems == [] and two.problems == []


@both
@sizes
def test_a_turn_resolved_on_one_phone_is_shown_on_every_phone(
        browser, table, size, locale):  # noqa: F811
    one = phone(browser, table, size, locale, "Vengeance")
    two = phone(browser, table, size, "fr-FR" if not fr(locale) else "en-GB", "Vengeance")
    one.locator("#vengeance-herb").fill("3")
    one.locator("#vengeance-mineral").fill("1")
    one.locator("#vengeance-potion").fill("2")
    one.locator("#vengeance-artifacts").fill("12:potion")
    one.locator("#vengeance-resolve").click()
    expect(one.locator("#vengeance-winner")).to_be_visible()
    answer = resolve({"herb": 3, "mineral": 1, "potion": 2, "artifacts": ["12:potion"]})
    word = {"en": {"herb": "Herb", "mineral": "Mineral", "potion": "Potion"},
            "fr": {"herb": "Herbe", "mineral": "Minéral", "potion": "Potion"}}
    two_lang = "en" if fr(locale) else "fr"
    said = ("Winner: " if two_lang == "en" else "Gagnant : ") + word[two_lang][answer["winner"]]
    expect(two.locator("#vengeance-winner")).to_have_text(said)
    expect(two.locator("#vengeance-from")).to_contain_text("12:potion")
    shot(two, f"vengeance-other-{size}-{two_lang}", full=True)
    assert one.problems == [] and two.problems == []


@both
@sizes
def test_the_join_button_says_what_it_does(browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale, "Covenia")
    join = page.locator("#covenia-join")
    expect(join).to_have_text("M’ajouter à la table" if fr(locale) else "Add me to the table")
    page.locator("#covenia-name").fill("Zoé")
    join.click()
    expect(page.locator("#covenia-entry h2")).to_have_text("Zoé")
    assert page.problems == []


@both
@sizes
def test_her_name_brings_up_her_grid(browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale, "Covenia")
    page.locator("#seat-3").click()
    # Her grid comes up, just under the page's bar.
    page.wait_for_function("""() => {
        const e = document.getElementById('covenia-entry');
        const bar = document.querySelector('.bar').getBoundingClientRect().bottom;
        if (!e) return false;
        const top = e.getBoundingClientRect().top;
        return top >= bar - 1 && top < innerHeight / 3;
    }""")
    shot(page, f"covenia-grid-{size}-{locale[:2]}")
    assert page.problems == []


@both
@sizes
def test_save_and_draw_are_on_screen_without_scrolling(browser, table, size,  # noqa: F811
                                                       locale):
    page = phone(browser, table, size, locale, "Covenia")
    page.locator("#seat-0").click()
    # Wherever her grid is on screen (its top, its middle), its Save is there too.
    page.locator("#covenia-entry h2").evaluate("e => e.scrollIntoView({block: 'start'})")
    in_view(page, "#covenia-save")
    page.locator("#v-hand-red-5").evaluate("e => e.scrollIntoView({block: 'center'})")
    in_view(page, "#covenia-save")
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text("Enregistré" if fr(locale) else "Saved")
    # The vote: its Draw on screen as soon as the vote opens, and once the bag is full.
    page.locator("#picker").get_by_role("button", name="Lugvanion").click()
    page.locator("#vote-herbalism").click()
    expect(page.locator("#vote h2")).to_have_text("Vote\u00a0: Herboristerie" if fr(locale)
                                                  else "Vote: Herbalism")
    in_view(page, "#draw")
    enter_bag(page, {"Bo": 4, "Cy": 4})
    in_view(page, "#draw")
    shot(page, f"vote-{size}-{locale[:2]}")
    page.locator("#draw").click()
    expect(page.locator("#winner")).to_be_visible()
    assert page.problems == []
