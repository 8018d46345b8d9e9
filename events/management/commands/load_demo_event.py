"""manage.py load_demo_event: a public demo tournament organised by the demo admin, with
three lists brought in by bulk intake (one legal, one with a misspelt name, one without its
commander), so that the organiser's page can be tried at once. Idempotent; only with DEBUG
on (the demo), never on a production site."""

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand
from django.utils import timezone

from events import services
from events.intake import read_intake
from events.models import Event

DEMO_EVENT = "Demo tournament"
DEMO_LISTS = Path(__file__).resolve().parent.parent.parent / "data" / "demo-lists.txt"


class Command(BaseCommand):
    help = "Create the demo tournament (DEBUG only; idempotent)."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo tournament on a real site.")
            return
        admin = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
        if admin is None:
            self.stdout.write("No admin account: run load_demo_data first.")
            return
        if Event.objects.filter(name=DEMO_EVENT).exists():
            self.stdout.write(f"{DEMO_EVENT}: already there.")
            return
        today = timezone.localdate()
        event = services.create_event(
            creator=admin,
            data={
                "name": DEMO_EVENT,
                "date": (today + dt.timedelta(days=30)).isoformat(),
                "place": "Winterfell",
                "game": "tmg",
                "points": 40,
                "deadline": (timezone.now() + dt.timedelta(days=29)).isoformat(),
                "visibility": "public",
            },
        )
        pieces = read_intake(
            DEMO_LISTS.read_text(encoding="utf-8"), is_list_line=services.list_line_test(event)
        ).pieces
        outcome = services.intake_lists(event=event, pieces=pieces, actor=admin)
        legal = sum(stored.legal for stored in outcome.lists)
        self.stdout.write(
            f"{DEMO_EVENT}: {len(outcome.lists)} lists ({legal} legal) at /events/{event.pk}/"
        )
