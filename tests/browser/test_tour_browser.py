"""A newcomer's tour in a real browser (issue 17): home, site search, card browser, card
page, both builders, view and print pages, paste-a-list, the rules in French and Persian,
an export; at desktop and phone sizes, light and dark, in English, French and Persian.

Every page: no console error, no failed request, no raw field name, no horizontal scroll on
a phone, and no serious or critical accessibility violation found by axe-core (the
`axe-playwright-python` package ships axe.min.js: nothing is fetched). Screenshots go to
tests/browser/screenshots/tour-<mode>-<page>.png (CI keeps them as artefacts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.browser.conftest import CHROMIUM_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).parent / "screenshots"
# Field names, keys and slugs a reader should never see (snake_case words): the commands
# the rules page tells readers to run are the exceptions.
RAW = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
ALLOWED_RAW = {"import_rulebook", "load_demo_data"}
# Markdown a page should have rendered (a table's rule or pipes, emphasis marks, headings).
MARKDOWN = re.compile(r"\|\s*-{3,}|\|[^|\n]+\|[^|\n]+\||\*\*\w|^#{1,4} ", re.MULTILINE)
SERIOUS = {"serious", "critical"}

FR_BOOK = """\
# Règles d’essai

## Mouvement {#mouvement}

Une unité avance de sa vitesse en pouces, puis peut pivoter une fois.

### Charge {#charge}

Une unité qui charge avance de sa vitesse plus un dé et attaque au contact.

| Unité | Charge |
| --- | --- |
| Infanterie | vitesse + 1 dé |
| Cavalerie | vitesse + 2 dés |

## Moral {#moral}

Une unité qui rate un test de moral perd une figurine de plus.
"""

FA_BOOK = """\
# قوانین آزمایشی

## حرکت {#harakat}

هر واحد به اندازهٔ سرعت خود جلو می‌رود و سپس یک بار می‌چرخد.

## روحیه {#ruhiye}

واحدی که در آزمون روحیه شکست بخورد یک پیکره بیشتر از دست می‌دهد.
"""

TMG_LIST = """House Stark - 40 pts
Stark Sworn Swords (5) with Robb Stark, The Wolf Lord (C)
Stark Outriders (6)
NCU: Catelyn Stark
"""
TACTICS_LIST = "Tactics warband: Baratheon\nRobert Baratheon\nBaratheon Guardians x2\n"


@dataclass
class Mode:
    name: str
    width: int
    height: int
    scheme: str  # "light" | "dark"
    language: str

    @property
    def phone(self) -> bool:
        return self.width < 600


MODES = [
    Mode("desktop-light-en", 1280, 900, "light", "en"),
    Mode("phone-dark-fr", 390, 844, "dark", "fr"),
    Mode("phone-light-fa", 390, 844, "light", "fa"),
    Mode("desktop-dark-fr", 1280, 900, "dark", "fr"),
]


@dataclass
class Problems:
    items: list[str] = field(default_factory=list)

    def add(self, where: str, what: str) -> None:
        self.items.append(f"{where}: {what}")


@pytest.fixture
def tour_data(searchable_pool, settings, tmp_path):
    """A user with a shared TMG list and a Tactics warband, a card with two versions, and
    small French and Persian rulebooks of our own words."""
    from django.contrib.auth import get_user_model

    from armybuilder.lists import services
    from armybuilder.lists.games import for_game
    from cards.models import Ability, Card, CardVersion
    from rules.services import import_rulebook_text

    settings.MEDIA_ROOT = tmp_path / "media"
    user = get_user_model().objects.create_user("newcomer", password="first-ten-minutes")
    army = for_game("tmg").import_text(text=TMG_LIST, owner=user).army_list
    services.set_visibility(army_list=army, visibility="link")
    warband = for_game("tactics").import_text(text=TACTICS_LIST, owner=user).army_list

    swords = Card.objects.get(external_id="10201")
    Ability.objects.create(key="vicious", name_en="Vicious", name_fr="Vicieux")
    Ability.objects.create(key="sworn", name_en="Sworn Oath", name_fr="Serment")
    old = {"points": 5, "abilities": ["vicious"], "name_en": swords.name_en, "is_character": False}
    CardVersion.objects.create(card=swords, version="2021", stats=old)
    new = {**old, "points": 6, "abilities": ["vicious", "sworn"]}
    current = CardVersion.objects.create(card=swords, version="2024", stats=new)
    swords.current_version = current
    swords.save(update_fields=["current_version"])

    books = {}
    for lang, text in (("fr", FR_BOOK), ("fa", FA_BOOK)):
        books[lang] = import_rulebook_text(
            text=text, fmt="markdown", slug=f"essai-{lang}", lang=lang, game="tmg", title=""
        ).book
    return {
        "army": army.pk,
        "warband": warband.pk,
        "books": {lang: book.slug for lang, book in books.items()},
        "sections": {
            lang: book.sections.order_by("position").values_list("slug", flat=True)[1]
            for lang, book in books.items()
        },
    }


def _pages(data: dict, mode: Mode) -> list[tuple[str, str]]:
    book = data["books"]["fa" if mode.language == "fa" else "fr"]
    first = data["sections"]["fa" if mode.language == "fa" else "fr"]
    query = "حرکت" if mode.language == "fa" else "charge"
    return [
        ("home", "/"),
        ("search", "/search/?q=stark"),
        ("cards", "/cards/"),
        ("card", "/cards/tmg/10201/"),
        ("builder-tmg", f"/lists/{data['army']}/edit/"),
        ("builder-tactics", f"/lists/{data['warband']}/edit/"),
        ("list-view", f"/lists/{data['army']}/"),
        ("list-print", f"/lists/{data['army']}/print/"),
        ("paste", "/lists/import/"),
        ("rules", "/rules/"),
        ("rules-book", f"/rules/{book}/"),
        ("rules-section", f"/rules/{book}/{first}/"),
        ("rules-search", f"/rules/search/?q={query}"),
    ]


def _check_page(page, axe, mode: Mode, name: str, problems: Problems) -> None:
    where = f"{mode.name} {name}"
    text = page.inner_text("body")
    raw = sorted(set(RAW.findall(text)) - ALLOWED_RAW) + MARKDOWN.findall(text)
    if raw:
        problems.add(where, f"raw field names {raw}")
    if mode.phone:
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0:
            problems.add(where, f"scrolls sideways by {overflow}px")
    result = axe.run(page)
    for violation in result.response["violations"]:
        if violation.get("impact") in SERIOUS:
            nodes = [
                f"{node['target']} {(node.get('any') or [{}])[0].get('message', '')[:90]}"
                for node in violation["nodes"][:3]
            ]
            problems.add(where, f"axe {violation['id']} ({violation['impact']}): {nodes}")
    page.screenshot(path=str(SHOTS / f"tour-{mode.name}-{name}.png"), full_page=True)


def _tour(browser, base: str, data: dict, mode: Mode, problems: Problems) -> None:
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": mode.width, "height": mode.height}, color_scheme=mode.scheme
    )
    context.add_cookies([{"name": "django_language", "value": mode.language, "url": base}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    current = {"name": "login"}

    def where() -> str:
        return f"{mode.name} {current['name']}"

    def on_console(message) -> None:
        if message.type == "error":
            problems.add(where(), f"console: {message.text}")

    def on_response(response) -> None:
        if response.status >= 400:
            problems.add(where(), f"{response.status} {response.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: problems.add(where(), f"script: {exc}"))
    page.on("requestfailed", lambda request: _failed(request, where(), problems))
    page.on("response", on_response)
    axe = Axe()
    _log_in(page, base)
    for name, path in _pages(data, mode):
        current["name"] = name
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        if name == "cards":  # the filters answer through htmx (no hx-trigger syntax error)
            with page.expect_response(re.compile(r"/cards/\?")):
                page.select_option("#id_kind", "unit")
        if name == "paste":
            page.fill("textarea", TMG_LIST)
            page.locator("button[name=action][value=check]").click()
            page.wait_for_load_state("networkidle")
        if name == "card":
            expect(page.locator(".version-changes")).to_contain_text("6")
        if name == "builder-tmg" and mode is MODES[0]:
            _export_keeps_the_action_row(page)
        _check_page(page, axe, mode, name, problems)
    context.close()


def _export_keeps_the_action_row(page) -> None:
    """Export PDF on the builder: the download link comes, and "Duplicate" stays in line
    with the other actions."""
    from playwright.sync_api import expect

    duplicate = page.locator(".list-actions form[action$='/duplicate/'] button")
    top = duplicate.bounding_box()["y"]
    page.get_by_test_id("export-pdf").click()
    expect(page.get_by_test_id("export-download")).to_be_visible(timeout=20_000)
    assert duplicate.bounding_box()["y"] - top < 80  # the row moved down by the link only
    view = page.locator(".list-actions a[href$='/']", has_text="View")
    assert abs(view.bounding_box()["y"] - duplicate.bounding_box()["y"]) < 4


def _failed(request, where: str, problems: Problems) -> None:
    # The browser drops the icon's request when the next page is asked for before it came:
    # a navigation, not a failure (a missing icon answers 404, which the response check sees).
    if request.url.endswith("/favicon.svg") and "ERR_ABORTED" in (request.failure or ""):
        return
    problems.add(where, f"request failed: {request.url} {request.failure}")


def _log_in(page, base: str) -> None:
    """Log in whatever the interface language (the button's label is translated)."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password", "first-ten-minutes")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/**")


def test_tour_pages_are_clean_at_every_size_theme_and_language(
    chromium_path, live_server, tour_data
):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = Problems()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        try:
            for mode in MODES:
                _tour(browser, live_server.url, tour_data, mode, problems)
        finally:
            browser.close()
    assert not problems.items, "\n".join(problems.items)


def test_builder_keyboard_slash_searches_and_enter_adds_the_first_card(
    tour_data, live_server, chromium_page
):
    from playwright.sync_api import expect

    page = chromium_page
    _log_in(page, live_server.url)
    page.goto(f"{live_server.url}/lists/{tour_data['army']}/edit/")
    spent = page.get_by_test_id("points-spent")
    before = int(spent.inner_text())
    page.locator("body").press("/")
    expect(page.locator("#picker-q")).to_be_focused()
    with page.expect_response(re.compile(r"/cards/\?q=")):
        page.keyboard.type("Sellswords")
    expect(page.locator("#picker-results")).to_have_attribute("data-q", "Sellswords")
    page.keyboard.press("Enter")
    expect(spent).to_have_text(str(before + 6))
