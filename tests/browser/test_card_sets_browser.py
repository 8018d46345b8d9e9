"""Card-set pages in a real browser (issue 14): a player signs in, creates a set, adds a
card with the form made for Tactics cards, and sees it on the set page."""

import pytest
from django.contrib.auth.models import User

from cards.models import Faction
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "tests/browser/screenshots"


@pytest.fixture
def player(db):
    Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    Faction.objects.create(game="tactics", slug="neutral", name_en="Neutral", is_neutral=True)
    User.objects.create_user("player", password="pw-player-123")


def test_player_creates_a_set_and_adds_a_card_by_form(player, chromium_page, live_server):
    from playwright.sync_api import expect

    page = chromium_page
    log_in(page, live_server.url, "player", "pw-player-123")
    page.goto(f"{live_server.url}/card-sets/new/")
    page.fill("#id_name", "Storm <b>Lords</b>")
    page.get_by_label("Baratheon").check()
    page.fill("#id_licence_note", "Typed from my own cards.")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Storm <b>Lords</b>")

    page.get_by_role("link", name="Add a card").click()
    page.select_option("#id_kind", "champion")
    page.fill("#id_name_en", "Storm Knight")
    page.select_option("#id_faction", "baratheon")
    page.fill("#id_character", "storm-knight")
    page.fill("#id_silver", "2")
    page.fill("#id_attack_1_name", "Longsword")
    page.fill("#id_attack_1_dice", "2")
    page.fill("#id_abilities", "Charge: moves, then strikes.")
    page.screenshot(path=f"{SCREENSHOTS}/card-set-card-form.png", full_page=True)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("set-note")).to_contain_text("Typed from my own cards.")
    expect(page.get_by_test_id("set-note")).to_contain_text("Charge")

    page.get_by_test_id("set-note").get_by_role("link").first.click()
    expect(page.locator("tr[data-card]")).to_contain_text("Storm Knight")
    expect(page.locator(".set-meta")).to_contain_text("by player")
    page.screenshot(path=f"{SCREENSHOTS}/card-set-detail.png", full_page=True)
