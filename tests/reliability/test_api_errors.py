"""Bad input never answers 500 or an HTML page on the API (issue 16, defects 1 and 3)."""

from __future__ import annotations

import base64
import json

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

DEEP = 100_000  # brackets: far past Python's recursion limit


def _deep_json(field: str) -> str:
    return f'{{"{field}": {"[" * DEEP}{"]" * DEEP}}}'


@pytest.mark.parametrize(
    ("path", "field"), [("/api/v1/lists/check/", "text"), ("/api/v1/lists/check-batch/", "lists")]
)
def test_check_api_deeply_nested_json_answers_400_in_json(client, path, field):
    answer = client.post(path, _deep_json(field), content_type="application/json")
    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/json"
    assert "nested too deeply" in answer.json()["detail"]


def test_api_body_over_the_limit_answers_413_in_json(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = settings.CITADEL_MAX_BODY_BYTES = 1000
    body = json.dumps({"text": "x" * 2000})
    answer = client.post("/api/v1/lists/check/", body, content_type="application/json")
    assert answer.status_code == 413
    assert answer.json()["code"] == "too_large"
    assert "1,000" in answer.json()["detail"]


def test_page_body_over_the_limit_answers_413_page(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = settings.CITADEL_MAX_BODY_BYTES = 1000
    answer = client.post("/exports/", {"kind": "army-list", "text": "x" * 2000})
    assert answer.status_code == 413
    assert answer["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/exports/not-a-uuid/download/",
        "/api/v1/rules/sections/abc/",
        "/api/v1/no-such-thing/",
        "/api/v1/cards/tmg/",
    ],
)
def test_api_path_that_matches_nothing_answers_404_in_json(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "not_found"


def test_page_path_that_matches_nothing_answers_404_page(client):
    answer = client.get("/no-such-page/")
    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("text/html")


def test_api_wrong_basic_auth_password_answers_401_with_challenge(client):
    User.objects.create_user("reader", password="right-pass-1")
    token = base64.b64encode(b"reader:wrong-pass").decode()
    answer = client.get("/api/v1/cards/", HTTP_AUTHORIZATION=f"Basic {token}")
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"].startswith("Basic")
    assert answer.json()["code"] == "authentication_failed"


def test_api_right_basic_auth_password_is_accepted(client):
    User.objects.create_user("reader", password="right-pass-1")
    token = base64.b64encode(b"reader:right-pass-1").decode()
    assert client.get("/api/v1/cards/", HTTP_AUTHORIZATION=f"Basic {token}").status_code == 200
