"""Warbands that draw from players' card sets (issue 14): recruiting set cards, cost
overrides for shipped cards of unknown cost, pinned versions, scenario budgets per side."""

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError

from armybuilder.lists import tactics_selectors, tactics_services
from armybuilder.lists.versions import card_versions
from armybuilder.serializers import result_json
from cards.card_sets import services as set_services
from cards.card_sets.services import ScenarioInput, SetCardInput
from cards.models import Card

KNIGHT = SetCardInput(
    kind="champion", name_en="Storm Knight", faction="baratheon", character="storm-knight",
    gold=0, silver=2, copper=1,
)  # fmt: skip
GUARD = SetCardInput(
    kind="soldier", name_en="Storm Guard", faction="baratheon", gold=0, silver=0, copper=1
)


@pytest.fixture
def storm_set(alice, baratheon):
    card_set = set_services.create_card_set(owner=alice, name="Storm", visibility="published")
    set_services.save_set_cards(card_set=card_set, values=[KNIGHT, GUARD])
    return card_set


def unpriced_lord(faction, **extra):
    """A shipped Tactics hero whose cost is unknown."""
    return Card.objects.create(
        game="tactics", kind="hero", external_id="tac-unpriced", faction=faction,
        name_en="Unpriced Lord", **extra,
    )  # fmt: skip


def set_card(card_set, name):
    return Card.objects.get(card_set=card_set, name_en=name)


def codes(result) -> list[str]:
    return [f.code for f in result.findings]


def test_warband_recruits_a_card_of_a_set_it_draws_from(storm_set, baratheon, bob):
    warband = tactics_services.create_warband(
        faction=baratheon, budget="0-2-2", owner=bob, card_sets=[storm_set]
    )
    tactics_services.add_figure(army_list=warband, card=set_card(storm_set, "Storm Knight"))
    tactics_services.add_figure(army_list=warband, card=set_card(storm_set, "Storm Guard"))
    result = tactics_selectors.warband_report(warband)
    assert result.status == "legal", codes(result)


def test_warband_cannot_recruit_from_a_set_it_does_not_draw_from(storm_set, baratheon):
    warband = tactics_services.create_warband(faction=baratheon, budget="standard")
    with pytest.raises(ValidationError) as exc:
        tactics_services.add_figure(army_list=warband, card=set_card(storm_set, "Storm Guard"))
    assert exc.value.code == "card_set"


def test_warband_cannot_draw_from_another_users_private_set(alice, baratheon, bob):
    private = set_services.create_card_set(owner=alice, name="Secret")
    with pytest.raises(ValidationError) as exc:
        tactics_services.create_warband(
            faction=baratheon, budget="standard", owner=bob, card_sets=[private]
        )
    assert exc.value.code == "card_sets"


def test_editing_the_set_keeps_the_saved_warband_on_its_pinned_version(storm_set, baratheon, bob):
    warband = tactics_services.create_warband(
        faction=baratheon, budget="0-2-2", owner=bob, card_sets=[storm_set]
    )
    knight = set_card(storm_set, "Storm Knight")
    tactics_services.add_figure(army_list=warband, card=knight)
    set_services.save_set_card(card_set=storm_set, card=knight, value=replace(KNIGHT, silver=3))
    knight.refresh_from_db()
    assert knight.silver == 3  # the set now says 0-3-1
    result = tactics_selectors.warband_report(warband)
    assert result.coins.spent.silver == 2 and result.status == "legal", codes(result)
    assert card_versions(warband).update_available
    current = tactics_selectors.warband_report(warband, current_cards=True)
    assert current.coins.spent.silver == 3 and "COIN_OVER_BUDGET" in codes(current)


def test_set_made_private_later_keeps_the_saved_warband_whole(storm_set, baratheon, bob):
    warband = tactics_services.create_warband(
        faction=baratheon, budget="0-2-2", owner=bob, card_sets=[storm_set]
    )
    tactics_services.add_figure(army_list=warband, card=set_card(storm_set, "Storm Knight"))
    set_services.set_visibility(card_set=storm_set, visibility="private")
    warband.card_sets.clear()
    result = tactics_selectors.warband_report(warband)
    assert "CARD_UNKNOWN" not in codes(result) and result.coins.spent.silver == 2


def test_cost_override_makes_a_shipped_card_recruitable(alice, baratheon):
    unpriced = unpriced_lord(baratheon)
    costs = set_services.create_card_set(owner=alice, name="My costs")
    set_services.set_cost_override(card_set=costs, card=unpriced, gold=1, silver=0, copper=0)
    warband = tactics_services.create_warband(
        faction=baratheon, budget="1-0-1", owner=alice, card_sets=[costs]
    )
    tactics_services.add_figure(army_list=warband, card=unpriced)
    result = tactics_selectors.warband_report(warband)
    assert result.status == "legal", codes(result)
    (entry,) = result.entries
    assert entry.card.cost_from == "My costs"


def test_shipped_card_of_unknown_cost_is_refused_without_an_override(baratheon):
    unpriced = unpriced_lord(baratheon)
    warband = tactics_services.create_warband(faction=baratheon, budget="standard")
    with pytest.raises(ValidationError) as exc:
        tactics_services.add_figure(army_list=warband, card=unpriced)
    assert exc.value.code == "cost_unknown"


def test_picker_shows_cost_from_the_set(client, alice, baratheon):
    unpriced = unpriced_lord(baratheon, search_text="unpriced lord")
    costs = set_services.create_card_set(owner=alice, name="My costs")
    set_services.set_cost_override(card_set=costs, card=unpriced, gold=1, silver=0, copper=0)
    warband = tactics_services.create_warband(
        faction=baratheon, budget="standard", owner=alice, card_sets=[costs]
    )
    client.force_login(alice)
    html = client.get(f"/lists/{warband.pk}/edit/?q=Unpriced").content.decode()
    assert "cost from My costs" in html


def test_warband_for_a_scenario_side_takes_that_sides_budget(storm_set, baratheon, bob):
    (scenario,) = set_services.save_set_scenarios(
        card_set=storm_set,
        values=[ScenarioInput(name_en="Siege", budget=(2, 4, 12), budget_b=(3, 6, 18))],
    )
    attacker = tactics_services.create_warband(
        faction=baratheon, scenario=scenario, side="b", owner=bob, card_sets=[storm_set]
    )
    defender = tactics_services.create_warband(faction=baratheon, scenario=scenario, side="a")
    assert (attacker.gold, attacker.silver, attacker.copper) == (3, 6, 18)
    assert (defender.gold, defender.silver, defender.copper) == (2, 4, 12)


def test_report_json_of_a_set_warband_names_its_cards(storm_set, baratheon, bob):
    warband = tactics_services.create_warband(
        faction=baratheon, budget="0-2-2", owner=bob, card_sets=[storm_set]
    )
    tactics_services.add_figure(army_list=warband, card=set_card(storm_set, "Storm Guard"))
    data = result_json(tactics_selectors.warband_report(warband))
    assert data["entries"][0]["id"] == f"{storm_set.slug}.storm-guard"
