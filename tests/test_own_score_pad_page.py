"""A category scored once (`rounds = 1`) in a game of rounds, on the phones (issue 43):
one field where the others have one a round, saved as one figure, scored as the command
line scores it. Chromium driven by playwright at 320 px, in English and French."""

import httpx
import pytest
from playwright.sync_api import expect

from tests import gemfall
from tests.test_serve_own_rounds_page import open_gemfall, phone
from tests.test_serve_phone_page import browser  # noqa: F401
from tests.web import Server

pytestmark = pytest.mark.browser


@pytest.fixture
def table(tmp_path):
    game = gemfall.make(tmp_path)
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('award = [6, 3]\nties = "share"\n',
                                 'award = [6, 3]\nties = "share"\nrounds = 1\n'),
                    encoding="utf-8")
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan", "--game", str(game)).start()
    yield s
    s.stop()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_category_scored_once_has_one_field_on_the_phone(browser, table, lang):  # noqa: F811
    cy = phone(browser, 320, lang)
    open_gemfall(cy, table, "Cy")
    for k in (1, 2):  # a field a round for the others
        expect(cy.locator(f"#own-gemfall-creatures-{k}")).to_be_visible()
    expect(cy.locator("#own-gemfall-gems")).to_be_visible()  # one for the gems
    expect(cy.locator("#own-gemfall-gems-1")).to_have_count(0)
    cy.locator("#own-gemfall-creatures-1").fill("6")
    cy.locator("#own-gemfall-creatures-2").fill("3")
    cy.locator("#own-gemfall-gems").fill("4")
    cy.locator("#own-gemfall-save").click()
    expect(cy.locator("#own-gemfall-save")).to_have_text("Saved" if lang == "en" else
                                                          "Enregistré")
    state = httpx.get(table.api("games/gemfall")).json()
    cy_score = state["score"]["players"][0]
    assert cy_score["written"] == {"creatures": [6, 3], "pairs": [0, 0], "gems": 4}
    assert cy_score["rounds"]["gems"] == [6] and cy_score["total"] == 15
    assert not cy.problems
