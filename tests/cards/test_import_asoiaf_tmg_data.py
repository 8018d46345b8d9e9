"""`import_cards --source asoiaf-tmg-data`: the community data set from ../shared."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from cards.importers.asoiaf_tmg_data import read_asoiaf_tmg_data
from cards.importers.records import CardImportError
from cards.models import Card, CardVersion
from cards.services import import_card_records

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]

KINDS = ("unit", "ncu", "attachment", "tactics", "special")


def count_cards_in_files(root: Path) -> Counter:
    """(kind, faction) -> cards, read straight from the files: the en JSON lists plus the
    rules.csv cards the JSON lacks. Independent of the importer on purpose."""
    counts: Counter = Counter()
    json_ids = set()
    for path in sorted((root / "data" / "en").glob("*.json")):
        if path.name == "abilities.json":
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        for kind in KINDS:
            for card in document.get(kind, []):
                counts[(kind, card.get("faction"))] += 1
                json_ids.add(card["id"])
    rules = (root / "data" / "warcouncil" / "rules.csv").read_text(encoding="utf-8-sig")
    for row in csv.DictReader(io.StringIO(rules)):
        if row["Id"] not in json_ids:
            slug = "".join(ch for ch in row["Faction"].lower() if ch.isalpha())
            counts[("special", slug)] += 1
    return counts


@pytest.fixture(scope="module")
def community_import(django_db_setup, django_db_blocker, community_data_dir):
    """One import for the whole module, rolled back when the module is done."""
    with django_db_blocker.unblock(), transaction.atomic():
        records = read_asoiaf_tmg_data(community_data_dir)
        summary = import_card_records(records=records, source="asoiaf-tmg-data")
        yield summary
        transaction.set_rollback(True)


def card(external_id: str) -> Card:
    return Card.objects.get(game="tmg", external_id=external_id)


def copy_data(source: Path, target: Path) -> Path:
    """A writable copy of the data set (the shared one is read-only)."""
    for path in source.rglob("*"):
        if path.is_file():
            copy = target / path.relative_to(source)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(path.read_bytes())
    return target


def edit_csv_cell(path: Path, card_id: str, column: str, value: str) -> int:
    """Set one cell of the row holding `card_id`; returns its row number (header = row 1)."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    number = next(i for i, row in enumerate(rows) if row[header.index("Id")] == card_id)
    rows[number][header.index(column)] = value
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return number + 1


def test_import_card_counts_match_the_files_per_kind_and_faction(
    community_import, community_data_dir
):
    expected = count_cards_in_files(community_data_dir)
    imported = Counter(
        (kind, faction) for kind, faction in Card.objects.values_list("kind", "faction__slug")
    )
    assert imported == expected


def test_import_card_total_is_901(community_import):
    assert Card.objects.filter(game="tmg").count() == 901
    assert community_import.counts["Card"].created == 901


def test_import_again_changes_nothing(community_import, community_data_dir):
    stamps = dict(Card.objects.values_list("pk", "updated_at"))
    records = read_asoiaf_tmg_data(community_data_dir)
    summary = import_card_records(records=records, source="asoiaf-tmg-data")
    assert not summary.changed
    assert all(created == updated == 0 for _model, created, updated, _n in summary.rows())
    assert dict(Card.objects.values_list("pk", "updated_at")) == stamps


def test_import_french_name_from_french_json(community_import):
    assert card("10201").name_fr == "Épées Liges Stark"


def test_import_french_title_from_french_json(community_import):
    assert card("20201").title_fr == "Le Seigneur Loup"


def test_import_french_name_falls_back_to_french_csv(community_import):
    # 20420 is missing from the French JSON; attachments.fr.csv has "Name, Title".
    arya = card("20420")
    assert (arya.name_fr, arya.title_fr) == ("Arya Stark", "Princesse Fugitive")


def test_import_french_attack_name(community_import):
    assert card("10201").attacks[0]["name_fr"] == "Morsure de l'Hiver"


def test_import_character_key_for_robb_stark(community_import):
    assert [c.key for c in card("20201").characters.all()] == ["robb-stark"]


def test_import_kingsguard_has_several_characters(community_import):
    keys = {c.key for c in card("10110").characters.all()}
    assert {"jaime-lannister", "barristan-selmy"} <= keys
    assert len(keys) == 7


def test_import_character_unit_without_csv_character_is_its_own_character(community_import):
    # Stone Crows: `character: true` in the JSON, empty Character column.
    assert [c.key for c in card("10116").characters.all()] == ["stone-crows"]


def test_import_commander_attachments_cost_zero_points(community_import):
    commanders = Card.objects.filter(kind="attachment", is_commander=True)
    assert commanders.count() == 82
    assert set(commanders.values_list("points", flat=True)) == {0}


def test_import_commander_units_keep_their_printed_cost(community_import):
    varamyr, doran = card("10318"), card("30901")
    assert (varamyr.is_commander, varamyr.points) == (True, 2)
    assert (doran.is_commander, doran.points) == (True, 4)


def test_import_free_pet_takes_the_csv_cost(community_import):
    assert card("10310").points == 0


def test_import_tactics_card_links_to_its_commander(community_import):
    assert card("40208").commander_card == card("20201")


def test_import_every_commander_tactics_card_is_linked(community_import):
    tactics = Card.objects.filter(kind="tactics", commander_card__isnull=False)
    assert tactics.count() == 270
    assert not tactics.filter(commander_card__is_commander=False).exists()


def test_import_tactics_card_replaces_basic_card(community_import):
    assert card("40710").replaces == card("40702")


def test_import_commander_keeps_its_tactics_list(community_import):
    assert card("20201").extra["tactics"] == ["40208", "40209", "40210"]


def test_import_unit_type_and_tray(community_import):
    scorpion = card("10506")
    assert (scorpion.unit_type, scorpion.tray) == ("war_machine", "war_machine")


def test_import_pet_of_requirement_resolves_its_owner(community_import):
    (record,) = card("10204").requirements  # Grey Wind
    assert record["type"] == "pet_of"
    assert record["ref"]["name"] == "Robb Stark"
    assert "20201" in record["ref"]["cards"]
    assert record["ref"]["characters"] == ["robb-stark"]


def test_import_copy_limit_requirement(community_import):
    assert card("10312").requirements == [{"type": "copy_limit", "max": 2, "ignore": []}]


def test_import_faction_ref_is_not_resolved_to_cards(community_import):
    not_with = [r for r in card("21107").requirements if r["type"] == "not_with"]
    assert {"faction": "bolton"} in [ref for r in not_with for ref in r["refs"]]


def test_import_rules_card_gets_faction_rules(community_import):
    assert card("50300").requirements[0]["type"] == "no_neutrals"


def test_import_loyalty_from_commander_ability(community_import):
    assert {"type": "loyalty", "to": "stannis-baratheon"} in card("20602").requirements


def test_import_game_specials_have_no_faction(community_import):
    board = card("default-tactics-board")
    assert (board.kind, board.faction) == ("special", None)


def test_import_ability_text_is_stored(community_import):
    ability = card("20201").abilities.get(key="order-tactical-reposition")
    assert ability.trigger_en and ability.text_en and ability.name_fr.startswith("Ordre")


def test_import_search_text_holds_names_and_abilities(community_import):
    text = card("20201").search_text
    assert "robb stark" in text and "regroup" in text


def test_import_changed_version_label_records_card_version_in_place(
    community_import, community_data_dir
):
    pk = card("10201").pk
    records = read_asoiaf_tmg_data(community_data_dir)
    record = next(r for r in records.cards if r.external_id == "10201")
    record.version, record.points = "S99", 6
    summary = import_card_records(records=records, source="asoiaf-tmg-data")
    updated = card("10201")
    assert updated.pk == pk
    assert (updated.version, updated.points) == ("S99", 6)
    assert summary.counts["Card"].updated == 1
    versions = dict(CardVersion.objects.filter(card=updated).values_list("version", "stats"))
    assert set(versions) == {"S06", "S99"}
    assert versions["S99"]["points"] == 6
    assert versions["S06"]["points"] == 5


def test_import_first_import_records_one_version_per_card(community_import):
    assert CardVersion.objects.count() == 901


def test_import_unknown_requirement_directive_names_file_and_row(
    community_import, community_data_dir, tmp_path
):
    data = copy_data(community_data_dir / "data", tmp_path / "data")
    row = edit_csv_cell(data / "warcouncil" / "units.csv", "10312", "Requirements", "Foo: 1")
    with pytest.raises(CardImportError) as error:
        read_asoiaf_tmg_data(tmp_path)
    assert str(error.value) == f"units.csv row {row}: unknown requirement directive 'Foo: 1'"


def test_import_command_bad_data_exits_2_and_leaves_database_unchanged(
    community_import, community_data_dir, tmp_path
):
    data = copy_data(community_data_dir / "data", tmp_path / "data")
    row = edit_csv_cell(data / "warcouncil" / "units.csv", "10310", "Cost", "abc")
    before = Card.objects.count(), CardVersion.objects.count()
    with pytest.raises(CommandError) as error:
        call_command("import_cards", "--source", "asoiaf-tmg-data", str(tmp_path))
    assert error.value.returncode == 2
    assert str(error.value) == f"import_cards: units.csv row {row}: non-numeric cost 'abc'"
    assert (Card.objects.count(), CardVersion.objects.count()) == before


def test_import_missing_column_names_the_file(community_data_dir, tmp_path):
    data = copy_data(community_data_dir / "data", tmp_path / "data")
    ncus = data / "warcouncil" / "ncus.csv"
    ncus.write_text(ncus.read_text(encoding="utf-8-sig").replace("Id,", "Ident,", 1), "utf-8")
    with pytest.raises(CardImportError) as error:
        read_asoiaf_tmg_data(tmp_path)
    assert str(error.value) == "ncus.csv row 1: missing column 'Id'"


def lines_without_source(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.lstrip().startswith('"source"')]


def test_export_stats_only_reproduces_the_shipped_snapshot(community_import, tmp_path):
    # Fails when the importer (or the requirement / faction-rule tables) changed and the
    # snapshot was not regenerated: see docs/data-import.md.
    out = tmp_path / "snapshot.json"
    call_command("export_cards", "--game", "tmg", "--stats-only", str(out))
    shipped = Path(__file__).resolve().parents[2] / "cards" / "data" / "tmg-cards-snapshot.json"
    assert lines_without_source(out.read_text("utf-8")) == lines_without_source(
        shipped.read_text("utf-8")
    )


def test_export_with_text_includes_ability_and_tactics_text(community_import, tmp_path):
    out = tmp_path / "full.json"
    call_command("export_cards", "--game", "tmg", str(out))
    document = json.loads(out.read_text("utf-8"))
    tactics = next(c for c in document["cards"] if c["id"] == "40208")
    ability = next(a for a in document["abilities"] if a["key"] == "order-tactical-reposition")
    assert tactics["trigger"]["en"] and tactics["text"]["fr"]
    assert ability["text"]["en"] and ability["trigger"]["en"]
