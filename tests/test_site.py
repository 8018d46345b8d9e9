import pytest

from cards.models import Card


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Citadel" in response.content


@pytest.mark.django_db
def test_home_page_search_box_submits_to_site_search(client):
    body = client.get("/").content.decode()
    assert 'action="/search/"' in body and 'name="q"' in body


@pytest.mark.django_db
def test_home_page_counts_cards_per_game(client):
    Card.objects.create(game="tmg", kind="unit", external_id="1", name_en="A")
    Card.objects.create(game="tmg", kind="unit", external_id="2", name_en="B")
    Card.objects.create(game="tactics", kind="hero", external_id="3", name_en="C")
    games = {g["code"]: g["count"] for g in client.get("/").context["games"]}
    assert games == {"tmg": 2, "tactics": 1}


@pytest.mark.django_db
def test_home_page_in_french(client):
    client.cookies["django_language"] = "fr"
    body = client.get("/").content.decode()
    assert "Chercher des cartes et des règles" in body and 'lang="fr"' in body


@pytest.mark.django_db
def test_pages_use_only_local_assets(client):
    body = client.get("/cards/").content.decode()
    assert "https://" not in body and "//cdn" not in body


@pytest.mark.django_db
def test_signup_page_renders(client):
    assert client.get("/accounts/signup/").status_code == 200


@pytest.mark.django_db
def test_signup_page_redirects_logged_in_user(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("jon", password="ghost-1234"))
    assert client.get("/accounts/signup/").status_code == 302


@pytest.mark.django_db
def test_logout_logs_out(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("jon", password="ghost-1234"))
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_health_endpoint_reports_ok(client, settings):
    """The bare set-up (no Redis, no broker): what it does not use is skipped, not down.
    Health with Redis down or a worker: tests/reliability/test_redis_down.py and
    tests/exports/test_worker.py."""
    from armybuilder.celery import app

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    try:
        answer = client.get("/health/")
    finally:
        app.conf.task_always_eager = eager
    assert (answer.status_code, answer.json()["status"]) == (200, "ok"), answer.json()
