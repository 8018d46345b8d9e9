"""/api/v1/card-sets/ (issue 14): owner-scoped writes, visibility on reads, JSON 400s."""

import pytest
from rest_framework.test import APIClient

from cards.card_sets import services
from cards.models import CardSet, Faction

API = "/api/v1/card-sets/"


@pytest.fixture
def factions(db):
    Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def row(id_, **fields):
    return {"id": id_, "kind": "soldier", "faction": "baratheon", "name": {"en": id_},
            "cost": {"gold": 0, "silver": 0, "copper": 1}, **fields}  # fmt: skip


def test_create_a_set(alice, factions):
    response = client_for(alice).post(
        API, {"name": "API set", "factions": ["baratheon"], "visibility": "link"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["factions"] == ["baratheon"] and response.json()["author"] == "alice"


def test_create_needs_a_signed_in_user(factions):
    response = client_for().post(API, {"name": "x"}, format="json")
    assert response.status_code in (401, 403) and "detail" in response.json()


def test_create_with_a_bad_field_is_a_json_400(alice, factions):
    response = client_for(alice).post(API, {"name": 5, "factions": ["nowhere"]}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "name"


def test_create_with_malformed_json_is_a_json_400(alice):
    response = client_for(alice).post(API, "{not json", content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()


def test_list_shows_own_and_published_sets_only(alice, bob, factions):
    services.create_card_set(owner=alice, name="Private")
    services.create_card_set(owner=alice, name="Public", visibility="published")
    results = client_for(bob).get(API).json()["results"]
    names = [s["name"] for s in results if not s["example"]]  # the demo's, when loaded
    assert names == ["Public"]


def test_another_users_private_set_is_404(alice, bob, factions):
    card_set = services.create_card_set(owner=alice, name="Private")
    assert client_for(bob).get(f"{API}{card_set.slug}/").status_code == 404
    assert client_for(bob).get(f"{API}{card_set.slug}/document/").status_code == 404
    patch = client_for(bob).patch(f"{API}{card_set.slug}/", {"name": "x"}, format="json")
    assert patch.status_code == 404


def test_another_user_cannot_import_into_a_published_set(alice, bob, factions):
    card_set = services.create_card_set(owner=alice, name="Public", visibility="published")
    response = client_for(bob).post(
        f"{API}{card_set.slug}/document/", {"cards": [row("a")]}, format="json"
    )
    assert response.status_code == 404 and not card_set.cards.exists()


def test_import_then_export(alice, factions):
    card_set = services.create_card_set(owner=alice, name="Mine")
    client = client_for(alice)
    response = client.post(
        f"{API}{card_set.slug}/document/", {"cards": [row("a"), row("b")]}, format="json"
    )
    assert response.status_code == 200 and response.json()["created"] == 2
    exported = client.get(f"{API}{card_set.slug}/document/").json()
    assert [c["id"] for c in exported["cards"]] == ["a", "b"]


def test_import_bad_row_is_a_json_400_with_the_row(alice, factions):
    card_set = services.create_card_set(owner=alice, name="Mine")
    response = client_for(alice).post(
        f"{API}{card_set.slug}/document/",
        {"cards": [row("a"), row("b", kind="wizard")]},
        format="json",
    )
    assert response.status_code == 400 and response.json()["row"] == 2
    assert not card_set.cards.exists()


def test_owner_unpublishes_with_patch(alice, bob, factions):
    card_set = services.create_card_set(owner=alice, name="Public", visibility="published")
    response = client_for(alice).patch(
        f"{API}{card_set.slug}/", {"visibility": "private"}, format="json"
    )
    assert response.status_code == 200
    assert client_for(bob).get(f"{API}{card_set.slug}/").status_code == 404


def test_owner_deletes_an_unused_set(alice, factions):
    card_set = services.create_card_set(owner=alice, name="Gone")
    assert client_for(alice).delete(f"{API}{card_set.slug}/").status_code == 204
    assert not CardSet.objects.filter(pk=card_set.pk).exists()


def test_card_api_hides_private_set_cards(alice, bob, factions):
    card_set = services.create_card_set(owner=alice, name="Private")
    client_for(alice).post(f"{API}{card_set.slug}/document/", {"cards": [row("a")]}, format="json")
    card = card_set.cards.get()
    assert client_for(bob).get(f"/api/v1/cards/{card.pk}/").status_code == 404
    found = client_for(bob).get("/api/v1/cards/", {"q": f"set:{card_set.slug}"}).json()
    assert found["count"] == 0
    mine = client_for(alice).get("/api/v1/cards/", {"q": f"set:{card_set.slug}"}).json()
    assert mine["count"] == 1


def test_list_mine_shows_only_own_sets(alice, bob, factions):
    services.create_card_set(owner=alice, name="Alice's", visibility="published")
    services.create_card_set(owner=bob, name="Bob's")
    results = client_for(bob).get(API, {"mine": "true"}).json()["results"]
    assert [s["name"] for s in results] == ["Bob's"]


def test_list_with_a_bad_mine_value_is_a_json_400(bob):
    response = client_for(bob).get(API, {"mine": "maybe"})
    assert response.status_code == 400 and response.json()["field"] == "mine"


def test_import_document_of_the_wrong_shape_is_a_json_400_naming_the_item(alice, factions):
    card_set = services.create_card_set(owner=alice, name="Mine")
    response = client_for(alice).post(
        f"{API}{card_set.slug}/document/", {"cards": [row("a"), "not a card"]}, format="json"
    )
    body = response.json()
    assert response.status_code == 400 and body["field"] == "cards.1" and body["code"] == "invalid"
    assert not card_set.cards.exists()
