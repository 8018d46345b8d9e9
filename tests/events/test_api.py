"""/api/v1/events/: every path, with session, token and basic authentication, permissions
that could leak a list, and bad input (JSON errors naming the field, never a 500)."""

from __future__ import annotations

import base64
import csv
import io
import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from events import services
from events.models import Event, EventList
from tests.events.lists import LANNISTER, LEGAL, NO_COMMANDER

pytestmark = pytest.mark.django_db

URL = "/api/v1/events/"


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def joined(event, user):
    return services.join_event(event=event, user=user)


def submitted(event, user, text=LEGAL):
    player = joined(event, user)
    return services.submit_list(event=event, player=player, actor=user, text=text)


# --- authentication ----------------------------------------------------------------------------


def test_create_with_a_token(cards, organiser):
    token = Token.objects.create(user=organiser)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    body = {"name": "Cup", "date": "2030-03-01", "game": "tmg", "points": 40}
    response = client.post(URL, body, format="json")
    assert response.status_code == 201 and response.json()["id"]


def test_create_with_basic_authentication(cards, organiser):
    client = APIClient()
    secret = base64.b64encode(b"olenna:olenna-secret-pw-1").decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {secret}")
    body = {"name": "Cup", "date": "2030-03-01", "game": "tmg", "points": 40}
    assert client.post(URL, body, format="json").status_code == 201


def test_create_with_a_session(client, cards, organiser):
    client.force_login(organiser)
    body = {"name": "Cup", "date": "2030-03-01", "game": "tactics", "budget": "3-6-18"}
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 201 and response.json()["budget"] == "3-6-18"


def test_create_without_credentials_is_401_in_json(cards):
    response = api().post(URL, {"name": "Cup"}, format="json")
    assert response.status_code == 401 and "detail" in response.json()


def test_wrong_basic_password_is_401(cards, organiser):
    client = APIClient()
    secret = base64.b64encode(b"olenna:wrong").decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {secret}")
    assert client.get(URL).status_code == 401


def test_token_is_obtained_with_username_and_password(organiser):
    response = api().post(
        "/api/v1/auth/token/",
        {"username": "olenna", "password": "olenna-secret-pw-1"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["token"]


# --- events ------------------------------------------------------------------------------------


def test_create_tactics_event_with_a_scenario_slug(cards, organiser):
    body = {"name": "S", "date": "2030-03-01", "game": "tactics", "budget": "tac-small"}
    response = api(organiser).post(URL, body, format="json")
    assert (response.status_code, response.json()["scenario"]) == (201, "tac-small")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "X", "date": "2030-01-01", "game": "tmg"}, "points"),
        ({"name": "X", "date": "2030-01-01", "game": "tmg", "points": "40"}, "points"),
        ({"name": "X", "date": "soon", "game": "tmg", "points": 40}, "date"),
        ({"name": 0, "date": "2030-01-01", "game": "tmg", "points": 40}, "name"),
        ({"name": "X", "date": "2030-01-01", "game": "chess", "points": 40}, "game"),
        ({"name": "X", "date": "2030-01-01", "game": "tactics", "budget": "lots"}, "budget"),
        (
            {"name": "X", "date": "2030-01-01", "game": "tmg", "points": 40, "ruleset": "v9"},
            "ruleset",
        ),
    ],
)
def test_create_with_a_bad_field_is_400_naming_it(cards, organiser, body, field):
    response = api(organiser).post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_create_with_malformed_json_is_400_in_json(cards, organiser):
    response = api(organiser).post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()


def test_events_list_shows_public_and_own_events_only(event, organiser, stranger):
    public = services.create_event(
        creator=organiser,
        data={
            "name": "Open",
            "date": "2030-01-01",
            "game": "tmg",
            "points": 40,
            "visibility": "public",
        },
    )
    names = [e["name"] for e in api(stranger).get(URL).json()["results"]]
    assert names == [public.name]


def test_unlisted_event_is_404_for_a_stranger(event, stranger):
    assert api(stranger).get(f"{URL}{event.pk}/").status_code == 404


def test_unlisted_event_is_readable_with_its_join_token(event, stranger):
    response = api(stranger).get(f"{URL}{event.pk}/", {"token": str(event.join_token)})
    assert response.status_code == 200 and "join_url" not in response.json()


def test_organiser_reads_the_join_link(event, organiser):
    assert str(event.join_token) in api(organiser).get(f"{URL}{event.pk}/").json()["join_url"]


def test_patch_by_an_organiser_changes_the_event(event, organiser):
    response = api(organiser).patch(f"{URL}{event.pk}/", {"place": "Riverrun"}, format="json")
    assert response.status_code == 200 and response.json()["place"] == "Riverrun"


def test_patch_by_a_player_is_403(event, alice):
    joined(event, alice)
    response = api(alice).patch(f"{URL}{event.pk}/", {"place": "Mine"}, format="json")
    assert response.status_code == 403
    assert Event.objects.get().place == ""


def test_patch_with_a_wrong_type_is_400(event, organiser):
    response = api(organiser).patch(f"{URL}{event.pk}/", {"points": "forty"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "points"


# --- players and lists -------------------------------------------------------------------------


def test_join_with_the_token(event, alice):
    response = api(alice).post(
        f"{URL}{event.pk}/join/", {"token": str(event.join_token)}, format="json"
    )
    assert response.status_code == 200 and response.json()["name"] == "alice"


def test_join_without_the_token_is_404(event, alice):
    assert api(alice).post(f"{URL}{event.pk}/join/", {}, format="json").status_code == 404


def test_submit_then_fix_a_list(event, alice):
    joined(event, alice)
    first = api(alice).post(f"{URL}{event.pk}/lists/", {"text": NO_COMMANDER}, format="json")
    assert (first.status_code, first.json()["legal"]) == (201, False)
    assert first.json()["findings"][0]["code"] == "COMMANDER_MISSING"
    fixed = api(alice).post(f"{URL}{event.pk}/lists/", {"text": LEGAL}, format="json")
    assert (fixed.status_code, fixed.json()["legal"], fixed.json()["points"]) == (200, True, 15)
    assert fixed.json()["lines"][0]["kind"] == "header"


def test_submit_to_an_unlisted_event_one_does_not_play_in_is_404(event, alice):
    response = api(alice).post(f"{URL}{event.pk}/lists/", {"text": LEGAL}, format="json")
    assert response.status_code == 404


def test_submit_to_a_public_event_without_joining_is_403(event, organiser, alice):
    services.update_event(event=event, actor=organiser, data={"visibility": "public"})
    response = api(alice).post(f"{URL}{event.pk}/lists/", {"text": LEGAL}, format="json")
    assert response.status_code == 403 and "Join the event" in response.json()["detail"]


def test_submit_with_a_number_for_text_is_400(event, alice):
    joined(event, alice)
    response = api(alice).post(f"{URL}{event.pk}/lists/", {"text": 0}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "text"


def test_submit_a_saved_list(event, alice):
    from armybuilder.lists import services as list_services

    saved = list_services.import_list_text(text=LEGAL, owner=alice).army_list
    joined(event, alice)
    response = api(alice).post(f"{URL}{event.pk}/lists/", {"list_id": saved.pk}, format="json")
    assert (response.status_code, response.json()["source"]) == (201, "saved")


def test_submit_after_locking_is_409_with_a_message(event, organiser, alice):
    joined(event, alice)
    api(organiser).post(f"{URL}{event.pk}/lock/")
    response = api(alice).post(f"{URL}{event.pk}/lists/", {"text": LEGAL}, format="json")
    assert response.status_code == 409 and "locked" in response.json()["detail"]


def test_player_reads_only_their_own_list_before_publication(event, alice, bob):
    submitted(event, alice)
    submitted(event, bob, LANNISTER)
    players = [
        item["player"] for item in api(alice).get(f"{URL}{event.pk}/lists/").json()["results"]
    ]
    assert players == ["alice"]


def test_player_cannot_open_another_players_list_before_publication(event, alice, bob):
    theirs = submitted(event, bob, LANNISTER)
    submitted(event, alice)
    assert api(alice).get(f"{URL}{event.pk}/lists/{theirs.pk}/").status_code == 404


def test_everyone_who_sees_the_event_reads_every_list_once_published(event, organiser, alice, bob):
    submitted(event, alice)
    submitted(event, bob, LANNISTER)
    api(organiser).post(f"{URL}{event.pk}/publish/")
    players = [
        item["player"] for item in api(alice).get(f"{URL}{event.pk}/lists/").json()["results"]
    ]
    assert players == ["alice", "bob"]


def test_note_is_for_organisers_only(event, organiser, alice):
    stored = submitted(event, alice)
    services.review_list(event_list=stored, actor=organiser, note="ask about Robb")
    mine = api(alice).get(f"{URL}{event.pk}/lists/{stored.pk}/").json()
    assert "note" not in mine
    theirs = api(organiser).get(f"{URL}{event.pk}/lists/{stored.pk}/").json()
    assert theirs["note"] == "ask about Robb"


def test_organiser_filters_the_illegal_lists(event, alice, bob, organiser):
    submitted(event, alice, NO_COMMANDER)
    submitted(event, bob, LANNISTER)
    response = api(organiser).get(f"{URL}{event.pk}/lists/", {"status": "illegal"})
    assert [item["player"] for item in response.json()["results"]] == ["alice"]


def test_unknown_filter_is_400(event, organiser):
    assert api(organiser).get(f"{URL}{event.pk}/lists/", {"status": "odd"}).status_code == 400


def test_organiser_approves_a_list(event, organiser, alice):
    stored = submitted(event, alice)
    response = api(organiser).patch(
        f"{URL}{event.pk}/lists/{stored.pk}/", {"approved": True, "note": "ok"}, format="json"
    )
    assert response.status_code == 200 and response.json()["approved"] is True


def test_player_cannot_approve_their_list(event, alice):
    stored = submitted(event, alice)
    response = api(alice).patch(
        f"{URL}{event.pk}/lists/{stored.pk}/", {"approved": True}, format="json"
    )
    assert response.status_code == 403
    assert not EventList.objects.get().approved


def test_player_withdraws_their_list(event, alice):
    stored = submitted(event, alice)
    assert api(alice).delete(f"{URL}{event.pk}/lists/{stored.pk}/").status_code == 204


def test_organiser_adds_a_player_and_submits_for_them(event, organiser):
    added = api(organiser).post(f"{URL}{event.pk}/players/", {"name": "Walk-in"}, format="json")
    assert added.status_code == 201
    response = api(organiser).post(
        f"{URL}{event.pk}/lists/", {"text": LEGAL, "player_id": added.json()["id"]}, format="json"
    )
    assert response.status_code == 201 and response.json()["player"] == "Walk-in"


def test_player_list_is_for_organisers(event, alice):
    joined(event, alice)
    assert api(alice).get(f"{URL}{event.pk}/players/").status_code == 403


def test_lock_by_a_player_is_403(event, alice):
    joined(event, alice)
    assert api(alice).post(f"{URL}{event.pk}/lock/").status_code == 403
    assert not Event.objects.get().is_locked


def test_lock_then_read_says_locked(event, organiser):
    response = api(organiser).post(f"{URL}{event.pk}/lock/")
    assert response.status_code == 200 and response.json()["locked"] is True


def test_fingerprint_is_stable_across_reads(event, alice):
    stored = submitted(event, alice)
    reads = {
        api(alice).get(f"{URL}{event.pk}/lists/{stored.pk}/").json()["fingerprint"]
        for _ in range(3)
    }
    assert reads == {stored.fingerprint}


# --- intake and report -------------------------------------------------------------------------


def test_intake_text_answers_the_report(event, organiser):
    text = f"Player: Carol\n{LEGAL}\n---\nPlayer: Dan\n{NO_COMMANDER}"
    response = api(organiser).post(f"{URL}{event.pk}/intake/", {"text": text}, format="json")
    body = response.json()
    assert response.status_code == 200
    assert body["summary"] == {"lists": 2, "legal": 1, "illegal": 1, "unreadable": 0, "approved": 0}
    assert [(item["player"], item["legal"], item["points"]) for item in body["lists"]] == [
        ("Carol", True, 15),
        ("Dan", False, 11),
    ]
    assert body["lists"][1]["where"] == "line 13"  # its "Player: Dan" line


def test_intake_csv(event, organiser):
    table = io.StringIO()
    csv.writer(table).writerows([["Player", "List"], ["Carol", LEGAL], ["Dan", LANNISTER]])
    response = api(organiser).post(
        f"{URL}{event.pk}/intake/", {"csv": table.getvalue()}, format="json"
    )
    assert [item["player"] for item in response.json()["lists"]] == ["Carol", "Dan"]


def test_intake_lists(event, organiser):
    body = {
        "lists": [
            {"player": "Carol", "text": LEGAL},
            {"player": "Dan", "text": LANNISTER, "team": ""},
        ]
    }
    response = api(organiser).post(f"{URL}{event.pk}/intake/", body, format="json")
    assert response.json()["summary"]["legal"] == 2


def test_intake_uploaded_file(event, organiser):
    upload = io.BytesIO(f"# Carol\n{LEGAL}\n# Dan\n{LANNISTER}".encode())
    upload.name = "lists.txt"
    client = api(organiser)
    response = client.post(f"{URL}{event.pk}/intake/", {"file": upload}, format="multipart")
    assert [item["player"] for item in response.json()["lists"]] == ["Carol", "Dan"]


def test_intake_with_two_kinds_of_input_is_400(event, organiser):
    response = api(organiser).post(
        f"{URL}{event.pk}/intake/", {"text": "x", "csv": "y"}, format="json"
    )
    assert response.status_code == 400


def test_intake_of_bad_json_names_the_item(event, organiser):
    upload = io.BytesIO(b'[{"player": "A"}]')
    upload.name = "lists.json"
    response = api(organiser).post(f"{URL}{event.pk}/intake/", {"file": upload}, format="multipart")
    assert response.status_code == 400 and "item 1" in response.json()["detail"]


def test_intake_by_a_player_is_403(event, alice):
    joined(event, alice)
    response = api(alice).post(f"{URL}{event.pk}/intake/", {"text": LEGAL}, format="json")
    assert response.status_code == 403
    assert not EventList.objects.exists()


def test_report_json_has_every_list_with_findings_and_lines(event, organiser, alice):
    submitted(event, alice, NO_COMMANDER)
    body = api(organiser).get(f"{URL}{event.pk}/report.json").json()
    [item] = body["lists"]
    assert item["findings"][0]["fix"] and item["lines"]
    assert body["summary"]["illegal"] == 1


def test_report_csv_has_a_row_per_list_in_french(event, organiser, alice):
    submitted(event, alice, NO_COMMANDER)
    response = api(organiser).get(f"{URL}{event.pk}/report.csv", HTTP_ACCEPT_LANGUAGE="fr")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert response["Content-Type"].startswith("text/csv")
    assert rows[0][0] == "joueur" and rows[1][0] == "alice" and "COMMANDER_MISSING" in rows[1][6]


def test_report_is_for_organisers(event, alice):
    submitted(event, alice)
    assert api(alice).get(f"{URL}{event.pk}/report.json").status_code == 403
    assert api(alice).get(f"{URL}{event.pk}/report.csv").status_code == 403


def test_report_of_an_unlisted_event_is_404_for_a_stranger(event, stranger):
    assert api(stranger).get(f"{URL}{event.pk}/report.json").status_code == 404


def test_errata_is_for_organisers(event, organiser, alice):
    joined(event, alice)
    assert api(organiser).get(f"{URL}{event.pk}/errata/").json() == {"impacts": []}
    assert api(alice).get(f"{URL}{event.pk}/errata/").status_code == 403


def test_every_events_path_is_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    paths = (
        json.loads(schema.content)["paths"]
        if schema["Content-Type"].startswith("application/json")
        else None
    )
    if paths is None:
        import yaml  # noqa: F401  (drf-spectacular answers YAML by default)

        pytest.skip("schema is YAML")
    for path in (
        "/api/v1/events/",
        "/api/v1/events/{event_id}/",
        "/api/v1/events/{event_id}/intake/",
        "/api/v1/events/{event_id}/lock/",
        "/api/v1/events/{event_id}/lists/",
        "/api/v1/events/{event_id}/lists/{list_id}/",
        "/api/v1/events/{event_id}/players/",
        "/api/v1/events/{event_id}/join/",
        "/api/v1/events/{event_id}/publish/",
        "/api/v1/events/{event_id}/errata/",
        "/api/v1/auth/token/",
    ):
        assert path in paths, path


def test_token_with_a_wrong_password_is_401(organiser):
    response = api().post(
        "/api/v1/auth/token/", {"username": "olenna", "password": "no"}, format="json"
    )
    assert response.status_code == 401 and response.json()["code"] == "invalid_credentials"


def test_token_without_a_password_is_400_naming_the_field(organiser):
    response = api().post("/api/v1/auth/token/", {"username": "olenna"}, format="json")
    body = response.json()
    assert (response.status_code, body["code"], body["field"]) == (400, "invalid", "password")


def test_form_encoded_event_is_refused_as_not_json(cards, organiser):
    response = api(organiser).post(
        URL, {"name": "Cup", "date": "2030-03-01", "game": "tmg", "points": 40}
    )
    assert response.status_code == 415


def test_intake_of_blank_text_is_an_empty_report(event, organiser):
    response = api(organiser).post(
        f"{URL}{event.pk}/intake/", {"text": "\n---\n  \n"}, format="json"
    )
    assert response.status_code == 200 and response.json()["summary"]["lists"] == 0
