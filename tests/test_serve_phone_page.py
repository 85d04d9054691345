"""The phone page in a real browser: Debian's chromium driven by playwright, opened as
http://table.lan:PORT (a LAN-like name, so the page runs outside a secure context)."""

import pytest
from playwright.sync_api import expect, sync_playwright

from tests import needs
from tests.web import ROOT, Server

SHOTS = ROOT / "output" / "screenshots"
EVIL = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def browser():
    chromium = needs.tool("chromium")  # Debian's; .ci/run installs it
    # Every expectation waits on an event; on a loaded machine (the whole suite with a
    # build beside it) an answer can take far longer than playwright's 5 s default; waiting
    # costs nothing once the event comes, so no expectation here waits less than a minute.
    expect.set_options(timeout=60_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--host-resolver-rules=MAP table.lan 127.0.0.1"])
        yield b
        b.close()


@pytest.fixture
def table(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan",
               "--players", f"red=Alice,blue={EVIL},green=Chloé").start()
    yield s
    s.stop()


def phone(browser, locale="en-GB"):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, locale=locale)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("dialog", lambda d: (page.problems.append("dialog: " + d.message), d.accept()))
    page.on("request", lambda r: None if "table.lan" in r.url else page.problems.append(r.url))
    return page


def lan_link(table: Server) -> str:
    return table.link.replace("127.0.0.1", "table.lan")


def enter_bag(page, counts: dict[str, int]) -> None:
    for name, n in counts.items():
        for _ in range(n):
            page.get_by_role("button", name=f"+ {name}").click()


def test_a_phone_enters_a_bag_draws_and_sees_the_winner_reveal(browser, table):
    page = phone(browser)
    page.goto(lan_link(table))
    assert page.evaluate("window.isSecureContext") is False
    expect(page.locator(".live.on")).to_be_visible()
    page.locator(".guild", has_text="Forge").get_by_role("button", name="Vote").click()
    enter_bag(page, {"Alice": 3, EVIL: 3, "Chloé": 2})
    expect(page.get_by_text("8 of 8 in the bag")).to_be_visible()
    expect(page.get_by_text(EVIL).first).to_be_visible()  # the hostile name, as text
    expect(page.locator(".stepper .chance").first).to_have_text("50 % · 1/2")  # exact odds shown
    sealed = table.state()["commitment"]
    expect(page.locator("#vote .hex")).to_have_text(sealed)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-vote.png"))
    page.evaluate("""() => {
        window.seen = [];
        new MutationObserver(() => {
            const n = document.querySelectorAll('#result .drawn .chip:not(.hidden)').length;
            const spoiled = !!document.querySelector('.guild .chip');
            const last = window.seen[window.seen.length - 1];
            if (!last || last[0] !== n || last[1] !== spoiled) window.seen.push([n, spoiled]);
        }).observe(document.body, {childList: true, subtree: true});
    }""")
    page.locator("#draw").click()
    winner = page.locator("#winner")
    expect(winner).to_be_visible()
    # The partisans came out one by one; no guild showed a holder before the last one.
    seen = page.evaluate("window.seen")
    counts = [n for n, _ in seen]
    assert counts[:6] == [0, 1, 2, 3, 4, 5], seen
    assert all(not spoiled for n, spoiled in seen if n < 5)
    d = table.state()["draws"][0]
    name = {"red": "Alice", "blue": EVIL, "green": "Chloé"}[d["winner"]]
    expect(winner).to_have_text(f"{name} wins the Forge")
    expect(page.locator(".seal.ok")).to_be_visible()
    expect(page.locator("#seed")).to_have_text(d["seed"])
    expect(page.locator(".guild", has_text="Forge").locator(".chip")).to_have_text(name)
    page.screenshot(path=str(SHOTS / "phone-result.png"), full_page=True)
    # The hostile name never became an element (whether or not the draw picked its
    # partisans: 1 draw in 56 picks none, and the name then shows nowhere after the bag).
    assert page.locator("img").count() == 0
    assert page.problems == []


def test_a_second_phone_sees_the_same_draw_live_and_in_french(browser, table):
    first, second = phone(browser), phone(browser, locale="fr-FR")
    first.goto(lan_link(table))
    second.goto(lan_link(table))
    expect(second.get_by_role("heading", name="Guildes")).to_be_visible()
    expect(second.locator(".live.on")).to_be_visible()
    first.locator(".guild", has_text="Academy").get_by_role("button", name="Vote").click()
    enter_bag(first, {"Alice": 8})
    first.locator("#draw").click()
    expect(second.locator("#winner")).to_have_text("Alice remporte la guilde Académie")
    expect(second.locator(".history li")).to_have_count(1)
    second.screenshot(path=str(SHOTS / "phone-second-fr.png"))
    second.get_by_role("button", name="English").click()
    expect(second.locator("#winner")).to_have_text("Alice wins the Academy")
    assert first.problems == [] and second.problems == []


def test_a_phone_that_slept_catches_up_with_draws_made_meanwhile(browser, table):
    page = phone(browser)
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    # The state read when the stream opened has been shown (on a loaded machine it can
    # still be on its way when the stream shows live; held back below, it would never come).
    expect(page.locator(".history li.empty")).to_have_count(1)
    # A locked screen: the stream is cut (here by a server restart) and cannot come back
    # while two draws happen; only the wake-up (visibilitychange) can bring them in.
    # The state is held back too until the wake: a reconnection attempt's own resync
    # would otherwise race the check that nothing came in before it.
    page.route("**/api/events", lambda route: route.abort())
    page.route("**/api/state", lambda route: route.abort())
    table.kill()
    expect(page.locator(".live.on")).to_have_count(0)
    table.start()
    table.draw("forge", {"red": 8})
    table.draw("herbalism", {"green": 8})
    page.wait_for_timeout(500)
    expect(page.locator(".history li.empty")).to_have_count(1)
    page.unroute("**/api/state")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator(".history li")).to_have_count(2)
    expect(page.locator(".guild", has_text="Herbalism").locator(".chip")).to_have_text("Chloé")


def test_the_governor_is_announced_on_every_phone(browser, table):
    page = phone(browser)
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    table.draw("forge", {"red": 8})
    table.draw("academy", {"red": 6, "blue": 2})
    expect(page.locator("#governor")).to_contain_text("Alice holds two guilds")
    expect(page.locator("#winner")).to_have_text("Alice wins the Academy")
    expect(page.locator(".guild").first.get_by_role("button", name="Vote")).to_be_disabled()
    page.screenshot(path=str(SHOTS / "phone-governor.png"))
