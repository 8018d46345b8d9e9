"""Honest verdicts (issue 14): an empty army or warband is "empty", not legal; a warband
whose cards have unknown costs is "undecided" and names the cards that block the verdict."""

from dataclasses import replace

from armybuilder.checking import check_tactics_text
from armybuilder.lists import tactics_selectors, tactics_services
from armybuilder.serializers import result_json
from armybuilder.tactics.draft import (
    Coins,
    FigureEntry,
    TacticsCard,
    WarbandContext,
    WarbandDraft,
)
from armybuilder.tactics.validator import validate_warband
from armybuilder.tmg.draft import ArmyDraft
from armybuilder.tmg.rulesets import get_ruleset
from armybuilder.tmg.validator import validate_army
from cards.models import Card, Faction

GUARD = TacticsCard(
    id="tac-guard", kind="soldier", name_en="Guardians", faction="baratheon", cost=Coins(0, 0, 1)
)
UNKNOWN = replace(GUARD, id="tac-unknown", name_en="Unpriced Knight", kind="hero", cost=None)
STANDARD = Coins(3, 6, 18)


def codes(findings) -> list[str]:
    return [f.code for f in findings]


def test_empty_warband_is_reported_empty_and_not_legal():
    report = validate_warband(WarbandDraft(faction="baratheon", budget=STANDARD))
    assert codes(report.findings)[0] == "LIST_EMPTY" and not report.legal


def test_warband_with_a_figure_is_not_empty():
    draft = WarbandDraft(
        faction="baratheon", budget=STANDARD, figures=(FigureEntry("figure-1", GUARD),)
    )
    assert "LIST_EMPTY" not in codes(validate_warband(draft).findings)


def test_empty_warband_without_budget_also_says_the_budget_is_missing():
    report = validate_warband(WarbandDraft(faction="baratheon", budget=None))
    assert codes(report.findings) == ["LIST_EMPTY", "SCENARIO_UNKNOWN"]


def test_empty_warband_still_says_what_to_do_next():
    robert = replace(GUARD, id="tac-robert", kind="hero", name_en="Robert", cost=Coins(2, 0, 0))
    report = validate_warband(
        WarbandDraft(faction="baratheon", budget=STANDARD),
        WarbandContext(available=(robert,)),
    )
    assert codes(report.findings) == ["LIST_EMPTY", "COIN_UNSPENT"]


def test_empty_tmg_army_is_reported_empty_and_not_legal():
    draft = ArmyDraft(faction="stark", points_limit=40, ruleset=get_ruleset("rules-1.5"))
    report = validate_army(draft)
    assert codes(report.findings) == ["LIST_EMPTY", "COMMANDER_MISSING"] and not report.legal


def test_empty_saved_warband_report_has_status_empty(small_pool):
    baratheon = Faction.objects.get(game="tactics", slug="baratheon")
    warband = tactics_services.create_warband(faction=baratheon, budget="standard")
    result = tactics_selectors.warband_report(warband)
    data = result_json(result)
    assert result.status == "empty" and data["status"] == "empty" and data["legal"] is False


def test_legal_warband_text_has_status_legal(small_pool):
    text = "Game: Tactics\nScenario: 2-0-1\nFaction: Baratheon\nRobert Baratheon [2G]\n"
    assert check_tactics_text(text).status == "legal"


def test_saved_empty_warband_state_is_empty(small_pool):
    baratheon = Faction.objects.get(game="tactics", slug="baratheon")
    warband = tactics_services.create_warband(faction=baratheon, budget="standard")
    assert tactics_selectors.warband_state(warband).status == "empty"


def test_builder_shows_an_empty_warband_as_empty(client, small_pool):
    data = {"game": "tactics", "faction": "baratheon", "size": "scenario:tac-standard"}
    response = client.post("/lists/new/", data)
    html = client.get(response.url).content.decode()
    assert 'data-status="empty"' in html and "✓ Legal" not in html


def test_builder_shows_an_empty_tmg_army_as_empty(client, small_pool):
    data = {"faction": "stark", "size": "30", "ruleset": "rules-1.5", "name": ""}
    response = client.post("/lists/new/", data)
    html = client.get(response.url).content.decode()
    assert 'data-status="empty"' in html and 'data-code="LIST_EMPTY"' in html


def test_warband_with_unknown_cost_is_undecided_and_names_the_card(small_pool):
    baratheon = Faction.objects.get(game="tactics", slug="baratheon")
    Card.objects.create(
        game="tactics",
        kind="hero",
        external_id="tac-unpriced",
        faction=baratheon,
        name_en="Unpriced Knight",
    )
    text = "Game: Tactics\nScenario: 3-6-18\nFaction: Baratheon\nUnpriced Knight\n"
    result = check_tactics_text(text)
    assert result.status == "undecided"
    blocking = [e.card.name_en for e in result.entries if e.ref in result.undecided_by]
    assert blocking == ["Unpriced Knight"]


def test_undecided_draft_names_the_blocking_cards_in_the_finding():
    draft = WarbandDraft(
        faction="baratheon",
        budget=STANDARD,
        figures=(FigureEntry("figure-1", UNKNOWN), FigureEntry("figure-2", GUARD)),
    )
    (finding,) = [f for f in validate_warband(draft).findings if f.code == "CARD_COST_UNKNOWN"]
    assert finding.entries == ("figure-1",) and "Unpriced Knight" in finding.message.in_language(
        "en"
    )


def test_builder_names_the_cards_that_leave_a_warband_undecided(client, small_pool):
    baratheon = Faction.objects.get(game="tactics", slug="baratheon")
    Card.objects.create(
        game="tactics", kind="hero", external_id="tac-unpriced", faction=baratheon,
        name_en="Unpriced Knight",
    )  # fmt: skip
    text = "Game: Tactics\nScenario: 3-6-18\nFaction: Baratheon\nUnpriced Knight\n"
    warband = tactics_services.import_warband_text(text=text).army_list
    session = client.session
    session["citadel_lists"] = [warband.pk]
    session.save()
    html = client.get(f"/lists/{warband.pk}/edit/").content.decode()
    assert 'data-status="undecided"' in html
    assert "Undecided: no known cost for Unpriced Knight" in html
