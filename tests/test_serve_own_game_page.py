"""A designer's own game on the phone page (`companion serve --game FILE`), in Debian's
chromium driven by playwright: two phones enter their numbers for the starter game's score
categories, both see the same totals and winner live, the game ends into the history.
A screenshot at phone size in output/screenshots/."""

import contextlib
import io

import httpx
import pytest
from playwright.sync_api import expect

from companion.cli import main
from tests.test_serve_phone_page import SHOTS, browser, lan_link, phone  # noqa: F401
from tests.web import Server


@pytest.fixture
def table(tmp_path):
    with contextlib.redirect_stdout(io.StringIO()):
        with contextlib.suppress(SystemExit):
            main(["new", "tidepool", str(tmp_path / "tidepool")])
    game = tmp_path / "tidepool" / "tidepool.toml"
    assert game.is_file()
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan", "--game", str(game)).start()
    yield s
    s.stop()


def open_game(browser, table, locale="en-GB"):  # noqa: F811
    page = phone(browser, locale)
    page.goto(lan_link(table))
    expect(page.locator(".live.on")).to_be_visible()
    page.locator("#picker").get_by_role("button", name="tidepool").click()
    return page


def enter(page, name, creatures, pairs, fr=False):
    page.locator("#own-tidepool-name").fill(name)
    page.locator("#own-tidepool-join").click()
    page.locator("#own-tidepool-creatures").fill(str(creatures))
    page.locator("#own-tidepool-pairs").fill(str(pairs))
    page.locator("#own-tidepool-save").click()
    expect(page.locator("#own-tidepool-save")).to_have_text("Enregistré" if fr else "Saved")


def test_two_phones_score_the_designers_game_and_end_it_into_the_history(browser, table):  # noqa: F811
    ana = open_game(browser, table)
    bo = open_game(browser, table, locale="fr-FR")
    enter(ana, "Ana", 9, 2)
    # Bo's phone shows Ana's entry as soon as she saves it, then his own.
    expect(bo.locator("#own-tidepool-scores")).to_contain_text("Ana")
    enter(bo, "Bo", 12, 1, fr=True)
    expect(ana.locator("#own-tidepool-winner")).to_have_text("Winner: Bo")
    expect(bo.locator("#own-tidepool-winner")).to_have_text("Gagnant·e\u202f: Bo")
    expect(ana.locator("#own-tidepool-scores")).to_contain_text("13")  # 12 + 1 × 1
    expect(ana.locator("#own-tidepool-scores")).to_contain_text("11")  # 9 + 2 × 1
    expect(bo.get_by_text("Créatures (points)")).to_be_visible()  # her words, in French
    SHOTS.mkdir(parents=True, exist_ok=True)
    ana.screenshot(path=str(SHOTS / "phone-own-game.png"), full_page=True)

    # A count that is no number is refused in words, and nothing changes.
    ana.locator("#own-tidepool-pairs").fill("two")
    ana.locator("#own-tidepool-save").click()
    expect(ana.locator("#own-tidepool-entry .error")).to_contain_text("pairs")
    assert httpx.get(table.api("games/tidepool")).json()["score"]["players"][0]["total"] == 11

    ana.locator("#own-tidepool-close").click()  # confirmed (the dialog is accepted)
    expect(bo.locator("#own-tidepool-scores")).to_have_count(0)  # ended on every phone
    history = httpx.get(table.api("history")).json()["games"]
    assert [(g["game"], g["scores"], g["winners"]) for g in history] == [
        ("tidepool", {"Ana": 11, "Bo": 13}, ["Bo"])]
    csv = httpx.get(table.api("history.csv")).text.splitlines()
    assert [line.split(",")[2:6] for line in csv[1:]] == [
        ["tidepool", "Ana", "11", "0"], ["tidepool", "Bo", "13", "1"]]
    bo.locator("#picker").get_by_role("button", name="Historique").click()
    expect(bo.locator("#past-games")).to_contain_text("tidepool")
    assert [p for p in ana.problems if not p.startswith("dialog: ")] == []
    assert bo.problems == []
