"""Pasted warbands read against players' card sets (issue 14b): the import and check page
(`/lists/import/`) and `POST /api/v1/lists/check/` with `sets`."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from armybuilder.lists.models import ArmyList
from cards.card_sets import services as set_services
from cards.card_sets.services import ScenarioInput
from tests.armybuilder.test_card_set_warbands import GUARD, KNIGHT, unpriced_lord

WARBAND = """Game: Tactics
Budget: {budget}
Faction: Baratheon
Champions:
• Storm Knight
Soldiers:
• Storm Guard
"""
LEGAL = WARBAND.format(budget="0-2-2")
OVER = WARBAND.format(budget="0-1-2")  # the knight costs 2 silver


def storm(owner, visibility="private", **extra):
    card_set = set_services.create_card_set(
        owner=owner, name="Storm", visibility=visibility, **extra
    )
    set_services.save_set_cards(card_set=card_set, values=[KNIGHT, GUARD])
    return card_set


def check(client, headers=None, **body):
    return client.post(
        "/api/v1/lists/check/", body, content_type="application/json", headers=headers or {}
    )


def token_of(user) -> dict:
    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


def codes(data) -> list[str]:
    return [f["code"] for f in data["findings"]]


# --- the API ---------------------------------------------------------------------------------


def test_check_reads_a_warband_from_a_published_set_named_by_slug(client, alice, baratheon):
    card_set = storm(alice, "published")
    data = check(client, text=LEGAL, sets=[card_set.slug]).json()
    assert data["status"] == "legal", codes(data)
    assert [e["id"] for e in data["entries"]] == [
        f"{card_set.slug}.storm-knight",
        f"{card_set.slug}.storm-guard",
    ]


def test_check_reads_a_set_named_by_id(client, alice, baratheon):
    card_set = storm(alice, "published")
    assert check(client, text=LEGAL, sets=[card_set.pk]).json()["status"] == "legal"


def test_check_set_warband_over_its_budget_is_illegal(client, alice, baratheon):
    card_set = storm(alice, "published")
    data = check(client, text=OVER, sets=[card_set.slug]).json()
    assert data["status"] == "illegal" and "COIN_OVER_BUDGET" in codes(data), codes(data)


def test_check_without_sets_reads_only_shipped_cards_for_an_anonymous_caller(
    client, alice, baratheon
):
    storm(alice, "published")  # published, but not the example set: not read by default
    data = check(client, text=LEGAL).json()
    assert "CARD_UNKNOWN" in codes(data)


def test_check_without_sets_reads_the_example_set_for_an_anonymous_caller(client, baratheon):
    storm(None, "published", is_example=True)
    assert check(client, text=LEGAL).json()["status"] == "legal"


def test_check_without_sets_reads_the_callers_own_private_set(client, alice, baratheon):
    storm(alice)
    data = check(client, headers=token_of(alice), text=LEGAL).json()
    assert data["status"] == "legal", codes(data)


def test_check_with_empty_sets_reads_only_shipped_cards(client, alice, baratheon):
    storm(alice)
    data = check(client, headers=token_of(alice), text=LEGAL, sets=[]).json()
    assert "CARD_UNKNOWN" in codes(data)


def test_check_refuses_another_users_private_set_naming_it(client, alice, bob, baratheon):
    card_set = storm(alice)
    response = check(client, headers=token_of(bob), text=LEGAL, sets=[card_set.slug])
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "sets" and card_set.slug in body["detail"]


def test_check_refuses_a_private_set_to_an_anonymous_caller(client, alice, baratheon):
    card_set = storm(alice)
    response = check(client, text=LEGAL, sets=[card_set.pk])
    assert response.status_code == 400 and str(card_set.pk) in response.json()["detail"]


def test_check_refuses_an_unknown_set(client, baratheon):
    response = check(client, text=LEGAL, sets=["no-such-set"])
    assert response.status_code == 400 and "no-such-set" in response.json()["detail"]


@pytest.mark.parametrize("bad", [True, 0, "", 1.5, {"slug": "x"}, "x" * 61])
def test_check_refuses_a_set_given_as_neither_slug_nor_id(client, baratheon, bad):
    response = check(client, text=LEGAL, sets=[bad])
    assert response.status_code == 400 and response.json()["detail"]


def test_check_refuses_a_wrong_password(client, alice, baratheon):
    response = check(
        client, headers={"Authorization": "Basic YWxpY2U6d3Jvbmc="}, text=LEGAL
    )  # alice:wrong
    assert response.status_code == 401 and response.json()["detail"]


def test_check_cost_override_from_a_set_says_where_the_cost_comes_from(client, alice, baratheon):
    unpriced = unpriced_lord(baratheon)
    costs = set_services.create_card_set(owner=alice, name="My costs")
    set_services.set_cost_override(card_set=costs, card=unpriced, gold=1, silver=0, copper=0)
    text = "Game: Tactics\nBudget: 1-0-1\nFaction: Baratheon\nHeroes:\n• Unpriced Lord\n"
    data = check(client, headers=token_of(alice), text=text, sets=[costs.slug]).json()
    assert data["status"] == "legal", codes(data)
    assert data["entries"][0]["cost_from"] == "My costs"


# --- the import and check page ---------------------------------------------------------------


def post_import(client, text, action="check", sets=None):
    body = {"text": text, "action": action}
    if sets is not None:
        body |= {"sets_shown": "on", "card_sets": [str(s.pk) for s in sets]}
    return client.post("/lists/import/", body)


def verdict(response) -> str:
    html = response.content.decode()
    return html.split('data-testid="verdict" data-status="', 1)[1].split('"', 1)[0]


def test_import_page_ticks_the_example_set_and_the_users_own_by_default(
    client, alice, bob, baratheon
):
    mine = storm(alice)
    other = set_services.create_card_set(owner=bob, name="Bob's", visibility="published")
    client.force_login(alice)
    form = client.get("/lists/import/").context["form"]
    assert form.fields["card_sets"].initial == [str(mine.pk)]
    assert str(other.pk) in dict(form.fields["card_sets"].choices)


def test_import_page_checks_a_warband_against_the_users_set(client, alice, baratheon):
    card_set = storm(alice)
    client.force_login(alice)
    assert verdict(post_import(client, LEGAL, sets=[card_set])) == "legal"


def test_import_page_checks_an_over_budget_set_warband_as_illegal(client, alice, baratheon):
    card_set = storm(alice)
    client.force_login(alice)
    assert verdict(post_import(client, OVER, sets=[card_set])) == "illegal"


def test_import_page_with_no_set_ticked_reads_only_shipped_cards(client, alice, baratheon):
    storm(alice)
    client.force_login(alice)
    response = post_import(client, LEGAL, sets=[])
    found = [f.code for f in response.context["result"].findings]
    assert verdict(response) != "legal" and "CARD_UNKNOWN" in found


def test_import_page_post_without_the_field_reads_the_users_sets(client, alice, baratheon):
    storm(alice)
    client.force_login(alice)
    assert verdict(post_import(client, LEGAL)) == "legal"


def test_import_page_refuses_another_users_private_set(client, alice, bob, baratheon):
    card_set = storm(alice)
    client.force_login(bob)
    response = post_import(client, LEGAL, sets=[card_set])
    assert response.status_code == 400 and "result" not in response.context


def test_imported_warband_draws_from_the_set_with_pinned_versions(client, alice, baratheon):
    card_set = storm(alice)
    client.force_login(alice)
    response = post_import(client, LEGAL, action="import", sets=[card_set])
    warband = ArmyList.objects.get()
    assert response.status_code == 302
    assert list(warband.card_sets.all()) == [card_set]
    entries = list(warband.entries.select_related("card"))
    assert {e.card.card_set_id for e in entries} == {card_set.pk}
    assert all(e.card_version_id for e in entries)
    page = client.get(response["Location"]).content.decode()
    assert "Storm Knight" in page


def with_raid(card_set):
    set_services.save_set_scenarios(
        card_set=card_set, values=[ScenarioInput(name_en="Secret raid", budget=(0, 2, 2))]
    )
    return card_set


RAID = LEGAL.replace("Budget: 0-2-2", "Scenario: Secret raid")


def test_imported_warband_takes_the_budget_of_its_sets_scenario(client, alice, baratheon):
    card_set = with_raid(storm(alice))
    client.force_login(alice)
    post_import(client, RAID, action="import", sets=[card_set])
    warband = ArmyList.objects.get()
    assert warband.scenario.card_set == card_set
    assert (warband.gold, warband.silver, warband.copper) == (0, 2, 2)


def test_imported_warband_never_takes_another_users_private_scenario(client, alice, bob, baratheon):
    with_raid(storm(alice))
    mine = storm(bob)
    client.force_login(bob)
    post_import(client, RAID, action="import", sets=[mine])
    assert ArmyList.objects.get().scenario is None


# --- manage.py checklist --set ---------------------------------------------------------------


def run_checklist(tmp_path, text, *args):
    path = tmp_path / "warband.txt"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    try:
        call_command("checklist", str(path), "--format", "json", *args, stdout=out)
    except SystemExit as exit_:
        return exit_.code, json.loads(out.getvalue())
    return 0, json.loads(out.getvalue())


def test_checklist_reads_a_warband_against_a_published_set(tmp_path, alice, baratheon):
    card_set = storm(alice, "published")
    status, data = run_checklist(tmp_path, LEGAL, "--set", card_set.slug)
    assert (status, data["status"]) == (0, "legal"), codes(data)


def test_checklist_without_set_reads_the_shipped_cards_only(tmp_path, alice, baratheon):
    storm(alice, "published")
    status, data = run_checklist(tmp_path, LEGAL)
    assert status == 1 and data["status"] != "legal"


def test_checklist_reads_a_private_set_as_its_owner(tmp_path, alice, baratheon):
    card_set = storm(alice)
    status, data = run_checklist(tmp_path, LEGAL, "--set", card_set.slug, "--user", "alice")
    assert (status, data["status"]) == (0, "legal"), codes(data)


def test_checklist_refuses_another_users_private_set(tmp_path, alice, baratheon):
    card_set = storm(alice)
    with pytest.raises(CommandError, match="unknown card set"):
        run_checklist(tmp_path, LEGAL, "--set", card_set.slug)


def test_checklist_refuses_an_unknown_user(tmp_path, alice, baratheon):
    card_set = storm(alice, "published")
    with pytest.raises(CommandError, match="no user"):
        run_checklist(tmp_path, LEGAL, "--set", card_set.slug, "--user", "nobody")


# --- check-batch with sets ------------------------------------------------------------------


def batch(client, headers=None, **body):
    return client.post(
        "/api/v1/lists/check-batch/", body, content_type="application/json", headers=headers or {}
    )


def test_check_batch_reads_warbands_from_a_published_set(client, alice, baratheon):
    card_set = storm(alice, "published")
    lists = [{"id": "p1", "text": LEGAL}, {"id": "p2", "text": OVER}]
    data = batch(client, lists=lists, sets=[card_set.slug]).json()
    assert [r["status"] for r in data["results"]] == ["legal", "illegal"]


def test_check_batch_with_no_sets_reads_the_shipped_cards_only(client, alice, baratheon):
    storm(alice, "published")
    data = batch(client, lists=[{"id": "p1", "text": LEGAL}], sets=[]).json()
    assert data["results"][0]["status"] != "legal"


def test_check_batch_reads_your_private_set_with_your_token(client, alice, baratheon):
    card_set = storm(alice)
    response = batch(
        client, token_of(alice), lists=[{"id": "p1", "text": LEGAL}], sets=[card_set.slug]
    )
    assert response.json()["results"][0]["status"] == "legal"


def test_check_batch_refuses_another_users_private_set(client, alice, baratheon):
    card_set = storm(alice)
    response = batch(client, lists=[{"id": "p1", "text": LEGAL}], sets=[card_set.slug])
    assert response.status_code == 400
    assert card_set.slug in str(response.json())


def test_check_batch_set_named_with_a_nul_character_is_a_400(client, alice, baratheon):
    # PostgreSQL refuses a NUL in a string: the name must not reach the database.
    response = batch(client, lists=[{"id": "p1", "text": LEGAL}], sets=["\u0005.F?\u0000B5"])
    assert response.status_code == 400
