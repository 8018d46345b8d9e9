"""Errata impact: a card re-imported with a changed cost re-judges the open events' lists that
use it and reports saved lists that would change, with old and new points and why."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from armybuilder.lists import services as list_services
from events import errata, services
from events.models import ErrataImpact, ErrataReport, EventList
from tests.carddata import errata as reimport
from tests.events.lists import LANNISTER, LEGAL

pytestmark = pytest.mark.django_db


def submit(event, user, text):
    player = services.join_event(event=event, user=user)
    return services.submit_list(event=event, player=player, actor=user, text=text)


def test_reimport_reports_exactly_the_event_lists_using_the_card(event, alice, bob):
    outriders = submit(event, alice, LEGAL)  # uses Stark Outriders (10203)
    submit(event, bob, LANNISTER)  # does not
    reimport("10203", points=7)
    [impact] = ErrataImpact.objects.filter(event_list__isnull=False)
    assert impact.event_list_id == outriders.pk
    assert (impact.spent_before, impact.spent_after) == ("15", "16")
    assert impact.reasons == [
        {
            "card": "10203",
            "name": {"en": "Stark Outriders", "fr": "Stark Outriders"},
            "field": "points",
            "old": 6,
            "new": 7,
        }
    ]


def test_reimport_judges_the_open_events_list_again(event, alice):
    stored = submit(event, alice, LEGAL)
    reimport("10203", points=7)
    stored.refresh_from_db()
    assert stored.spent == "16"


def test_reimport_that_makes_a_list_illegal_says_so(event, organiser, alice):
    submit(event, alice, LEGAL)
    services.update_event(event=event, actor=organiser, data={"points": 15})
    reimport("10203", points=7)
    impact = ErrataImpact.objects.get(event_list__isnull=False)
    assert (impact.legal_before, impact.legal_after) == (True, False)
    assert impact.findings_added == ["COST_DIFFERS", "POINTS_OVER_LIMIT"]  # printed 6, now 7


def test_locked_event_keeps_its_lists_as_locked(event, organiser, alice):
    stored = submit(event, alice, LEGAL)
    services.lock_event(event=event, actor=organiser)
    reimport("10203", points=7)
    stored.refresh_from_db()
    assert stored.spent == "15"
    assert not ErrataImpact.objects.filter(event_list__isnull=False).exists()


def test_reimport_reports_a_saved_list_as_it_would_be_once_updated(cards, alice):
    saved = list_services.import_list_text(text=LEGAL, owner=alice).army_list
    reimport("10203", points=7)
    impact = ErrataImpact.objects.get(army_list=saved)
    assert (impact.spent_before, impact.spent_after, impact.changed) == ("15", "16", True)


def test_a_second_check_reports_nothing_new(event, alice):
    submit(event, alice, LEGAL)
    list_services.import_list_text(text=LEGAL, owner=alice)
    reimport("10203", points=7)
    assert errata.check_errata(source="again") is None
    assert ErrataReport.objects.count() == 1


def test_reimport_of_unchanged_data_reports_nothing(event, alice):
    submit(event, alice, LEGAL)
    reimport("10203", points=6)
    assert not ErrataReport.objects.exists()


def test_event_page_impacts_are_the_events_own(event, alice):
    submit(event, alice, LEGAL)
    reimport("10203", points=7)
    assert [i.event_list.player.name for i in errata.impacts_of_event(event)] == ["alice"]


def test_errata_impact_command_prints_the_report(event, alice):
    submit(event, alice, LEGAL)
    reimport("10203", points=7)
    out = io.StringIO()
    call_command("errata_impact", stdout=out)
    printed = out.getvalue()
    assert "card 10203 Stark Outriders: points 6 → 7" in printed
    assert "Winter Cup: alice: 15 → 16, legal → legal" in printed


def test_errata_impact_command_finds_what_no_report_said(event, alice, monkeypatch):
    submit(event, alice, LEGAL)
    # The import's own check never ran (a lost message): the command runs it.
    monkeypatch.setattr("events.apps._on_new_card_data", lambda *a, **k: None)
    from cards.signals import card_versions_changed

    card_versions_changed.disconnect(dispatch_uid="events.errata")
    try:
        reimport("10203", points=7)
    finally:
        from events.apps import _on_new_card_data

        card_versions_changed.connect(_on_new_card_data, dispatch_uid="events.errata")
    assert not ErrataReport.objects.exists()
    out = io.StringIO()
    call_command("errata_impact", "--format", "json", stdout=out)
    [report] = json.loads(out.getvalue())
    assert [(i["spent"]["before"], i["spent"]["after"]) for i in report["lists"]] == [("15", "16")]
    assert EventList.objects.get().spent == "16"
