"""The card admin: every page renders for a superuser; the Tactics type-from-cost check."""

import pytest
from django.urls import reverse

from cards.figure_types import figure_kind_from_cost
from cards.forms import CardAdminForm
from cards.models import (
    Ability,
    Card,
    CardAbility,
    CardVersion,
    Character,
    Faction,
    Scenario,
    Sigil,
)

pytestmark = pytest.mark.django_db

MODELS = [Faction, Sigil, Character, Ability, Card, CardAbility, CardVersion, Scenario]


@pytest.fixture
def admin_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-long-enough")
    client.force_login(user)
    return client


@pytest.fixture
def data():
    stark = Faction.objects.create(game="tmg", slug="stark", name_en="House Stark")
    baratheon = Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    sigil = Sigil.objects.create(faction=baratheon, slug="stag", name_en="Stag")
    robb = Character.objects.create(key="robb-stark", name_en="Robb Stark")
    ability = Ability.objects.create(key="sundering", name_en="Sundering")
    unit = Card.objects.create(
        game="tmg", kind="unit", external_id="10101", faction=stark, name_en="Sworn Swords"
    )
    unit.characters.add(robb)
    link = CardAbility.objects.create(card=unit, ability=ability, position=0)
    version = CardVersion.objects.create(card=unit, version="2021", stats={"points": 6})
    scenario = Scenario.objects.create(
        game="tactics", slug="standard", kind="game_size", name_en="Standard", gold=3
    )
    return {
        Faction: stark,
        Sigil: sigil,
        Character: robb,
        Ability: ability,
        Card: unit,
        CardAbility: link,
        CardVersion: version,
        Scenario: scenario,
    }


def _url(model, action: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{action}", args=args)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_changelist_renders_for_superuser(admin_client, data, model):
    assert admin_client.get(_url(model, "changelist")).status_code == 200


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_add_page_renders_for_superuser(admin_client, model):
    assert admin_client.get(_url(model, "add")).status_code == 200


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_change_page_renders_for_superuser(admin_client, data, model):
    assert admin_client.get(_url(model, "change", data[model].pk)).status_code == 200


def test_admin_changelist_search_finds_card_by_french_name(admin_client, data):
    data[Card].name_fr = "Épées Liges"
    data[Card].save()
    response = admin_client.get(_url(Card, "changelist"), {"q": "Liges"})
    assert b"Sworn Swords" in response.content


def test_admin_card_change_page_shows_recorded_versions_read_only(admin_client, data):
    response = admin_client.get(_url(Card, "change", data[Card].pk))
    assert b"2021" in response.content
    assert b'name="versions-0-version"' not in response.content


def test_admin_is_closed_to_anonymous_users(client):
    response = client.get(_url(Card, "changelist"))
    assert response.status_code == 302


def _tactics_form(**overrides) -> CardAdminForm:
    data = {
        "game": "tactics",
        "kind": "soldier",
        "external_id": "tac-test",
        "name_en": "Test Figure",
        "gold": "0",
        "silver": "0",
        "copper": "1",
        "attacks": "[]",
        "boxes": "[]",
        "requirements": "[]",
        "extra": "{}",
    }
    data.update(overrides)
    return CardAdminForm(data=data)


def test_card_form_rejects_two_gold_soldier():
    form = _tactics_form(kind="soldier", gold="2", silver="0", copper="0")
    assert not form.is_valid()
    assert "kind" in form.errors


def test_card_form_accepts_two_gold_hero():
    form = _tactics_form(kind="hero", gold="2", silver="0", copper="0")
    assert form.is_valid(), form.errors


def test_card_form_rejects_silver_only_hero():
    form = _tactics_form(kind="hero", gold="0", silver="2", copper="1")
    assert "kind" in form.errors


def test_card_form_accepts_figure_with_an_unknown_coin():
    form = _tactics_form(kind="soldier", gold="1", silver="", copper="")
    assert form.is_valid(), form.errors


def test_card_form_rejects_tactics_kind_in_tmg():
    form = _tactics_form(game="tmg", kind="hero", gold="", silver="", copper="")
    assert "kind" in form.errors


def test_card_form_stores_equipment_carriers_as_a_list():
    form = _tactics_form(
        kind="equipment", gold="0", silver="0", copper="2", carriers=["hero", "champion"]
    )
    assert form.is_valid(), form.errors
    assert form.save().carriers == ["hero", "champion"]


def _admin_post(**overrides) -> dict:
    data = {
        "game": "tactics",
        "kind": "soldier",
        "external_id": "tac-new",
        "name_en": "New Figure",
        "gold": "0",
        "silver": "0",
        "copper": "1",
        "attacks": "[]",
        "boxes": "[]",
        "requirements": "[]",
        "extra": "{}",
        "card_abilities-TOTAL_FORMS": "0",
        "card_abilities-INITIAL_FORMS": "0",
        "versions-TOTAL_FORMS": "0",
        "versions-INITIAL_FORMS": "0",
    }
    data.update(overrides)
    return data


def test_admin_add_card_rejects_two_gold_soldier(admin_client):
    response = admin_client.post(
        _url(Card, "add"), _admin_post(kind="soldier", gold="2", silver="0", copper="0")
    )
    assert response.status_code == 200
    assert "is a Hero" in response.content.decode()
    assert not Card.objects.filter(external_id="tac-new").exists()


def test_admin_add_card_saves_and_indexes_name_for_search(admin_client):
    response = admin_client.post(_url(Card, "add"), _admin_post(name_en="Stag Guard"))
    assert response.status_code == 302
    assert "stag guard" in Card.objects.get(external_id="tac-new").search_text


@pytest.mark.parametrize(
    ("coins", "expected"),
    [
        ((1, 0, 0), "hero"),
        ((3, 1, 0), "hero"),
        ((0, 2, 0), "champion"),
        ((0, 1, 3), "champion"),
        ((0, 0, 1), "soldier"),
        ((0, 0, 0), None),
        ((None, 0, 1), None),
    ],
)
def test_figure_kind_from_cost_follows_rulebook(coins, expected):
    assert figure_kind_from_cost(*coins) == expected
