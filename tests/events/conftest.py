"""Event fixtures: both games' cards imported as in production (tests/carddata.py), an
organiser, two players and a stranger, and a TMG event open for lists."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from events import services
from tests.carddata import import_cards


@pytest.fixture
def cards(db):
    import_cards()


def _user(name: str):
    return get_user_model().objects.create_user(name, password=f"{name}-secret-pw-1")


@pytest.fixture
def organiser(db):
    return _user("olenna")


@pytest.fixture
def alice(db):
    return _user("alice")


@pytest.fixture
def bob(db):
    return _user("bob")


@pytest.fixture
def stranger(db):
    return _user("stranger")


@pytest.fixture
def event(cards, organiser):
    return services.create_event(
        creator=organiser,
        data={
            "name": "Winter Cup",
            "date": (timezone.localdate() + dt.timedelta(days=7)).isoformat(),
            "game": "tmg",
            "points": 40,
            "deadline": (timezone.now() + dt.timedelta(days=6)).isoformat(),
        },
    )


@pytest.fixture
def tactics_event(cards, organiser):
    return services.create_event(
        creator=organiser,
        data={"name": "Skirmish", "date": "2030-05-01", "game": "tactics", "budget": "2-4-12"},
    )
