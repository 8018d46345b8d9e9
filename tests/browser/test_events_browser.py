"""Tournament events in a real browser: a player submits an illegal list, sees why at once
and fixes it; the organiser brings in pasted lists, filters the illegal ones and locks."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from events import services
from tests.browser.conftest import log_in
from tests.carddata import import_cards
from tests.events.lists import LANNISTER, LEGAL, NO_COMMANDER

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tournament(live_server):
    import_cards()
    users = get_user_model().objects
    organiser = users.create_user("olenna", password="olenna-secret-pw-1")
    users.create_user("alice", password="alice-secret-pw-1")
    event = services.create_event(
        creator=organiser,
        data={
            "name": "Winter Cup",
            "date": (timezone.localdate() + dt.timedelta(days=7)).isoformat(),
            "game": "tmg",
            "points": 40,
        },
    )
    return event


def test_player_submits_an_illegal_list_sees_why_and_fixes_it(
    tournament, chromium_page, live_server
):
    from playwright.sync_api import expect

    page = chromium_page
    log_in(page, live_server.url, "alice", "alice-secret-pw-1")
    page.goto(f"{live_server.url}/events/join/{tournament.join_token}/")
    page.get_by_test_id("join").click()
    expect(page).to_have_url(re.compile(rf"/events/{tournament.pk}/"))

    page.fill("#id_text", NO_COMMANDER)
    page.get_by_test_id("submit-list").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("Illegal")
    expect(page.locator(".finding[data-code=COMMANDER_MISSING]")).to_be_visible()
    expect(page.locator(".reading-table")).to_be_visible()
    first = page.get_by_test_id("fingerprint").inner_text()

    page.fill("#id_text", LEGAL)
    page.get_by_test_id("submit-list").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("Legal")
    assert page.get_by_test_id("fingerprint").inner_text() != first
    page.screenshot(path="tests/browser/screenshots/event-player.png", full_page=True)


def test_organiser_intake_filter_and_lock(tournament, chromium_page, live_server):
    from playwright.sync_api import expect

    page = chromium_page
    log_in(page, live_server.url, "olenna", "olenna-secret-pw-1")
    page.goto(f"{live_server.url}/events/{tournament.pk}/organise/")
    page.fill("#id_text", f"# Carol\n{LEGAL}\n# Dan\n{NO_COMMANDER}\n# Erin\n{LANNISTER}")
    page.get_by_test_id("intake").click()
    report = page.get_by_test_id("intake-report")
    expect(report).to_contain_text("3 lists taken in")
    expect(report.locator(".report-row[data-status=illegal]")).to_have_count(1)
    expect(page.get_by_test_id("summary")).to_contain_text("1 illegal")

    page.locator("a[data-filter=illegal]").click()
    rows = page.locator(".all-lists .report-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-player", "Dan")
    rows.first.locator("summary").first.click()
    expect(rows.first.locator(".finding[data-code=COMMANDER_MISSING]")).to_be_visible()

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("lock").click()
    expect(page.get_by_test_id("lock-state")).to_contain_text("locked")
    expect(page.get_by_test_id("summary")).to_contain_text("3 lists")
    expect(page.get_by_test_id("intake")).to_have_count(0)  # no intake once locked
    page.screenshot(path="tests/browser/screenshots/event-organiser.png", full_page=True)
