"""Bulk intake of a 50-list file with the shipped card data: lists written as players write
them (tests/armybuilder/realformat), real lists, illegal lists and typos, separated in every
way the intake reads (---, Player:/Joueur : lines, markdown headings, bold names). The report
must give each list to the right player, read each exactly as built, and judge each as the
same list pasted alone; the illegal ones with their finding, the typos corrected."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from armybuilder.checking import check_list_text
from events import services
from events.intake import read_intake
from events.judging import check_options
from events.models import EventList
from events.selectors import event_report
from events.serializers import report_csv
from tests.armybuilder.test_real_lists import real_list
from tests.conftest import REPO_DIR

pytestmark = pytest.mark.django_db

CORPUS = Path(REPO_DIR / "tests" / "armybuilder" / "realformat")
SEPARATORS = (
    lambda name: f"---\nPlayer: {name}\n",
    lambda name: f"\n# {name}\n",
    lambda name: f"\n**{name}**\n",
    lambda name: f"\nJoueur : {name}\n",
)


def _entries():
    """(player, text, expectation) × 50."""
    items = []
    for number, path in enumerate(sorted(CORPUS.glob("*.txt")), start=1):
        built = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        items.append((f"Player {number:02d}", path.read_text(encoding="utf-8"), {"built": built}))
    for name in ("baratheon-40", "lannister-50", "nightswatch-40", "greyjoy-50"):
        items.append((f"Real {name}", real_list(name), {}))
    stark = real_list("stark-40")
    items.append(
        (
            "No Commander",
            stark.replace("  • Robb Stark - The Wolf Lord (C)\n", ""),
            {"code": "COMMANDER_MISSING"},
        )
    )
    items.append(
        (
            "Too Big",
            stark.replace(
                "• Stark Outriders (6)",
                "• Stark Outriders (6)\n• House Umber Ravagers (7)\n• House Umber Ravagers (7)",
            ),
            {"code": "POINTS_OVER_LIMIT"},
        )
    )
    items.append(
        ("Two Aryas", stark + "• Arya Stark - The Wolf Girl (4)\n", {"code": "CHARACTER_DUPLICATE"})
    )
    items.append(
        ("Typo One", stark.replace("Stark Sworn Swords", "Stark Sworm Swords"), {"typo": True})
    )
    items.append(
        ("Typo Two", stark.replace("Catelyn Stark - Lady", "Catelyn Strak - Lady"), {"typo": True})
    )
    items.append(
        ("Typo Three", stark.replace("Crannogman Trackers", "Cranogman Trackers"), {"typo": True})
    )
    assert len(items) == 50
    return items


@pytest.fixture
def intake(snapshot_cards):
    organiser = get_user_model().objects.create_user("olenna", password="olenna-secret-pw-1")
    event = services.create_event(
        creator=organiser,
        data={"name": "Grand", "date": "2030-06-01", "game": "tmg", "points": 50},
    )
    items = _entries()
    text = "".join(SEPARATORS[i % 4](name) + body for i, (name, body, _e) in enumerate(items))
    pieces = read_intake(
        text, filename="lists.txt", is_list_line=services.list_line_test(event)
    ).pieces
    outcome = services.intake_lists(event=event, pieces=pieces, actor=organiser)
    return event, items, outcome


def ids(result: dict) -> Counter:
    return Counter(entry["id"] for entry in result["entries"])


def test_every_list_goes_to_its_player_in_order(intake):
    _event, items, outcome = intake
    assert [s.player.name for s in outcome.lists] == [name for name, _b, _e in items]


def test_every_list_written_as_players_write_is_read_as_built(intake):
    _event, items, outcome = intake
    for stored, (name, _body, expected) in zip(outcome.lists, items, strict=True):
        if "built" in expected:
            built = expected["built"]
            assert ids(stored.result["en"]) == Counter(e["id"] for e in built["entries"]), name
            assert stored.result["en"]["faction"] == built["faction"], name


def test_illegal_lists_are_illegal_with_their_finding(intake):
    _event, items, outcome = intake
    for stored, (name, _body, expected) in zip(outcome.lists, items, strict=True):
        if "code" in expected:
            codes = [f["code"] for f in stored.result["en"]["findings"]]
            assert not stored.legal and expected["code"] in codes, (name, codes)


def test_typos_are_corrected_and_said(intake):
    _event, items, outcome = intake
    for stored, (name, _body, expected) in zip(outcome.lists, items, strict=True):
        if expected.get("typo"):
            codes = [f["code"] for f in stored.result["en"]["findings"]]
            assert stored.legal and "NAME_CORRECTED" in codes, (name, codes)


def test_each_verdict_is_the_verdict_of_the_list_pasted_alone(intake):
    event, items, outcome = intake
    for stored, (name, body, _e) in zip(outcome.lists, items, strict=True):
        alone = check_list_text(body, check_options(event))
        assert (stored.legal, stored.spent) == (alone.legal, alone.spent), name


def test_report_csv_has_a_row_per_list(intake):
    event, _items, _outcome = intake
    lists = EventList.objects.filter(player__event=event).select_related("player__team")
    report = event_report(event, lists, lang="en", now=timezone.now())
    rows = list(csv.reader(io.StringIO(report_csv(report, organiser=True))))
    assert len(rows) == 51 and report.summary.lists == 50
    assert report.summary.legal + report.summary.illegal + report.summary.unreadable == 50
