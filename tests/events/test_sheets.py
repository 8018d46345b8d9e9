"""An event's list sheets as PDF, through the export jobs: one list for its player, every
list in one document for the organisers, each with the player and its fingerprint."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from events import services
from exports.models import ExportJob, ExportStatus
from exports.services import ExportTargetNotFound, ExportViewer, start_export
from tests.events.lists import LANNISTER, LEGAL, NO_COMMANDER
from tests.exports.pdf_reading import page_texts, pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def submitted(event, user, text=LEGAL):
    player = services.join_event(event=event, user=user)
    return services.submit_list(event=event, player=player, actor=user, text=text)


def export(user, **fields) -> ExportJob:
    job = start_export(kind="event-lists", language="en", viewer=ExportViewer(user=user), **fields)
    job.refresh_from_db()
    return job


def test_all_sheets_are_one_pdf_a_page_per_list(
    event, organiser, alice, bob, django_capture_on_commit_callbacks
):
    first = submitted(event, alice, NO_COMMANDER)
    second = submitted(event, bob, LANNISTER)
    with django_capture_on_commit_callbacks(execute=True):
        job = export(organiser, event_id=event.pk)
    job.refresh_from_db()
    assert job.status == ExportStatus.DONE
    pages = page_texts(job.file.read())
    assert len(pages) == 2
    assert "alice" in pages[0] and first.fingerprint in pages[0] and "illegal" in pages[0].lower()
    assert "bob" in pages[1] and second.fingerprint in pages[1]


def test_player_prints_their_own_sheet(event, alice, django_capture_on_commit_callbacks):
    stored = submitted(event, alice)
    with django_capture_on_commit_callbacks(execute=True):
        job = export(alice, event_list_id=stored.pk)
    job.refresh_from_db()
    assert stored.fingerprint in pdf_text(job.file.read())


def test_player_cannot_print_every_sheet_before_publication(event, alice):
    submitted(event, alice)
    with pytest.raises(ExportTargetNotFound):
        export(alice, event_id=event.pk)


def test_player_cannot_print_another_players_sheet(event, alice, bob):
    theirs = submitted(event, bob, LANNISTER)
    submitted(event, alice)
    with pytest.raises(ExportTargetNotFound):
        export(alice, event_list_id=theirs.pk)


def test_anonymous_visitor_cannot_print_an_unlisted_events_sheets(event, alice):
    submitted(event, alice)
    with pytest.raises(ExportTargetNotFound):
        export(AnonymousUser(), event_id=event.pk)


def test_sheets_export_over_the_api(event, organiser, alice):
    submitted(event, alice)
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(
        "/api/v1/exports/", {"kind": "event-lists", "event_id": event.pk}, format="json"
    )
    assert response.status_code == 202


def test_sheets_export_with_both_ids_is_400(event, organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    body = {"kind": "event-lists", "event_id": event.pk, "event_list_id": 1}
    assert client.post("/api/v1/exports/", body, format="json").status_code == 400
