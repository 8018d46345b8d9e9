"""Saved Tactics warbands: services, selectors, the report, collections, the builder pages."""

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from armybuilder.checking import check_tactics_text
from armybuilder.lists import services, tactics_selectors, tactics_services
from armybuilder.lists.models import ArmyList, EntryRole, ListEntry, ListGame, Visibility
from armybuilder.models import Collection
from armybuilder.serializers import result_json
from armybuilder.tactics.draft import Coins
from cards.models import Card, Faction, Scenario

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def cards(small_pool):
    return {card.external_id: card for card in Card.objects.filter(game="tactics")}


@pytest.fixture
def warband(baratheon):
    return tactics_services.create_warband(faction=baratheon, budget="standard")


def codes(report: dict) -> list[str]:
    return [f["code"] for f in report["findings"]]


# --- services: creating ------------------------------------------------------------------------


def test_create_warband_from_scenario_copies_its_budget(baratheon):
    scenario = Scenario.objects.get(slug="tac-standard")
    army_list = tactics_services.create_warband(faction=baratheon, scenario=scenario)
    assert army_list.game == ListGame.TACTICS
    assert (army_list.gold, army_list.silver, army_list.copper) == (3, 6, 18)
    assert army_list.scenario == scenario


@pytest.mark.parametrize(
    ("budget", "coins"), [("small", (2, 4, 12)), ("large", (4, 8, 24)), ("5-1-9", (5, 1, 9))]
)
def test_create_warband_from_size_or_literal_budget(baratheon, budget, coins):
    army_list = tactics_services.create_warband(faction=baratheon, budget=budget)
    assert (army_list.gold, army_list.silver, army_list.copper) == coins
    assert army_list.scenario is None


@pytest.mark.parametrize("budget", ["huge", "3-6", "1-2-300", ""])
def test_create_warband_rejects_a_bad_budget(baratheon, budget):
    with pytest.raises(ValidationError) as exc:
        tactics_services.create_warband(faction=baratheon, budget=budget)
    assert exc.value.code == "budget"


def test_create_warband_rejects_a_tmg_faction(small_pool):
    with pytest.raises(ValidationError) as exc:
        tactics_services.create_warband(
            faction=Faction.objects.get(game="tmg", slug="stark"), budget="standard"
        )
    assert exc.value.code == "faction"


def test_create_warband_with_a_scenario_of_unknown_budget_reports_no_budget(baratheon):
    scenario = Scenario.objects.create(
        game="tactics", slug="tac-mystery", kind="scenario", name_en="Mystery"
    )
    army_list = tactics_services.create_warband(faction=baratheon, scenario=scenario)
    assert "SCENARIO_UNKNOWN" in codes(result_json(tactics_selectors.warband_report(army_list)))


def test_update_warband_replaces_the_budget(warband):
    tactics_services.update_warband(army_list=warband, budget="2-4-12", name="  Stags ")
    warband.refresh_from_db()
    assert (warband.gold, warband.silver, warband.copper, warband.name) == (2, 4, 12, "Stags")


def test_tmg_services_refuse_a_warband(warband, cards):
    with pytest.raises(ValidationError):
        services.add_unit(army_list=warband, card=cards["tac-guardians"])


# --- services: figures and equipment -------------------------------------------------------------


def test_add_figure_soldier_copies_are_several_entries(warband, cards):
    entries = tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"], copies=3)
    assert len(entries) == 3
    assert warband.entries.filter(role=EntryRole.FIGURE).count() == 3


def test_add_figure_refuses_equipment(warband, cards):
    with pytest.raises(ValidationError) as exc:
        tactics_services.add_figure(army_list=warband, card=cards["tac-steel"])
    assert exc.value.code == "wrong_role"


def test_add_figure_refuses_a_card_of_unknown_cost(warband, baratheon):
    card = Card.objects.create(
        game="tactics", kind="hero", external_id="tac-jon-arryn", faction=baratheon, name_en="Jon"
    )
    with pytest.raises(ValidationError) as exc:
        tactics_services.add_figure(army_list=warband, card=card)
    assert exc.value.code == "cost_unknown"


def test_add_figure_refuses_zero_copies(warband, cards):
    with pytest.raises(ValidationError) as exc:
        tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"], copies=0)
    assert exc.value.code == "copies"


def test_assign_equipment_puts_the_item_on_its_holder(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    item = tactics_services.assign_equipment(
        army_list=warband, card=cards["tac-steel"], holder=robert
    )
    assert item.role == EntryRole.EQUIPMENT and item.parent == robert


def test_assign_equipment_refuses_a_figure_card(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    with pytest.raises(ValidationError) as exc:
        tactics_services.assign_equipment(
            army_list=warband, card=cards["tac-guardians"], holder=robert
        )
    assert exc.value.code == "wrong_role"


def test_assign_equipment_refuses_a_holder_from_another_warband(warband, baratheon, cards):
    other = tactics_services.create_warband(faction=baratheon, budget="standard")
    (robert,) = tactics_services.add_figure(army_list=other, card=cards["tac-robert"])
    with pytest.raises(ValidationError) as exc:
        tactics_services.assign_equipment(army_list=warband, card=cards["tac-steel"], holder=robert)
    assert exc.value.code == "foreign_entry"


def test_move_equipment_changes_its_holder(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    (guard,) = tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"])
    item = tactics_services.assign_equipment(
        army_list=warband, card=cards["tac-steel"], holder=robert
    )
    tactics_services.move_equipment(army_list=warband, entry=item, holder=guard)
    item.refresh_from_db()
    assert item.parent == guard


def test_switch_version_swaps_the_card_and_keeps_allowed_equipment(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    item = tactics_services.assign_equipment(
        army_list=warband, card=cards["tac-steel"], holder=robert
    )
    tactics_services.switch_version(army_list=warband, entry=robert)
    robert.refresh_from_db()
    item.refresh_from_db()
    assert robert.card == cards["tac-robert-mounted"]
    assert item.parent == robert


def test_switch_version_drops_the_holder_of_infantry_only_equipment(warband, cards):
    boots = Card.objects.create(
        game="tactics",
        kind="equipment",
        external_id="tac-boots",
        name_en="Boots",
        gold=0,
        silver=0,
        copper=1,
        extra={"infantry_only": True},
    )
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    item = tactics_services.assign_equipment(army_list=warband, card=boots, holder=robert)
    tactics_services.switch_version(army_list=warband, entry=robert)
    item.refresh_from_db()
    assert item.parent is None
    assert "EQUIPMENT_NO_HOLDER" in codes(result_json(tactics_selectors.warband_report(warband)))


def test_switch_version_refuses_a_soldier(warband, cards):
    (guard,) = tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"])
    with pytest.raises(ValidationError) as exc:
        tactics_services.switch_version(army_list=warband, entry=guard)
    assert exc.value.code == "no_other_version"


def test_remove_entry_takes_the_figure_s_equipment(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    tactics_services.assign_equipment(army_list=warband, card=cards["tac-steel"], holder=robert)
    tactics_services.remove_entry(army_list=warband, entry=robert)
    assert not warband.entries.exists()


def test_duplicate_list_copies_a_warband_with_its_holders(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    tactics_services.assign_equipment(army_list=warband, card=cards["tac-steel"], holder=robert)
    copy = services.duplicate_list(army_list=warband)
    assert copy.game == ListGame.TACTICS and (copy.gold, copy.silver, copy.copper) == (3, 6, 18)
    item = copy.entries.get(role=EntryRole.EQUIPMENT)
    assert item.parent.card == cards["tac-robert"] and item.parent.army_list == copy


# --- import and export -------------------------------------------------------------------------

WARBAND_TEXT = """Game: Tactics
Scenario: Standard (3-6-18)
Faction: Baratheon
Heroes:
• Robert Baratheon - Mounted [3G 1S]
  • Valyrian Steel [2C]
Soldiers:
• Baratheon Guardians x3 [1C each]
"""


def test_import_warband_text_stores_figures_holders_and_budget(small_pool):
    result = tactics_services.import_warband_text(text=WARBAND_TEXT)
    army_list = result.army_list
    assert result.problems == ()
    assert army_list.game == ListGame.TACTICS and army_list.scenario.slug == "tac-standard"
    assert army_list.entries.filter(role=EntryRole.FIGURE).count() == 4
    item = army_list.entries.get(role=EntryRole.EQUIPMENT)
    assert item.parent.card.external_id == "tac-robert-mounted"


def test_import_warband_text_reports_unknown_lines(small_pool):
    result = tactics_services.import_warband_text(text=WARBAND_TEXT + "• Nobody Atall\n")
    assert [p.code for p in result.problems] == ["CARD_UNKNOWN"]


def test_import_warband_text_rejects_text_without_figures(small_pool):
    with pytest.raises(ValidationError) as exc:
        tactics_services.import_warband_text(text="Game: Tactics\nFaction: Baratheon\n")
    assert exc.value.code == "unparseable"


def test_warband_text_round_trips_through_import(small_pool):
    army_list = tactics_services.import_warband_text(text=WARBAND_TEXT).army_list
    text = tactics_selectors.warband_text(army_list)
    again = tactics_services.import_warband_text(text=text).army_list
    assert tactics_selectors.warband_draft(again) == tactics_selectors.warband_draft(army_list)


# --- selectors: the report --------------------------------------------------------------------


# What only a pasted text has: how each line and each entry was read.
READING_KEYS = ("line", "how", "alternatives", "printed_cost")


def without_reading(report: dict) -> dict:
    entries = [
        {key: value for key, value in entry.items() if key not in READING_KEYS}
        for entry in report["entries"]
    ]
    return {**{k: v for k, v in report.items() if k != "lines"}, "entries": entries}


def test_warband_report_is_the_check_of_its_own_text(small_pool):
    army_list = tactics_services.import_warband_text(text=WARBAND_TEXT).army_list
    report = result_json(tactics_selectors.warband_report(army_list))
    checked = result_json(check_tactics_text(report["text"]))
    assert without_reading(report) == without_reading(checked)


def test_warband_report_in_french_matches_the_checker(small_pool):
    army_list = tactics_services.import_warband_text(text=WARBAND_TEXT).army_list
    report = result_json(tactics_selectors.warband_report(army_list, lang="fr"))
    checked = result_json(check_tactics_text(report["text"], lang="fr"))
    assert without_reading(report) == without_reading(checked)


def test_warband_report_counts_coins_and_figures(warband, cards):
    tactics_services.add_figure(army_list=warband, card=cards["tac-robert-mounted"])
    tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"], copies=2)
    report = result_json(tactics_selectors.warband_report(warband))
    assert report["coins"] == {
        "spent": {"gold": 3, "silver": 1, "copper": 2},
        "budget": {"gold": 3, "silver": 6, "copper": 18},
    }
    assert report["figures"] == 3 and report["legal"] is True


def test_warband_report_flags_coins_over_budget(baratheon, cards):
    small = tactics_services.create_warband(faction=baratheon, budget="small")
    tactics_services.add_figure(army_list=small, card=cards["tac-robert-mounted"])
    report = result_json(tactics_selectors.warband_report(small))
    assert "COIN_OVER_BUDGET" in codes(report) and report["legal"] is False


def test_warband_draft_numbers_heroes_before_soldiers(warband, cards):
    tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"])
    tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    draft = tactics_selectors.warband_draft(warband)
    assert [(f.ref, f.card.kind) for f in draft.figures] == [
        ("figure-1", "hero"),
        ("figure-2", "soldier"),
    ]
    assert draft.budget == Coins(3, 6, 18)


# --- collections and COIN_UNSPENT ------------------------------------------------------------


@pytest.fixture
def owned_warband(baratheon, cards):
    """A saved warband of only soldiers: 3 gold left while Robert (2G) could still be bought."""
    owner = User.objects.create_user("ned", password="pw")
    army_list = tactics_services.create_warband(faction=baratheon, budget="standard", owner=owner)
    tactics_services.add_figure(army_list=army_list, card=cards["tac-guardians"])
    return army_list


def test_coin_unspent_without_collection_uses_the_faction_pool(owned_warband):
    assert "COIN_UNSPENT" in codes(result_json(tactics_selectors.warband_report(owned_warband)))


def test_coin_unspent_with_a_collection_only_counts_owned_cards(owned_warband, cards):
    tactics_services.set_collection(owner=owned_warband.owner, cards=[cards["tac-guardians"]])
    assert "COIN_UNSPENT" not in codes(result_json(tactics_selectors.warband_report(owned_warband)))


def test_coin_unspent_with_a_collection_holding_robert_still_fires(owned_warband, cards):
    tactics_services.set_collection(
        owner=owned_warband.owner, cards=[cards["tac-guardians"], cards["tac-robert"]]
    )
    report = result_json(tactics_selectors.warband_report(owned_warband))
    (finding,) = [f for f in report["findings"] if f["code"] == "COIN_UNSPENT"]
    assert "Robert Baratheon" in finding["message"] and "Mounted" not in finding["message"]


def test_set_collection_with_no_card_removes_the_collection(owned_warband, cards):
    owner = owned_warband.owner
    tactics_services.set_collection(owner=owner, cards=[cards["tac-guardians"]])
    tactics_services.set_collection(owner=owner, cards=[])
    assert not Collection.objects.filter(owner=owner).exists()


def test_set_collection_refuses_tmg_cards(owned_warband):
    with pytest.raises(ValidationError) as exc:
        tactics_services.set_collection(
            owner=owned_warband.owner, cards=[Card.objects.filter(game="tmg").first()]
        )
    assert exc.value.code == "wrong_game"


# --- selectors: holder choices and the mounted / foot toggle ---------------------------------


def test_holder_options_disable_a_soldier_for_hero_only_equipment(warband, cards):
    tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"])
    options = {
        o.holder.card.external_id: o
        for o in tactics_selectors.holder_options(warband, cards["tac-steel"])
    }
    assert options["tac-robert"].allowed is True
    assert options["tac-guardians"].allowed is False
    assert [r["code"] for r in options["tac-guardians"].reasons] == ["EQUIPMENT_NOT_ALLOWED"]


def test_holder_options_disable_a_figure_that_already_carries_something(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    charm = Card.objects.create(
        game="tactics", kind="equipment", external_id="tac-charm", name_en="Charm", gold=0,
        silver=0, copper=1,
    )  # fmt: skip
    tactics_services.assign_equipment(army_list=warband, card=charm, holder=robert)
    (option,) = tactics_selectors.holder_options(warband, cards["tac-steel"])
    assert option.allowed is False
    assert [r["code"] for r in option.reasons] == ["EQUIPMENT_LIMIT"]


def test_holder_options_when_moving_mark_the_current_holder(warband, cards):
    (robert,) = tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    item = tactics_services.assign_equipment(
        army_list=warband, card=cards["tac-steel"], holder=robert
    )
    (option,) = tactics_selectors.holder_options(warband, cards["tac-steel"], moving=item)
    assert option.allowed is True and option.current is True


def test_warband_state_offers_the_other_version_of_a_character(warband, cards):
    tactics_services.add_figure(army_list=warband, card=cards["tac-robert"])
    tactics_services.add_figure(army_list=warband, card=cards["tac-guardians"])
    state = tactics_selectors.warband_state(warband)
    switches = {row.entry.card.external_id: row.switch_to for row in state.figures}
    assert switches["tac-robert"].id == "tac-robert-mounted"
    assert switches["tac-guardians"] is None


def test_warband_state_gauges_follow_the_spending(warband, cards):
    tactics_services.add_figure(army_list=warband, card=cards["tac-robert-mounted"])
    gauges = {g.key: (g.spent, g.budget) for g in tactics_selectors.warband_state(warband).gauges}
    assert gauges == {"gold": (3, 3), "silver": (1, 6), "copper": (0, 18), "figures": (1, 18)}


# --- the pages ---------------------------------------------------------------------------------


def new_warband(client, **fields):
    data = {"game": "tactics", "faction": "baratheon", "size": "scenario:tac-standard", **fields}
    response = client.post("/lists/new/", data)
    assert response.status_code == 302, response.content
    return ArmyList.objects.get(pk=int(response.url.split("/")[2]))


def spent(response, key):
    html = response.content.decode()
    return int(re.search(rf'data-testid="{key}-spent">(\d+)<', html).group(1))


def test_new_list_page_offers_the_game_choice(client, small_pool):
    html = client.get("/lists/new/").content.decode()
    assert 'href="/lists/new/?game=tactics"' in html


def test_new_tactics_page_offers_factions_and_sizes(client, small_pool):
    html = client.get("/lists/new/?game=tactics").content.decode()
    assert 'value="baratheon"' in html and 'value="scenario:tac-standard"' in html
    assert 'value="small"' in html  # a standard size with no scenario row


def test_new_tactics_warband_with_a_literal_budget(client, small_pool):
    army_list = new_warband(client, size="other", budget="2-2-6")
    assert (army_list.gold, army_list.silver, army_list.copper) == (2, 2, 6)


def test_new_tactics_warband_with_a_bad_budget_answers_400(client, small_pool):
    response = client.post(
        "/lists/new/", {"game": "tactics", "faction": "baratheon", "size": "other", "budget": "x"}
    )
    assert response.status_code == 400


def test_builder_page_shows_the_coin_gauges(client, cards):
    army_list = new_warband(client)
    response = client.get(f"/lists/{army_list.pk}/edit/")
    assert response.status_code == 200
    for key in ("gold", "silver", "copper", "figures"):
        assert spent(response, key) == 0


def test_add_figure_view_moves_the_gauges(client, cards):
    army_list = new_warband(client)
    response = client.post(
        f"/lists/{army_list.pk}/figures/add/",
        {"card": cards["tac-guardians"].pk, "copies": 4},
        **HTMX,
    )
    assert response.status_code == 200
    assert spent(response, "copper") == 4 and spent(response, "figures") == 4


def test_add_figure_view_without_htmx_redirects_to_the_builder(client, cards):
    army_list = new_warband(client)
    response = client.post(f"/lists/{army_list.pk}/figures/add/", {"card": cards["tac-robert"].pk})
    assert response.status_code == 302 and response.url == f"/lists/{army_list.pk}/edit/"


def test_add_figure_view_with_unknown_cost_answers_400(client, cards, baratheon):
    card = Card.objects.create(
        game="tactics", kind="hero", external_id="tac-x", faction=baratheon, name_en="X"
    )
    army_list = new_warband(client)
    response = client.post(f"/lists/{army_list.pk}/figures/add/", {"card": card.pk}, **HTMX)
    assert response.status_code == 400 and "no known cost" in response.content.decode()


@pytest.mark.parametrize("data", [{}, {"card": "abc"}, {"card": 999999}, {"card": 1, "copies": 99}])
def test_add_figure_view_with_bad_input_answers_400(client, cards, data):
    army_list = new_warband(client)
    assert client.post(f"/lists/{army_list.pk}/figures/add/", data).status_code == 400


def test_equip_view_with_a_figure_card_answers_400(client, cards):
    army_list = new_warband(client)
    (robert,) = tactics_services.add_figure(army_list=army_list, card=cards["tac-robert"])
    response = client.post(
        f"/lists/{army_list.pk}/equip/", {"card": cards["tac-guardians"].pk, "holder": robert.pk}
    )
    assert response.status_code == 400


def test_equip_view_without_holder_answers_400(client, cards):
    army_list = new_warband(client)
    response = client.post(f"/lists/{army_list.pk}/equip/", {"card": cards["tac-steel"].pk})
    assert response.status_code == 400


def test_equip_view_assigns_and_moves_equipment(client, cards):
    army_list = new_warband(client)
    (robert,) = tactics_services.add_figure(army_list=army_list, card=cards["tac-robert"])
    (guard,) = tactics_services.add_figure(army_list=army_list, card=cards["tac-guardians"])
    client.post(
        f"/lists/{army_list.pk}/equip/", {"card": cards["tac-steel"].pk, "holder": robert.pk}
    )
    item = army_list.entries.get(role=EntryRole.EQUIPMENT)
    response = client.post(
        f"/lists/{army_list.pk}/equip/", {"entry": item.pk, "holder": guard.pk}, **HTMX
    )
    item.refresh_from_db()
    assert response.status_code == 200 and item.parent == guard
    assert 'data-code="EQUIPMENT_NOT_ALLOWED"' in response.content.decode()


def test_holder_chooser_shows_disabled_figures_with_reasons(client, cards):
    army_list = new_warband(client)
    tactics_services.add_figure(army_list=army_list, card=cards["tac-robert"])
    (guard,) = tactics_services.add_figure(army_list=army_list, card=cards["tac-guardians"])
    html = client.get(f"/lists/{army_list.pk}/edit/?equip={cards['tac-steel'].pk}").content.decode()
    assert f'value="{guard.pk}" disabled' in html
    assert 'data-code="EQUIPMENT_NOT_ALLOWED"' in html


@pytest.mark.parametrize("query", ["equip=abc", "equip=999999", "move=1234567"])
def test_holder_chooser_with_bad_input_answers_400(client, cards, query):
    army_list = new_warband(client)
    assert client.get(f"/lists/{army_list.pk}/edit/?{query}").status_code == 400


def test_holder_chooser_refuses_a_figure_card(client, cards):
    army_list = new_warband(client)
    response = client.get(f"/lists/{army_list.pk}/edit/?equip={cards['tac-robert'].pk}")
    assert response.status_code == 400


def test_switch_view_mounts_robert(client, cards):
    army_list = new_warband(client)
    (robert,) = tactics_services.add_figure(army_list=army_list, card=cards["tac-robert"])
    response = client.post(f"/lists/{army_list.pk}/figures/switch/", {"entry": robert.pk}, **HTMX)
    assert spent(response, "gold") == 3 and spent(response, "silver") == 1


def test_switch_view_on_a_soldier_answers_400(client, cards):
    army_list = new_warband(client)
    (guard,) = tactics_services.add_figure(army_list=army_list, card=cards["tac-guardians"])
    response = client.post(f"/lists/{army_list.pk}/figures/switch/", {"entry": guard.pk})
    assert response.status_code == 400


def test_remove_view_with_a_foreign_entry_answers_400(client, cards, baratheon):
    army_list = new_warband(client)
    other = tactics_services.create_warband(faction=baratheon, budget="standard")
    (robert,) = tactics_services.add_figure(army_list=other, card=cards["tac-robert"])
    response = client.post(f"/lists/{army_list.pk}/figures/remove/", {"entry": robert.pk})
    assert response.status_code == 400 and ListEntry.objects.filter(pk=robert.pk).exists()


def test_another_visitor_gets_404_on_a_warband(client, cards):
    army_list = new_warband(client)
    client.cookies.clear()
    assert client.get(f"/lists/{army_list.pk}/edit/").status_code == 404
    response = client.post(f"/lists/{army_list.pk}/figures/add/", {"card": cards["tac-robert"].pk})
    assert response.status_code == 404


def test_tactics_pages_refuse_a_tmg_list(client, small_pool):
    response = client.post(
        "/lists/new/", {"faction": "stark", "size": "30", "ruleset": "rules-1.5", "name": ""}
    )
    list_id = int(response.url.split("/")[2])
    assert client.post(f"/lists/{list_id}/figures/add/", {"card": 1}).status_code == 404


def test_settings_view_changes_the_budget(client, cards):
    army_list = new_warband(client)
    response = client.post(
        f"/lists/{army_list.pk}/warband/",
        {
            "settings-faction": "baratheon",
            "settings-size": "other",
            "settings-budget": "4-8-24",
            "settings-name": "",
        },
        **HTMX,
    )
    assert response.status_code == 200
    army_list.refresh_from_db()
    assert (army_list.gold, army_list.silver, army_list.copper) == (4, 8, 24)


def test_settings_view_with_a_bad_budget_answers_400(client, cards):
    army_list = new_warband(client)
    response = client.post(
        f"/lists/{army_list.pk}/warband/",
        {"settings-faction": "baratheon", "settings-size": "other", "settings-budget": "9"},
    )
    assert response.status_code == 400


def test_picker_lists_unknown_costs_disabled(client, cards, baratheon):
    Card.objects.create(
        game="tactics", kind="hero", external_id="tac-jon-arryn", faction=baratheon,
        name_en="Jon Arryn",
    )  # fmt: skip
    army_list = new_warband(client)
    html = client.get(f"/lists/{army_list.pk}/cards/?q=", **HTMX).content.decode()
    assert "cost unknown" in html
    assert re.search(r'<button type="button" class="pick-add" disabled', html)
    assert "Valyrian Steel" in html and "Stark" not in html


def test_picker_syntax_error_is_shown_not_a_500(client, cards):
    army_list = new_warband(client)
    response = client.get(f"/lists/{army_list.pk}/cards/?q=cost<<", **HTMX)
    assert response.status_code == 200 and "query-error" in response.content.decode()


def test_import_view_detects_a_tactics_warband(client, small_pool):
    response = client.post("/lists/import/", {"text": WARBAND_TEXT})
    assert response.status_code == 302
    army_list = ArmyList.objects.get(pk=int(response.url.split("/")[2]))
    assert army_list.game == ListGame.TACTICS
    assert client.get(response.url).status_code == 200


def test_export_view_gives_the_canonical_text(client, small_pool):
    client.post("/lists/import/", {"text": WARBAND_TEXT})
    army_list = ArmyList.objects.get()
    text = client.get(f"/lists/{army_list.pk}/export.txt").content.decode()
    assert text.startswith("Game: Tactics\n") and "  • Valyrian Steel [2C]" in text


def test_shared_warband_is_readable_by_token(client, small_pool):
    client.post("/lists/import/", {"text": WARBAND_TEXT})
    army_list = ArmyList.objects.get()
    client.post(f"/lists/{army_list.pk}/visibility/", {"visibility": Visibility.LINK})
    client.cookies.clear()
    response = client.get(f"/lists/s/{army_list.share_token}/")
    assert response.status_code == 200 and "Robert Baratheon" in response.content.decode()


def test_detail_and_print_views_render_a_warband(client, small_pool):
    client.post("/lists/import/", {"text": WARBAND_TEXT})
    army_list = ArmyList.objects.get()
    assert client.get(f"/lists/{army_list.pk}/").status_code == 200
    html = client.get(f"/lists/{army_list.pk}/print/").content.decode()
    assert "3-1-0" in html and "Valyrian Steel" in html


def test_duplicate_view_copies_a_warband(client, small_pool):
    client.post("/lists/import/", {"text": WARBAND_TEXT})
    army_list = ArmyList.objects.get()
    response = client.post(f"/lists/{army_list.pk}/duplicate/")
    copy = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert response.url == f"/lists/{copy.pk}/edit/" and copy.entries.count() == 5


def test_save_view_claims_a_warband(client, small_pool):
    client.post("/lists/import/", {"text": WARBAND_TEXT})
    army_list = ArmyList.objects.get()
    user = User.objects.create_user("robert", password="pw")
    client.force_login(user)
    client.get(f"/lists/{army_list.pk}/save/")
    army_list.refresh_from_db()
    assert army_list.owner == user


def test_collection_page_needs_a_login(client, small_pool):
    assert client.get("/lists/collection/").status_code == 302


def test_collection_page_saves_ticked_cards(client, cards):
    user = User.objects.create_user("robert", password="pw")
    client.force_login(user)
    assert client.get("/lists/collection/").status_code == 200
    response = client.post("/lists/collection/", {"cards": [cards["tac-guardians"].pk]})
    assert response.status_code == 302
    assert list(user.collection.cards.all()) == [cards["tac-guardians"]]


def test_collection_page_with_bad_input_answers_400(client, cards):
    client.force_login(User.objects.create_user("robert", password="pw"))
    assert client.post("/lists/collection/", {"cards": ["abc"]}).status_code == 400
