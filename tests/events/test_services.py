"""Events: settings, players, submissions, locking, fingerprints, teams and bulk intake
(events.services), with real card data imported as in production."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from armybuilder.tmg.rulesets import ruleset_in_force
from events import services
from events.fingerprint import fingerprint
from events.intake import read_intake
from events.models import EventList, ListStatus, Player
from tests.events.lists import LANNISTER, LEGAL, LEGAL_AS_PLAYERS_WRITE, NO_COMMANDER, WARBAND

pytestmark = pytest.mark.django_db


def codes(stored: EventList) -> list[str]:
    return [f["code"] for f in stored.result["en"]["findings"]]


def submit(event, user, text):
    player = services.join_event(event=event, user=user)
    return services.submit_list(event=event, player=player, actor=user, text=text)


# --- settings ----------------------------------------------------------------------------------


def test_tmg_event_without_points_is_refused_naming_the_field(cards, organiser):
    with pytest.raises(services.EventRefused) as refused:
        services.create_event(
            creator=organiser, data={"name": "X", "date": "2030-01-01", "game": "tmg"}
        )
    assert refused.value.field == "points"


def test_tmg_event_takes_the_newest_ruleset_in_force_on_its_date(event):
    assert event.ruleset == ruleset_in_force(event.date).id


def test_tactics_event_takes_a_literal_budget(tactics_event):
    assert tactics_event.budget_label == "2-4-12"


def test_tactics_event_takes_a_scenario_slug(cards, organiser):
    event = services.create_event(
        creator=organiser,
        data={"name": "S", "date": "2030-01-01", "game": "tactics", "budget": "tac-small"},
    )
    assert (event.budget_label, event.scenario.slug) == ("2-4-12", "tac-small")


def test_tactics_event_with_an_unknown_budget_is_refused(cards, organiser):
    with pytest.raises(services.EventRefused) as refused:
        services.create_event(
            creator=organiser,
            data={"name": "S", "date": "2030-01-01", "game": "tactics", "budget": "huge"},
        )
    assert refused.value.field == "budget"


def test_event_with_a_bad_date_is_refused_naming_the_field(cards, organiser):
    with pytest.raises(services.EventRefused) as refused:
        services.create_event(
            creator=organiser, data={"name": "X", "date": "next week", "game": "tmg", "points": 40}
        )
    assert refused.value.field == "date"


def test_non_organiser_cannot_change_the_event(event, alice):
    with pytest.raises(services.EventRefused) as refused:
        services.update_event(event=event, actor=alice, data={"name": "Mine now"})
    assert refused.value.status == 403


def test_second_organiser_may_change_the_event(event, organiser, bob):
    services.add_organiser(event=event, actor=organiser, user=bob)
    services.update_event(event=event, actor=bob, data={"place": "Winterfell"})
    event.refresh_from_db()
    assert event.place == "Winterfell"


def test_changing_the_size_judges_the_lists_again(event, organiser, alice):
    submit(event, alice, LEGAL)
    services.update_event(event=event, actor=organiser, data={"points": 12})
    assert EventList.objects.get().status == ListStatus.ILLEGAL


# --- players and submissions -------------------------------------------------------------------


def test_joining_twice_is_one_player(event, alice):
    assert services.join_event(event=event, user=alice) == services.join_event(
        event=event, user=alice
    )


def test_illegal_list_then_fixed_is_legal(event, alice):
    assert submit(event, alice, NO_COMMANDER).status == ListStatus.ILLEGAL
    fixed = submit(event, alice, LEGAL)
    assert (fixed.status, fixed.revision) == (ListStatus.LEGAL, 2)


def test_list_is_stored_exactly_as_submitted(event, alice):
    text = "  " + LEGAL_AS_PLAYERS_WRITE + "\n\n"
    assert submit(event, alice, text).text == text


def test_list_is_judged_at_the_events_size_with_a_warning(event, alice):
    stored = submit(event, alice, LEGAL.replace("Points: 40", "Points: 30"))
    assert "EVENT_SIZE_APPLIED" in codes(stored)
    assert stored.result["en"]["points"]["limit"] == 40


def test_a_player_cannot_submit_for_another(event, alice, bob):
    player = services.join_event(event=event, user=alice)
    with pytest.raises(services.EventRefused) as refused:
        services.submit_list(event=event, player=player, actor=bob, text=LEGAL)
    assert refused.value.status == 403


def test_organiser_may_submit_for_a_player(event, organiser):
    player = services.add_player(event=event, actor=organiser, name="Walk-in")
    stored = services.submit_list(event=event, player=player, actor=organiser, text=LEGAL)
    assert stored.legal


def test_saved_list_is_submitted_as_its_canonical_text(event, alice):
    from armybuilder.lists import services as list_services

    saved = list_services.import_list_text(text=LEGAL, owner=alice).army_list
    player = services.join_event(event=event, user=alice)
    stored = services.submit_list(event=event, player=player, actor=alice, saved_list=saved)
    assert (stored.source, stored.legal) == ("saved", True)


def test_someone_elses_saved_list_is_refused(event, alice, bob):
    from armybuilder.lists import services as list_services

    saved = list_services.import_list_text(text=LEGAL, owner=bob).army_list
    player = services.join_event(event=event, user=alice)
    with pytest.raises(services.EventRefused) as refused:
        services.submit_list(event=event, player=player, actor=alice, saved_list=saved)
    assert refused.value.field == "list_id"


def test_share_code_is_recorded_as_such(event, alice):
    from armybuilder.listtext.warcouncil import WarCouncilList, WarCouncilUnit, encode_share_code

    code = encode_share_code(
        WarCouncilList(
            faction_code=2,
            points=40,
            units=(WarCouncilUnit(unit_id="10201", attachment_ids=("20201",)),),
        )
    )
    stored = submit(event, alice, code)
    assert (stored.source, stored.legal, stored.spent) == ("share_code", True, "5")


def test_withdrawn_list_is_gone(event, alice):
    stored = submit(event, alice, LEGAL)
    services.withdraw_list(event=event, player=stored.player, actor=alice)
    assert not EventList.objects.exists()


# --- locking and fingerprints ------------------------------------------------------------------


def test_submission_after_an_early_lock_is_refused_with_a_message(event, organiser, alice):
    player = services.join_event(event=event, user=alice)
    services.lock_event(event=event, actor=organiser)
    with pytest.raises(services.EventRefused) as refused:
        services.submit_list(event=event, player=player, actor=alice, text=LEGAL)
    assert refused.value.status == 409 and "locked" in refused.value.message


def test_submission_after_the_deadline_is_refused(event, alice):
    player = services.join_event(event=event, user=alice)
    event.deadline = timezone.now() - dt.timedelta(minutes=1)
    event.save()
    with pytest.raises(services.EventRefused):
        services.submit_list(event=event, player=player, actor=alice, text=LEGAL)


def test_only_organisers_lock(event, alice):
    with pytest.raises(services.EventRefused):
        services.lock_event(event=event, actor=alice)


def test_publishing_locks_the_lists(event, organiser):
    services.publish_lists(event=event, actor=organiser)
    assert event.is_locked and event.is_published


def test_fingerprint_is_stable_across_reads(event, alice):
    stored = submit(event, alice, LEGAL)
    again = EventList.objects.get(pk=stored.pk)
    assert (
        again.fingerprint
        == stored.fingerprint
        == fingerprint(
            game=event.game,
            canonical=again.canonical,
            card_versions=again.card_versions,
            ruleset=again.ruleset,
            size=event.size_label,
        )
    )


def test_fingerprint_is_the_same_for_the_same_army_written_another_way(event, alice, bob):
    assert (
        submit(event, alice, LEGAL).fingerprint
        == submit(event, bob, LEGAL_AS_PLAYERS_WRITE).fingerprint
    )


def test_fingerprint_changes_with_any_edit(event, alice):
    before = submit(event, alice, LEGAL).fingerprint
    after = submit(event, alice, LEGAL.replace("• Stark Outriders (6)\n", "")).fingerprint
    assert before != after


def test_resubmitting_a_changed_list_withdraws_its_approval(event, organiser, alice):
    stored = submit(event, alice, LEGAL)
    services.review_list(event_list=stored, actor=organiser, approved=True, note="checked")
    stored = submit(event, alice, NO_COMMANDER)
    assert not stored.approved and stored.note == "checked"


def test_only_organisers_review(event, alice):
    stored = submit(event, alice, LEGAL)
    with pytest.raises(services.EventRefused):
        services.review_list(event_list=stored, actor=alice, approved=True)


def test_review_stays_possible_after_locking(event, organiser, alice):
    stored = submit(event, alice, LEGAL)
    services.lock_event(event=event, actor=organiser)
    assert services.review_list(event_list=stored, actor=organiser, approved=True).approved


# --- teams -------------------------------------------------------------------------------------


@pytest.fixture
def team_event(cards, organiser):
    return services.create_event(
        creator=organiser,
        data={"name": "Doubles", "date": "2030-01-01", "game": "tmg", "points": 30, "team_size": 2},
    )


def test_team_mates_may_not_field_the_same_character(team_event, organiser):
    first = services.add_player(event=team_event, actor=organiser, name="A", team="Wolves")
    second = services.add_player(event=team_event, actor=organiser, name="B", team="Wolves")
    services.submit_list(event=team_event, player=first, actor=organiser, text=LEGAL)
    services.submit_list(event=team_event, player=second, actor=organiser, text=LEGAL)
    assert all("TEAM_CHARACTER_DUPLICATE" in codes(s) for s in EventList.objects.all())


def test_players_of_different_teams_may_field_the_same_character(team_event, organiser):
    first = services.add_player(event=team_event, actor=organiser, name="A", team="Wolves")
    second = services.add_player(event=team_event, actor=organiser, name="B", team="Direwolves")
    services.submit_list(event=team_event, player=first, actor=organiser, text=LEGAL)
    services.submit_list(event=team_event, player=second, actor=organiser, text=LEGAL)
    assert all(s.legal for s in EventList.objects.all())


def test_a_full_team_refuses_another_player(team_event, organiser):
    for name in ("A", "B"):
        services.add_player(event=team_event, actor=organiser, name=name, team="Wolves")
    with pytest.raises(services.EventRefused) as refused:
        services.add_player(event=team_event, actor=organiser, name="C", team="Wolves")
    assert refused.value.field == "team"


# --- bulk intake -------------------------------------------------------------------------------


def intake(event, organiser, text):
    pieces = read_intake(text, is_list_line=services.list_line_test(event)).pieces
    return services.intake_lists(event=event, pieces=pieces, actor=organiser)


def test_intake_stores_one_list_per_player(event, organiser):
    outcome = intake(event, organiser, f"Player: Carol\n{LEGAL}\n---\nPlayer: Dan\n{NO_COMMANDER}")
    assert [(s.player.name, s.status) for s in outcome.lists] == [
        ("Carol", ListStatus.LEGAL),
        ("Dan", ListStatus.ILLEGAL),
    ]


def test_intake_cuts_two_lists_pasted_one_after_the_other(event, organiser):
    outcome = intake(event, organiser, f"Carol\n{LEGAL}\nDan\n{LANNISTER}")
    assert [(s.player.name, s.spent, s.legal) for s in outcome.lists] == [
        ("Carol", "15", True),
        ("Dan", "5", True),
    ]


def test_intake_names_a_list_without_a_player(event, organiser):
    outcome = intake(event, organiser, f"{LEGAL}\n---\n{LANNISTER}")
    assert [s.player.name for s in outcome.lists] == ["List 1", "List 2"]


def test_intake_again_replaces_a_players_list(event, organiser):
    intake(event, organiser, f"Player: Carol\n{NO_COMMANDER}")
    outcome = intake(event, organiser, f"Player: Carol\n{LEGAL}")
    assert (outcome.created, outcome.replaced) == (0, 1)
    assert Player.objects.get(name="Carol").event_list.legal


def test_intake_after_locking_is_refused(event, organiser):
    services.lock_event(event=event, actor=organiser)
    with pytest.raises(services.EventRefused):
        intake(event, organiser, LEGAL)


def test_intake_of_more_lists_than_allowed_is_refused(event, organiser, settings):
    settings.CITADEL_MAX_INTAKE_LISTS = 2
    with pytest.raises(services.EventRefused) as refused:
        intake(event, organiser, "\n---\n".join([LEGAL] * 3))
    assert "At most 2" in refused.value.message


def test_intake_by_a_player_is_refused(event, alice):
    with pytest.raises(services.EventRefused) as refused:
        intake(event, alice, LEGAL)
    assert refused.value.status == 403


def test_tactics_event_judges_warbands_with_its_budget(tactics_event, alice):
    stored = submit(tactics_event, alice, WARBAND.replace("Scenario: 2-4-12", "Scenario: 3-6-18"))
    assert stored.result["en"]["coins"]["budget"] == {"gold": 2, "silver": 4, "copper": 12}
    assert "EVENT_SIZE_APPLIED" in codes(stored)


def test_deadline_after_the_event_is_refused(cards, organiser):
    with pytest.raises(services.EventRefused) as refused:
        services.create_event(
            creator=organiser,
            data={
                "name": "Late",
                "date": "2030-01-01",
                "game": "tmg",
                "points": 40,
                "deadline": "2030-01-02T10:00",
            },
        )
    assert refused.value.field == "deadline"
