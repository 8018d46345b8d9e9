"""What changed between two card versions, said field by field (cards.versions)."""

from cards.versions import stat_changes


def test_stat_changes_lists_a_changed_value():
    [change] = stat_changes({"points": 5, "speed": 6}, {"points": 6, "speed": 6})
    assert (change.field, change.old, change.new) == ("points", 5, 6)


def test_stat_changes_of_equal_stats_is_empty():
    assert (
        stat_changes({"points": 5, "abilities": ["a", "b"]}, {"abilities": ["b", "a"], "points": 5})
        == ()
    )


def test_stat_changes_ignores_a_field_one_version_does_not_record():
    assert stat_changes({"points": 5}, {"points": 5, "will": 3}) == ()


def test_stat_changes_puts_cost_first():
    changes = stat_changes({"speed": 5, "points": 5}, {"speed": 6, "points": 6})
    assert [c.field for c in changes] == ["points", "speed"]


def test_describe_a_list_says_added_and_removed_names():
    [change] = stat_changes({"abilities": ["taunt"]}, {"abilities": ["vicious"]})
    assert change.describe("en", {"vicious": "Vicious", "taunt": "Taunt"}) == (
        "abilities: + Vicious, − Taunt"
    )


def test_describe_structured_values_says_only_that_they_changed_in_french():
    [change] = stat_changes({"requirements": []}, {"requirements": [{"type": "solo"}]})
    assert change.describe("fr") == "règles de construction modifié"


def test_describe_a_boolean_says_yes_or_no():
    [change] = stat_changes({"is_commander": False}, {"is_commander": True})
    assert change.describe("en") == "commander no → yes"
