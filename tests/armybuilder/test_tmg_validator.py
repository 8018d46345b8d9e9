"""Every TMG army-construction rule, one legal and one illegal case each (pure, no DB)."""

from dataclasses import replace

import pytest

from armybuilder.tmg.draft import ArmyContext, ArmyDraft, CardFacts, Entry, UnitEntry
from armybuilder.tmg.rulesets import get_ruleset
from armybuilder.tmg.validator import validate_army, validate_team

RULESET = get_ruleset("rules-1.5")

SWORN_SWORDS = CardFacts(
    id="10201",
    kind="unit",
    faction="stark",
    name_en="Stark Sworn Swords",
    points=5,
    unit_type="infantry",
    tray="infantry",
)
OUTRIDERS = CardFacts(
    id="10203",
    kind="unit",
    faction="stark",
    name_en="Stark Outriders",
    points=6,
    unit_type="cavalry",
    tray="cavalry",
)
GREYWIND = CardFacts(
    id="10210",
    kind="unit",
    faction="stark",
    name_en="Grey Wind",
    points=4,
    unit_type="monster",
    tray="solo",
    characters=("grey-wind",),
    is_character=True,
    requirements=({"type": "pet_of", "ref": {"name": "Robb Stark"}},),
)
ROBB = CardFacts(
    id="20201",
    kind="attachment",
    faction="stark",
    name_en="Robb Stark",
    title_en="The Wolf Lord",
    points=0,
    unit_type="infantry",
    is_character=True,
    characters=("robb-stark",),
    is_commander=True,
)
ROBB_YOUNG_WOLF = replace(ROBB, id="20202", title_en="The Young Wolf", is_commander=False, points=2)
EDDARD = CardFacts(
    id="20204",
    kind="attachment",
    faction="stark",
    name_en="Eddard Stark",
    title_en="Warden of the North",
    points=0,
    unit_type="infantry",
    is_character=True,
    characters=("eddard-stark",),
    is_commander=True,
)
SERGEANT = CardFacts(
    id="20205",
    kind="attachment",
    faction="stark",
    name_en="Stark Sergeant",
    points=1,
    unit_type="infantry",
)
LIMITED_UNIT = replace(
    SWORN_SWORDS,
    id="10299",
    name_en="Limited Wolves",
    requirements=({"type": "copy_limit", "max": 2, "ignore": []},),
)
GUARDSMEN = CardFacts(
    id="10101",
    kind="unit",
    faction="lannister",
    name_en="Lannister Guardsmen",
    points=5,
    unit_type="infantry",
    tray="infantry",
)
SELLSWORDS = CardFacts(
    id="10401",
    kind="unit",
    faction="neutral",
    name_en="Sellswords",
    points=6,
    unit_type="infantry",
    tray="infantry",
)
NEUTRAL_NCU = CardFacts(
    id="30401",
    kind="ncu",
    faction="neutral",
    name_en="Lord Varys",
    points=5,
    is_character=True,
    characters=("varys",),
)
CATELYN = CardFacts(
    id="30201",
    kind="ncu",
    faction="stark",
    name_en="Catelyn Stark",
    points=4,
    is_character=True,
    characters=("catelyn-stark",),
)


def unit(ref, card, *attachments):
    return UnitEntry(
        ref=ref,
        card=card,
        attachments=tuple(Entry(ref=f"{ref}.a{i + 1}", card=a) for i, a in enumerate(attachments)),
    )


def army(*units, ncus=(), faction="stark", limit=40, **kwargs):
    return ArmyDraft(
        faction=faction,
        points_limit=limit,
        ruleset=RULESET,
        units=tuple(units),
        ncus=tuple(Entry(ref=f"ncu-{i + 1}", card=c) for i, c in enumerate(ncus)),
        **kwargs,
    )


def codes(draft, context=None):
    return sorted(f.code for f in validate_army(draft, context).findings)


LEGAL = army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", OUTRIDERS), ncus=(CATELYN,))


def test_legal_army_has_no_findings():
    assert codes(LEGAL) == []


def test_ab01_points_budget_under_limit_is_legal():
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB), limit=5)) == []


def test_ab01_points_budget_over_limit_is_flagged_with_a_fix():
    report = validate_army(army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", OUTRIDERS), limit=10))
    (finding,) = report.findings
    assert finding.code == "POINTS_OVER_LIMIT"
    assert finding.fix.en == "remove Stark Sworn Swords (5)"


def test_ab05_card_of_another_faction_is_flagged():
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", GUARDSMEN))) == [
        "FACTION_MISMATCH"
    ]


def test_ab05_faction_allowance_admits_one_unit():
    context = ArmyContext(
        faction_rules=(
            {"type": "faction_allowance", "factions": ["stark"], "kinds": ["unit"], "count": 1},
        )
    )
    brotherhood_commander = replace(ROBB, faction="brotherhood", id="21101")
    legal = army(unit("u1", SWORN_SWORDS, brotherhood_commander), faction="brotherhood")
    assert codes(legal, context) == []
    illegal = army(
        unit("u1", SWORN_SWORDS, brotherhood_commander),
        unit("u2", OUTRIDERS),
        faction="brotherhood",
    )
    assert codes(illegal, context) == ["FACTION_MISMATCH"]


def test_ab08_neutral_army_takes_only_neutral_cards():
    neutral_commander = replace(ROBB, faction="neutral", id="20401", characters=("x",))
    assert codes(army(unit("u1", SELLSWORDS, neutral_commander), faction="neutral")) == []
    assert codes(
        army(unit("u1", SELLSWORDS, neutral_commander), unit("u2", OUTRIDERS), faction="neutral")
    ) == ["FACTION_MISMATCH"]


def test_ab06_neutral_cap_at_half_the_game_size_is_legal():
    draft = army(
        unit("u1", SWORN_SWORDS, ROBB),
        unit("u2", SELLSWORDS),
        unit("u3", SELLSWORDS),
        ncus=(NEUTRAL_NCU,),
        limit=34,
    )  # neutral 17 of a 34 game: exactly half
    assert codes(draft) == []


def test_ab06_neutral_cap_exceeded_is_flagged():
    draft = army(
        unit("u1", SWORN_SWORDS, ROBB),
        unit("u2", SELLSWORDS),
        unit("u3", SELLSWORDS),
        ncus=(NEUTRAL_NCU,),
        limit=30,
    )
    report = validate_army(draft)
    assert [f.code for f in report.findings] == ["NEUTRAL_CAP_EXCEEDED"]
    assert report.totals.neutral == 17 and report.totals.neutral_cap == 15


def test_ab07_neutral_commander_does_not_count_towards_the_cap():
    neutral_commander = replace(ROBB, faction="neutral", id="20401", points=0)
    report = validate_army(army(unit("u1", SWORN_SWORDS, neutral_commander)))
    assert report.legal and report.totals.neutral == 0


def test_no_neutrals_faction_rule_forbids_neutral_cards():
    context = ArmyContext(faction_rules=({"type": "no_neutrals", "rule_card": "50300"},))
    ff_commander = replace(ROBB, faction="freefolk", id="20301")
    assert (
        codes(
            army(
                unit("u1", replace(SWORN_SWORDS, faction="freefolk"), ff_commander),
                faction="freefolk",
            ),
            context,
        )
        == []
    )
    draft = army(
        unit("u1", replace(SWORN_SWORDS, faction="freefolk"), ff_commander),
        unit("u2", SELLSWORDS),
        faction="freefolk",
    )
    assert codes(draft, context) == ["NEUTRALS_FORBIDDEN"]


def test_ab09_commander_missing_is_flagged():
    assert codes(army(unit("u1", SWORN_SWORDS))) == ["COMMANDER_MISSING"]


def test_ab09_two_commanders_are_flagged():
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", SWORN_SWORDS, EDDARD))) == [
        "COMMANDER_MULTIPLE"
    ]


def test_ab13_commander_attachment_without_host_is_flagged():
    draft = army(unit("u1", SWORN_SWORDS), unattached=(Entry(ref="x1", card=ROBB),))
    assert codes(draft) == ["ATTACHMENT_NO_HOST"]


def test_ab17_same_character_twice_is_flagged():
    draft = army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", SWORN_SWORDS, ROBB_YOUNG_WOLF))
    report = validate_army(draft)
    assert [f.code for f in report.findings] == ["CHARACTER_DUPLICATE"]
    assert report.findings[0].rule == "AB-18"


def test_ab19_two_attachments_on_one_unit_are_flagged():
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB, SERGEANT))) == ["ATTACHMENT_LIMIT"]


def test_ab24_card_that_ignores_the_limit_may_be_a_second_attachment():
    extra = replace(SERGEANT, requirements=({"type": "ignores_attachment_limit"},))
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB, extra))) == []


def test_ab21_attachment_on_solo_unit_is_flagged():
    draft = army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", GREYWIND, SERGEANT))
    assert "ATTACHMENT_ON_SOLO" in codes(draft)


def test_ab22_infantry_attachment_on_cavalry_is_flagged():
    assert codes(army(unit("u1", OUTRIDERS, ROBB))) == ["ATTACHMENT_TYPE_MISMATCH"]


def test_ab28_pet_without_its_master_is_flagged():
    draft = army(unit("u1", SWORN_SWORDS, EDDARD), unit("u2", GREYWIND))
    assert codes(draft) == ["REQUIREMENT_UNMET"]
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", GREYWIND))) == []


def test_ab28_not_with_conflict_is_flagged():
    grudge = replace(
        CATELYN, requirements=({"type": "not_with", "refs": [{"name": "Lord Varys"}]},)
    )
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB), ncus=(grudge,))) == []
    assert codes(army(unit("u1", SWORN_SWORDS, ROBB), ncus=(grudge, NEUTRAL_NCU))) == [
        "REQUIREMENT_CONFLICT"
    ]


def test_ab28_copy_limit_is_enforced():
    two = army(unit("u1", LIMITED_UNIT, ROBB), unit("u2", LIMITED_UNIT))
    three = army(unit("u1", LIMITED_UNIT, ROBB), unit("u2", LIMITED_UNIT), unit("u3", LIMITED_UNIT))
    assert codes(two) == []
    assert codes(three) == ["COPY_LIMIT"]


def test_ab28_cost_reduction_applies_when_the_named_card_is_present():
    cheap = replace(
        SERGEANT,
        points=2,
        requirements=(
            {"type": "cost_reduction", "amount": 1, "when_present": {"name": "Catelyn Stark"}},
        ),
    )
    with_cat = validate_army(
        army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", SWORN_SWORDS, cheap), ncus=(CATELYN,))
    )
    without = validate_army(army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", SWORN_SWORDS, cheap)))
    assert with_cat.totals.points["u2.a1"] == 1
    assert without.totals.points["u2.a1"] == 2


def test_ab28_cards_of_one_loyalty_may_mix():
    loyal = replace(CATELYN, requirements=({"type": "loyalty", "to": "robb-stark"},))
    loyal_too = replace(SERGEANT, requirements=({"type": "loyalty", "to": "robb-stark"},))
    draft = army(unit("u1", SWORN_SWORDS, ROBB), unit("u2", SWORN_SWORDS, loyal_too), ncus=(loyal,))
    assert codes(draft) == []


def test_ab28_cards_of_different_loyalties_conflict():
    to_robb = replace(CATELYN, requirements=({"type": "loyalty", "to": "robb-stark"},))
    to_ned = replace(
        SWORN_SWORDS, id="10298", requirements=({"type": "loyalty", "to": "eddard-stark"},)
    )
    assert codes(army(unit("u1", to_ned, ROBB), ncus=(to_robb,))) == ["REQUIREMENT_CONFLICT"]


def test_ab30_team_character_duplicate_is_flagged():
    first = army(unit("u1", SWORN_SWORDS, ROBB), limit=20)
    other = army(
        unit("u1", SWORN_SWORDS, ROBB_YOUNG_WOLF), unit("u2", SWORN_SWORDS, EDDARD), limit=20
    )
    assert [f.code for f in validate_team([first, other])] == ["TEAM_CHARACTER_DUPLICATE"]
    assert validate_team([first, army(unit("u1", SWORN_SWORDS, EDDARD), limit=20)]) == []


@pytest.mark.parametrize("ruleset_id", ["rules-1.5"])
def test_ruleset_record_holds_the_neutral_cap(ruleset_id):
    assert get_ruleset(ruleset_id).neutral_cap_percent == 50


def test_tactics_deck_holds_faction_and_commander_cards_twice():
    from armybuilder.tmg.deck import build_tactics_deck

    commander = replace(ROBB, tactics=("40208", "40209", "40210"))
    basic = tuple(f"4020{i}" for i in range(1, 8))
    deck = build_tactics_deck(
        army(unit("u1", SWORN_SWORDS, commander)), ArmyContext(basic_deck=basic)
    )
    assert [c.card_id for c in deck] == [*basic, "40208", "40209", "40210"]
    assert sum(c.copies for c in deck) == 20


def test_tactics_deck_replacement_removes_the_basic_card():
    from armybuilder.tmg.deck import build_tactics_deck

    commander = replace(ROBB, tactics=("40208", "40209", "40210"))
    context = ArmyContext(basic_deck=("40201", "40202"), replaces={"40209": ("40202",)})
    deck = build_tactics_deck(army(unit("u1", SWORN_SWORDS, commander)), context)
    assert [c.card_id for c in deck] == ["40201", "40208", "40209", "40210"]


DORAN = CardFacts(
    id="30901",
    kind="ncu",
    faction="martell",
    name_en="Doran Martell",
    title_en="Lord of Sunspear",
    points=4,
    is_character=True,
    characters=("doran-martell",),
    is_commander=True,
)
AREO = CardFacts(
    id="20903",
    kind="attachment",
    faction="martell",
    name_en="Areo Hotah",
    title_en="Captain of the Guard",
    points=0,
    unit_type="infantry",
    is_character=True,
    characters=("areo-hotah",),
    is_commander=True,
    requirements=({"type": "acts_as_commander"}, {"type": "controlled_by", "cards": ["30901"]}),
)
SPEARMEN = replace(SWORN_SWORDS, id="10901", faction="martell", name_en="Martell Spearmen")


def test_ab09_battlefield_stand_in_is_not_a_second_commander():
    draft = army(unit("u1", SPEARMEN, AREO), ncus=(DORAN,), faction="martell")
    assert codes(draft) == []


def test_ab28_controlled_card_without_its_controller_is_flagged():
    assert codes(army(unit("u1", SPEARMEN, AREO), faction="martell")) == [
        "COMMANDER_MISSING",
        "REQUIREMENT_UNMET",
    ]
