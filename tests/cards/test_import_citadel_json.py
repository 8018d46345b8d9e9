"""`import_cards --source citadel-json`: Citadel's own card file (contracts §5)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.importers.citadel_json import read_citadel_json, read_citadel_json_files
from cards.importers.records import CardImportError
from cards.models import Card, CardVersion, Character, Faction, Scenario
from cards.services import import_card_records
from tests.conftest import REPO_DIR

pytestmark = pytest.mark.django_db

# The minimum document contracts.md §5 says the importer must accept.
CONTRACT_EXAMPLE = {
    "format": "citadel-cards/1",
    "game": "tactics",
    "factions": [
        {"id": "baratheon", "name": {"en": "Baratheon", "fr": "Baratheon"}, "sigils": ["stag"]}
    ],
    "cards": [
        {
            "id": "tac-robert-mounted",
            "kind": "hero",
            "faction": "baratheon",
            "sigil": None,
            "name": {"en": "Robert Baratheon", "fr": "Robert Baratheon"},
            "title": {"en": "Mounted", "fr": "Monté"},
            "character": "robert-baratheon",
            "mounted": True,
            "cost": {"gold": 3, "silver": 1, "copper": 0},
        },
        {
            "id": "tac-robert",
            "kind": "hero",
            "faction": "baratheon",
            "character": "robert-baratheon",
            "name": {"en": "Robert Baratheon"},
            "mounted": False,
            "cost": {"gold": 2, "silver": 0, "copper": 0},
        },
        {
            "id": "tac-guardian",
            "kind": "soldier",
            "faction": "baratheon",
            "name": {"en": "Baratheon Guardians"},
            "cost": {"gold": 0, "silver": 0, "copper": 1},
        },
        {
            "id": "tac-valyrian-steel",
            "kind": "equipment",
            "faction": None,
            "name": {"en": "Valyrian Steel", "fr": "Acier valyrien"},
            "cost": {"gold": 0, "silver": 0, "copper": 2},
            "carriers": ["hero", "champion"],
            "unique": True,
        },
    ],
    "scenarios": [
        {
            "id": "tac-standard",
            "name": {"en": "Standard (3-6-18)"},
            "budget": {"gold": 3, "silver": 6, "copper": 18},
        }
    ],
}

TMG_EXAMPLE = {
    "format": "citadel-cards/1",
    "game": "tmg",
    "factions": [{"id": "stark", "name": {"en": "Stark"}, "warcouncil_code": 2}],
    "cards": [
        {
            "id": "20201",
            "kind": "attachment",
            "faction": "stark",
            "name": {"en": "Robb Stark"},
            "title": {"en": "The Wolf Lord"},
            "characters": ["robb-stark"],
            "commander": True,
            "points": 0,
        },
        {
            "id": "10204",
            "kind": "unit",
            "faction": "stark",
            "name": {"en": "Grey Wind"},
            "points": 3,
            "requirements": "Pet: 'Robb Stark'",
        },
        {
            "id": "40208",
            "kind": "tactics",
            "faction": "stark",
            "name": {"en": "Sudden Retreat"},
            "commander_card": "20201",
        },
    ],
}


def write(path: Path, document: dict | str) -> Path:
    text = document if isinstance(document, str) else json.dumps(document)
    path.write_text(text, encoding="utf-8")
    return path


def load(path: Path):
    return import_card_records(records=read_citadel_json(path), source="citadel-json")


def database_counts() -> tuple[int, ...]:
    return (
        Card.objects.count(),
        CardVersion.objects.count(),
        Faction.objects.count(),
        Character.objects.count(),
        Scenario.objects.count(),
    )


def broken(**changes) -> dict:
    """The contract example with the first card changed."""
    document = copy.deepcopy(CONTRACT_EXAMPLE)
    document["cards"][0].update(changes)
    return document


@pytest.fixture
def imported_example(tmp_path):
    load(write(tmp_path / "example.json", CONTRACT_EXAMPLE))
    return database_counts()


def test_contract_example_imports_every_kind(imported_example):
    kinds = sorted(Card.objects.filter(game="tactics").values_list("kind", flat=True))
    assert kinds == ["equipment", "hero", "hero", "soldier"]


def test_contract_example_mounted_and_foot_share_a_character(imported_example):
    mounted = Card.objects.get(external_id="tac-robert-mounted")
    foot = Card.objects.get(external_id="tac-robert")
    assert mounted.mounted and not foot.mounted
    assert [c.key for c in mounted.characters.all()] == ["robert-baratheon"]
    assert [c.key for c in foot.characters.all()] == ["robert-baratheon"]


def test_contract_example_costs_in_coins(imported_example):
    robert = Card.objects.get(external_id="tac-robert-mounted")
    assert robert.coins() == {"gold": 3, "silver": 1, "copper": 0}


def test_contract_example_equipment_without_faction(imported_example):
    steel = Card.objects.get(external_id="tac-valyrian-steel")
    assert steel.faction is None
    assert (steel.carriers, steel.is_unique, steel.name_fr) == (
        ["hero", "champion"],
        True,
        "Acier valyrien",
    )


def test_contract_example_scenario_budget(imported_example):
    scenario = Scenario.objects.get(game="tactics", slug="tac-standard")
    assert scenario.budget == {"gold": 3, "silver": 6, "copper": 18}
    assert scenario.kind == "scenario"


def test_contract_example_faction_sigil(imported_example):
    faction = Faction.objects.get(game="tactics", slug="baratheon")
    assert [s.slug for s in faction.sigils.all()] == ["stag"]


def test_import_twice_changes_nothing(imported_example, tmp_path):
    summary = load(write(tmp_path / "again.json", CONTRACT_EXAMPLE))
    assert not summary.changed
    assert summary.counts["Card"].unchanged == 4
    assert database_counts() == imported_example


def test_import_unknown_extra_fields_are_kept(tmp_path):
    document = broken(notes="inferred", rarity={"level": 3})
    document["shiny"] = True
    load(write(tmp_path / "extra.json", document))
    robert = Card.objects.get(external_id="tac-robert-mounted")
    assert robert.extra["unknown"] == {"notes": "inferred", "rarity": {"level": 3}}


def test_import_tmg_requirement_string_is_parsed_and_resolved(tmp_path):
    load(write(tmp_path / "tmg.json", TMG_EXAMPLE))
    (record,) = Card.objects.get(game="tmg", external_id="10204").requirements
    assert record["type"] == "pet_of"
    assert record["ref"]["cards"] == ["20201"]


def test_import_tmg_tactics_card_links_its_commander(tmp_path):
    load(write(tmp_path / "tmg.json", TMG_EXAMPLE))
    tactics = Card.objects.get(game="tmg", external_id="40208")
    assert tactics.commander_card.external_id == "20201"


def test_import_requirement_naming_nothing_fails_with_the_card(tmp_path):
    document = copy.deepcopy(TMG_EXAMPLE)
    document["cards"][1]["requirements"] = "Pet: 'Nymeria Stark'"
    with pytest.raises(CardImportError) as error:
        load(write(tmp_path / "tmg.json", document))
    assert "10204" in str(error.value) and "Nymeria Stark" in str(error.value)
    assert Card.objects.count() == 0


def test_import_several_files_as_one(tmp_path):
    tmg = write(tmp_path / "tmg.json", TMG_EXAMPLE)
    tactics = write(tmp_path / "tactics.json", CONTRACT_EXAMPLE)
    records = read_citadel_json_files([tmg, tactics])
    import_card_records(records=records, source="citadel-json")
    assert Card.objects.filter(game="tmg").count() == 3
    assert Card.objects.filter(game="tactics").count() == 4


def test_import_missing_prose_keeps_stored_text(tmp_path):
    document = copy.deepcopy(TMG_EXAMPLE)
    document["cards"][2]["text"] = {"en": "Target the Defender.", "fr": ""}
    load(write(tmp_path / "full.json", document))
    load(write(tmp_path / "stats.json", TMG_EXAMPLE))
    assert Card.objects.get(external_id="40208").text_en == "Target the Defender."


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ("{not json", "bad.json row 1: invalid JSON"),
        (broken(kind="lord"), "bad.json cards[0] (tac-robert-mounted): unknown kind 'lord'"),
        (
            broken(cost={"gold": -1, "silver": 0, "copper": 0}),
            "bad.json cards[0] (tac-robert-mounted): negative gold cost -1",
        ),
        (
            broken(cost={"gold": "three", "silver": 0, "copper": 0}),
            "bad.json cards[0] (tac-robert-mounted): non-numeric gold cost 'three'",
        ),
        (
            broken(requirements=[{"type": "bribe", "amount": 3}]),
            "bad.json cards[0] (tac-robert-mounted): unknown requirement type 'bribe'",
        ),
        (
            broken(requirements="Bribe: 3"),
            "bad.json cards[0] (tac-robert-mounted): unknown directive 'Bribe'",
        ),
        (broken(name=None), "bad.json cards[0] (tac-robert-mounted): missing field 'name'"),
        ({"format": "other/2"}, "bad.json: 'format' must be 'citadel-cards/1'"),
    ],
    ids=[
        "invalid-json",
        "unknown-kind",
        "negative-cost",
        "non-numeric-cost",
        "unknown-requirement-type",
        "unknown-requirement-directive",
        "missing-name",
        "wrong-format",
    ],
)
def test_import_malformed_file_fails_and_keeps_data(imported_example, tmp_path, document, reason):
    bad = write(tmp_path / "bad.json", document)
    with pytest.raises(CardImportError) as error:
        load(bad)
    assert str(error.value).startswith(reason)
    assert database_counts() == imported_example


def test_import_unknown_faction_rolls_back_everything(imported_example, tmp_path):
    document = copy.deepcopy(CONTRACT_EXAMPLE)
    document["cards"].append(
        {"id": "tac-new", "kind": "soldier", "faction": "stark", "name": "New Soldier"}
    )
    document["factions"][0]["name"] = {"en": "Renamed"}
    with pytest.raises(CardImportError, match="unknown faction 'stark'"):
        load(write(tmp_path / "bad.json", document))
    assert database_counts() == imported_example
    assert Faction.objects.get(game="tactics", slug="baratheon").name_en == "Baratheon"


def test_import_command_prints_summary_table(tmp_path, capsys):
    call_command(
        "import_cards", "--source", "citadel-json", str(write(tmp_path / "ok.json", TMG_EXAMPLE))
    )
    out = capsys.readouterr().out
    assert "created  updated  unchanged" in out
    assert any(line.split() == ["Card", "3", "0", "0"] for line in out.splitlines())


def test_import_command_bad_file_raises_command_error_with_status_2(imported_example, tmp_path):
    bad = write(tmp_path / "bad.json", broken(kind="lord"))
    with pytest.raises(CommandError) as error:
        call_command("import_cards", "--source", "citadel-json", str(bad))
    assert error.value.returncode == 2
    assert str(error.value) == (
        "import_cards: bad.json cards[0] (tac-robert-mounted): unknown kind 'lord'"
    )
    assert database_counts() == imported_example


def test_import_command_bad_file_exits_2_with_one_line(tmp_path):
    bad = write(tmp_path / "bad.json", "{not json")
    # A real process, for the real exit status; the file fails before any database access.
    environment = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}
    command = ["import_cards", "--source", "citadel-json", "--no-progress", str(bad)]
    result = subprocess.run(
        [sys.executable, str(REPO_DIR / "manage.py"), *command],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("CommandError: import_cards: bad.json row 1: invalid JSON")


def test_tactics_figure_whose_kind_contradicts_its_cost_fails_the_import(tmp_path):
    document = {
        "format": "citadel-cards/1",
        "game": "tactics",
        "factions": [{"id": "baratheon", "name": {"en": "Baratheon"}}],
        "cards": [
            {
                "id": "tac-bad",
                "kind": "soldier",
                "faction": "baratheon",
                "name": {"en": "Gilded Soldier"},
                "cost": {"gold": 1, "silver": 0, "copper": 0},
            }
        ],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CardImportError, match="that cost makes a hero"):
        read_citadel_json(path)
