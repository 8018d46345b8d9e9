"""The Tactics warband builder in a real browser: htmx swaps keep the coin gauges and the
findings up to date."""

import re

import pytest

from tests.browser.picker import search_picker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_tactics_builder_gauges_and_findings_follow_every_change(browser_page, live_server):
    from playwright.sync_api import expect

    page = browser_page
    page.goto(f"{live_server.url}/lists/new/")
    page.get_by_test_id("game-tactics").click()
    page.select_option("#id_faction", "baratheon")
    page.check("input[name=size][value='scenario:tac-standard']")
    page.get_by_role("button", name="Start building").click()
    expect(page).to_have_url(re.compile(r"/lists/\d+/edit/$"))

    gold, silver, copper = (page.get_by_test_id(f"{c}-spent") for c in ("gold", "silver", "copper"))
    figures = page.get_by_test_id("figures-spent")
    unspent = page.locator(".finding[data-code=COIN_UNSPENT]", has_text="gold left")
    expect(gold).to_have_text("0")
    expect(figures).to_have_text("0")
    expect(unspent).to_be_visible()  # 3 gold left while Robert could be recruited

    # Three soldiers at once: copper and the figure count move, gold still unspent.
    search_picker(page, "Guardians")
    pick = page.locator("#picker-results .pick", has_text="Baratheon Guardians")
    pick.locator(".pick-copies").fill("3")
    pick.locator(".pick-add").click()
    expect(copper).to_have_text("3")
    expect(figures).to_have_text("3")
    expect(unspent).to_be_visible()

    # Mounted Robert takes all the gold: the finding disappears.
    search_picker(page, "Robert")
    page.locator("#picker-results .pick", has_text="Mounted").locator(".pick-add").click()
    expect(gold).to_have_text("3")
    expect(silver).to_have_text("1")
    expect(unspent).to_have_count(0)
    expect(page.get_by_test_id("verdict")).to_contain_text("Legal")

    # One equipment item, on a holder chosen in the chooser: soldiers may not carry it.
    search_picker(page, "Valyrian")
    page.locator("#picker-results .pick", has_text="Valyrian Steel").locator(".pick-add").click()
    chooser = page.locator("#host-chooser")
    expect(chooser).to_be_visible()
    expect(chooser.locator(".host-option.is-disabled")).to_have_count(3)
    expect(
        chooser.locator(".host-reasons li[data-code=EQUIPMENT_NOT_ALLOWED]").first
    ).to_be_visible()
    chooser.get_by_role("button", name="Equip").click()
    expect(copper).to_have_text("5")
    expect(page.locator(".figure-hero .attachment-list")).to_contain_text("Valyrian Steel")

    # On foot, Robert costs 2 gold and keeps his equipment; nothing else could use the last
    # gold coin (Robert is unique), so the warband stays legal.
    page.get_by_test_id("switch-version").click()
    expect(gold).to_have_text("2")
    expect(silver).to_have_text("0")
    expect(page.locator(".figure-hero .attachment-list")).to_contain_text("Valyrian Steel")
    expect(page.get_by_test_id("verdict")).to_contain_text("Legal")

    # Without Robert (and his equipment) the gold is unspent again.
    page.locator(".figure-hero > .entry .action-remove").click()
    expect(gold).to_have_text("0")
    expect(copper).to_have_text("3")
    expect(unspent).to_be_visible()
