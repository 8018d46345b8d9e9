"""The builder in a real browser: htmx swaps keep the gauges and the findings up to date."""

import re

import pytest

from tests.browser.picker import search_picker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def add_card(page, search: str, name: str) -> None:
    search_picker(page, search)
    pick = page.locator("#picker-results .pick", has_text=name)
    pick.locator(".pick-add").click()


def test_builder_gauges_and_findings_follow_every_change(browser_page, live_server):
    from playwright.sync_api import expect

    page = browser_page
    page.goto(f"{live_server.url}/lists/new/")
    page.select_option("#id_faction", "stark")
    page.check("input[name=size][value='40']")
    page.get_by_role("button", name="Start building").click()
    expect(page).to_have_url(re.compile(r"/lists/\d+/edit/$"))

    spent = page.get_by_test_id("points-spent")
    missing_commander = page.locator(".finding[data-code=COMMANDER_MISSING]")
    over_limit = page.locator(".finding[data-code=POINTS_OVER_LIMIT]")
    expect(spent).to_have_text("0")
    expect(missing_commander).to_be_visible()

    # A combat unit: the points gauge moves without a page load.
    add_card(page, "Sworn Swords", "Stark Sworn Swords")
    expect(spent).to_have_text("5")
    expect(missing_commander).to_be_visible()

    # The commander, on a host chosen in the chooser: the finding goes away.
    add_card(page, "Wolf Lord", "The Wolf Lord")
    chooser = page.locator("#host-chooser")
    expect(chooser).to_be_visible()
    chooser.get_by_role("button", name="Attach").click()
    expect(missing_commander).to_have_count(0)
    expect(page.get_by_test_id("verdict")).to_contain_text("Legal")

    # Over the 40 points: six Outriders (5 + 36 = 41) ...
    for expected in (11, 17, 23, 29, 35, 41):
        add_card(page, "Outriders", "Stark Outriders")
        expect(spent).to_have_text(str(expected))
    expect(over_limit).to_be_visible()
    expect(page.locator(".gauge[data-gauge=points]")).to_have_class(re.compile("is-over"))

    # ... and back under it by removing one.
    page.locator(".entry", has_text="Stark Outriders").last.locator(".action-remove").click()
    expect(spent).to_have_text("35")
    expect(over_limit).to_have_count(0)
    expect(page.get_by_test_id("verdict")).to_contain_text("Legal")
