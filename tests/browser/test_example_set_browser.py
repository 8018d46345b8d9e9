"""The demo's example set in a real browser (issue 14): on a fresh database loaded by
`load_demo_data` alone (no ../shared), a new player starts a warband, sees it is empty (not
legal), builds a legal standard warband with equipment from the example set, and exports
it to PDF."""

import io
import re

import pytest
from django.core.management import call_command

from tests.browser.picker import search_picker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = "tests/browser/screenshots"
FIGURES = [
    ("Example Dragon Commander", 1),
    ("Example Ember Lord", 1),
    ("Example Flame Blade", 1),
    ("Example Scale Rider", 1),
    ("Example Cinder Squire", 1),
    ("Example Smoke Archer", 1),
    ("Example Dragonfire Levy", 8),
]


@pytest.fixture
def demo(settings, tmp_path):
    settings.CITADEL_RULEBOOK_DIR = ""
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("load_demo_data", "--no-admin", stdout=io.StringIO(), stderr=io.StringIO())


def test_demo_builds_a_legal_standard_warband_and_exports_it(demo, chromium_page, live_server):
    from playwright.sync_api import expect

    page = chromium_page
    page.goto(f"{live_server.url}/lists/new/")
    page.get_by_test_id("game-tactics").click()
    page.select_option("#id_faction", "targaryen")
    page.check("input[name=size][value='scenario:tac-standard']")
    example = page.get_by_label(re.compile("Example set"))
    expect(example).to_be_checked()  # the demo's example set is ticked by default
    page.get_by_role("button", name="Start building").click()
    expect(page).to_have_url(re.compile(r"/lists/\d+/edit/$"))

    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-status", "empty")
    expect(verdict).to_contain_text("Empty")
    page.screenshot(path=f"{SCREENSHOTS}/example-warband-empty.png", full_page=True)

    for name, copies in FIGURES:
        search_picker(page, name)
        pick = page.locator("#picker-results .pick", has_text=name).first
        expect(pick.locator(".example-badge")).to_be_visible()
        if copies > 1:
            pick.locator(".pick-copies").fill(str(copies))
        pick.locator(".pick-add").click()
        expect(page.locator("#builder-panel")).to_contain_text(name)

    search_picker(page, "Example War Banner")
    page.locator("#picker-results .pick", has_text="Example War Banner").locator(
        ".pick-add"
    ).click()
    chooser = page.locator("#host-chooser")
    expect(chooser).to_be_visible()
    chooser.get_by_role("button", name="Equip").click()
    expect(page.locator(".attachment-list").first).to_contain_text("Example War Banner")

    expect(verdict).to_have_attribute("data-status", "legal")
    expect(verdict).to_contain_text("Legal")
    for coin, spent in (("gold", "3"), ("silver", "6"), ("copper", "11")):
        expect(page.get_by_test_id(f"{coin}-spent")).to_have_text(spent)
    page.screenshot(path=f"{SCREENSHOTS}/example-warband-legal.png", full_page=True)

    list_url = page.url.removesuffix("edit/")
    page.goto(list_url)
    page.get_by_test_id("export-pdf").click()
    download_link = page.get_by_test_id("export-download")
    expect(download_link).to_be_visible(timeout=30_000)
    page.screenshot(path=f"{SCREENSHOTS}/example-warband-export.png", full_page=True)
    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename.endswith(".pdf")
    with open(download.value.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
