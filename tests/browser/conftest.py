"""Browser tests: Playwright for Python driving Debian's Chromium (never a downloaded build).

Without /usr/bin/chromium (or $CITADEL_CHROMIUM) the tests skip, except in CI, where they
fail: install it with `apt-get install -y chromium`.
"""

import os
from pathlib import Path

import pytest

from tests.armybuilder.conftest import small_pool  # noqa: F401  (the ORM card pool)

CHROMIUM = Path(os.environ.get("CITADEL_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _missing(message: str):
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing: apt-get install -y chromium")
    try:
        import playwright  # noqa: F401
    except ImportError:
        _missing("playwright is not installed: pip install -e '.[dev]'")
    return CHROMIUM


@pytest.fixture
def searchable_pool(small_pool):  # noqa: F811
    """The ORM pool with the folded search text the importers write (free-word search)."""
    from cards.models import Card
    from cards.query.text import build_search_text

    for card in Card.objects.all():
        card.search_text = build_search_text(card)
        card.save(update_fields=["search_text"])


@pytest.fixture
def chromium_page(chromium_path, live_server):
    """A fresh page (its own cookies) of a headless Chromium; the test puts its data in place
    before asking for it.

    Playwright's sync API runs an event loop in this thread, so no ORM call may happen
    while the page is open: create data before, check the database after.
    """
    from playwright.sync_api import expect, sync_playwright

    # One patience for actions and assertions: CI runs both database passes side by side,
    # and an htmx answer may take longer than `expect`'s own 5 s default there.
    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(10_000)
            yield page
        finally:
            browser.close()


@pytest.fixture
def browser_page(searchable_pool, chromium_page):
    """`chromium_page` after the ORM card pool is in place."""
    return chromium_page


def log_in(page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base_url}/**")
