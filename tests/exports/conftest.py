"""Export fixtures: a private media folder, a clean throttle, things to export, and a
counting renderer for failure tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from armybuilder.lists.models import ArmyList, Visibility
from cards.models import Faction
from exports import services
from exports.documents import render_pdf
from exports.models import ExportJob, ExportKind
from exports.services import ExportViewer
from rules.models import Rulebook, Section


@pytest.fixture(autouse=True)
def export_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def fresh_throttle():
    """Export throttling counts in the cache (Redis in the PostgreSQL pass): start empty."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db):
    return User.objects.create_user("player", password="pw-player-1")


@pytest.fixture
def rival(db):
    return User.objects.create_user("rival", password="pw-rival-1")


@pytest.fixture
def stark(db):
    return Faction.objects.create(game="tmg", slug="stark", name_en="Stark", name_fr="Stark")


@pytest.fixture
def private_list(player, stark):
    return ArmyList.objects.create(owner=player, faction=stark, name="Wolves", points_limit=30)


@pytest.fixture
def shared_list(rival, stark):
    return ArmyList.objects.create(
        owner=rival, faction=stark, name="Shared", points_limit=30, visibility=Visibility.LINK
    )


@pytest.fixture
def rulebook(db):
    book = Rulebook.objects.create(slug="tmg-rules", game="tmg", lang="en", title="TMG Rules")
    Section.objects.create(book=book, slug="movement", position=0, heading="Movement", body="Move.")
    return book


@pytest.fixture
def section(rulebook):
    return rulebook.sections.get()


def make_job(*, user=None, session_owner="", **fields) -> ExportJob:
    """A queued job created through the service, without sending its task."""
    viewer = ExportViewer(user=user, session_owner=session_owner)
    fields.setdefault("kind", ExportKind.RULES_SECTION)
    fields.setdefault("params", {"section_id": 1})
    fields.setdefault("language", "en")
    return services.create_export(viewer=viewer, **fields)


class CountingRenderer:
    """The real renderer, counted; `fail_with` makes the next calls raise instead."""

    def __init__(self):
        self.calls = 0
        self.fail_with: list[BaseException] = []

    def __call__(self, **kwargs):
        self.calls += 1
        if self.fail_with:
            raise self.fail_with.pop(0)
        return render_pdf(**kwargs)


@pytest.fixture
def renderer(monkeypatch) -> CountingRenderer:
    counting = CountingRenderer()
    monkeypatch.setattr(services, "render_pdf", counting)
    return counting
