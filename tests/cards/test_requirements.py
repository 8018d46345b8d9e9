"""The War Council `Requirements` mini-language parser and the printed-tag parser."""

import csv
from pathlib import Path

import pytest

from cards.requirements import (
    DIRECTIVE_TYPES,
    RECORD_TYPES,
    NameRef,
    RequirementSyntaxError,
    UnknownRecordType,
    describe,
    parse_directives,
    parse_printed_restrictions,
    parse_ref,
    parse_requirements,
    record_from_dict,
)
from cards.requirements.records import CopyLimit, Requires
from tests.conftest import COMMUNITY_DATA_DIR

WARCOUNCIL = Path("data") / "warcouncil"
REQUIREMENT_FILES = ("units.csv", "attachments.csv", "ncus.csv")


def _rows(data_dir: Path, name: str) -> list[dict[str, str]]:
    with (data_dir / WARCOUNCIL / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _row(data_dir: Path, name: str, card_id: str) -> dict[str, str]:
    return next(row for row in _rows(data_dir, name) if row["Id"] == card_id)


def _distinct_cells() -> list[tuple[str, str]]:
    """(first card id, cell) for every distinct non-empty Requirements cell, at collection."""
    if not (COMMUNITY_DATA_DIR / WARCOUNCIL).exists():
        return []
    cells: dict[str, str] = {}
    for name in REQUIREMENT_FILES:
        for row in _rows(COMMUNITY_DATA_DIR, name):
            cell = row.get("Requirements") or ""
            if cell.strip():
                cells.setdefault(cell, row["Id"])
    return [(card_id, cell) for cell, card_id in cells.items()]


DISTINCT_CELLS = _distinct_cells()


# --------------------------------------------------------------------------- empty input


def test_parse_requirements_empty_cell_gives_no_records():
    assert parse_requirements("") == []


def test_parse_requirements_whitespace_cell_gives_no_records():
    assert parse_requirements("  \n \t ") == []


# --------------------------------------------------------------------------- one per directive


def test_requires_single_name_gives_all_mode():
    assert parse_requirements("Requires: 'Tyrion Lannister'") == [
        {"type": "requires", "refs": [{"name": "Tyrion Lannister"}], "mode": "all"}
    ]


def test_requires_two_names_without_text_defaults_to_all():
    records = parse_requirements("Requires: 'Qyburn', 'Tommen Baratheon, Next in Succession'")
    assert records[0]["mode"] == "all"


def test_requires_two_names_joined_by_or_in_text_gives_any():
    records = parse_requirements(
        "Requires: 'Eddard Stark', 'Arya Stark, The Wolf Girl'",
        requirement_text="Needs Eddard Stark or Arya Stark, The Wolf Girl alongside.",
    )
    assert records[0]["mode"] == "any"


def test_requires_two_names_joined_by_and_in_text_gives_all():
    records = parse_requirements(
        "Requires: 'Qyburn', 'Tommen Baratheon'",
        requirement_text="Needs both Qyburn and Tommen Baratheon.",
    )
    assert records[0]["mode"] == "all"


def test_requires_quoted_title_becomes_title_field():
    records = parse_requirements("Requires: 'Qyburn', 'Tommen Baratheon, Next in Succession'")
    assert records[0]["refs"] == [
        {"name": "Qyburn"},
        {"name": "Tommen Baratheon", "title": "Next in Succession"},
    ]


def test_not_with_name_gives_name_ref():
    assert parse_requirements("Not: 'Lord Varys'") == [
        {"type": "not_with", "refs": [{"name": "Lord Varys"}]}
    ]


def test_not_with_house_name_gives_faction_ref():
    assert parse_requirements("Not: 'House Bolton'") == [
        {"type": "not_with", "refs": [{"faction": "bolton"}]}
    ]


def test_pet_of_gives_owner_ref():
    assert parse_requirements("Pet: 'Robb Stark'") == [
        {"type": "pet_of", "ref": {"name": "Robb Stark"}}
    ]


def test_rules_card_gives_card_id():
    assert parse_requirements("Rules: 50101") == [{"type": "rules_card", "card": "50101"}]


def test_controls_gives_card_id():
    assert parse_requirements("Controls: 20330") == [{"type": "controls", "card": "20330"}]


def test_controlled_single_id_gives_list():
    assert parse_requirements("Controlled: 30901") == [
        {"type": "controlled_by", "cards": ["30901"]}
    ]


def test_controlled_several_ids_keeps_all():
    assert parse_requirements("Controlled: 30901,30902") == [
        {"type": "controlled_by", "cards": ["30901", "30902"]}
    ]


def test_add_gives_card_id():
    assert parse_requirements("Add: 10319") == [{"type": "adds", "card": "10319"}]


def test_copy_limit_without_space_gives_max():
    assert parse_requirements("Limited:2") == [{"type": "copy_limit", "max": 2, "ignore": []}]


def test_copy_limit_with_space_gives_max():
    assert parse_requirements("Limited: 2") == [{"type": "copy_limit", "max": 2, "ignore": []}]


def test_copy_limit_with_inline_ignore_fills_ignore_refs():
    assert parse_requirements("Limited:2 Ignore:'Scorpion Modifications (Othell Yarwyck)'") == [
        {
            "type": "copy_limit",
            "max": 2,
            "ignore": [{"name": "Scorpion Modifications (Othell Yarwyck)"}],
        }
    ]


def test_ignore_without_limited_raises():
    with pytest.raises(RequirementSyntaxError, match="Ignore"):
        parse_requirements("Ignore:'Scorpion Modifications (Othell Yarwyck)'")


def test_copy_limit_per_unit_type_gives_per_ref():
    assert parse_requirements("Limited: 'Golden Company' Infantry") == [
        {
            "type": "copy_limit_per",
            "max_per": 1,
            "per": {"name": "Golden Company"},
            "unit_type": "infantry",
        }
    ]


def test_ignores_limit_bare_has_no_host_condition():
    assert parse_requirements("Ignores Limit") == [
        {"type": "ignores_attachment_limit", "when_host_has": None}
    ]


def test_ignores_limit_with_name_sets_host_condition():
    assert parse_requirements("Ignores Limit: 'Grenn'") == [
        {"type": "ignores_attachment_limit", "when_host_has": {"name": "Grenn"}}
    ]


def test_reduce_if_attached_to_defaults_to_one():
    assert parse_requirements("ReduceIfAttachedTo:10116") == [
        {
            "type": "cost_reduction",
            "amount": 1,
            "when_attached_to": {"card": "10116"},
            "when_present": None,
            "free": False,
            "first_only": False,
        }
    ]


def test_reduce_if_present_gives_present_ref():
    record = parse_requirements("ReduceIfPresent: 'Cersei Lannister'")[0]
    assert (record["when_present"], record["when_attached_to"], record["amount"]) == (
        {"name": "Cersei Lannister"},
        None,
        1,
    )


def test_reduce_if_present_reads_amount_from_text():
    record = parse_requirements(
        "ReduceIfPresent: 'Cersei Lannister'",
        requirement_text="With Cersei around, reduce its cost by 2.",
    )[0]
    assert record["amount"] == 2


def test_reduce_if_present_first_free_text_sets_free_and_first_only():
    record = parse_requirements(
        "ReduceIfPresent: 'The High Sparrow'",
        requirement_text="With the Sparrow, the first of these you take is free.",
    )[0]
    assert (record["free"], record["first_only"]) == (True, True)


def test_solo_gives_flag():
    assert parse_requirements("Solo") == [{"type": "solo"}]


def test_fielded_by_skinchanger_gives_ability_slug():
    assert parse_requirements("Fielded by Skinchanger") == [
        {"type": "fielded_by_ability", "ability": "skinchanger"}
    ]


def test_faction_targaryen_gives_host_faction():
    assert parse_requirements("Faction: Targaryen") == [
        {"type": "host_faction", "faction": "targaryen"}
    ]


def test_faction_multiword_name_gives_slug():
    assert parse_requirements("Faction: Night's Watch") == [
        {"type": "host_faction", "faction": "nightswatch"}
    ]


def test_faction_unknown_name_raises():
    with pytest.raises(RequirementSyntaxError, match="Tully"):
        parse_requirements("Faction: Tully")


def test_attaches_to_gives_unit_refs():
    assert parse_requirements("Attaches to: 'Builder Scorpion Crew'") == [
        {"type": "must_attach_to", "refs": [{"name": "Builder Scorpion Crew"}]}
    ]


def test_attached_to_class_gives_class_slug():
    assert parse_requirements("Attached to class: 'Ranger'") == [
        {"type": "host_class", "class": "ranger"}
    ]


def test_fake_commander_gives_acts_as_commander():
    assert parse_requirements("FakeCommander") == [{"type": "acts_as_commander"}]


def test_bartards_boy_gives_first_free_group():
    assert parse_requirements("BartardsBoy") == [{"type": "first_free", "group": "bastards-boys"}]


# --------------------------------------------------------------------------- cell layout


def test_multiline_cell_keeps_line_order():
    records = parse_requirements("FakeCommander\nControlled: 30901\nRules: 50901")
    assert [r["type"] for r in records] == ["acts_as_commander", "controlled_by", "rules_card"]


def test_two_bare_directives_on_one_line_both_parsed():
    assert parse_requirements("Limited:2 Solo") == [
        {"type": "copy_limit", "max": 2, "ignore": []},
        {"type": "solo"},
    ]


def test_windows_line_endings_parse():
    assert [r["type"] for r in parse_requirements("Limited:2\r\nSolo")] == ["copy_limit", "solo"]


def test_quoted_name_with_inner_apostrophe_is_kept_whole():
    assert parse_requirements("Requires: 'Varamyr's Eagle'")[0]["refs"] == [
        {"name": "Varamyr's Eagle"}
    ]


def test_quoted_name_ending_in_apostrophe_is_kept_whole():
    assert parse_requirements("Pet: 'Bolton Bastards' Girls'")[0]["ref"] == {
        "name": "Bolton Bastards' Girls"
    }


def test_quoted_list_with_apostrophes_and_titles_splits_correctly():
    refs = parse_requirements("Requires: 'Moqorro, Slave of R'hllor', 'Harma'")[0]["refs"]
    assert refs == [{"name": "Moqorro", "title": "Slave of R'hllor"}, {"name": "Harma"}]


def test_parse_ref_free_folk_gives_faction_ref():
    assert parse_ref("Free Folk").to_record() == {"faction": "freefolk"}


def test_parse_directives_gives_dataclasses():
    assert parse_directives("Limited:2") == [CopyLimit(max=2)]


# --------------------------------------------------------------------------- errors


def test_unknown_directive_raises_naming_directive():
    with pytest.raises(RequirementSyntaxError, match="Frobnicate"):
        parse_requirements("Frobnicate: 'X'")


def test_unknown_directive_error_carries_line_and_text():
    with pytest.raises(RequirementSyntaxError) as caught:
        parse_requirements("Solo\nFrobnicate: 'X'", card_id="10101")
    assert (caught.value.line, caught.value.text, caught.value.card_id) == (
        2,
        "Frobnicate: 'X'",
        "10101",
    )


def test_unknown_second_directive_on_line_raises():
    with pytest.raises(RequirementSyntaxError, match="Frobnicate"):
        parse_requirements("Limited:2 Frobnicate")


def test_unknown_bare_word_raises_naming_it():
    with pytest.raises(RequirementSyntaxError, match="SoloX"):
        parse_requirements("SoloX")


def test_known_directive_with_bad_arguments_raises_naming_directive():
    with pytest.raises(
        RequirementSyntaxError, match="malformed arguments for directive 'Requires'"
    ):
        parse_requirements("Requires: Tyrion Lannister")


def test_unclosed_quote_raises():
    with pytest.raises(RequirementSyntaxError, match="Pet"):
        parse_requirements("Pet: 'Robb Stark")


# --------------------------------------------------------------------------- round trip

SAMPLE_RECORDS = [
    {"type": "requires", "refs": [{"name": "Qyburn"}, {"card": "30109"}], "mode": "any"},
    {"type": "not_with", "refs": [{"faction": "bolton"}, {"name": "Walder Frey"}]},
    {"type": "pet_of", "ref": {"name": "Samwell Tarly", "title": "Craven Scholar"}},
    {"type": "rules_card", "card": "50101"},
    {"type": "controls", "card": "20330"},
    {"type": "controlled_by", "cards": ["30901"]},
    {"type": "adds", "card": "10319"},
    {"type": "copy_limit", "max": 2, "ignore": [{"name": "Scorpion Modifications (Builder)"}]},
    {
        "type": "copy_limit_per",
        "max_per": 1,
        "per": {"name": "Golden Company"},
        "unit_type": "infantry",
    },
    {"type": "ignores_attachment_limit", "when_host_has": {"name": "Grenn"}},
    {
        "type": "cost_reduction",
        "amount": 1,
        "when_attached_to": None,
        "when_present": {"name": "The High Sparrow"},
        "free": True,
        "first_only": True,
    },
    {"type": "solo"},
    {"type": "fielded_by_ability", "ability": "skinchanger"},
    {"type": "host_faction", "faction": "targaryen"},
    {"type": "must_attach_to", "refs": [{"name": "Builder Scorpion Crew"}]},
    {"type": "host_class", "class": "ranger"},
    {"type": "acts_as_commander"},
    {"type": "first_free", "group": "bastards-boys"},
    {"type": "loyalty", "to": "stannis-baratheon"},
    {
        "type": "reduces_cost_of",
        "scope": "own_unit",
        "amount": 1,
        "count": 1,
        "kind": "attachment",
        "refs": [],
    },
    {"type": "must_carry", "refs": [{"name": "Khal Drogo"}]},
    {"type": "unit_group_limit", "group": "bastards-boys", "max": 1},
    {"type": "counts_as", "ref": {"name": "Harma"}, "commander": False},
]


def test_sample_records_cover_every_record_type():
    assert {r["type"] for r in SAMPLE_RECORDS} == RECORD_TYPES


@pytest.mark.parametrize("record", SAMPLE_RECORDS, ids=lambda r: r["type"])
def test_record_round_trip_preserves_dict(record):
    assert record_from_dict(record).to_record() == record


@pytest.mark.parametrize("record", SAMPLE_RECORDS, ids=lambda r: r["type"])
def test_record_dataclass_round_trip_is_equal(record):
    parsed = record_from_dict(record)
    assert type(parsed).from_record(parsed.to_record()) == parsed


def test_record_from_dict_unknown_type_raises():
    with pytest.raises(UnknownRecordType, match="teleport"):
        record_from_dict({"type": "teleport"})


def test_from_record_wrong_type_raises():
    with pytest.raises(UnknownRecordType):
        Requires.from_record({"type": "not_with", "refs": []})


def test_name_ref_without_title_omits_title_key():
    assert NameRef("Harma").to_record() == {"name": "Harma"}


# --------------------------------------------------------------------------- describe


@pytest.mark.parametrize("record", SAMPLE_RECORDS, ids=lambda r: r["type"])
def test_describe_english_and_french_differ(record):
    english, french = describe(record, "en"), describe(record, "fr")
    assert english and french and english != french


def test_describe_requires_any_uses_or():
    record = {"type": "requires", "refs": [{"name": "A"}, {"name": "B"}], "mode": "any"}
    assert " or " in describe(record) and " ou " in describe(record, "fr")


def test_describe_card_ref_uses_card_name_callback():
    text = describe({"type": "adds", "card": "10319"}, card_name=lambda card_id: "Shadowcat")
    assert "Shadowcat" in text


def test_describe_regional_french_code_gives_french():
    assert describe({"type": "solo"}, "fr-fr") == describe({"type": "solo"}, "fr")


def test_describe_faction_rule_record_uses_rule_wording():
    record = {"type": "no_neutrals", "scope": "army", "rule_card": "50300", "faction": "freefolk"}
    assert "Neutral" in describe(record)


def test_describe_unknown_type_raises():
    with pytest.raises(UnknownRecordType):
        describe({"type": "teleport"})


# --------------------------------------------------------------------------- printed tags


def test_printed_loyalty_bold_tag_gives_slug():
    text = "Loyalty: **STANNIS BARATHEON**\n*Some other sentence.*"
    assert parse_printed_restrictions(text) == [{"type": "loyalty", "to": "stannis-baratheon"}]


def test_printed_loyalty_french_tag_gives_slug():
    assert parse_printed_restrictions("Loyauté : **RENLY BARATHEON**") == [
        {"type": "loyalty", "to": "renly-baratheon"}
    ]


def test_printed_loyalty_ability_form_gives_slug():
    assert parse_printed_restrictions("Loyalty: Stannis Baratheon") == [
        {"type": "loyalty", "to": "stannis-baratheon"}
    ]


def test_printed_prose_without_tag_gives_nothing():
    assert parse_printed_restrictions("*May not be fielded with some unit.*") == []


def test_printed_ability_named_like_loyalty_is_not_a_tag():
    assert parse_printed_restrictions("Loyalty Through Coin") == []


def test_printed_empty_text_gives_nothing():
    assert parse_printed_restrictions("") == []


# --------------------------------------------------------------------------- real data


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("card_id", "cell"), DISTINCT_CELLS, ids=[card_id for card_id, _ in DISTINCT_CELLS]
)
def test_real_cell_parses_to_known_records(card_id, cell):
    records = parse_requirements(cell, card_id=card_id)
    assert records and all(r["type"] in DIRECTIVE_TYPES for r in records)


@pytest.mark.shared_data
def test_real_cells_cover_whole_directive_vocabulary(community_data_dir):
    seen = set()
    for name in REQUIREMENT_FILES:
        for row in _rows(community_data_dir, name):
            records = parse_requirements(
                row.get("Requirements") or "",
                requirement_text=row.get("Requirement Text") or "",
                card_id=row["Id"],
            )
            seen.update(r["type"] for r in records)
    assert seen == DIRECTIVE_TYPES


@pytest.mark.shared_data
def test_real_distinct_cells_were_collected(community_data_dir):
    assert len(DISTINCT_CELLS) > 40


@pytest.mark.shared_data
def test_real_ser_robert_strong_requires_follow_printed_or(community_data_dir):
    # The data README says 20128 needs both names, but its printed text (EN and FR) says "or".
    row = _row(community_data_dir, "attachments.csv", "20128")
    record = parse_requirements(
        row["Requirements"], requirement_text=row["Requirement Text"], card_id="20128"
    )[0]
    assert (record["type"], len(record["refs"]), record["mode"]) == ("requires", 2, "any")


@pytest.mark.shared_data
def test_real_syrio_forel_requires_either_name(community_data_dir):
    row = _row(community_data_dir, "attachments.csv", "20218")
    record = parse_requirements(
        row["Requirements"], requirement_text=row["Requirement Text"], card_id="20218"
    )[0]
    assert record == {
        "type": "requires",
        "refs": [{"name": "Eddard Stark"}, {"name": "Arya Stark", "title": "The Wolf Girl"}],
        "mode": "any",
    }


@pytest.mark.shared_data
def test_real_champion_of_the_faith_first_copy_is_free(community_data_dir):
    row = _row(community_data_dir, "attachments.csv", "20113")
    records = parse_requirements(row["Requirements"], requirement_text=row["Requirement Text"])
    reduction = next(r for r in records if r["type"] == "cost_reduction")
    assert (reduction["free"], reduction["first_only"]) == (True, True)


@pytest.mark.shared_data
def test_real_jaime_kingsguard_reduction_is_one_point(community_data_dir):
    row = _row(community_data_dir, "attachments.csv", "20107")
    records = parse_requirements(row["Requirements"], requirement_text=row["Requirement Text"])
    assert (records[0]["amount"], records[0]["free"]) == (1, False)


@pytest.mark.shared_data
def test_real_ncu_restrictions_loyalty_parses(community_data_dir):
    row = _row(community_data_dir, "ncus.csv", "30603")
    assert parse_printed_restrictions(row["Restrictions"]) == [
        {"type": "loyalty", "to": "stannis-baratheon"}
    ]


@pytest.mark.shared_data
def test_real_every_loyalty_line_gives_one_record(community_data_dir):
    columns = {"units.csv": "Requirement Text", "attachments.csv": "Requirement Text"}
    columns["ncus.csv"] = "Restrictions"
    lines = records = 0
    for name, column in columns.items():
        for row in _rows(community_data_dir, name):
            text = row.get(column) or ""
            lines += sum(1 for line in text.splitlines() if line.startswith("Loyalty:"))
            records += len(parse_printed_restrictions(text))
    assert records == lines > 0


@pytest.mark.shared_data
def test_real_prose_gives_only_loyalty_records(community_data_dir):
    types = set()
    for name in (*REQUIREMENT_FILES, "special.csv"):
        for row in _rows(community_data_dir, name):
            for column in ("Requirement Text", "Restrictions", "Requirement"):
                types.update(r["type"] for r in parse_printed_restrictions(row.get(column) or ""))
    assert types == {"loyalty"}
