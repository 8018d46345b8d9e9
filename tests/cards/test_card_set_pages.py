"""The card-set pages (issue 14): create by form, add a card by form, import, export,
share, publish, 404 for another user's private set, user text escaped."""

import json

import pytest

from cards.card_sets import services
from cards.card_sets.services import SetCardInput
from cards.models import Card, CardSet, Faction


@pytest.fixture
def factions(db):
    Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    Faction.objects.create(game="tactics", slug="neutral", name_en="Neutral", is_neutral=True)


@pytest.fixture
def alice_set(alice, factions):
    card_set = services.create_card_set(owner=alice, name="Alice set", licence_note="Mine")
    services.save_set_card(
        card_set=card_set,
        value=SetCardInput(
            kind="soldier", name_en="Levy", faction="baratheon", gold=0, silver=0, copper=1
        ),
    )
    return card_set


CARD_POST = {
    "kind": "champion",
    "name_en": "Form Knight",
    "faction": "baratheon",
    "character": "form-knight",
    "gold": "0",
    "silver": "2",
    "copper": "",
    "attack_1_name": "Sword",
    "attack_1_range": "melee",
    "attack_1_dice": "2",
    "abilities": "Brave: never flees.",
}


def test_create_a_set_by_form(client, alice, factions):
    client.force_login(alice)
    response = client.post(
        "/card-sets/new/", {"name": "My set", "visibility": "private", "licence_note": "own"}
    )
    card_set = CardSet.objects.get(owner=alice)
    assert response.status_code == 302 and response.url == f"/card-sets/{card_set.slug}/"


def test_add_a_card_by_form(client, alice, alice_set):
    client.force_login(alice)
    response = client.post(f"/card-sets/{alice_set.slug}/cards/add/", CARD_POST)
    assert response.status_code == 302
    card = Card.objects.get(card_set=alice_set, name_en="Form Knight")
    assert (card.gold, card.silver, card.copper) == (0, 2, 0)
    assert card.attacks[0]["dice"] == 2 and card.extra["abilities"][0]["name"] == "Brave"


def test_card_form_with_a_bad_cost_says_why(client, alice, alice_set):
    client.force_login(alice)
    response = client.post(
        f"/card-sets/{alice_set.slug}/cards/add/", {**CARD_POST, "gold": "1", "kind": "soldier"}
    )
    assert response.status_code == 400 and "makes a hero" in response.content.decode()


def test_another_users_private_set_is_404(client, bob, alice_set):
    client.force_login(bob)
    card = alice_set.cards.get()
    assert client.get(f"/card-sets/{alice_set.slug}/").status_code == 404
    assert client.get(f"/card-sets/{alice_set.slug}/export.json").status_code == 404
    assert client.get(f"/cards/tactics/{card.external_id}/").status_code == 404
    assert client.post(f"/card-sets/{alice_set.slug}/cards/add/", CARD_POST).status_code == 404


def test_another_user_cannot_edit_a_published_set(client, bob, alice_set):
    services.set_visibility(card_set=alice_set, visibility="published")
    client.force_login(bob)
    assert client.get(f"/card-sets/{alice_set.slug}/").status_code == 200
    assert client.get(f"/card-sets/{alice_set.slug}/edit/").status_code == 404


def test_link_shared_set_opens_with_its_token(client, alice_set):
    services.set_visibility(card_set=alice_set, visibility="link")
    assert client.get(f"/card-sets/{alice_set.slug}/").status_code == 404
    token = alice_set.share_token
    assert client.get(f"/card-sets/{alice_set.slug}/?token={token}").status_code == 200


def test_set_page_shows_author_and_licence_note(client, alice, alice_set):
    client.force_login(alice)
    html = client.get(f"/card-sets/{alice_set.slug}/").content.decode()
    assert "by alice" in html and "Mine" in html and "Levy" in html


def test_published_set_is_searchable_on_the_card_pages(client, alice_set):
    services.set_visibility(card_set=alice_set, visibility="published")
    html = client.get(f"/cards/?q=set:{alice_set.slug}").content.decode()
    assert "Levy" in html


def test_private_set_is_not_found_by_another_users_search(client, bob, alice_set):
    client.force_login(bob)
    html = client.get(f"/cards/?q=set:{alice_set.slug}").content.decode()
    assert "Levy" not in html


def test_import_by_paste_adds_the_cards(client, alice, alice_set):
    client.force_login(alice)
    document = {"format": "citadel-cards/1", "game": "tactics", "cards": [
        {"id": "pasted", "kind": "soldier", "faction": "baratheon", "name": {"en": "Pasted"},
         "cost": {"gold": 0, "silver": 0, "copper": 1}}]}  # fmt: skip
    response = client.post(f"/card-sets/{alice_set.slug}/import/", {"text": json.dumps(document)})
    assert response.status_code == 200 and alice_set.cards.filter(name_en="Pasted").exists()


def test_import_by_upload_with_a_bad_row_names_it(client, alice, alice_set):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(alice)
    document = {"format": "citadel-cards/1", "cards": [
        {"id": "a", "kind": "soldier", "faction": "baratheon", "name": {"en": "A"}},
        {"id": "b", "kind": "dragon", "faction": "baratheon", "name": {"en": "B"}}]}  # fmt: skip
    upload = SimpleUploadedFile("set.json", json.dumps(document).encode(), "application/json")
    response = client.post(f"/card-sets/{alice_set.slug}/import/", {"file": upload})
    html = response.content.decode()
    assert response.status_code == 400 and "Row 2" in html and "dragon" in html
    assert not alice_set.cards.filter(name_en="A").exists()


def test_export_is_a_citadel_json_document(client, alice, alice_set):
    client.force_login(alice)
    data = client.get(f"/card-sets/{alice_set.slug}/export.json").json()
    assert data["format"] == "citadel-cards/1" and data["cards"][0]["id"] == "levy"


def test_user_text_is_escaped_on_the_set_and_card_pages(client, alice, factions):
    card_set = services.create_card_set(
        owner=alice, name="<script>alert('set')</script>", licence_note="<b>bold</b>"
    )
    card = services.save_set_card(
        card_set=card_set,
        value=SetCardInput(
            kind="equipment", name_en="<img src=x onerror=alert(1)>", gold=0, silver=0, copper=1
        ),
    )
    client.force_login(alice)
    page = client.get(f"/card-sets/{card_set.slug}/").content.decode()
    card_page = client.get(f"/cards/tactics/{card.external_id}/").content.decode()
    assert "<script>alert('set')</script>" not in page and "&lt;script&gt;" in page
    assert "<b>bold</b>" not in page
    assert "<img src=x" not in card_page and "&lt;img src=x" in card_page


def test_owner_can_unpublish(client, alice, alice_set):
    services.set_visibility(card_set=alice_set, visibility="published")
    client.force_login(alice)
    client.post(f"/card-sets/{alice_set.slug}/visibility/", {"visibility": "private"})
    alice_set.refresh_from_db()
    assert alice_set.visibility == "private"


def test_add_a_scenario_with_two_budgets_by_form(client, alice, alice_set):
    client.force_login(alice)
    data = {"name_en": "Raid", "special_rules_en": "Fog <b>rolls</b> in.", "gold": "2",
            "silver": "4", "copper": "12", "side_b_gold": "3", "side_b_silver": "6",
            "side_b_copper": "18", "side_a": "Raiders", "side_b": "Guards"}  # fmt: skip
    response = client.post(f"/card-sets/{alice_set.slug}/scenarios/add/", data)
    assert response.status_code == 302
    scenario = alice_set.scenarios.get()
    assert scenario.budget_for("b") == {"gold": 3, "silver": 6, "copper": 18}
    html = client.get(f"/card-sets/{alice_set.slug}/").content.decode()
    assert "Raiders: 2-4-12, Guards: 3-6-18" in html and "&lt;b&gt;rolls" in html


def test_give_a_cost_to_a_shipped_card_by_form(client, alice, alice_set):
    shipped = Card.objects.create(
        game="tactics", kind="soldier", external_id="tac-unpriced", name_en="Unpriced",
        faction=Faction.objects.get(slug="baratheon"),
    )  # fmt: skip
    client.force_login(alice)
    data = {"card": "tac-unpriced", "gold": "0", "silver": "0", "copper": "1"}
    response = client.post(f"/card-sets/{alice_set.slug}/overrides/", data)
    assert response.status_code == 302
    assert alice_set.overrides.get().card == shipped


def test_cost_of_another_figure_type_is_a_400(client, alice, alice_set):
    Card.objects.create(
        game="tactics", kind="soldier", external_id="tac-unpriced", name_en="Unpriced",
        faction=Faction.objects.get(slug="baratheon"),
    )  # fmt: skip
    client.force_login(alice)
    data = {"card": "tac-unpriced", "gold": "1", "silver": "0", "copper": "0"}
    response = client.post(f"/card-sets/{alice_set.slug}/overrides/", data)
    assert response.status_code == 400 and not alice_set.overrides.exists()


def test_refused_change_shows_the_set_page_with_the_reason(client, alice, alice_set):
    client.force_login(alice)
    response = client.post(f"/card-sets/{alice_set.slug}/visibility/", {"visibility": "nope"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'role="alert"' in html and alice_set.name in html and "<html" in html
