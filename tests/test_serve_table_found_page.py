"""What four phones found at a real table (issue 42), each pinned on a 320 x 568 and a
360 x 640 phone, in English and French, in Debian's chromium driven by playwright against
a real `companion serve`: a designer's sheet (figures and faction) and a half-entered
Lugvanion bag come back after a reload; a name in the vote never breaks inside a word;
the check line a phone shows is what stands on the guild, and it verifies as typed; a
change made offline is sent again as soon as the live stream reopens; another phone's
draw comes up under the page's bar; the pinned Save bar is small and holds no Delete; a
designer's sheet refused for a change elsewhere names its figures. Screenshots in
output/screenshots/found/."""

import re
import contextlib
import io

import httpx
import pytest
from playwright.sync_api import expect

from companion.cli import main
from tests import needs
from tests.test_serve_phone_page import SHOTS, browser, enter_bag, lan_link  # noqa: F401
from tests.web import Server

pytestmark = pytest.mark.browser

NAMES = ("Alice", "Chloé", "Alexandrine-Léonore", "Bo")
COLOURS = ("red", "blue", "yellow", "green")
PHONES = {"320": (320, 568), "360": (360, 640)}
FOLDER = SHOTS / "found"
FACTIONS = ("Otters", "Crabs", "Gulls")

both = pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
sizes = pytest.mark.parametrize("size", sorted(PHONES))


def fr(locale: str) -> bool:
    return locale.startswith("fr")


@pytest.fixture
def table(tmp_path):
    """Four named players (Alice and Chloé, the names that broke) and a designer's game
    whose players pick a faction."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["new", "tidepool", str(tmp_path / "tidepool")])
    game = tmp_path / "tidepool" / "tidepool.toml"
    game.write_text(game.read_text().replace(
        "[game]\n", "[game]\nfactions = [" + ", ".join(f'"{f}"' for f in FACTIONS) + "]\n", 1))
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan",
               "--players", ",".join(f"{c}={n}" for c, n in zip(COLOURS, NAMES)),
               "--game", str(game)).start()
    yield s
    s.stop()


# Every fetch and every stream event a page makes, stamped with performance.now().
LOG = """(() => {
  window.log = [];
  const Stream = window.EventSource;
  window.EventSource = function (url) {
    const s = new Stream(url);
    s.addEventListener('open', () => window.log.push(['open', performance.now()]));
    return s;
  };
  window.EventSource.prototype = Stream.prototype;
  const fetched = window.fetch;
  window.fetch = function (url, init) {
    window.log.push([(init && init.method) || 'GET', performance.now(),
                     String(url).split('/api/')[1]]);
    return fetched.apply(this, arguments);
  };
  addEventListener('online', () => window.log.push(['online', performance.now()]));
})()"""


def phone(browser, table, size, locale, game=None, log=False):  # noqa: F811
    w, h = PHONES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=True,
                                  has_touch=True, locale=locale, bypass_csp=True)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    if log:
        page.add_init_script(LOG)
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    if game:
        page.locator("#picker").get_by_role("button", name=game).click()
    return page


AXE = """async where => {
  const r = await axe.run(where || document, {resultTypes: ['violations']});
  return r.violations.map(v => [v.id, v.impact,
                                v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')]);
}"""


def axe_finds_nothing(page, where: str | None = None) -> None:
    """axe-core on the page (or one part of it): no violation of any impact."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=needs.axe())
    found = page.evaluate(AXE, where)
    assert found == [], "\n".join(" ".join(v) for v in found)


def shot(page, name: str, full: bool = False) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(FOLDER / f"{name}.png"), full_page=full)


def saved(locale: str) -> str:
    return "Enregistré" if fr(locale) else "Saved"


# ---- a reload keeps what was typed ------------------------------------------------------

@both
@sizes
def test_a_designers_sheet_and_faction_come_back_after_a_reload(browser, table, size,  # noqa: F811
                                                                locale):
    page = phone(browser, table, size, locale, "tidepool")
    page.locator("#own-tidepool-seat-1").click()
    page.locator("#own-tidepool-faction").select_option("Crabs")
    page.locator("#own-tidepool-creatures").fill("17")
    page.locator("#own-tidepool-pairs").fill("3")
    # her preview answered: what she typed has been read by the page
    expect(page.locator("#own-tidepool-preview")).to_contain_text("20")
    page.reload()
    expect(page.locator("#own-tidepool-entry h2")).to_have_text("Chloé")
    expect(page.locator("#own-tidepool-creatures")).to_have_value("17")
    expect(page.locator("#own-tidepool-pairs")).to_have_value("3")
    expect(page.locator("#own-tidepool-faction")).to_have_value("Crabs")
    expect(page.locator("#own-tidepool-save")).to_have_text(
        "Enregistrer" if fr(locale) else "Save")  # not saved yet: it says so
    expect(page.locator("#own-tidepool-preview")).to_contain_text("20")
    shot(page, f"own-reload-{size}-{locale[:2]}", full=True)
    axe_finds_nothing(page)
    page.locator("#own-tidepool-save").click()
    expect(page.locator("#own-tidepool-save")).to_have_text(saved(locale))
    d = httpx.get(table.api("games/tidepool")).json()
    assert d["factions"] == {"Chloé": "Crabs"}
    assert [(e["name"], e["creatures"], e["pairs"]) for e in d["entries"]] == [
        ("Chloé", 17, 3)]
    # Saved: nothing left to bring back; the table's copy shows after a reload.
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('draft'))") == []
    page.locator("#own-tidepool-creatures").fill("5")
    httpx.post(table.api("games/tidepool/close"), json={}).raise_for_status()  # elsewhere
    expect(page.locator("#own-tidepool-creatures")).to_have_value("")
    page.reload()
    expect(page.locator("#own-tidepool-entry h2")).to_have_text("Chloé")
    expect(page.locator("#own-tidepool-creatures")).to_have_value("")
    expect(page.locator("#own-tidepool-faction")).to_have_value("")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('draft'))") == []
    assert page.problems == []


@both
@sizes
def test_a_half_entered_bag_comes_back_after_a_reload(browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale)
    page.locator("#vote-academy").click()
    enter_bag(page, {"Chloé": 3, "Bo": 2})
    page.reload()
    expect(page.locator("#vote h2")).to_have_text(
        "Vote\u00a0: Académie" if fr(locale) else "Vote: Academy")
    expect(page.locator("#vote .count")).to_have_text(["0", "3", "0", "2"])
    shot(page, f"bag-reload-{size}-{locale[:2]}")
    axe_finds_nothing(page)
    enter_bag(page, {"Alice": 3})
    page.locator("#draw").click()
    expect(page.locator("#winner")).to_be_visible()
    draws = table.state()["draws"]
    assert [(d["guild"], d["bag"]) for d in draws] == [
        ("academy", {"red": 3, "blue": 3, "green": 2})]
    page.reload()  # drawn: no vote comes back
    expect(page.locator(".history li")).to_have_count(1)
    expect(page.locator("#vote")).to_be_hidden()
    # A vote cancelled does not come back either.
    page.locator("#vote-forge").click()
    enter_bag(page, {"Bo": 1})
    page.locator("#vote").get_by_role("button", name="Annuler" if fr(locale) else "Cancel").click()
    page.reload()
    expect(page.locator(".history li")).to_have_count(1)
    expect(page.locator("#vote")).to_be_hidden()
    # Nor one another phone drew while this one was away (its screen locked).
    page.locator("#vote-herbalism").click()
    enter_bag(page, {"Bo": 2})
    page.goto("about:blank")
    table.draw("herbalism", {"blue": 8})
    page.goto(lan_link(table))
    expect(page.locator(".history li")).to_have_count(2)
    expect(page.locator("#vote")).to_be_hidden()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('draft'))") == []
    assert page.problems == []


# ---- names -----------------------------------------------------------------------------

# Each chip's name: where its lines break (a break inside a word is one between two
# letters), whether it is cut short, and whether a cut shows an ellipsis.
BREAKS = """chip => {
    const walk = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
    const node = walk.nextNode();
    const text = node.textContent, holder = node.parentElement, r = document.createRange();
    let last = null;
    const inside = [];
    for (let i = 0; i < text.length; i++) {
        r.setStart(node, i); r.setEnd(node, i + 1);
        const box = r.getClientRects()[0];
        if (!box) continue;
        if (last !== null && box.top > last + 2 && /\\S/.test(text[i - 1])
            && text[i - 1] !== '-' && /\\S/.test(text[i])) inside.push(i);
        last = box.top;
    }
    r.selectNodeContents(node);
    const cut = r.getBoundingClientRect().width > holder.clientWidth + 1;
    const style = getComputedStyle(holder);
    return {text, inside, cut,
            ellipsis: style.textOverflow === 'ellipsis' && style.overflowX === 'hidden',
            whole: chip.title === text || !cut};
}"""


@both
@sizes
def test_a_name_in_the_vote_never_breaks_inside_a_word(browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale)
    page.locator("#vote-forge").click()
    enter_bag(page, {"Alice": 4, "Chloé": 4})
    chips = page.locator("#vote .stepper .chip")
    expect(chips).to_have_count(4)
    seen = [chips.nth(i).evaluate(BREAKS) for i in range(4)]
    for s in seen:
        assert s["inside"] == [], s  # "Alic/e", "Chlo/é"
        assert not s["cut"] or s["ellipsis"], s  # cut: with an ellipsis
    # the short names fit whole, even at 320 px
    assert [s["cut"] for s in seen if len(s["text"]) <= 6] == [False, False, False], seen
    # each chip stays in its column, left of its − button
    for i, c in enumerate(COLOURS):
        right = chips.nth(i).evaluate("e => e.getBoundingClientRect().right")
        minus = page.locator(f"#minus-{c}").evaluate("e => e.getBoundingClientRect().left")
        assert right <= minus, (NAMES[i], right, minus)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size][0]
    chips.nth(2).evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(page, f"vote-names-{size}-{locale[:2]}")
    axe_finds_nothing(page)
    assert page.problems == []


# ---- the check line --------------------------------------------------------------------

def verify(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(args)
            code = 0
        except SystemExit as e:
            code = e.code or 0
    return code, out.getvalue()


@both
@sizes
def test_the_check_line_is_what_stands_on_the_guild_and_verifies_as_typed(  # noqa: F811
        browser, table, size, locale):
    page = phone(browser, table, size, locale)
    page.locator("#vote-jewellery").click()
    enter_bag(page, {"Chloé": 5, "Bo": 3})  # Alice and Alexandrine-Léonore: none
    page.locator("#draw").click()
    expect(page.locator("#winner")).to_be_visible()
    page.locator("#result details.proof summary").click()
    line = page.locator("#result details.proof code.hex").last.inner_text()
    words = line.split()
    assert words[:3] == ["companion", "lugvanion", "verify"], line
    bag = [w for w in words if "=" in w]
    assert bag == ["blue=5", "green=3"], line  # no colour with 0 partisans
    shot(page, f"check-line-{size}-{locale[:2]}", full=True)
    # The line as shown, and as a player types it from the guild (in her own order).
    for typed in (words[1:], words[1:3] + ["green=3", "blue=5"] + [
            w for w in words[3:] if "=" not in w]):
        code, said = verify(typed)
        assert code == 0, said
    assert page.problems == []


# ---- resent when the stream reopens ----------------------------------------------------

@both
@sizes
def test_a_change_made_offline_is_sent_again_as_soon_as_the_stream_reopens(  # noqa: F811
        browser, table, size, locale):
    page = phone(browser, table, size, locale, "Covenia", log=True)
    page.locator("#seat-3").click()
    page.locator("#v-area-blue-6").click()
    failed = []
    page.on("requestfailed", lambda r: failed.append(r.url)
            if r.method == "PUT" and "/covenia/players/" in r.url else None)
    page.context.set_offline(True)
    page.locator("#covenia-save").click()
    said = "La table (l’ordinateur) est injoignable" if fr(locale) else \
        "The table (the laptop) cannot be reached"
    expect(page.locator("#unreachable")).to_contain_text(said)
    # Four tries gone unanswered: the phone's next own try is 4 s away. (Events reach
    # `failed` only inside playwright's calls: none is missed between check and wait.)
    while len(failed) < 4:
        page.wait_for_event("requestfailed")
    expect(page.locator("#covenia-save")).to_have_text(
        "Enregistrement…" if fr(locale) else "Saving…")
    page.context.set_offline(False)
    expect(page.locator("#covenia-save")).to_have_text(saved(locale))
    expect(page.locator("#unreachable")).to_be_hidden()
    log = page.evaluate("window.log")
    back = next(e[1] for e in log if e[0] == "online")
    after = [e for e in log if e[1] >= back]
    opened = [e[1] for e in after if e[0] == "open"]
    resent = [e[1] for e in after if e[0] == "PUT"]
    assert opened, log  # the stream reopened when the network came back
    assert len(resent) == 1 and resent[0] >= opened[0], log  # once, after the reopening
    waited = resent[0] - opened[0]
    print(f"resent {waited:.0f} ms after the stream reopened "
          f"({opened[0] - back:.0f} ms after the network came back)")
    assert waited < 1000, log  # not the 4 s pause the phone was in
    assert httpx.get(table.api("covenia/players/Bo")).json()["area"] == {"blue": [6]}
    assert page.problems == []


# ---- the header, the Save bar ----------------------------------------------------------

# Where the result's title is: under the page's bar (and the banner), whole in view.
UNDER_BAR = """() => {
    const h = document.querySelector('#result h2');
    if (!h || document.getElementById('result').hidden) return null;
    const r = h.getBoundingClientRect();
    const bar = document.querySelector('.bar').getBoundingClientRect().bottom;
    return {top: r.top, bottom: r.bottom, bar: bar, height: innerHeight};
}"""


@both
@sizes
def test_another_phones_draw_comes_up_under_the_pages_bar(browser, table, size,  # noqa: F811
                                                          locale):
    page = phone(browser, table, size, locale)
    page.locator("#vote-herbalism").click()
    enter_bag(page, {"Chloé": 2})
    # her thumb on the bag (instant: the vote's own smooth scroll is over or cut short)
    page.locator("#plus-green").evaluate(
        "e => e.scrollIntoView({block: 'center', behavior: 'instant'})")
    table.draw("herbalism", {"red": 5, "green": 3})  # another phone
    expect(page.locator("#winner")).to_be_visible()
    expect(page.locator("#vote")).to_be_hidden()
    where = page.evaluate(UNDER_BAR)
    assert where["top"] >= where["bar"] - 1 and where["bottom"] <= where["height"], where
    shot(page, f"other-draw-{size}-{locale[:2]}")
    expect(page.locator(".history li")).to_have_count(1)  # the reveal over
    axe_finds_nothing(page)
    assert page.problems == []


@both
@sizes
def test_the_pinned_save_bar_is_small_and_delete_is_far_from_save(browser, table, size,  # noqa: F811
                                                                  locale):
    page = phone(browser, table, size, locale, "Covenia")
    page.locator("#seat-3").click()
    page.locator("#v-area-red-2").click()
    page.locator("#covenia-save").click()
    expect(page.locator("#covenia-save")).to_have_text(saved(locale))
    delete = page.locator("#covenia-delete")
    expect(delete).to_have_text("Supprimer ma saisie" if fr(locale) else "Delete my entry")
    page.locator("#v-hand-green-5").evaluate("e => e.scrollIntoView({block: 'center'})")
    bar = page.locator("#covenia-entry > .actions")
    height = bar.evaluate("e => e.getBoundingClientRect().height")
    print(f"pinned bar: {height:.0f} of {PHONES[size][1]} px")
    assert height <= 72, height  # was 130 of 568: Save and a Delete under it
    assert bar.locator(".danger").count() == 0  # nothing destructive pinned by Save
    # Delete by her name, a screen away from Save (the bar at its own place, the grid's end)
    page.locator("#covenia-save").evaluate("e => e.scrollIntoView({block: 'end'})")
    gap = page.evaluate("""() => document.getElementById('covenia-save').getBoundingClientRect().top
        - document.getElementById('covenia-delete').getBoundingClientRect().bottom""")
    assert gap >= PHONES[size][1] / 2, gap
    page.locator("#covenia-entry").evaluate("e => e.scrollIntoView({block: 'start'})")
    shot(page, f"save-bar-top-{size}-{locale[:2]}")
    page.locator("#v-hand-green-5").evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(page, f"save-bar-{size}-{locale[:2]}")
    axe_finds_nothing(page)
    delete.click()  # still there, still asked first (accepted here)
    expect(delete).to_have_count(0)
    assert httpx.get(table.api("covenia")).json()["entries"] == []
    # A designer's sheet: the same bar, the same Delete by her name.
    page.locator("#picker").get_by_role("button", name="tidepool").click()
    page.locator("#own-tidepool-seat-0").click()
    page.locator("#own-tidepool-creatures").fill("4")
    page.locator("#own-tidepool-save").click()
    expect(page.locator("#own-tidepool-save")).to_have_text(saved(locale))
    bar = page.locator("#own-tidepool-entry > .actions")
    assert bar.locator(".danger").count() == 0
    assert bar.evaluate("e => e.getBoundingClientRect().height") <= 72
    expect(page.locator("#own-tidepool-entry .entry-head #own-tidepool-delete")).to_be_visible()
    assert page.problems == []


# ---- words -----------------------------------------------------------------------------

@both
@sizes
def test_a_designers_sheet_refused_for_a_change_elsewhere_names_her_figures(  # noqa: F811
        browser, table, size, locale):
    page = phone(browser, table, size, locale, "tidepool")
    page.locator("#own-tidepool-seat-3").click()
    expect(page.locator("#own-tidepool-entry h2")).to_have_text("Bo")
    page.evaluate("window.tableSource.close()")  # it hears nothing of the other phone
    httpx.put(table.api("games/tidepool/players/Bo"), json={"creatures": 9}).raise_for_status()
    page.locator("#own-tidepool-creatures").fill("12")
    page.locator("#own-tidepool-save").click()
    error = page.locator("#own-tidepool-entry .error")
    expect(error).to_contain_text("les nombres de Bo" if fr(locale) else "Bo’s figures")
    assert ("cartes" if fr(locale) else "cards") not in error.inner_text()
    expect(page.locator("#own-tidepool-creatures")).to_have_value("9")  # the table's
    error.evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(page, f"own-refused-{size}-{locale[:2]}")
    axe_finds_nothing(page)
    # and her Delete asks about her figures, not cards
    asked = []
    page.on("dialog", lambda d: asked.append(d.message))
    page.locator("#own-tidepool-delete").click()
    expect(page.locator("#own-tidepool-delete")).to_have_count(0)
    assert asked == ["Supprimer les nombres de Bo de cette partie\u202f?" if fr(locale) else
                     "Delete Bo’s figures from this game?"], asked


# ---- the playtest figures --------------------------------------------------------------

@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """60 planted plays of a designer's game, each with its seats and factions."""
    from companion.web.store import Store
    from tests.playtest_data import history
    from tests.test_playtest_api import records

    data = tmp_path_factory.mktemp("factions") / "t.sqlite3"
    store = Store.open(data, ["forge", "jewellery", "herbalism", "academy"], None, None,
                       [{"colour": "red", "name": ""}])
    for record in records(history(), "tidepool")[:60]:
        store.close_game("tidepool", record)
    store.close()
    s = Server(data, "--name", "table.lan").start()
    yield s
    s.stop()


REEF = {"en": "reef: won 31 of 60, 52% (95% interval 39–64%): stands out (even: 25%)",
        "fr": "reef\u202f: 31 gagnée(s) sur 60, 52\u202f% (intervalle à 95\u202f% 39–64\u202f%)"
              "\u202f: se détache (part attendue\u202f: 25\u202f%)"}


@both
@sizes
def test_the_phone_shows_the_factions_as_the_report_does_and_every_seat(  # noqa: F811
        browser, planted, size, locale):
    page = phone(browser, planted, size, locale, "Historique" if fr(locale) else "History")
    expect(page.locator("#seat-rates-list li")).to_have_count(4)  # every seat, as before
    rows = page.locator("#faction-rates-list li")
    expect(rows).to_have_count(4)
    expect(rows.nth(3)).to_have_text(REEF[locale[:2]])
    expect(rows.nth(3)).to_have_class("winner small")
    more = page.locator("#seat-rates > p.help")
    expect(more).to_contain_text(re.compile("versions et scores" if fr(locale)
                                            else "versions and scores", re.I))
    expect(more).not_to_contain_text("Factions")  # shown above now
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size][0]
    page.locator("#seat-rates").screenshot(path=str(FOLDER / f"factions-{size}-{locale[:2]}.png"))
    axe_finds_nothing(page, "#seat-rates")
    assert page.problems == []


@both
@sizes
def test_a_guilds_name_never_breaks_inside_a_word(browser, table, size, locale):  # noqa: F811
    page = phone(browser, table, size, locale)
    table.draw("herbalism", {"blue": 8})  # a holder shown beside its name
    heads = page.locator(".guild h3")
    expect(heads).to_have_count(4)
    expect(page.locator(".guild .chip")).to_have_count(1)
    for i in range(4):
        seen = heads.nth(i).evaluate(BREAKS)
        assert seen["inside"] == [] and not seen["cut"], seen  # "Herborist/erie"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES[size][0]
    page.locator("#guilds").evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(page, f"guilds-{size}-{locale[:2]}")
    axe_finds_nothing(page)
    assert page.problems == []
