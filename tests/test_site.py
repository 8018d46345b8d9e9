import pytest


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Citadel" in response.content


@pytest.mark.django_db
def test_health_endpoint_reports_ok(client):
    assert client.get("/health/").json() == {"status": "ok"}
