"""The database gone for a moment (a restart, a failover): a 503 with Retry-After, in JSON on
the API, never a 500 (issue 16, fault drills). The failure is injected where the views read
the database; scripts/drill restarts a real PostgreSQL under load (docs/reliability.md)."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from cards import selectors
from cards.api import views as card_api

pytestmark = pytest.mark.django_db


def _gone(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def test_page_with_database_gone_answers_503_with_retry_after(client, monkeypatch):
    monkeypatch.setattr(selectors, "card_counts_by_game", _gone)
    answer = client.get("/")
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0


def test_api_with_database_gone_answers_503_in_json(client, monkeypatch):
    monkeypatch.setattr(card_api, "search_cards", _gone)
    answer = client.get("/api/v1/cards/", {"q": "stark"})
    assert answer.status_code == 503
    assert answer.json()["code"] == "unavailable"
    assert answer["Retry-After"]
