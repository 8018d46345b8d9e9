"""Card sets players enter and share (issue 14): services, visibility, import / export."""

import json

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from cards.card_sets import selectors, services
from cards.card_sets.document import export_set_document, import_set_document, parse_document
from cards.card_sets.services import AbilityText, Attack, CardSetError, SetCardInput
from cards.models import Card, CardSet, Faction, Scenario
from cards.query import search_cards


@pytest.fixture
def factions(db):
    return {
        "baratheon": Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon"),
        "neutral": Faction.objects.create(
            game="tactics", slug="neutral", name_en="Neutral", is_neutral=True
        ),
    }


@pytest.fixture
def card_set(alice, factions):
    return services.create_card_set(owner=alice, name="Alice's Stags", licence_note="Own words")


KNIGHT = SetCardInput(
    kind="champion",
    name_en="Stag Knight",
    faction="baratheon",
    character="stag-knight",
    gold=0,
    silver=2,
    copper=1,
    attacks=(Attack(name="Longsword", range="melee", ap=1, dice=2, to_hit=4),),
    abilities=(AbilityText(name="Charge", text="Moves then strikes."),),
)
STEEL = SetCardInput(
    kind="equipment", name_en="Good Steel", gold=0, silver=0, copper=2, carriers=("hero",)
)


def document(*cards, scenarios=()):
    return {"format": "citadel-cards/1", "game": "tactics", "cards": list(cards),
            "scenarios": list(scenarios)}  # fmt: skip


def row(number, **fields):
    return {
        "id": f"guard-{number}",
        "kind": "soldier",
        "faction": "baratheon",
        "name": {"en": f"Guard {number}"},
        "cost": {"gold": 0, "silver": 0, "copper": 1},
        **fields,
    }


# --- services -----------------------------------------------------------------------------------


def test_create_set_by_form_values_stores_the_card_in_the_pool(card_set):
    card = services.save_set_card(card_set=card_set, value=KNIGHT)
    assert card.card_set == card_set and card.game == "tactics"
    assert card.external_id == f"{card_set.slug}.stag-knight"
    assert (card.gold, card.silver, card.copper) == (0, 2, 1)
    assert card.attacks[0]["name_en"] == "Longsword"
    assert card.extra["abilities"] == [{"name": "Charge", "text": "Moves then strikes."}]
    assert card.current_version is not None


def test_save_set_card_rejects_a_cost_of_another_figure_type(card_set):
    with pytest.raises(CardSetError) as exc:
        services.save_set_card(
            card_set=card_set,
            value=SetCardInput(
                kind="hero", name_en="X", faction="baratheon", gold=0, silver=0, copper=1
            ),
        )
    assert "makes a soldier" in exc.value.messages[0]


def test_editing_a_set_card_records_a_new_version(card_set):
    card = services.save_set_card(card_set=card_set, value=KNIGHT)
    first = card.current_version_id
    edited = services.save_set_card(
        card_set=card_set, card=card, value=SetCardInput(**{**KNIGHT.__dict__, "copper": 2})
    )
    assert edited.pk == card.pk and edited.current_version_id != first
    assert card.versions.count() == 2


def test_hiding_a_set_needs_an_admin(card_set, bob):
    with pytest.raises(PermissionDenied):
        services.hide_card_set(card_set=card_set, hidden=True, by=bob)


# --- visibility ---------------------------------------------------------------------------------


def test_private_set_is_seen_by_its_owner_only(card_set, alice, bob):
    assert selectors.viewable_set(card_set.slug, alice) == card_set
    assert selectors.viewable_set(card_set.slug, bob) is None
    assert selectors.editable_set(card_set.slug, bob) is None


def test_link_set_is_seen_with_its_token_only(card_set, bob):
    services.set_visibility(card_set=card_set, visibility="link")
    assert selectors.viewable_set(card_set.slug, bob) is None
    token = str(card_set.share_token)
    assert selectors.viewable_set(card_set.slug, bob, token=token) == card_set


def test_published_set_is_listed_and_unpublishing_hides_it(card_set, bob):
    services.set_visibility(card_set=card_set, visibility="published")
    assert list(selectors.listed_sets(bob).filter(is_example=False)) == [card_set]
    services.set_visibility(card_set=card_set, visibility="private")
    assert list(selectors.listed_sets(bob).filter(is_example=False)) == []


def test_set_hidden_by_an_admin_is_seen_by_its_owner_only(card_set, alice, bob):
    admin = User.objects.create_user("admin", is_staff=True)
    services.set_visibility(card_set=card_set, visibility="published")
    services.hide_card_set(card_set=card_set, hidden=True, by=admin)
    assert selectors.viewable_set(card_set.slug, bob) is None
    assert selectors.viewable_set(card_set.slug, alice) == card_set


def test_query_language_finds_a_published_set_by_slug(card_set, bob):
    services.save_set_card(card_set=card_set, value=KNIGHT)
    services.set_visibility(card_set=card_set, visibility="published")
    found = selectors.visible_cards(search_cards(f"set:{card_set.slug}"), bob)
    assert [c.name_en for c in found] == ["Stag Knight"]


def test_query_language_hides_a_private_set_from_others(card_set, alice, bob):
    services.save_set_card(card_set=card_set, value=KNIGHT)
    query = search_cards(f"set:{card_set.slug}")
    assert list(selectors.visible_cards(query, bob)) == []
    assert len(selectors.visible_cards(query, alice)) == 1


# --- import / export ----------------------------------------------------------------------------


def test_import_adds_every_row(card_set):
    result = import_set_document(card_set=card_set, document=document(row(1), row(2)))
    assert result.created == 2 and card_set.cards.count() == 2


def test_import_bad_row_names_the_row_and_writes_nothing(card_set):
    bad = row(3, cost={"gold": "lots"})
    with pytest.raises(CardSetError) as exc:
        import_set_document(card_set=card_set, document=document(row(1), row(2), bad))
    assert exc.value.rows[0].row == 3 and "Row 3" in exc.value.messages[0]
    assert card_set.cards.count() == 0


def test_import_unknown_faction_names_the_row_and_writes_nothing(card_set):
    with pytest.raises(CardSetError) as exc:
        import_set_document(card_set=card_set, document=document(row(1), row(2, faction="martell")))
    assert exc.value.rows[0].row == 2 and "martell" in exc.value.rows[0].reason
    assert not Card.objects.filter(card_set=card_set).exists()


def test_import_of_text_that_is_not_json_says_the_line():
    with pytest.raises(CardSetError) as exc:
        parse_document('{\n  "cards": [,]\n}')
    assert exc.value.rows[0].row == 2


def test_export_then_import_gives_the_same_set(card_set, alice, factions):
    services.save_set_card(card_set=card_set, value=KNIGHT)
    services.save_set_card(card_set=card_set, value=STEEL)
    services.save_set_scenarios(
        card_set=card_set,
        values=[
            services.ScenarioInput(
                name_en="Ambush",
                budget=(2, 4, 12),
                budget_b=(3, 6, 18),
                special_rules_en="Night falls.",
            )
        ],
    )
    exported = export_set_document(card_set)
    copy = services.create_card_set(owner=alice, name="Copy")
    import_set_document(card_set=copy, document=json.loads(json.dumps(exported)))
    again = export_set_document(copy)
    assert again["cards"] == exported["cards"] and again["scenarios"] == exported["scenarios"]


def test_import_scenario_with_asymmetric_budgets(card_set):
    scenario_row = {"id": "raid", "name": {"en": "Raid"}, "budget": {"gold": 2, "silver": 4,
                    "copper": 12}, "budget_b": {"gold": 3, "silver": 6, "copper": 18}}  # fmt: skip
    import_set_document(card_set=card_set, document=document(scenarios=[scenario_row]))
    scenario = Scenario.objects.get(card_set=card_set)
    assert scenario.budget_for("a") == {"gold": 2, "silver": 4, "copper": 12}
    assert scenario.budget_for("b") == {"gold": 3, "silver": 6, "copper": 18}


def test_cost_override_refuses_a_card_whose_cost_is_known(card_set, factions):
    card = Card.objects.create(game="tactics", kind="soldier", external_id="tac-g",
                               name_en="G", faction=factions["baratheon"], gold=0, silver=0,
                               copper=1)  # fmt: skip
    with pytest.raises(CardSetError):
        services.set_cost_override(card_set=card_set, card=card, gold=0, silver=0, copper=1)


def test_user_text_is_stored_as_text(card_set):
    value = SetCardInput(kind="equipment", name_en="<script>alert(1)</script>", copper=1,
                         gold=0, silver=0)  # fmt: skip
    card = services.save_set_card(card_set=card_set, value=value)
    assert card.name_en == "<script>alert(1)</script>"
    assert CardSet.objects.filter(pk=card_set.pk).exists()


def test_admin_action_hides_a_published_set(client, card_set, bob):
    admin = User.objects.create_superuser("root", password="pw-root-123")
    services.set_visibility(card_set=card_set, visibility="published")
    client.force_login(admin)
    client.post(
        "/admin/cards/cardset/",
        {"action": "hide", "_selected_action": [card_set.pk]},
    )
    card_set.refresh_from_db()
    assert card_set.hidden_by_admin
    assert selectors.viewable_set(card_set.slug, bob) is None
