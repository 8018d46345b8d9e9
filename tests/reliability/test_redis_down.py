"""Redis down (issue 16, defect 2): pages, card and rules search and list checks keep
answering; a new export answers 503 with Retry-After and a clear message (EN/FR), stores
nothing, and is accepted again once Redis is back; /health/ says which service is down.

"Down" is a Redis URL on a port nothing listens on, used as the site's cache and broker
exactly as REDIS_URL configures them in production (armybuilder.settings.redis_caches)."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

from armybuilder.celery import app
from armybuilder.settings import redis_caches
from exports.models import ExportJob

pytestmark = pytest.mark.django_db

CLOSED_REDIS = "redis://127.0.0.1:9/0"  # the discard port: nothing answers there
LIST = "Faction: Stark\nCommander: Robb Stark\nStark Sworn Swords"


def _forget_broker_connections() -> None:
    app._pool = None
    app.amqp._producer_pool = None


def _use_broker(url: str, settings) -> None:
    settings.CACHES = redis_caches(url)
    app.conf.update(broker_url=url, task_always_eager=False)
    _forget_broker_connections()


@pytest.fixture
def celery_conf():
    conf = app.conf
    saved = {key: conf[key] for key in ("broker_url", "task_always_eager", "task_default_queue")}
    conf.task_default_queue = f"citadel-test-{uuid.uuid4().hex[:12]}"
    yield conf
    conf.update(saved)
    _forget_broker_connections()


@pytest.fixture
def redis_down(settings, celery_conf):
    _use_broker(CLOSED_REDIS, settings)


@pytest.fixture
def section(db):
    from rules.services import import_rulebook_text

    imported = import_rulebook_text(
        text="# Movement\n\nA unit moves up to its speed in inches.\n",
        fmt="markdown",
        slug="tiny-rules",
        lang="en",
        game="tmg",
        title="Tiny rules",
    )
    return imported.book.sections.first()


@pytest.mark.parametrize("path", ["/api/v1/rules/search/?q=moves", "/rules/search/?q=moves"])
def test_rules_search_with_redis_down_answers_200(redis_down, section, client, path):
    assert client.get(path).status_code == 200


@pytest.mark.parametrize("path", ["/", "/cards/", "/api/v1/cards/?q=stark", "/rules/"])
def test_pages_and_card_search_with_redis_down_answer_200(redis_down, client, path):
    assert client.get(path).status_code == 200


def test_list_check_with_redis_down_answers_200(redis_down, client):
    answer = client.post("/api/v1/lists/check/", {"text": LIST}, content_type="application/json")
    assert answer.status_code == 200


def test_export_api_with_redis_down_answers_503_with_retry_after(redis_down, section, client):
    answer = client.post(
        "/api/v1/exports/",
        {"kind": "rules-section", "section_id": section.pk},
        content_type="application/json",
    )
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert answer.json()["code"] == "unavailable"
    assert "try again" in answer.json()["detail"]


def test_export_api_with_redis_down_says_so_in_french(redis_down, section, client):
    answer = client.post(
        "/api/v1/exports/",
        {"kind": "rules-section", "section_id": section.pk},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert answer.status_code == 503
    assert "réessayer" in answer.json()["detail"]


def test_export_with_redis_down_stores_no_job(redis_down, section, client):
    client.post(
        "/api/v1/exports/",
        {"kind": "rules-section", "section_id": section.pk},
        content_type="application/json",
    )
    assert not ExportJob.objects.exists()


def test_export_page_with_redis_down_answers_503_page(redis_down, section, client):
    answer = client.post(
        "/exports/", {"kind": "rules-section", "section_id": section.pk}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 503
    assert answer["Retry-After"]
    assert b"try again" in answer.content


def test_export_is_accepted_again_once_redis_is_back(redis_down, section, client, settings):
    url = os.environ.get("CITADEL_TEST_REDIS_URL") or "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {url} to recover to")
    body = {"kind": "rules-section", "section_id": section.pk}
    down = client.post("/api/v1/exports/", body, content_type="application/json")
    _use_broker(url, settings)  # Redis is back
    try:
        back = client.post("/api/v1/exports/", body, content_type="application/json")
        assert (down.status_code, back.status_code) == (503, 202)
    finally:
        redis.Redis.from_url(url).delete(app.conf.task_default_queue)


def test_health_with_redis_down_fails_and_names_cache_broker_and_worker(redis_down, client):
    answer = client.get("/health/")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "fail"
    statuses = {name: check["status"] for name, check in body["checks"].items()}
    assert statuses == {"database": "ok", "cache": "down", "broker": "down", "worker": "down"}


def test_health_without_redis_skips_what_is_not_configured(client, settings, celery_conf):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    celery_conf.task_always_eager = True
    answer = client.get("/health/")
    assert answer.status_code == 200
    statuses = {name: check["status"] for name, check in answer.json()["checks"].items()}
    assert statuses == {
        "database": "ok",
        "cache": "skipped",
        "broker": "skipped",
        "worker": "skipped",
    }
