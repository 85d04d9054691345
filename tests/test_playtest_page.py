"""The phone's history screen shows who wins from which seat in the game chosen, with the
95% intervals (issue 34): the 120 planted plays of version 0.3 closed into a table, the panel read
at 320 and 360 px in English and French (Debian's chromium), the seat that stands out
marked, nothing cut at the side, and axe-core finding no violation of any impact in it."""

import pytest
from playwright.sync_api import expect

from tests import needs
from tests.playtest_data import history
from tests.test_playtest_api import records
from tests.test_serve_phone_page import SHOTS, browser, lan_link  # noqa: F401
from tests.web import Server


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    from companion.web.store import Store

    data = tmp_path_factory.mktemp("seats") / "t.sqlite3"
    store = Store.open(data, ["forge", "jewellery", "herbalism", "academy"], None, None,
                       [{"colour": "red", "name": ""}])
    for record in records(history(), "tidepool")[:120]:  # version 0.3: seat 1 wins 50
        store.close_game("tidepool", record)
    store.close()
    s = Server(data, "--name", "table.lan").start()
    yield s
    s.stop()


SEAT_1 = {"en-GB": "Seat 1: won 50 of 120, 42% (95% interval 33–51%): stands out (even: 25%)",
          "fr-FR": "Place 1\u202f: 50 gagnée(s) sur 120, 42\u202f% (intervalle à 95\u202f% "
                   "33–51\u202f%)\u202f: se détache (part attendue\u202f: 25\u202f%)"}
VERSION = {"en-GB": "120 games of version 0.3, the latest",
           "fr-FR": "120 parties de la version 0.3, la plus récente"}
RUN = """async () => {
  const r = await axe.run('#seat-rates', {resultTypes: ['violations']});
  return r.violations.map(v => [v.id, v.impact, v.nodes.map(n => n.target.join(' ')).join(' | ')]);
}"""


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_history_screen_shows_each_seats_rate_and_interval(browser, table,  # noqa: F811
                                                               width, locale):
    context = browser.new_context(viewport={"width": width, "height": 700}, is_mobile=True,
                                  has_touch=True, locale=locale, bypass_csp=True)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    page.locator("#picker").get_by_role(
        "button", name="Historique" if locale.startswith("fr") else "History").click()
    rows = page.locator("#seat-rates-list li")
    expect(rows).to_have_count(4)
    expect(rows.first).to_have_text(SEAT_1[locale])
    expect(rows.first).to_have_class("winner small")
    expect(page.locator("#seat-rates-game")).to_have_value("tidepool")
    expect(page.locator("#seat-rates .help")).to_contain_text(VERSION[locale])
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#seat-rates").screenshot(
        path=str(SHOTS / f"history-seats-{width}-{locale[:2]}.png"))
    page.add_script_tag(path=needs.axe())
    assert page.evaluate(RUN) == []
    assert problems == []
    context.close()
