"""What a play records, on the phones (issue 34), in Debian's chromium at 360 and 320 px,
English and French: every phone shows each player's seat number next to her name (1 =
the first player), the table's seat order changes from one phone and every other phone
follows, and a designer's game whose file lists `[game] factions` offers the faction as
a choice on her sheet, sent with her entry. axe-core finds nothing, of any impact, on
these screens. Screenshots in output/screenshots/."""

import contextlib
import io

import httpx
import pytest
from playwright.sync_api import expect

from companion.cli import main
from tests import needs
from tests.test_serve_phone_page import SHOTS, browser, lan_link  # noqa: F401
from tests.web import Server

AXE = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => [v.id, v.impact,
                                v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')]);
}"""


@pytest.fixture
def table(tmp_path):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["new", "tidepool", str(tmp_path / "tidepool")])
    game = tmp_path / "tidepool" / "tidepool.toml"
    game.write_text(game.read_text().replace(
        "[game]\n", '[game]\nversion = "0.3"\nfactions = ["Otters", "Crabs", "Gulls"]\n', 1))
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan", "--game", str(game)).start()
    for name in ("Ana", "Bo", "Chloé"):
        httpx.post(s.api("players"), json={"name": name}).raise_for_status()
    yield s
    s.stop()


def phone(browser, width, locale="en-GB", bypass_csp=False):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 740},
                                  device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale=locale, bypass_csp=bypass_csp)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return page


def open_game(page, table, game):
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    page.locator("#picker").get_by_role("button", name=game).click()


def seat_and_name(page, button):
    return page.locator(button).evaluate(
        "b => [b.querySelector('.seat').textContent, b.lastChild.textContent]")


@pytest.mark.parametrize("width", [360, 320])
def test_every_phone_shows_the_seats_and_follows_a_new_seat_order(browser, table, width):  # noqa: F811
    ana = phone(browser, width)
    bo = phone(browser, width, "fr-FR")
    open_game(ana, table, "Covenia")
    open_game(bo, table, "tidepool")
    # each name with her seat, on every game's picker, in both languages
    expect(ana.locator("#seat-2")).to_contain_text("Chloé")
    assert [seat_and_name(ana, f"#seat-{i}") for i in range(3)] == [
        ["1", "Ana"], ["2", "Bo"], ["3", "Chloé"]]
    expect(bo.locator("#own-tidepool-seat-2")).to_contain_text("Chloé")
    assert seat_and_name(bo, "#own-tidepool-seat-0") == ["1", "Ana"]
    for page in (ana, bo):  # nothing cut at this width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Chloé plays first: two taps on one phone, and every phone follows
    ana.locator("#covenia-seat-order summary").click()
    ana.get_by_role("button", name="Move Chloé one seat earlier").click()
    expect(ana.locator("#covenia-seat-up-1")).to_have_attribute(
        "aria-label", "Move Chloé one seat earlier")
    expect(ana.locator("#covenia-seat-up-1")).to_be_enabled()
    ana.get_by_role("button", name="Move Chloé one seat earlier").click()
    expect(bo.locator("#own-tidepool-seat-0")).to_contain_text("Chloé")
    assert [seat_and_name(bo, f"#own-tidepool-seat-{i}") for i in range(3)] == [
        ["1", "Chloé"], ["2", "Ana"], ["3", "Bo"]]
    assert httpx.get(table.api("players")).json()["seats"] == {"Chloé": 1, "Ana": 2, "Bo": 3}
    expect(ana.locator("#covenia-seat-order")).to_have_attribute("open", "")  # stays open
    expect(ana.locator("#covenia-seat-order .seat-list")).to_contain_text("Chloé")
    small = ana.locator("#covenia-seat-order summary, #covenia-seat-order button").evaluate_all(
        "es => es.map(e => e.getBoundingClientRect())"
        ".filter(r => r.width < 44 || r.height < 44).length")
    assert small == 0  # every target of the seat order at least 44 px
    bo.locator("#own-tidepool-seat-order summary").click()
    expect(bo.locator("#own-tidepool-seat-order")).to_contain_text("Ordre des places")
    SHOTS.mkdir(parents=True, exist_ok=True)
    ana.screenshot(path=str(SHOTS / f"phone-seats-{width}-en.png"), full_page=True)
    bo.screenshot(path=str(SHOTS / f"phone-seats-{width}-fr.png"), full_page=True)
    assert ana.problems == [] and bo.problems == []


@pytest.mark.parametrize("width, locale", [(360, "en-GB"), (320, "fr-FR")])
def test_a_player_chooses_her_faction_with_her_entry(browser, table, width, locale):  # noqa: F811
    page = phone(browser, width, locale)
    open_game(page, table, "tidepool")
    page.locator("#own-tidepool-seat-1").click()  # Bo
    choice = page.locator("#own-tidepool-faction")
    expect(choice).to_be_visible()
    assert choice.evaluate("s => [...s.options].map(o => o.value)") == [
        "", "Otters", "Crabs", "Gulls"]
    expect(page.get_by_label("Faction", exact=True)).to_have_value("")
    choice.select_option("Gulls")
    page.locator("#own-tidepool-creatures").fill("7")
    page.locator("#own-tidepool-pairs").fill("1")
    page.locator("#own-tidepool-save").click()
    expect(page.locator("#own-tidepool-scores")).to_contain_text("8")
    assert httpx.get(table.api("games/tidepool")).json()["factions"] == {"Bo": "Gulls"}
    # another phone's choice reaches this one's sheet (the table's, not saved here)
    httpx.put(table.api("games/tidepool/players/Bo"),
              json={"creatures": 7, "pairs": 1, "faction": "Otters"}).raise_for_status()
    expect(choice).to_have_value("Otters")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"phone-faction-{width}-{locale[:2]}.png"),
                    full_page=True)
    assert page.problems == []


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_axe_finds_nothing_on_the_seats_and_the_faction(browser, table, locale):  # noqa: F811
    axe = needs.axe()
    page = phone(browser, 360, locale, bypass_csp=True)
    open_game(page, table, "tidepool")
    page.locator("#own-tidepool-seat-0").click()
    page.locator("#own-tidepool-seat-order summary").click()
    expect(page.locator("#own-tidepool-faction")).to_be_visible()
    page.add_script_tag(path=axe)
    found = page.evaluate(AXE)
    assert found == [], "\n".join(" ".join(map(str, v)) for v in found)
