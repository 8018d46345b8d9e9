"""A newcomer's first ten minutes (issue 17): the site search, the favicon, readable card
versions, share QR codes and short links on list sheets, Persian pagers and PDF names."""

from __future__ import annotations

import uuid

import pytest

from armybuilder.lists import services, sharing
from armybuilder.lists.models import ArmyList
from cards.models import Ability, Card, CardVersion
from common.qr import qr_svg
from exports.documents.army_list import share_block
from exports.documents.rules import _filename
from rules.services import import_rulebook_text
from tests.armybuilder.conftest import small_pool  # noqa: F401  (the ORM card pool)

pytestmark = pytest.mark.django_db

BOOK = """\
# Règles d’essai

## Mouvement {#mouvement}

Une unité avance de sa vitesse en pouces, puis peut pivoter une fois.

## Charge {#charge}

Une unité qui charge avance de sa vitesse plus un dé.
"""

FA_BOOK = """\
# قوانین آزمایشی

## حرکت {#harakat}

هر واحد به اندازهٔ سرعت خود جلو می‌رود.

## روحیه {#ruhiye}

واحدی که شکست بخورد یک پیکره بیشتر از دست می‌دهد.
"""


def _book(text: str, slug: str, lang: str):
    return import_rulebook_text(text=text, fmt="markdown", slug=slug, lang=lang, game="tmg").book


@pytest.fixture
def army(small_pool):  # noqa: F811
    from django.contrib.auth.models import User

    from armybuilder.lists.games import for_game

    owner = User.objects.create_user("owner", password="pw-first-minutes")
    text = "Stark\nStark Sworn Swords\nStark Outriders\n"
    return for_game("tmg").import_text(text=text, owner=owner).army_list


@pytest.fixture
def owner_client(client, army):
    client.login(username="owner", password="pw-first-minutes")
    return client


def _share(army_list: ArmyList) -> None:
    services.set_visibility(army_list=army_list, visibility="link")


# --- the site search ---------------------------------------------------------------------------


def test_site_search_finds_cards_and_rules_sections_together(client, small_pool):  # noqa: F811
    _book(BOOK, "essai-fr", "fr")
    body = client.get("/search/", {"q": "charge"}).content.decode()
    assert "/rules/essai-fr/charge/" in body
    body = client.get("/search/", {"q": "faction:stark kind:unit"}).content.decode()
    assert "/cards/tmg/10201/" in body


def test_site_search_with_a_card_syntax_error_still_answers_rules(client, small_pool):  # noqa: F811
    _book(BOOK, "essai-fr", "fr")
    response = client.get("/search/", {"q": "charge (("})
    assert response.status_code == 200
    assert "Not a card search" in response.content.decode()


def test_site_search_without_query_shows_only_the_box(client):
    response = client.get("/search/")
    assert response.status_code == 200 and 'id="found-cards"' not in response.content.decode()


def test_home_page_leads_to_the_three_jobs(client):
    body = client.get("/").content.decode()
    assert all(path in body for path in ('href="/lists/new/"', 'href="/lists/import/"', "/rules/"))


# --- favicon and the card browser ----------------------------------------------------------------


def test_favicon_ico_redirects_to_the_static_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response.url.endswith("favicon.svg")


def test_pages_link_the_favicon(client):
    assert 'rel="icon"' in client.get("/").content.decode()


def test_card_browser_trigger_names_no_selector_with_a_space(client):
    body = client.get("/cards/").content.decode()
    assert "from:.filter-row select" not in body and "hx-trigger" in body


# --- card versions -------------------------------------------------------------------------------


@pytest.fixture
def versioned(small_pool):  # noqa: F811
    card = Card.objects.get(external_id="10201")
    Ability.objects.create(key="vicious", name_en="Vicious", name_fr="Vicieux")
    base = {"points": 5, "abilities": [], "name_en": card.name_en, "is_character": False}
    CardVersion.objects.create(card=card, version="2021", stats=base)
    new = {**base, "points": 6, "abilities": ["vicious"]}
    card.current_version = CardVersion.objects.create(card=card, version="2024", stats=new)
    card.save(update_fields=["current_version"])
    return card


def test_card_page_says_what_changed_between_versions(client, versioned):
    body = client.get("/cards/tmg/10201/").content.decode()
    assert "points 5 → 6" in body and "+ Vicious" in body


def test_card_page_versions_print_no_raw_field_names(client, versioned):
    body = client.get("/cards/tmg/10201/").content.decode()
    assert "name_en" not in body and "is_character" not in body and "vicious" not in body


def test_card_page_versions_in_french(client, versioned):
    client.cookies["django_language"] = "fr"
    body = client.get("/cards/tmg/10201/").content.decode()
    assert "+ Vicieux" in body and "Versions et changements" in body


# --- share codes -------------------------------------------------------------------------------


def test_short_code_round_trips_a_share_token():
    token = uuid.uuid4()
    code = sharing.short_code(token)
    assert len(code) == 22 and sharing.token_from_code(code) == token


@pytest.mark.parametrize("code", ["", "short", "!" * 22, "A" * 23])
def test_token_from_code_refuses_what_is_not_a_code(code):
    assert sharing.token_from_code(code) is None


def test_short_link_opens_a_shared_list(client, army):
    _share(army)
    response = client.get(sharing.short_path(army))
    assert response.status_code == 302 and str(army.share_token) in response.url


def test_short_link_of_a_private_list_is_a_404(client, army):
    assert client.get(sharing.short_path(army)).status_code == 404


def test_qr_svg_is_an_image_with_a_title():
    svg = qr_svg("http://example.test/s/abc/", title="QR <code>")
    assert svg.startswith('<svg role="img"') and "<title>QR &lt;code&gt;</title>" in svg


def test_builder_has_export_pdf_and_a_qr_code_when_shared(owner_client, army):
    _share(army)
    body = owner_client.get(f"/lists/{army.pk}/edit/").content.decode()
    assert 'data-testid="export-pdf"' in body and 'data-testid="share-code"' in body


def test_list_view_of_a_private_list_asks_before_sharing(owner_client, army):
    body = owner_client.get(f"/lists/{army.pk}/").content.decode()
    assert 'data-testid="share-code"' not in body and "Share it and show the QR code" in body


def test_sharing_from_the_view_page_comes_back_to_it(owner_client, army):
    back = f"/lists/{army.pk}/print/"
    response = owner_client.post(
        f"/lists/{army.pk}/visibility/", {"visibility": "link", "next": back}
    )
    assert response.status_code == 302 and response.url == back


def test_sharing_refuses_a_next_on_another_site(owner_client, army):
    response = owner_client.post(
        f"/lists/{army.pk}/visibility/", {"visibility": "link", "next": "https://evil.test/"}
    )
    assert response.url == f"/lists/{army.pk}/edit/"


def test_print_page_of_a_shared_list_has_the_qr_code_and_short_link(owner_client, army):
    _share(army)
    body = owner_client.get(f"/lists/{army.pk}/print/").content.decode()
    assert "<svg" in body and sharing.short_path(army) in body


def test_pdf_sheet_of_a_shared_list_carries_its_short_link(army):
    _share(army)
    block = share_block({"list_id": army.pk, "site": "http://citadel.test"})
    assert block["url"] == "http://citadel.test" + sharing.short_path(army)
    assert block["qr"].startswith("<svg")


def test_pdf_sheet_of_a_private_list_has_no_qr_code(army):
    assert share_block({"list_id": army.pk, "site": "http://citadel.test"}) is None


# --- Persian -------------------------------------------------------------------------------------


def test_persian_section_pdf_is_named_after_the_section():
    assert _filename("agot-fa", "حرکت") == "agot-fa-حرکت.pdf"


def test_persian_section_pager_reads_right_to_left(client):
    book = _book(FA_BOOK, "essai-fa", "fa")
    slug = book.sections.order_by("position").values_list("slug", flat=True)[1]
    body = client.get(f"/rules/essai-fa/{slug}/").content.decode()
    assert 'class="pager"' in body and 'dir="rtl">' in body.split('class="pager"')[1][:200]
