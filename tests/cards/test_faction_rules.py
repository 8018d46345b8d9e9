"""The faction / special rules-card table (cards/data/faction_rules.json)."""

import csv
import json
from pathlib import Path

import pytest

from cards.faction_rules import (
    DATA_FILE,
    FACTION_RULE_TYPES,
    FactionRulesError,
    UnknownRulesCard,
    army_rules_for_faction,
    describe_rule,
    load_faction_rules,
    rules_for_card,
    validate_faction_rules,
)
from cards.normalise import fold
from cards.requirements import faction_slug, parse_requirements

RULES_CARD_IDS = [
    "50101",
    "50201",
    "50300",
    "50301",
    "50302",
    "50601",
    "50701",
    "50801",
    "50900",
    "50901",
    "50902",
    "50903",
    "51001",
    "51002",
    "51101",
    "51102",
]
ALL_RECORDS = [record for records in load_faction_rules().values() for record in records]


def _rules_csv(data_dir: Path) -> list[dict[str, str]]:
    with (data_dir / "data" / "warcouncil" / "rules.csv").open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _records_of(card_id: str, kind: str) -> list[dict]:
    return [r for r in rules_for_card(card_id) if r["type"] == kind]


# --------------------------------------------------------------------------- table shape


def test_table_keys_are_the_sixteen_rules_cards():
    assert sorted(load_faction_rules()) == RULES_CARD_IDS


@pytest.mark.shared_data
def test_every_rules_csv_id_has_an_entry(community_data_dir):
    ids = {row["Id"] for row in _rules_csv(community_data_dir)}
    assert ids <= set(load_faction_rules())


@pytest.mark.shared_data
def test_table_has_no_id_missing_from_rules_csv(community_data_dir):
    ids = {row["Id"] for row in _rules_csv(community_data_dir)}
    assert set(load_faction_rules()) <= ids


@pytest.mark.shared_data
def test_record_faction_matches_rules_csv_faction(community_data_dir):
    expected = {row["Id"]: faction_slug(row["Faction"]) for row in _rules_csv(community_data_dir)}
    assert {r["rule_card"]: r["faction"] for r in ALL_RECORDS} == expected


@pytest.mark.parametrize(
    "record", ALL_RECORDS, ids=[f"{r['rule_card']}-{r['type']}" for r in ALL_RECORDS]
)
def test_every_record_has_known_type(record):
    assert record["type"] in FACTION_RULE_TYPES


def test_table_passes_validation():
    validate_faction_rules(load_faction_rules())


def test_validation_rejects_unknown_type():
    table = {"50300": [{"type": "teleport", "scope": "army", "rule_card": "50300"}]}
    with pytest.raises(FactionRulesError, match="teleport"):
        validate_faction_rules(table)


def test_validation_rejects_record_with_missing_field():
    table = {"51001": [{"type": "prefer_faction_version", "scope": "army", "rule_card": "51001"}]}
    with pytest.raises(FactionRulesError, match="over"):
        validate_faction_rules(table)


def test_validation_rejects_mismatched_rule_card():
    record = {"type": "no_neutrals", "scope": "army", "rule_card": "50301", "faction": "freefolk"}
    with pytest.raises(FactionRulesError, match="rule_card"):
        validate_faction_rules({"50300": [record]})


def test_game_effects_carry_notes_in_both_languages():
    effects = [r for r in ALL_RECORDS if r["type"] == "game_effect"]
    assert effects and all(r["note_en"] and r["note_fr"] for r in effects)


@pytest.mark.shared_data
def test_notes_share_no_long_passage_with_card_text(community_data_dir):
    card_text = " ".join(
        fold(row["Text"] + " " + row["Back"]) for row in _rules_csv(community_data_dir)
    )
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    notes = [fold(r["note_en"]) for records in raw.values() for r in records if "note_en" in r]
    window = 40
    copied = [
        note[i : i + window]
        for note in notes
        for i in range(max(0, len(note) - window + 1))
        if note[i : i + window] in card_text
    ]
    assert copied == []


# --------------------------------------------------------------------------- lookups


def test_rules_for_card_unknown_id_raises():
    with pytest.raises(UnknownRulesCard, match="59999"):
        rules_for_card("59999")


def test_rules_for_card_returns_independent_copy():
    rules_for_card("50300")[0]["type"] = "changed"
    assert rules_for_card("50300")[0]["type"] == "no_neutrals"


def test_load_faction_rules_returns_independent_copy():
    load_faction_rules()["50300"].clear()
    assert load_faction_rules()["50300"]


@pytest.mark.shared_data
def test_every_linked_rules_card_is_in_table(community_data_dir):
    linked = set()
    for name in ("units.csv", "attachments.csv", "ncus.csv"):
        path = community_data_dir / "data" / "warcouncil" / name
        with path.open(newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                records = parse_requirements(row.get("Requirements") or "", card_id=row["Id"])
                linked.update(r["card"] for r in records if r["type"] == "rules_card")
    assert linked and all(rules_for_card(card_id) for card_id in linked)


def test_army_rules_for_faction_brotherhood_gives_three_army_records():
    types = [r["type"] for r in army_rules_for_faction("brotherhood")]
    assert types == ["attachment_discount", "faction_allowance", "conditional_exclusion"]


def test_army_rules_for_faction_skips_in_game_effects():
    assert all(r["scope"] == "army" for r in army_rules_for_faction("martell"))


def test_army_rules_for_faction_without_rules_gives_empty_list():
    assert army_rules_for_faction("lannister") == []


# --------------------------------------------------------------------------- content


def test_free_folk_forbids_neutrals():
    assert rules_for_card("50300") == [
        {"type": "no_neutrals", "scope": "army", "rule_card": "50300", "faction": "freefolk"}
    ]


def test_brotherhood_discounts_one_attachment_by_one():
    (record,) = _records_of("51101", "attachment_discount")
    assert (record["amount"], record["count"], record["scope"]) == (1, 1, "army")


def test_brotherhood_allows_one_baratheon_or_stark_unit():
    (record,) = _records_of("51101", "faction_allowance")
    assert (record["factions"], record["kinds"], record["count"], record["counts_as_faction"]) == (
        ["baratheon", "stark"],
        ["unit"],
        1,
        True,
    )


def test_bolton_prefers_faction_version_over_neutral():
    (record,) = _records_of("51001", "prefer_faction_version")
    assert (record["over"], record["scope"]) == ("neutral", "army")


def test_mag_commander_costs_five_and_replaces_deck():
    (record,) = _records_of("50301", "optional_commander")
    assert (
        record["commander"],
        record["points"],
        record["discount_per_unused_attachment_point"],
        record["replaces_tactics_deck"],
    ) == ({"name": "Mag the Mighty"}, 5, 1, True)


def test_varamyr_commander_costs_two_and_needs_his_beasts():
    (record,) = _records_of("50302", "optional_commander")
    assert (record["points"], record["requires"]) == (
        2,
        [{"name": "Shadowcat"}, {"name": "Wolf Pack"}],
    )


def test_doran_commander_keeps_cost_and_areo_stands_in():
    (record,) = _records_of("50901", "optional_commander")
    areo = {"name": "Areo Hotah", "title": "Captain of the Guard"}
    assert (record["points"], record["requires"], record["battlefield_commander"]) == (
        None,
        [areo],
        areo,
    )


def test_unending_vengeance_excludes_bolton_when_catelyn_present():
    (record,) = _records_of("51102", "conditional_exclusion")
    assert record["when_present"] == {"name": "Catelyn Stark"}
    assert {"faction": "bolton"} in record["refs"]


@pytest.mark.parametrize(
    "card_id", ["50101", "50201", "50601", "50701", "50801", "50900", "50902", "50903", "51002"]
)
def test_in_game_cards_have_only_game_effects(card_id):
    assert {r["type"] for r in rules_for_card(card_id)} == {"game_effect"}


# --------------------------------------------------------------------------- describe


@pytest.mark.parametrize(
    "record", ALL_RECORDS, ids=[f"{r['rule_card']}-{r['type']}" for r in ALL_RECORDS]
)
def test_describe_rule_english_and_french_differ(record):
    english, french = describe_rule(record, "en"), describe_rule(record, "fr")
    assert english and french and english != french


def test_describe_rule_unknown_type_raises():
    with pytest.raises(FactionRulesError):
        describe_rule({"type": "teleport"})
