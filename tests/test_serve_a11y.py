"""axe-core (pinned, installed by .ci/run from the npm registry) on every screen of the
phone page, in English and French, light and dark: no violation at all, of any impact
(minor ones too: an empty table header is one)."""

import pytest
from playwright.sync_api import expect

from tests import needs
from tests.test_serve_phone_fit import SCREENS, open_screen, table  # noqa: F401
from tests.test_serve_phone_page import browser  # noqa: F401

RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => [v.id, v.impact,
                                v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')]);
}"""


@pytest.mark.parametrize("size", ["320", "390"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("screen", SCREENS)
def test_axe_finds_no_violation_of_any_impact_on_any_screen(browser, table, screen,  # noqa: F811
                                                            locale, scheme, size):
    axe = needs.axe()
    page = open_screen(browser, table, screen, size, scheme, locale, bypass_csp=True)
    page.add_script_tag(path=axe)
    found = page.evaluate(RUN)
    page.context.close()
    assert found == [], "\n".join(" ".join(v) for v in found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_axe_finds_nothing_on_the_banner_of_a_table_out_of_reach(browser, table,  # noqa: F811
                                                                 locale, scheme):
    axe = needs.axe()
    page = open_screen(browser, table, "Covenia", "320", scheme, locale, bypass_csp=True)
    page.add_script_tag(path=axe)
    page.route("**/api/**", lambda route: route.abort())  # the laptop gone from the Wi-Fi
    page.locator("#covenia-save").click()
    expect(page.locator("#unreachable")).to_be_visible()
    found = page.evaluate(RUN)
    page.unroute("**/api/**")
    expect(page.locator("#unreachable")).to_be_hidden()  # back: the save went through
    page.context.close()
    assert found == [], "\n".join(" ".join(v) for v in found)
