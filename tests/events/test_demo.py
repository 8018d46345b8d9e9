"""The demo's tournament: created once, with DEBUG on only, from the shipped data."""

import io

import pytest
from django.core.management import call_command

from events.models import Event, EventList

pytestmark = pytest.mark.django_db


def test_demo_event_has_its_three_lists_and_is_made_once(settings):
    settings.DEBUG = True
    settings.CITADEL_RULEBOOK_DIR = ""
    call_command("load_demo_data", stdout=io.StringIO())
    call_command("load_demo_event", stdout=io.StringIO())
    call_command("load_demo_event", stdout=io.StringIO())
    assert Event.objects.count() == 1
    statuses = sorted(EventList.objects.values_list("status", flat=True))
    assert statuses == ["illegal", "legal", "legal"]


def test_no_demo_event_on_a_real_site(settings):
    settings.DEBUG = False
    call_command("load_demo_event", stdout=io.StringIO())
    assert not Event.objects.exists()
