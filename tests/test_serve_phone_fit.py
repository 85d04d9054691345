"""Every phone, every person: each screen of the phone page at 320 px, 390 px and in
landscape scrolls only up and down (a wide table scrolls inside its own box), every tap
target is at least 44 px, the dark mode follows the phone's setting, and the team chips
and clan values read at 4.5:1 or more. Screenshots of every screen, light and dark, in
output/screenshots/fit/."""

import contextlib
import io

import httpx
import pytest
from playwright.sync_api import expect

from companion.cli import main

from tests.test_serve_phone_page import SHOTS, browser, lan_link  # noqa: F401
from tests.web import Server

# "tidepool": a designer's own game (companion new's starter), served with --game.
SCREENS = ("Lugvanion", "Covenia", "Coverta", "Vengeance", "tidepool", "History")
SIZES = {"320": (320, 720), "390": (390, 844), "landscape": (844, 390)}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fit")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["new", "tidepool", str(folder / "tidepool")])
    s = Server(folder / "t.sqlite3", "--name", "table.lan",
               "--players", "red=Alexandrine-Léonore,blue=Bo,yellow=Cy,green=Dominique",
               "--game", str(folder / "tidepool" / "tidepool.toml")).start()
    s.draw("forge", {"red": 3, "blue": 2, "yellow": 2, "green": 1})
    for i, name in enumerate(("Alexandrine-Léonore", "Bo", "Cy", "Dominique")):
        v = [2 * i + 1, 2 * i + 2]
        httpx.put(s.api(f"covenia/players/{name}"),
                  json={"area": {c: v for c in ("red", "yellow", "green", "blue", "purple")},
                        "hand": {"yellow": [9 + i % 2]}}).raise_for_status()
    httpx.post(s.api("coverta/rounds"), json={"hands": {
        "Alexandrine-Léonore": 0, "Bo": 3, "Cy": 5, "Dominique": 1}},
        headers={"Idempotency-Key": "fit"}).raise_for_status()
    for i, name in enumerate(("Alexandrine-Léonore", "Bo", "Cy", "Dominique")):
        httpx.put(s.api(f"games/tidepool/players/{name}"),
                  json={"creatures": 10 + i, "pairs": i}).raise_for_status()
    yield s
    s.stop()


def open_screen(browser, table, screen, size, scheme="light", locale="en-GB",  # noqa: F811
                bypass_csp=False):
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True,
                                  has_touch=True, locale=locale, color_scheme=scheme,
                                  bypass_csp=bypass_csp)
    page = context.new_page()
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    said = "Historique" if screen == "History" and locale.startswith("fr") else screen
    page.locator("#picker").get_by_role("button", name=said).click()
    if screen == "Covenia":
        page.locator("#table-players button").first.click()
        expect(page.locator("#covenia-entry")).to_be_visible()
        expect(page.locator("#covenia-winner")).to_be_visible()
    if screen == "tidepool":
        page.locator("#own-tidepool-seat-0").click()
        expect(page.locator("#own-tidepool-entry")).to_be_visible()
        expect(page.locator("#own-tidepool-winner")).to_be_visible()
    if screen == "Lugvanion":
        page.locator("#vote-academy").click()
        expect(page.locator("#vote")).to_be_visible()
    return page


TARGETS = """() => [...document.querySelectorAll('button, input, select, summary, a')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return [e.id || e.className || e.tagName, Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])  # French words are longer
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_fits_the_phone_and_every_target_is_44_px(browser, table, screen,  # noqa: F811
                                                               size, locale):
    page = open_screen(browser, table, screen, size, locale=locale)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"{screen} at {size}: {wide} px wide"
    assert page.evaluate(TARGETS) == []
    folder = SHOTS / "fit"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{screen.lower()}-{size}-{locale[:2]}.png"),
                    full_page=True)
    page.context.close()


def _ratio(a, b):
    def lum(rgb):
        out = []
        for v in rgb:
            v /= 255
            out.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


COLOURS = """sel => [...document.querySelectorAll(sel)].map(e => {
  const s = getComputedStyle(e);
  const rgb = c => c.match(/\\d+/g).slice(0, 3).map(Number);
  return [e.textContent, rgb(s.color), rgb(s.backgroundColor)]; })"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chips_and_clan_values_read_at_4_5_to_1_in_either_mode(browser, table, scheme):  # noqa: F811
    page = open_screen(browser, table, "Lugvanion", "390", scheme)
    chips = page.evaluate(COLOURS, ".chip:not(.hidden)")
    assert {t for t, _, _ in chips} >= {"Cy"}  # the yellow team's chip among them
    for text, fg, bg in chips:
        assert _ratio(fg, bg) >= 4.5, (text, fg, bg)
    page.locator("#picker").get_by_role("button", name="Covenia").click()
    page.locator("#table-players button").first.click()
    values = page.evaluate(COLOURS, "#covenia-entry button.value.on")
    assert len(values) >= 5
    for text, fg, bg in values:
        assert _ratio(fg, bg) >= 4.5, (text, fg, bg)
    page.screenshot(path=str(SHOTS / "fit" / f"covenia-{scheme}.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_dark_mode_follows_the_phones_setting(browser, table, screen):  # noqa: F811
    page = open_screen(browser, table, screen, "320", "dark", "fr-FR")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    body = page.evaluate(COLOURS, "body")[0]
    _, fg, bg = body
    assert sum(bg) < 150 and sum(fg) > 600, body  # light text on a dark page
    assert _ratio(fg, bg) >= 4.5
    panel = page.evaluate(COLOURS, ".panel, .guild")[0]
    assert sum(panel[2]) < 200, panel
    page.screenshot(path=str(SHOTS / "fit" / f"{screen.lower()}-320-dark-fr.png"),
                    full_page=True)
    page.context.close()
