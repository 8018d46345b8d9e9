"""POST /api/v1/exports/, GET /api/v1/exports/{id}/ and its download (contracts §4).

Celery runs in-process here (no broker), so a job is done by the time POST answers; the
real-worker tests are in test_worker.py."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.utils import timezone
from rest_framework.test import APIClient

from exports.models import ExportJob, ExportStatus

from .conftest import make_job

pytestmark = pytest.mark.django_db

EXPORTS = "/api/v1/exports/"


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def player_api(api, player):
    api.force_authenticate(player)
    return api


def start(client, **body):
    return client.post(EXPORTS, body, format="json")


def follow(client, response):
    return client.get(response.json()["url"])


@pytest.fixture
def run_export(django_capture_on_commit_callbacks):
    """Start an export and let it run: the task is sent when the request's work commits."""

    def run(client, **body):
        with django_capture_on_commit_callbacks(execute=True):
            response = start(client, **body)
        assert response.status_code == 202, response.content
        return follow(client, response)

    return run


# --- starting ----------------------------------------------------------------------------------


def test_post_export_own_list_answers_202_queued_with_url(player_api, private_list):
    response = start(player_api, kind="army-list", list_id=private_list.pk)
    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "queued"
    assert body["url"] == f"http://testserver{EXPORTS}{body['id']}/"
    assert body["page"] == f"http://testserver/exports/{body['id']}/"


def test_post_export_stores_params_kind_and_language(player_api, private_list):
    body = start(player_api, kind="army-list", list_id=private_list.pk, language="fr").json()
    job = ExportJob.objects.get(pk=body["id"])
    params = {"list_id": private_list.pk, "site": "http://testserver"}
    assert (job.kind, job.params, job.language) == ("army-list", params, "fr")


def test_post_export_language_defaults_to_request_language(player_api, section):
    body = player_api.post(
        EXPORTS,
        {"kind": "rules-section", "section_id": section.pk},
        format="json",
        HTTP_ACCEPT_LANGUAGE="fr",
    ).json()
    assert ExportJob.objects.get(pk=body["id"]).language == "fr"


def test_post_export_text_detects_game(api):
    response = start(api, kind="army-list", text="Game: Tactics\nFaction: Baratheon\n")
    assert response.status_code == 202
    assert ExportJob.objects.get(pk=response.json()["id"]).params["game"] == "tactics"


def test_post_export_rules_section_answers_202(api, section):
    assert start(api, kind="rules-section", section_id=section.pk).status_code == 202


def test_post_export_rulebook_answers_202(api, rulebook):
    assert start(api, kind="rulebook", rulebook_id=rulebook.pk).status_code == 202


def test_post_export_shared_list_with_token_answers_202(api, shared_list):
    response = start(
        api, kind="army-list", list_id=shared_list.pk, token=str(shared_list.share_token)
    )
    assert response.status_code == 202


def test_post_export_private_list_of_another_user_answers_404(api, rival, private_list):
    api.force_authenticate(rival)
    response = start(api, kind="army-list", list_id=private_list.pk)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_post_export_shared_list_without_token_answers_404(api, shared_list):
    assert start(api, kind="army-list", list_id=shared_list.pk).status_code == 404


def test_post_export_missing_list_answers_404(player_api):
    assert start(player_api, kind="army-list", list_id=999999).status_code == 404


def test_post_export_anonymous_session_list_answers_202(client, stark):
    created = client.post(
        "/lists/new/", {"faction": "stark", "size": "30", "ruleset": "rules-1.5", "name": ""}
    )
    list_id = int(created.url.split("/")[2])
    response = client.post(
        EXPORTS, {"kind": "army-list", "list_id": list_id}, content_type="application/json"
    )
    assert response.status_code == 202


# --- bad input: 400 naming the field, never a 500 ----------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "kind"),
        ({"kind": "poster"}, "kind"),
        ({"kind": "army-list"}, "list_id"),
        ({"kind": "army-list", "list_id": 1, "text": "Faction: Stark"}, "list_id"),
        ({"kind": "army-list", "list_id": "seven"}, "list_id"),
        ({"kind": "army-list", "text": "Faction: Stark", "game": "chess"}, "game"),
        ({"kind": "rules-section"}, "section_id"),
        ({"kind": "rulebook", "rulebook_id": -3}, "rulebook_id"),
        ({"kind": "rules-section", "section_id": 1, "list_id": 1}, "list_id"),
        ({"kind": "army-list", "text": "Faction: Stark", "token": "t"}, "token"),
        ({"kind": "rulebook", "rulebook_id": 1, "language": "de"}, "language"),
        ({"kind": "army-list", "text": "Faction: Stark", "language": "fa"}, "language"),
    ],
)
def test_post_export_bad_input_answers_400_naming_field(api, body, field):
    response = start(api, **body)
    assert response.status_code == 400
    error = response.json()
    assert (error["code"], error["field"]) == ("invalid", field)
    assert error["detail"].startswith(f"{field}: ")


@pytest.mark.parametrize(
    "body",
    [{"kind": "rules-section", "section_id": 999999}, {"kind": "rulebook", "rulebook_id": 9}],
)
def test_post_export_of_a_missing_section_or_book_answers_404(api, body):
    response = start(api, **body)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_post_export_form_encoded_answers_415(api, section):
    response = api.post(EXPORTS, {"kind": "rules-section", "section_id": section.pk})
    assert response.status_code == 415


def test_post_export_not_json_answers_400(api):
    response = api.post(EXPORTS, "{not json", content_type="application/json")
    assert response.status_code == 400


def test_post_export_bad_input_message_in_french(api):
    response = api.post(EXPORTS, {"kind": "army-list"}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert "list_id" in response.json()["detail"]
    assert "liste" in response.json()["detail"]


def test_post_export_over_rate_answers_429(player_api, section, settings):
    settings.CITADEL_EXPORT_RATE = "2/hour"
    for _ in range(2):
        assert start(player_api, kind="rules-section", section_id=section.pk).status_code == 202
    response = start(player_api, kind="rules-section", section_id=section.pk)
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"


def test_post_export_rate_is_per_user(api, player, rival, section, settings):
    settings.CITADEL_EXPORT_RATE = "1/hour"
    api.force_authenticate(player)
    assert start(api, kind="rules-section", section_id=section.pk).status_code == 202
    api.force_authenticate(rival)
    assert start(api, kind="rules-section", section_id=section.pk).status_code == 202


# --- following and downloading -----------------------------------------------------------------


def test_get_export_done_gives_progress_and_download(player_api, private_list, run_export):
    response = run_export(player_api, kind="army-list", list_id=private_list.pk)
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["progress"], body["error"]) == ("done", 100, None)
    assert body["download"].endswith(f"{EXPORTS}{body['id']}/download/")


def test_get_export_failed_gives_error_and_no_download(player_api, renderer, section, run_export):
    renderer.fail_with.append(RuntimeError("boom"))
    body = run_export(player_api, kind="rules-section", section_id=section.pk).json()
    assert body["status"] == "failed"
    assert body["error"] and body["download"] is None


def test_get_export_of_another_user_answers_404(api, player, rival, section):
    job = make_job(user=player)
    api.force_authenticate(rival)
    assert api.get(f"{EXPORTS}{job.pk}/").status_code == 404


def test_get_export_anonymous_job_from_another_session_answers_404(client, section):
    created = client.post(
        EXPORTS,
        {"kind": "rules-section", "section_id": section.pk},
        content_type="application/json",
    ).json()
    assert client.get(created["url"]).status_code == 200
    assert APIClient().get(created["url"]).status_code == 404


def test_get_export_unknown_id_answers_404(api):
    assert api.get(f"{EXPORTS}{uuid.uuid4()}/").status_code == 404


def test_get_export_malformed_id_answers_404(api):
    assert api.get(f"{EXPORTS}not-a-uuid/").status_code == 404


def test_get_export_stale_running_job_is_not_reported_running(player_api, player, settings):
    settings.CITADEL_EXPORT_MAX_ATTEMPTS = 1
    job = make_job(user=player)
    long_ago = timezone.now() - timedelta(hours=1)
    ExportJob.objects.filter(pk=job.pk).update(
        status=ExportStatus.RUNNING, attempts=1, started_at=long_ago
    )
    body = player_api.get(f"{EXPORTS}{job.pk}/").json()
    assert body["status"] == "failed"
    assert "given up" in body["error"]


def test_download_export_answers_pdf_attachment(player_api, private_list, run_export):
    status = run_export(player_api, kind="army-list", list_id=private_list.pk)
    response = player_api.get(status.json()["download"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert b"".join(response.streaming_content).startswith(b"%PDF-")


def test_download_export_accepting_pdf_only_answers_pdf(player_api, private_list, run_export):
    status = run_export(player_api, kind="army-list", list_id=private_list.pk)
    response = player_api.get(status.json()["download"], HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200


def test_download_export_of_another_user_answers_404(
    api, player_api, rival, private_list, run_export
):
    status = run_export(player_api, kind="army-list", list_id=private_list.pk)
    api.force_authenticate(rival)
    assert api.get(status.json()["download"]).status_code == 404


def test_download_export_not_finished_answers_409(player_api, player):
    job = make_job(user=player)
    response = player_api.get(f"{EXPORTS}{job.pk}/download/")
    assert response.status_code == 409
    assert response.json()["code"] == "not_ready"


def test_download_export_file_gone_answers_410(player_api, private_list, run_export):
    body = run_export(player_api, kind="army-list", list_id=private_list.pk).json()
    default_storage.delete(ExportJob.objects.get(pk=body["id"]).file.name)
    response = player_api.get(body["download"])
    assert response.status_code == 410
    assert response.json()["code"] == "expired"


def test_openapi_schema_documents_export_paths(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert {
        "/api/v1/exports/",
        "/api/v1/exports/{job_id}/",
        "/api/v1/exports/{job_id}/download/",
    } <= set(schema["paths"])
