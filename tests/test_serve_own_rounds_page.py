"""Issue 33's gemfall on the phones (`companion serve --game gemfall.toml`), in Debian's
chromium driven by playwright at 320 and 360 px, in English and French: a field a round
for each category (R1, R2 / M1, M2, as the printed pad heads its columns), the gems'
majority places shown while a player types, before she saves, marked as not saved; once
saved, another phone sees them live; the tie-break's line and the winner in the CLI's
words; every player's total on screen without scrolling sideways; axe-core finds nothing
on the screen. Screenshots in output/screenshots/own-rounds/."""

import httpx
import pytest
from playwright.sync_api import expect

from tests import gemfall, needs
from tests.test_serve_phone_page import SHOTS, browser, lan_link  # noqa: F401
from tests.web import Server

WORDS = {
    "en": {"round": "R", "first_with": "first with Ana", "unsaved": "not saved yet",
           "tie": "Ana and Ben tie at 18: Gems breaks it (Ana 5; Ben 4).",
           "winner": "Winner: Ana", "save": "Saved"},
    "fr": {"round": "M", "first_with": "premier avec Ana", "unsaved": "pas encore enregistré",
           "tie": "Ana et Ben à égalité à 18\u202f: Gems départage (Ana 5\u202f; Ben 4).",
           "winner": "Gagnant·e\u202f: Ana", "save": "Enregistré"},
}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
ANA, BEN, CY = gemfall.PLAYERS


@pytest.fixture
def table(tmp_path):
    game = gemfall.make(tmp_path)
    rich = tmp_path / "richfall.toml"
    rich.write_text(gemfall.RICH, encoding="utf-8")
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan", "--game", str(game),
               "--game", str(rich)).start()
    for p in (ANA, BEN):  # two players have saved; Cy is at her phone
        httpx.put(s.api(f"games/gemfall/players/{p['name']}"),
                  json={k: v for k, v in p.items() if k != "name"}).raise_for_status()
    yield s
    s.stop()


def phone(browser, width: int, lang: str, csp: bool = False):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 720}, is_mobile=True,
                                  has_touch=True, locale=LOCALES[lang], bypass_csp=csp)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("dialog", lambda d: (page.problems.append("dialog: " + d.message), d.accept()))
    return page


def open_gemfall(page, table, name: str, game: str = "gemfall", title: str = "gemfall"):
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    page.locator("#picker").get_by_role("button", name=title).click()
    page.locator(f"#own-{game}-name").fill(name)
    page.locator(f"#own-{game}-join").click()
    expect(page.locator(f"#own-{game}-entry")).to_be_visible()


def saved_names(table) -> list[str]:
    return [e["name"] for e in httpx.get(table.api("games/gemfall")).json()["entries"]]


WIDE = """() => [document.documentElement.scrollWidth,
  [...document.querySelectorAll('#own-gemfall-scores td.sum')].map(td => {
    const r = td.getBoundingClientRect();
    return [td.textContent, Math.round(r.left), Math.round(r.right)]; })]"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("width", [320, 360])
def test_round_fields_live_majorities_the_tie_break_and_every_total(browser, table, width,  # noqa: F811
                                                                    lang):
    w = WORDS[lang]
    cy = phone(browser, width, lang)
    ben = phone(browser, width, lang)
    open_gemfall(cy, table, "Cy")
    open_gemfall(ben, table, "Ben")

    # A field a round for each category, headed as the pad's columns.
    for cat in ("creatures", "pairs", "gems"):
        for k in (1, 2):
            field = cy.locator(f"#own-gemfall-{cat}-{k}")
            expect(field).to_be_visible()
            label = cy.locator(f"label:has(#own-gemfall-{cat}-{k})")
            expect(label).to_contain_text(f"{w['round']}{k}")
    cy.locator("#own-gemfall-creatures-1").fill("6")
    cy.locator("#own-gemfall-creatures-2").fill("3")
    cy.locator("#own-gemfall-pairs-1").fill("1")
    cy.locator("#own-gemfall-pairs-2").fill("1")
    cy.locator("#own-gemfall-gems-1").fill("1")
    cy.locator("#own-gemfall-gems-2").press_sequentially("2")

    # While she types, before any save: round 2's gems have her first with Ana, 4 points,
    # marked as not saved; the table still holds two entries.
    preview = cy.locator("#own-gemfall-preview")
    expect(preview).to_contain_text(w["unsaved"])
    expect(preview.locator("li[data-player='Cy']").last).to_contain_text(w["first_with"])
    expect(preview.locator("li[data-player='Cy']").last).to_contain_text("= 4")
    assert saved_names(table) == ["Ana", "Ben"]
    expect(preview).to_contain_text("15")  # her total, were she to save
    # Ben's phone shows nothing of it: only saved figures reach the other phones.
    expect(ben.locator("#own-gemfall-table")).to_be_visible()
    expect(ben.locator("#own-gemfall-table li[data-player='Cy']")).to_have_count(0)
    shots = SHOTS / "own-rounds"
    shots.mkdir(parents=True, exist_ok=True)
    cy.screenshot(path=str(shots / f"typing-{width}-{lang}.png"), full_page=True)

    cy.locator("#own-gemfall-save").click()
    expect(cy.locator("#own-gemfall-save")).to_have_text(w["save"])
    assert saved_names(table) == ["Ana", "Ben", "Cy"]
    expect(cy.locator("#own-gemfall-preview")).not_to_contain_text(w["unsaved"])
    # Every phone sees the saved places through the live update, the tie-break, the winner.
    for page in (cy, ben):
        expect(page.locator("#own-gemfall-table li[data-player='Cy']").last).to_contain_text(
            w["first_with"])
        expect(page.locator("#own-gemfall-tiebreak")).to_have_text(w["tie"])
        expect(page.locator("#own-gemfall-winner")).to_have_text(w["winner"])
        expect(page.locator("#own-gemfall-scores td.sum")).to_have_text(["18", "18", "15"])
        wide, totals = page.evaluate(WIDE)
        assert wide <= width, f"{wide} px wide at {width}"
        assert all(0 <= left and right <= width for _, left, right in totals), totals
    cy.screenshot(path=str(shots / f"saved-{width}-{lang}.png"), full_page=True)
    assert cy.problems == [] and ben.problems == []
    cy.context.close()
    ben.context.close()


def test_while_she_types_the_table_is_asked_once_she_pauses_one_request_at_a_time(
        browser, table):  # noqa: F811
    page = phone(browser, 320, "en")
    asked = {"now": 0, "most": 0, "count": 0}

    def sent(r):
        if r.url.endswith("/preview"):
            asked["now"] += 1
            asked["count"] += 1
            asked["most"] = max(asked["most"], asked["now"])

    def done(r):
        if r.url.endswith("/preview"):
            asked["now"] -= 1

    page.on("request", sent)
    page.on("requestfinished", done)
    page.on("requestfailed", done)
    open_gemfall(page, table, "Cy")
    # Twelve keys at a typist's pace, faster than the pause the page waits for.
    page.locator("#own-gemfall-creatures-1").press_sequentially("100000000000"[:7], delay=40)
    page.locator("#own-gemfall-gems-1").press_sequentially("12345", delay=40)
    # Her total with these figures: 1000000 creatures, gems 12345 (first alone: 6).
    expect(page.locator("#own-gemfall-preview")).to_contain_text("1000006")
    assert asked["most"] == 1, asked
    assert 1 <= asked["count"] <= 4, asked  # not one a key
    assert saved_names(table) == ["Ana", "Ben"]
    page.context.close()


def test_values_lists_and_worked_out_categories_as_the_scores_file_has_them(browser, table):  # noqa: F811
    page = phone(browser, 320, "fr")
    open_gemfall(page, table, "Ana", "richfall", "Richfall")
    # Worked out from the others (sets, the best colour): no field.
    expect(page.locator("#own-richfall-sets-1")).to_have_count(0)
    expect(page.locator("#own-richfall-best-1")).to_have_count(0)
    expect(page.locator("#own-richfall-entry")).to_contain_text("séparées par des virgules")
    for field, text in (("cards-1", "3, 5 2"), ("cards-2", "7"), ("low-1", "4,1"),
                        ("red-1", "2"), ("blue-1", "1"), ("coins-1", "3"), ("mult-1", "2"),
                        ("shells-1", "4"), ("gems-1", "2")):
        page.locator(f"#own-richfall-{field}").fill(text)
    page.locator("#own-richfall-save").click()
    expect(page.locator("#own-richfall-save")).to_have_text("Enregistré")
    state = httpx.get(table.api("games/richfall")).json()
    assert state["entries"] == [{
        "cards": [[3, 5, 2], [7]], "low": [[4, 1], []], "red": [2, 0], "blue": [1, 0],
        "coins": [3, 0], "mult": [2, 0], "shells": [4, 0], "gems": [2, 0], "name": "Ana"}]
    total = state["score"]["players"][0]["total"]
    expect(page.locator("#own-richfall-scores td.sum")).to_have_text([str(total)])
    # Her figures, as saved, back in her fields when the page opens again.
    page.reload()
    page.locator("#own-richfall-seat-0").click()
    expect(page.locator("#own-richfall-cards-1")).to_have_value("3, 5, 2")
    expect(page.locator("#own-richfall-low-2")).to_have_value("")
    page.screenshot(path=str(SHOTS / "own-rounds" / "richfall-320-fr.png"), full_page=True)
    assert page.problems == []
    page.context.close()


RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => [v.id, v.impact,
    v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')]);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_axe_finds_no_violation_on_the_rounds_sheet(browser, table, lang, scheme):  # noqa: F811
    axe = needs.axe()
    context = browser.new_context(viewport={"width": 320, "height": 720}, is_mobile=True,
                                  has_touch=True, locale=LOCALES[lang], color_scheme=scheme,
                                  bypass_csp=True)
    page = context.new_page()
    open_gemfall(page, table, "Cy")
    page.locator("#own-gemfall-gems-1").fill("1")
    page.locator("#own-gemfall-gems-2").fill("2")
    expect(page.locator("#own-gemfall-preview li[data-player='Cy']").first).to_be_visible()
    page.locator("#own-gemfall-explained details").first.click()  # an explanation open
    (SHOTS / "own-rounds").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "own-rounds" / f"axe-{lang}-{scheme}.png"), full_page=True)
    page.add_script_tag(path=axe)
    found = page.evaluate(RUN)
    context.close()
    assert found == [], "\n".join(" ".join(v) for v in found)
