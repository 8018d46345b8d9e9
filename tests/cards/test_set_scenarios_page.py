"""Scenarios of players' card sets on /cards/scenarios/ (issue 14b), and a set scenario's
French text entered by form."""

import pytest
from django.utils import translation

from cards.card_sets import services
from cards.card_sets.services import ScenarioInput
from cards.models import Faction


@pytest.fixture
def factions(db):
    Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")


def set_with_scenario(owner, visibility="private", name="Raid", **extra):
    card_set = services.create_card_set(
        owner=owner, name=f"{name} set", visibility=visibility, **extra
    )
    services.save_set_scenarios(
        card_set=card_set,
        values=[
            ScenarioInput(
                name_en=name, special_rules_en="Fog <b>rolls</b> in.", budget=(2, 4, 12),
                budget_b=(3, 6, 18), side_a="Raiders", side_b="Guards",
            )
        ],
    )  # fmt: skip
    return card_set


def scenarios_html(client) -> str:
    response = client.get("/cards/scenarios/")
    assert response.status_code == 200
    return response.content.decode()


def test_scenarios_page_lists_a_published_sets_scenario_with_its_set(client, alice, factions):
    card_set = set_with_scenario(alice, "published")
    html = scenarios_html(client)
    assert 'data-testid="set-scenarios"' in html and "Raid" in html
    assert f'href="/card-sets/{card_set.slug}/"' in html
    assert "Raiders: " in html and "Guards: " in html


def test_scenarios_page_escapes_a_set_scenarios_text(client, alice, factions):
    set_with_scenario(alice, "published")
    html = scenarios_html(client)
    assert "&lt;b&gt;rolls" in html and "<b>rolls" not in html


def test_scenarios_page_lists_the_owners_private_scenario_to_the_owner(client, alice, factions):
    set_with_scenario(alice, name="Secret raid")
    client.force_login(alice)
    assert "Secret raid" in scenarios_html(client)


def test_scenarios_page_hides_a_private_sets_scenario_from_another_user(
    client, alice, bob, factions
):
    set_with_scenario(alice, name="Secret raid")
    client.force_login(bob)
    assert "Secret raid" not in scenarios_html(client)


def test_scenarios_page_hides_a_private_sets_scenario_from_a_visitor(client, alice, factions):
    set_with_scenario(alice, name="Secret raid")
    html = scenarios_html(client)
    assert "Secret raid" not in html and 'data-testid="set-scenarios"' not in html


def test_scenarios_page_hides_a_set_hidden_by_an_admin(client, alice, bob, factions):
    card_set = set_with_scenario(alice, "published", name="Hidden raid")
    card_set.hidden_by_admin = True
    card_set.save(update_fields=["hidden_by_admin"])
    client.force_login(bob)
    assert "Hidden raid" not in scenarios_html(client)


def test_scenarios_page_marks_the_example_sets_scenario(client, factions):
    set_with_scenario(None, "published", name="Demo raid", is_example=True)
    html = scenarios_html(client)
    assert "Demo raid" in html and "example, not official" in html


def test_scenario_form_keeps_the_french_special_rules(client, alice, factions):
    card_set = services.create_card_set(owner=alice, name="Alice set")
    client.force_login(alice)
    data = {"name_en": "Raid", "name_fr": "Razzia", "special_rules_en": "Fog rolls in.",
            "special_rules_fr": "Le brouillard tombe.", "gold": "2", "silver": "4",
            "copper": "12"}  # fmt: skip
    response = client.post(f"/card-sets/{card_set.slug}/scenarios/add/", data)
    assert response.status_code == 302
    scenario = card_set.scenarios.get()
    assert (scenario.name_fr, scenario.special_rules_fr) == ("Razzia", "Le brouillard tombe.")
    with translation.override("fr"):
        html = client.get(f"/card-sets/{card_set.slug}/", HTTP_ACCEPT_LANGUAGE="fr").content
    assert "Le brouillard tombe." in html.decode()
