"""A pasted warband of a player's own card set, checked in a real browser (issue 14b): the
import page ticks the player's set, and "Check only" finds the warband legal."""

import pytest
from django.contrib.auth.models import User

from cards.card_sets import services
from tests.armybuilder.test_card_set_warbands import GUARD, KNIGHT
from tests.armybuilder.test_pasted_set_warbands import LEGAL
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "tests/browser/screenshots"


@pytest.fixture
def player_with_set(small_pool):
    player = User.objects.create_user("player", password="pw-player-123")
    card_set = services.create_card_set(owner=player, name="Storm")
    services.save_set_cards(card_set=card_set, values=[KNIGHT, GUARD])


def test_pasted_warband_of_the_players_set_checks_legal(
    player_with_set, chromium_page, live_server
):
    from playwright.sync_api import expect

    page = chromium_page
    log_in(page, live_server.url, "player", "pw-player-123")
    page.goto(f"{live_server.url}/lists/import/")
    expect(page.get_by_label("Storm")).to_be_checked()
    page.fill("#id_text", LEGAL)
    page.get_by_role("button", name="Check only").click()
    expect(page.get_by_test_id("verdict")).to_have_attribute("data-status", "legal")
    page.screenshot(path=f"{SCREENSHOTS}/import-set-warband.png", full_page=True)
