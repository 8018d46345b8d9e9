"""The shipped stats-only snapshot `cards/data/tmg-cards-snapshot.json` (no ../shared needed)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import transaction

from cards.importers.citadel_json import PROSE_KEYS, read_citadel_json
from cards.models import Ability, Card
from cards.services import import_card_records
from tests.conftest import REPO_DIR

pytestmark = pytest.mark.django_db

SNAPSHOT = REPO_DIR / "cards" / "data" / "tmg-cards-snapshot.json"
EXPECTED_KINDS = {"unit": 150, "ncu": 95, "attachment": 283, "tactics": 347, "special": 26}


@pytest.fixture(scope="module")
def snapshot_import(django_db_setup, django_db_blocker):
    """The snapshot imported once for the module, rolled back afterwards."""
    with django_db_blocker.unblock(), transaction.atomic():
        summary = import_card_records(records=read_citadel_json(SNAPSHOT), source="citadel-json")
        yield summary
        transaction.set_rollback(True)


def prose_paths(value, path: str = "") -> list[str]:
    """JSON paths of every non-empty prose value."""
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            if key in PROSE_KEYS and child not in (None, "", [], {}):
                found.append(f"{path}.{key}")
            found += prose_paths(child, f"{path}.{key}")
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found += prose_paths(child, f"{path}[{i}]")
    return found


def without_source_line(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.lstrip().startswith('"source"')]


def test_snapshot_loads_901_tmg_cards(snapshot_import):
    assert Card.objects.filter(game="tmg").count() == 901
    assert snapshot_import.counts["Card"].created == 901


def test_snapshot_card_counts_per_kind(snapshot_import):
    kinds = Counter(Card.objects.filter(game="tmg").values_list("kind", flat=True))
    assert kinds == EXPECTED_KINDS


def test_snapshot_cards_carry_no_text(snapshot_import):
    cards = Card.objects.exclude(text_en="", text_fr="", trigger_en="", trigger_fr="")
    assert not cards.exists()


def test_snapshot_abilities_carry_names_but_no_text(snapshot_import):
    assert Ability.objects.exclude(name_en="").count() == Ability.objects.count()
    assert not Ability.objects.exclude(
        text_en="", text_fr="", trigger_en="", trigger_fr=""
    ).exists()


def test_snapshot_file_has_no_prose_fields():
    document = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert prose_paths(document) == []


def test_snapshot_keeps_stats_and_french_names(snapshot_import):
    robb = Card.objects.get(game="tmg", external_id="20201")
    assert (robb.name_fr, robb.is_commander, robb.points) == ("Robb Stark", True, 0)
    assert [c.key for c in robb.characters.all()] == ["robb-stark"]


def test_snapshot_matches_a_fresh_export(snapshot_import, tmp_path):
    out = tmp_path / "export.json"
    call_command("export_cards", "--game", "tmg", "--stats-only", str(out))
    exported = out.read_text(encoding="utf-8")
    assert without_source_line(exported) == without_source_line(
        SNAPSHOT.read_text(encoding="utf-8")
    )


def test_snapshot_import_twice_changes_nothing(snapshot_import):
    summary = import_card_records(records=read_citadel_json(SNAPSHOT), source="citadel-json")
    assert not summary.changed
