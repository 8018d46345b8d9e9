"""The Export PDF button on list, warband and rules pages; the job page and its polling."""

from __future__ import annotations

import pytest

from armybuilder.lists.models import ArmyList
from cards.models import Faction
from exports.models import ExportJob, ExportStatus

from .conftest import make_job

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def export_button(html: str) -> bool:
    return 'data-testid="export-pdf"' in html and 'action="/exports/"' in html


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    def post(client, data, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post("/exports/", data, **extra)

    return post


# --- the button --------------------------------------------------------------------------------


def test_list_page_has_export_button_for_its_list(signed_in, private_list):
    html = signed_in.get(f"/lists/{private_list.pk}/").content.decode()
    assert export_button(html)
    assert f'name="list_id" value="{private_list.pk}"' in html


def test_warband_page_has_export_button(signed_in, player):
    baratheon = Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    warband = ArmyList.objects.create(owner=player, game="tactics", faction=baratheon)
    assert export_button(signed_in.get(f"/lists/{warband.pk}/").content.decode())


def test_shared_list_page_button_carries_share_token(client, shared_list):
    html = client.get(f"/lists/s/{shared_list.share_token}/").content.decode()
    assert f'name="token" value="{shared_list.share_token}"' in html


def test_rulebook_page_has_export_button(client, rulebook):
    html = client.get(f"/rules/{rulebook.slug}/").content.decode()
    assert export_button(html) and f'name="rulebook_id" value="{rulebook.pk}"' in html


def test_rules_section_page_has_export_button(client, section):
    html = client.get(f"/rules/{section.book.slug}/{section.slug}/").content.decode()
    assert export_button(html) and f'name="section_id" value="{section.pk}"' in html


# --- starting from a page ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_export_button_with_htmx_without_broker_swaps_in_download_link(signed_in, private_list):
    # As in the demo: no transaction around the request, so the job is sent (and, without a
    # broker, run) as soon as it is created, and the answer already links the file.
    response = signed_in.post(
        "/exports/", {"kind": "army-list", "list_id": private_list.pk}, **HTMX
    )
    assert response.status_code == 200
    assert 'data-testid="export-download"' in response.content.decode()


def test_export_button_without_javascript_redirects_to_job_page(client, section, run_on_commit):
    response = run_on_commit(client, {"kind": "rules-section", "section_id": section.pk})
    job = ExportJob.objects.get()
    assert response.status_code == 302 and response.url == f"/exports/{job.pk}/"
    page = client.get(response.url).content.decode()
    assert f'href="/api/v1/exports/{job.pk}/download/"' in page


def test_export_button_bad_input_answers_400_with_message(client):
    response = client.post("/exports/", {"kind": "rules-section", "section_id": "x"}, **HTMX)
    assert response.status_code == 400
    assert 'data-testid="export-refused"' in response.content.decode()


def test_export_button_private_list_of_another_user_answers_404(client, rival, private_list):
    client.force_login(rival)
    response = client.post("/exports/", {"kind": "army-list", "list_id": private_list.pk})
    assert response.status_code == 404


def test_export_button_over_rate_answers_429(client, section, settings):
    settings.CITADEL_EXPORT_RATE = "1/hour"
    client.post("/exports/", {"kind": "rules-section", "section_id": section.pk})
    response = client.post("/exports/", {"kind": "rules-section", "section_id": section.pk})
    assert response.status_code == 429


def test_export_start_refuses_get(client):
    assert client.get("/exports/").status_code == 405


# --- following a job ---------------------------------------------------------------------------


def test_progress_of_running_job_polls_and_shows_bar(signed_in, player):
    job = make_job(user=player)
    ExportJob.objects.filter(pk=job.pk).update(status=ExportStatus.RUNNING, progress=40)
    html = signed_in.get(f"/exports/{job.pk}/progress/", **HTMX).content.decode()
    assert f'hx-get="/exports/{job.pk}/progress/"' in html
    assert '<progress max="100" value="40">' in html


def test_progress_of_finished_job_stops_polling(signed_in, player):
    job = make_job(user=player)
    ExportJob.objects.filter(pk=job.pk).update(status=ExportStatus.FAILED, error="No such book.")
    html = signed_in.get(f"/exports/{job.pk}/progress/", **HTMX).content.decode()
    assert "hx-get" not in html
    assert "No such book." in html


def test_job_page_of_unfinished_job_refreshes_without_javascript(signed_in, player):
    job = make_job(user=player)
    html = signed_in.get(f"/exports/{job.pk}/").content.decode()
    assert '<meta http-equiv="refresh"' in html


def test_job_page_of_another_user_answers_404(client, player, rival):
    job = make_job(user=player)
    client.force_login(rival)
    assert client.get(f"/exports/{job.pk}/").status_code == 404
    assert client.get(f"/exports/{job.pk}/progress/").status_code == 404


def test_job_page_anonymous_job_survives_login(client, player, section, run_on_commit):
    run_on_commit(client, {"kind": "rules-section", "section_id": section.pk})
    job = ExportJob.objects.get()
    client.force_login(player)
    assert client.get(f"/exports/{job.pk}/").status_code == 200
