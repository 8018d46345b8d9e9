"""The event pages: who sees what, submitting and fixing a list, the organisers' dashboard,
bulk intake by paste and upload, locking, publishing; refusals never lose what was stored."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services
from events.models import Event, EventList
from tests.events.lists import LANNISTER, LEGAL, NO_COMMANDER

pytestmark = pytest.mark.django_db


def submitted(event, user, text=LEGAL):
    player = services.join_event(event=event, user=user)
    return services.submit_list(event=event, player=player, actor=user, text=text)


def test_index_lists_public_events_for_anyone(client, cards, organiser):
    services.create_event(
        creator=organiser,
        data={
            "name": "Open Cup",
            "date": "2099-01-01",
            "game": "tmg",
            "points": 40,
            "visibility": "public",
        },
    )
    page = client.get(reverse("events:index"))
    assert page.status_code == 200 and "Open Cup" in page.content.decode()


def test_index_hides_unlisted_events(client, event):
    assert "Winter Cup" not in client.get(reverse("events:index")).content.decode()


def test_create_page_makes_an_event(client, cards, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("events:create"),
        {
            "name": "Cup",
            "date": "2030-01-01",
            "game": "tmg",
            "points": "40",
            "team_size": "1",
            "visibility": "public",
        },
    )
    event = Event.objects.get()
    assert response.status_code == 302 and event.points == 40


def test_create_page_without_a_size_says_which_field(client, cards, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("events:create"),
        {
            "name": "Cup",
            "date": "2030-01-01",
            "game": "tmg",
            "team_size": "1",
            "visibility": "public",
        },
    )
    assert response.status_code == 400 and "Give the game size" in response.content.decode()


def test_create_page_needs_an_account(client, cards):
    assert client.get(reverse("events:create")).status_code == 302


def test_unlisted_event_page_is_404_for_a_stranger(client, event, stranger):
    client.force_login(stranger)
    assert client.get(reverse("events:detail", args=[event.pk])).status_code == 404


def test_join_link_shows_the_event_and_joins(client, event, alice):
    client.force_login(alice)
    url = reverse("events:join", args=[event.join_token])
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 302
    assert event.players.get().user == alice


def test_player_submits_an_illegal_list_and_sees_why_at_once(client, event, alice):
    services.join_event(event=event, user=alice)
    client.force_login(alice)
    client.post(reverse("events:submit", args=[event.pk]), {"text": NO_COMMANDER})
    page = client.get(reverse("events:detail", args=[event.pk])).content.decode()
    assert 'data-code="COMMANDER_MISSING"' in page and "How we read your list" in page


def test_player_fixes_the_list(client, event, alice):
    submitted(event, alice, NO_COMMANDER)
    client.force_login(alice)
    client.post(reverse("events:submit", args=[event.pk]), {"text": LEGAL})
    assert EventList.objects.get().legal


def test_submission_after_locking_is_refused_on_the_page_and_keeps_the_list(
    client, event, organiser, alice
):
    submitted(event, alice)
    services.lock_event(event=event, actor=organiser)
    client.force_login(alice)
    response = client.post(reverse("events:submit", args=[event.pk]), {"text": NO_COMMANDER})
    assert response.status_code == 400 and "locked" in response.content.decode()
    assert EventList.objects.get().legal


def test_empty_submission_is_refused_with_a_message(client, event, alice):
    services.join_event(event=event, user=alice)
    client.force_login(alice)
    response = client.post(reverse("events:submit", args=[event.pk]), {"text": "  "})
    assert response.status_code == 400 and "Paste your list" in response.content.decode()


def test_player_does_not_see_another_players_list_before_publication(client, event, alice, bob):
    theirs = submitted(event, bob, LANNISTER)
    submitted(event, alice)
    client.force_login(alice)
    assert client.get(reverse("events:list", args=[event.pk, theirs.pk])).status_code == 404
    assert (
        "Lannister Guardsmen"
        not in client.get(reverse("events:detail", args=[event.pk])).content.decode()
    )


def test_published_lists_are_read_by_every_player(client, event, organiser, alice, bob):
    theirs = submitted(event, bob, LANNISTER)
    submitted(event, alice)
    services.publish_lists(event=event, actor=organiser)
    client.force_login(alice)
    page = client.get(reverse("events:list", args=[event.pk, theirs.pk]))
    assert page.status_code == 200 and theirs.fingerprint in page.content.decode()


def test_dashboard_is_for_organisers(client, event, alice):
    services.join_event(event=event, user=alice)
    client.force_login(alice)
    assert client.get(reverse("events:organise", args=[event.pk])).status_code == 403


def test_dashboard_filters_illegal_lists(client, event, organiser, alice, bob):
    submitted(event, alice, NO_COMMANDER)
    submitted(event, bob, LANNISTER)
    client.force_login(organiser)
    page = client.get(
        reverse("events:organise", args=[event.pk]), {"show": "illegal"}
    ).content.decode()
    assert 'data-player="alice"' in page and 'data-player="bob"' not in page


def test_intake_by_paste_shows_the_report(client, event, organiser):
    client.force_login(organiser)
    text = f"# Carol\n{LEGAL}\n# Dan\n{NO_COMMANDER}"
    page = client.post(reverse("events:intake", args=[event.pk]), {"text": text}).content.decode()
    assert 'data-testid="intake-report"' in page and 'data-code="COMMANDER_MISSING"' in page


def test_intake_by_upload(client, event, organiser):
    client.force_login(organiser)
    upload = SimpleUploadedFile("lists.csv", f'Player,List\nCarol,"{LEGAL}"\n'.encode())
    client.post(reverse("events:intake", args=[event.pk]), {"file": upload})
    assert EventList.objects.get().player.name == "Carol"


def test_intake_of_an_unreadable_file_says_why(client, event, organiser):
    client.force_login(organiser)
    upload = SimpleUploadedFile("lists.json", b'[{"player": 1, "text": "x"}]')
    response = client.post(reverse("events:intake", args=[event.pk]), {"file": upload})
    assert response.status_code == 400 and "item 1" in response.content.decode()


def test_lock_and_publish_from_the_dashboard(client, event, organiser):
    client.force_login(organiser)
    client.post(reverse("events:lock", args=[event.pk]))
    client.post(reverse("events:publish", args=[event.pk]))
    event.refresh_from_db()
    assert event.is_locked and event.is_published


def test_organiser_action_never_redirects_off_site(client, event, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("events:lock", args=[event.pk]), {"next": "https://evil.example/phish"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("events:organise", args=[event.pk])


def test_organiser_action_returns_to_its_page_on_this_site(client, event, organiser):
    client.force_login(organiser)
    back = reverse("events:detail", args=[event.pk])
    response = client.post(reverse("events:lock", args=[event.pk]), {"next": back})
    assert response["Location"] == back


def test_review_from_the_dashboard(client, event, organiser, alice):
    stored = submitted(event, alice)
    client.force_login(organiser)
    client.post(
        reverse("events:review", args=[event.pk, stored.pk]), {"approved": "on", "note": "ok"}
    )
    stored.refresh_from_db()
    assert stored.approved and stored.note == "ok"


def test_player_cannot_lock(client, event, alice):
    services.join_event(event=event, user=alice)
    client.force_login(alice)
    assert client.post(reverse("events:lock", args=[event.pk])).status_code == 403


def test_french_dashboard_is_in_french(client, event, organiser, alice):
    submitted(event, alice, NO_COMMANDER)
    client.force_login(organiser)
    page = client.get(
        reverse("events:organise", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Vérifier les listes" in page and "✗ Illégale" in page
