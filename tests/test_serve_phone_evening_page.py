"""What four phones found through a whole evening (issue 55), each pinned on a 320 x 568 and
a 360 x 640 phone, in English and French, in Debian's chromium driven by playwright against
a real `companion serve`: the phone that draws sees its own result wherever its vote sat; no
name broken mid-word; a half-entered bag of an ended game not brought back; a player added
by mistake removed or renamed (the table's link unchanged); a reopened sheet whose draft is
older than the table's entry says so; Coverta's rounds table fits or says it scrolls; each
entry says which phone changed it last. Screenshots in output/screenshots/evening/."""

import httpx
import pytest
from playwright.sync_api import expect

from tests.test_serve_phone_fixes import NAMES, PHONES, fr, phone, table  # noqa: F401
from tests.test_serve_phone_page import SHOTS, browser, enter_bag  # noqa: F401

FOLDER = SHOTS / "evening"
both = pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
sizes = pytest.mark.parametrize("size", sorted(PHONES))

pytestmark = pytest.mark.browser


def shot(page, name: str) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(FOLDER / f"{name}.png"))


def plus(locale: str, name: str) -> str:
    return f"+ {name}"


def frames(page) -> None:
    """Two animation frames painted: whatever the last task changed is laid out."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def whole_in_view(page, selector: str) -> dict:
    """Where an element lies against the viewport, under the page's sticky bar."""
    return page.evaluate("""(sel) => {
        const e = document.querySelector(sel), r = e.getBoundingClientRect();
        const bar = document.querySelector('.bar').getBoundingClientRect().bottom;
        return {top: r.top, bottom: r.bottom, bar: bar, height: innerHeight};
    }""", selector)


# ---- the drawer sees its own result ---------------------------------------------------

@both
@sizes
@pytest.mark.parametrize("where", ["start", "center", "end"])
def test_the_phone_that_draws_sees_its_result_wherever_its_vote_sat(browser, table, size,
                                                                    locale, where):  # noqa: F811
    page = phone(browser, table, size, locale)
    page.locator(".guild").nth(1).get_by_role("button").click()  # a vote, on the second guild
    # the longest result a draw shows: five partisans of the longest name, and its winner
    enter_bag(page, {NAMES[0]: 8})
    draw = page.locator("#draw")
    expect(draw).to_be_enabled()
    draw.evaluate(f"b => b.scrollIntoView({{block: '{where}'}})")
    draw.click()
    expect(page.locator("#winner")).to_be_visible()
    expect(page.locator("#history li .num")).to_have_text("#1")  # the last redraw is done
    frames(page)  # a late reflow (none expected) would show here
    title = whole_in_view(page, "#result h2")
    winner = whole_in_view(page, "#winner")
    shot(page, f"drawer-{where}-{size}-{locale[:2]}")
    assert title["top"] >= title["bar"] - 1, title
    assert winner["bottom"] <= winner["height"] + 1, winner
    assert page.problems == []


# ---- no name broken inside a word -----------------------------------------------------

LONG = ("Srinivasaraghavan", "Wolfeschlegelsteinhausen", "Bo", "Cy")
BROKEN = """(names) => {
    const found = [], broken = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = walk.nextNode())) {
        const host = n.parentElement;
        if (!host || host.closest('[hidden], option, script, title')) continue;
        for (const name of names) {
            for (let i = n.data.indexOf(name); i >= 0; i = n.data.indexOf(name, i + 1)) {
                const r = document.createRange();
                r.setStart(n, i); r.setEnd(n, i + name.length);
                const boxes = [...r.getClientRects()].filter(b => b.width > 0);
                if (!boxes.length) continue;
                found.push(name);
                const tops = new Set(boxes.map(b => Math.round(b.top / 4)));
                if (tops.size > 1) broken.push(name + ' in <' + host.tagName.toLowerCase()
                                               + ' class="' + host.className + '"> of .'
                                               + (host.parentElement.className || '?') + ': '
                                               + n.data.slice(0, 50));
            }
        }
    }
    return {found: found.length, broken: broken};
}"""


GEMS = """[[scoring]]
id = "gems"
name = "Gems"
score = "majority"
award = [6, 3]

"""


@pytest.fixture
def long_names(tmp_path):
    """Four players, two with long one-word names, a Covenia game, a Coverta round and a
    designer's game entered for all four."""
    import contextlib
    import io

    from companion.cli import main
    from tests.web import Server

    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["new", "tidepool", str(tmp_path / "tidepool")])
    game = tmp_path / "tidepool" / "tidepool.toml"
    text = game.read_text(encoding="utf-8")
    end = text.index("# Where each component goes")  # a majority: lines that name players
    game.write_text(text[:end] + GEMS + text[end:], encoding="utf-8")
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan",
               "--players", ",".join(f"{c}={n}" for c, n in
                                     zip(("red", "blue", "yellow", "green"), LONG)),
               "--game", str(tmp_path / "tidepool" / "tidepool.toml")).start()
    for i, name in enumerate(LONG):
        v = [i + 1, i + 5]
        httpx.put(s.api(f"covenia/players/{name}"),
                  json={"area": {c: v for c in ("red", "yellow", "green", "blue", "purple")},
                        "hand": {"yellow": [9 + i % 2]}}).raise_for_status()
    httpx.post(s.api("coverta/rounds"), json={"hands": dict(zip(LONG, (0, 3, 5, 1)))},
               headers={"Idempotency-Key": "names"}).raise_for_status()
    for i, name in enumerate(LONG):
        httpx.put(s.api(f"games/tidepool/players/{name}"),
                  json={"creatures": i + 1, "pairs": i, "gems": (3, 3, 1, 0)[i]}
                  ).raise_for_status()
    yield s
    s.stop()


@both
@sizes
def test_no_name_breaks_inside_a_word(browser, long_names, size, locale):  # noqa: F811
    page = phone(browser, long_names, size, locale)
    seen = 0
    for game in ("Lugvanion", "Covenia", "Coverta", "tidepool"):
        page.locator("#picker").get_by_role("button", name=game).click()
        section = page.locator(f"#game-{game.lower()}")
        expect(section).to_be_visible()
        if game != "Lugvanion":  # its entries drawn, the names in them (none in Lugvanion's)
            expect(section).to_contain_text(LONG[0])
        page.locator("details").evaluate_all("ds => ds.forEach(d => d.open = true)")
        got = page.evaluate(BROKEN, list(LONG[:2]))
        shot(page, f"names-{game.lower()}-{size}-{locale[:2]}")
        assert got["broken"] == [], (game, got["broken"])
        seen += got["found"]
    assert seen >= 16  # the long names were there to measure, in every game
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > w + 1 && !e.closest('[hidden]'))
        .map(e => e.tagName + '.' + e.className + '#' + e.id + ':' + e.getBoundingClientRect().right).slice(0, 8)""", PHONES[size][0])
    assert wide == []
    over = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e =>
        e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'
        && !e.closest('[hidden]')).map(e => e.tagName + '.' + e.className + ':' + e.scrollWidth
        + '/' + e.clientWidth + ' ' + e.textContent.slice(0, 40)).slice(0, 8)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size][0], over
    assert page.problems == []


@both
@sizes
def test_coverta_rounds_table_with_four_players_fits_or_says_it_scrolls(browser, long_names,
                                                                       size, locale):  # noqa: F811
    page = phone(browser, long_names, size, locale, "Coverta")
    table = page.locator("#coverta-rounds")
    expect(table).to_be_visible()
    table.scroll_into_view_if_needed()
    fits = table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1")
    hint = page.locator(".scroll-hint")
    if not fits:
        expect(hint).to_be_visible()
        expect(hint).to_contain_text("Faites glisser" if fr(locale) else "Swipe")
    else:
        expect(hint).to_be_hidden()
    round_one = table.locator("tr").nth(1).locator("th")
    lines = round_one.evaluate("th => { const r = document.createRange(); r.selectNodeContents(th);"
                               " return new Set([...r.getClientRects()].filter(b => b.width > 0)"
                               ".map(b => Math.round(b.top))).size; }")
    assert lines == 1  # "Round 1" on one line
    shot(page, f"coverta-table-{size}-{locale[:2]}")
    if size == "360":
        assert fits, "four players fit a 360 px phone"
    assert page.problems == []


# ---- a half-entered bag of an ended game stays in it -----------------------------------

@both
@sizes
def test_a_stale_half_entered_bag_is_not_brought_back_in_a_new_game(browser, table, size,
                                                                    locale):  # noqa: F811
    page = phone(browser, table, size, locale)
    page.locator(".guild").nth(3).get_by_role("button").click()
    enter_bag(page, {NAMES[0]: 2, NAMES[1]: 1})
    context = page.context
    page.close()  # the phone sleeps: it hears nothing of what follows
    table.draw("forge", {"red": 8}).raise_for_status()
    httpx.post(table.api("lugvanion/close"), json={}).raise_for_status()
    again = context.new_page()
    again.problems = []
    again.on("pageerror", lambda e: again.problems.append(str(e)))
    from tests.test_serve_phone_page import lan_link
    again.goto(lan_link(table))
    expect(again.locator(".live.on")).to_be_visible()
    expect(again.locator("#guilds .guild")).to_have_count(4)
    # the table's state read (the guilds drawn from it) and the kept bag judged with it
    expect(again.locator("#vote")).to_be_hidden()
    assert again.evaluate("() => Object.keys(localStorage)"
                          ".filter(k => k.endsWith(':draft:lugvanion'))") == []
    shot(again, f"stale-bag-{size}-{locale[:2]}")
    assert again.problems == []


# ---- a player added by mistake ---------------------------------------------------------

@both
@sizes
def test_a_player_added_by_mistake_is_renamed_then_removed_and_the_link_stays(
        browser, table, size, locale):  # noqa: F811
    link = table.link
    httpx.post(table.api("players"), json={"name": "Eeve"}).raise_for_status()
    page = phone(browser, table, size, locale, "Covenia")
    answers = iter(["Eve", ""])
    page.on("dialog", lambda d: d.accept(next(answers)) if d.type == "prompt" else d.accept())
    page.locator("#covenia-seat-order summary").click()
    named = page.locator("#covenia-seat-order .seat-list li")
    expect(named).to_have_count(5)
    for i in range(4):  # the players named when the table started stay
        expect(page.locator(f"#covenia-seat-remove-{i}")).to_have_count(0)
    page.locator("#covenia-seat-rename-4").click()
    expect(named.nth(4)).to_contain_text("Eve")
    expect(named.nth(4)).not_to_contain_text("Eeve")
    shot(page, f"player-renamed-{size}-{locale[:2]}")
    page.locator("#covenia-seat-remove-4").click()
    expect(named).to_have_count(4)
    assert httpx.get(table.api("players")).json()["players"] == list(NAMES)
    assert table.link == link and httpx.get(link).status_code == 200  # the QR code's link
    assert page.problems == []


# ---- a reopened sheet whose draft is older than the table's entry ----------------------

@both
@sizes
def test_a_draft_older_than_the_tables_entry_says_so_and_shows_both(browser, table, size,
                                                                    locale):  # noqa: F811
    page = phone(browser, table, size, locale, "Covenia")
    page.locator("#seat-1").click()
    page.locator("#v-area-red-4").click()  # a tap, not saved: the phone's draft
    httpx.put(table.api("covenia/players/Bo"), json={"area": {"blue": [7]}, "hand": {}},
              headers={"X-Phone": "0123456789abcdef"}).raise_for_status()  # another phone
    page.reload()
    expect(page.locator(".live.on")).to_be_visible()
    older = page.locator("#covenia-older")
    expect(older).to_be_visible()
    expect(older).to_contain_text("plus ancien" if fr(locale) else "older than the table")
    held = page.locator("#covenia-older-entry")
    expect(held).to_contain_text("7")
    expect(page.locator("#v-area-red-4")).to_have_attribute("aria-pressed", "true")
    older.scroll_into_view_if_needed()
    shot(page, f"draft-older-{size}-{locale[:2]}")
    mark = page.locator("#covenia-entry .changed")
    expect(mark).to_contain_text("un autre téléphone (0123)" if fr(locale)
                                 else "another phone (0123)")
    page.locator("#covenia-take-table").click()
    expect(older).to_have_count(0)
    expect(page.locator("#v-area-blue-7")).to_have_attribute("aria-pressed", "true")
    assert page.problems == []


# ---- "End this game", undone in time ---------------------------------------------------

@both
def test_end_this_game_can_be_undone_for_a_few_seconds(browser, table, locale):  # noqa: F811
    for name in NAMES[:2]:
        httpx.put(table.api(f"covenia/players/{name}"),
                  json={"area": {"red": [1]}, "hand": {}}).raise_for_status()
    page = phone(browser, table, "320", locale, "Covenia")
    page.clock.install()  # the countdown's seconds run when the test says, not the machine
    page.locator("#covenia-close").click()
    bar = page.locator("#closing")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("se termine dans" if fr(locale) else "ends in")
    shot(page, f"ending-{locale[:2]}")
    page.locator("#closing-undo").click()
    expect(bar).to_be_hidden()
    page.clock.run_for(7000)  # past the countdown: nothing was sent
    assert httpx.get(table.api("covenia")).json()["open"] is True
    page.locator("#covenia-close").click()
    expect(bar).to_be_visible()
    page.clock.run_for(7000)
    expect(page.locator("#covenia-totals")).to_have_count(0)  # ended once the bar ran out
    assert httpx.get(table.api("covenia")).json()["open"] is False
    assert page.problems == []
