"""Construction abilities as records: per class, one legal and one illegal army (pure, no DB).

The records are the ones cards/data/construction_abilities.json gives the real cards
(or the War Council directives, for the classes the table documents as handled there).
"""

from dataclasses import replace

from armybuilder.tmg.draft import ArmyContext, ArmyDraft, CardFacts, Entry, UnitEntry
from armybuilder.tmg.rulesets import get_ruleset
from armybuilder.tmg.validator import validate_army
from cards.faction_rules import army_rules_for_faction

RULESET = get_ruleset("rules-1.5")


def card(card_id, kind, name, *, faction="stark", points=0, **fields):
    return CardFacts(id=card_id, kind=kind, faction=faction, name_en=name, points=points, **fields)


def infantry(card_id, name, *, points=5, faction="stark", **fields):
    return card(
        card_id,
        "unit",
        name,
        faction=faction,
        points=points,
        unit_type="infantry",
        tray="infantry",
        **fields,
    )


def attachment(card_id, name, *, points=1, faction="stark", **fields):
    return card(
        card_id, "attachment", name, faction=faction, points=points, unit_type="infantry", **fields
    )


def character(card_id, name, title="", *, commander=False, **fields):
    key = name.lower().replace(" ", "-")
    return attachment(
        card_id,
        name,
        title_en=title,
        is_character=True,
        characters=(key,),
        is_commander=commander,
        **fields,
    )


def unit(ref, unit_card, *attachments):
    return UnitEntry.with_attachments(ref, unit_card, attachments)


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


SWORDS = infantry("10201", "Stark Sworn Swords")
ROBB = character("20201", "Robb Stark", "The Wolf Lord", commander=True, points=0)
SERGEANT = attachment("20205", "Stark Sergeant", points=2)
ADAPTIVE = {
    "type": "reduces_cost_of",
    "scope": "own_unit",
    "amount": 1,
    "count": 1,
    "kind": "attachment",
    "refs": [],
}
WINTERFELL_GUARD = infantry("10220", "Winterfell Guard", points=7, requirements=(ADAPTIVE,))


# --- cost of what a unit carries (Adaptive) ---------------------------------------------


def test_adaptive_unit_carrying_an_attachment_fits_the_limit():
    draft = army(unit("u1", SWORDS, ROBB), unit("u2", WINTERFELL_GUARD, SERGEANT), limit=13)
    report = validate_army(draft)
    assert report.legal and report.totals.points["u2.attachment-1"] == 1


def test_adaptive_reduction_does_not_reach_another_units_attachment():
    draft = army(unit("u1", SWORDS, ROBB, SERGEANT), unit("u2", WINTERFELL_GUARD), limit=13)
    assert codes(draft) == ["ATTACHMENT_LIMIT", "POINTS_OVER_LIMIT"]


def test_adaptive_never_lowers_the_free_commander():
    report = validate_army(army(unit("u1", WINTERFELL_GUARD, ROBB)))
    assert report.totals.points == {"u1": 7, "u1.attachment-1": 0}


# --- cost of other cards in the army (Daenerys, The Unburnt) ------------------------------

DRAGON_DISCOUNT = {
    "type": "reduces_cost_of",
    "scope": "army",
    "amount": 1,
    "count": 1,
    "kind": "unit",
    "refs": [{"name": "Drogon"}, {"name": "Rhaegal"}, {"name": "Viserion"}],
}
UNBURNT = card(
    "30707",
    "ncu",
    "Daenerys Targaryen",
    faction="targaryen",
    points=5,
    title_en="The Unburnt",
    requirements=(DRAGON_DISCOUNT,),
)
DROGON = card(
    "10707", "unit", "Drogon", faction="targaryen", points=7, unit_type="monster", tray="solo"
)
PIKEMEN = infantry("10701", "Unsullied Pikemen", points=7, faction="targaryen")
DANY_COMMANDER = replace(ROBB, id="20714", faction="targaryen", characters=("x",))


def test_unburnt_daenerys_lowers_one_dragon():
    draft = army(
        unit("u1", PIKEMEN, DANY_COMMANDER),
        unit("u2", DROGON),
        ncus=(UNBURNT,),
        faction="targaryen",
        limit=18,
    )
    assert codes(draft) == []


def test_unburnt_daenerys_lowers_no_other_unit():
    other = replace(DROGON, id="10799", name_en="Wyvern")
    draft = army(
        unit("u1", PIKEMEN, DANY_COMMANDER),
        unit("u2", other),
        ncus=(UNBURNT,),
        faction="targaryen",
        limit=18,
    )
    assert codes(draft) == ["POINTS_OVER_LIMIT"]


# --- its own cost: the first copy is free ---------------------------------------------------

FIRST_FREE_WITH_SPARROW = {
    "type": "cost_reduction",
    "amount": 1,
    "when_attached_to": None,
    "when_present": {"name": "The High Sparrow"},
    "free": True,
    "first_only": True,
}
CHAMPION = attachment(
    "20113", "Champion of the Faith", points=2, requirements=(FIRST_FREE_WITH_SPARROW,)
)
SPARROW = card("30103", "ncu", "The High Sparrow", points=4)


def test_first_copy_free_with_its_patron_fits_the_limit():
    draft = army(
        unit("u1", SWORDS, ROBB), unit("u2", SWORDS, CHAMPION), unit("u3", SWORDS, CHAMPION)
    )
    draft = replace(draft, ncus=(Entry("ncu-1", SPARROW),), points_limit=21)
    report = validate_army(draft)
    assert report.legal and report.totals.spent == 21


def test_first_copy_free_gives_the_second_copy_nothing():
    draft = army(
        unit("u1", SWORDS, ROBB),
        unit("u2", SWORDS, CHAMPION),
        unit("u3", SWORDS, CHAMPION),
        ncus=(SPARROW,),
        limit=20,
    )
    assert codes(draft) == ["POINTS_OVER_LIMIT"]


# --- attachment limits: the Bastard's Boys (S06B) --------------------------------------------

BOY_RECORDS = (
    {"type": "ignores_attachment_limit", "when_host_has": None},
    {"type": "unit_group_limit", "group": "bastards-boys", "max": 1},
)
SKINNER = character("21009", "Skinner", "Bastard's Boy", requirements=BOY_RECORDS)
GRUNT = character("21010", "Grunt", "Bastard's Boy", requirements=BOY_RECORDS)


def test_bastards_boy_beside_another_attachment_is_legal():
    assert codes(army(unit("u1", SWORDS, ROBB, SKINNER))) == []


def test_two_bastards_boys_in_one_unit_are_flagged():
    draft = army(unit("u1", SWORDS, ROBB), unit("u2", SWORDS, SKINNER, GRUNT))
    report = validate_army(draft)
    assert [(f.code, f.rule) for f in report.findings] == [("ATTACHMENT_LIMIT", "AB-28")]


# --- may or must attach to: Osha joins Rickon's unit, beyond the limit ----------------------

RICKON = character("20219", "Rickon Stark", "Prince of Winterfell")
OSHA = character(
    "20220",
    "Osha",
    "Spearwife Guardian",
    points=0,
    requirements=(
        {"type": "requires", "refs": [{"name": "Rickon Stark"}], "mode": "all"},
        {"type": "must_attach_to", "refs": [{"name": "Rickon Stark"}]},
        {"type": "ignores_attachment_limit", "when_host_has": {"name": "Rickon Stark"}},
    ),
)


def test_osha_in_rickons_unit_is_a_second_attachment():
    assert codes(army(unit("u1", SWORDS, ROBB), unit("u2", SWORDS, RICKON, OSHA))) == []


def test_osha_in_another_unit_is_flagged():
    draft = army(unit("u1", SWORDS, ROBB), unit("u2", SWORDS, RICKON), unit("u3", SWORDS, OSHA))
    assert codes(draft) == ["REQUIREMENT_UNMET"]


def test_osha_beside_another_attachment_outside_rickons_unit_breaks_the_limit():
    draft = army(unit("u1", SWORDS, ROBB, OSHA), unit("u2", SWORDS, RICKON))
    assert codes(draft) == ["ATTACHMENT_LIMIT", "REQUIREMENT_UNMET"]


# --- must carry: the Kingsguard carry Joffrey ---------------------------------------------------

JOFFREY = character(
    "20121", "Joffrey Baratheon", "First of His Name", faction="lannister", commander=True
)
KINGSGUARD = infantry(
    "10110",
    "Kingsguard",
    points=6,
    faction="lannister",
    requirements=(
        {
            "type": "must_carry",
            "refs": [{"name": "Joffrey Baratheon", "title": "First of His Name"}],
        },
    ),
)
GUARDSMEN = infantry("10101", "Lannister Guardsmen", faction="lannister")


def test_kingsguard_carrying_joffrey_is_legal():
    draft = army(unit("u1", KINGSGUARD, JOFFREY), unit("u2", GUARDSMEN), faction="lannister")
    assert codes(draft) == []


def test_kingsguard_without_joffrey_attached_is_flagged():
    draft = army(unit("u1", KINGSGUARD), unit("u2", GUARDSMEN, JOFFREY), faction="lannister")
    assert codes(draft) == ["REQUIREMENT_UNMET"]


# --- may only join a class of unit (Benjen, Ranging Specialist) ------------------------------

BENJEN = replace(
    character("20533", "Benjen Stark", "Beyond The Wall", commander=True, faction="nightswatch"),
    unit_type="cavalry",
    requirements=({"type": "host_class", "class": "ranger"},),
)
RANGERS = replace(
    infantry("10503", "Ranger Trackers", faction="nightswatch"),
    unit_type="cavalry",
    tray="cavalry",
)
OUTRIDERS = replace(RANGERS, id="10599", name_en="Night's Watch Outriders")


def test_ranger_class_attachment_on_a_ranger_unit_is_legal():
    assert codes(army(unit("u1", RANGERS, BENJEN), faction="nightswatch")) == []


def test_ranger_class_attachment_on_another_unit_is_flagged():
    assert codes(army(unit("u1", OUTRIDERS, BENJEN), faction="nightswatch")) == [
        "REQUIREMENT_UNMET"
    ]


# --- faction of the host: Reaver Captain joins Greyjoy units only ------------------------------

REAVER_CAPTAIN = attachment(
    "20805",
    "Reaver Captain",
    faction="greyjoy",
    requirements=(
        {"type": "host_faction", "faction": "greyjoy"},
        {"type": "ignores_attachment_limit", "when_host_has": None},
    ),
)
IRONBORN = infantry("10801", "Ironborn Reavers", faction="greyjoy")
SELLSWORDS = infantry("10401", "Sellswords", faction="neutral", points=6)
GREYJOY_COMMANDER = replace(ROBB, id="20801", faction="greyjoy", characters=("y",))


def test_reaver_captain_on_a_greyjoy_unit_beside_the_commander_is_legal():
    draft = army(unit("u1", IRONBORN, GREYJOY_COMMANDER, REAVER_CAPTAIN), faction="greyjoy")
    assert codes(draft) == []


def test_reaver_captain_on_a_neutral_unit_is_flagged():
    draft = army(
        unit("u1", IRONBORN, GREYJOY_COMMANDER),
        unit("u2", SELLSWORDS, REAVER_CAPTAIN),
        faction="greyjoy",
    )
    assert codes(draft) == ["REQUIREMENT_UNMET"]


# --- counts as another character (the vassals) -------------------------------------------------

VICTARION = character("20804", "Victarion Greyjoy", "Master of the Iron Victory", faction="greyjoy")
NUTE = character(
    "20811",
    "Nute",
    "The Barber",
    faction="greyjoy",
    requirements=({"type": "counts_as", "ref": {"name": "Victarion Greyjoy"}, "commander": False},),
)
MOQORRO = character(
    "20819",
    "Moqorro",
    "Slave of R'hllor",
    faction="greyjoy",
    points=2,
    requirements=(
        {
            "type": "cost_reduction",
            "amount": 1,
            "when_attached_to": None,
            "when_present": {"name": "Victarion Greyjoy"},
            "free": False,
            "first_only": False,
        },
    ),
)


def test_vassal_meets_a_condition_naming_his_lord():
    draft = army(
        unit("u1", IRONBORN, GREYJOY_COMMANDER),
        unit("u2", IRONBORN, NUTE),
        unit("u3", IRONBORN, MOQORRO),
        faction="greyjoy",
        limit=17,
    )
    assert codes(draft) == []


def test_without_the_vassal_the_condition_is_not_met():
    draft = army(
        unit("u1", IRONBORN, GREYJOY_COMMANDER),
        unit("u2", IRONBORN, replace(NUTE, requirements=())),
        unit("u3", IRONBORN, MOQORRO),
        faction="greyjoy",
        limit=17,
    )
    assert codes(draft) == ["POINTS_OVER_LIMIT"]


def test_vassal_is_not_a_second_copy_of_his_lord():
    draft = army(
        unit("u1", IRONBORN, GREYJOY_COMMANDER),
        unit("u2", IRONBORN, NUTE),
        unit("u3", IRONBORN, VICTARION),
        faction="greyjoy",
    )
    assert codes(draft) == []


SATIN = character(
    "20530",
    "Satin",
    "Commander's Steward",
    faction="nightswatch",
    requirements=({"type": "counts_as", "ref": None, "commander": True},),
)
NEEDS_ROBB = replace(
    SERGEANT,
    id="20298",
    faction="nightswatch",
    requirements=({"type": "requires", "refs": [{"name": "Robb Stark"}], "mode": "all"},),
)
NW_ROBB = replace(ROBB, faction="nightswatch")
NW_SWORDS = replace(SWORDS, faction="nightswatch")


def test_commanders_vassal_answers_to_the_commanders_name():
    draft = army(
        unit("u1", NW_SWORDS, replace(NW_ROBB, name_en="Jeor Mormont", characters=("jeor",))),
        unit("u2", NW_SWORDS, SATIN),
        unit("u3", NW_SWORDS, replace(NEEDS_ROBB, requirements=(_needs("Jeor Mormont"),))),
        faction="nightswatch",
    )
    assert codes(draft) == []


def test_commanders_vassal_answers_to_no_other_name():
    draft = army(
        unit("u1", NW_SWORDS, replace(NW_ROBB, name_en="Jeor Mormont", characters=("jeor",))),
        unit("u2", NW_SWORDS, SATIN),
        unit("u3", NW_SWORDS, NEEDS_ROBB),
        faction="nightswatch",
    )
    assert codes(draft) == ["REQUIREMENT_UNMET"]


def _needs(name):
    return {"type": "requires", "refs": [{"name": name}], "mode": "all"}


# --- who may be the commander: NCUs ----------------------------------------------------------

DORAN = card(
    "30901",
    "ncu",
    "Doran Martell",
    faction="martell",
    points=4,
    title_en="Lord of Sunspear",
    is_character=True,
    characters=("doran-martell",),
    is_commander=True,
    requirements=({"type": "controls", "card": "20903"},),
)
AREO = character(
    "20903",
    "Areo Hotah",
    "Captain of the Guard",
    faction="martell",
    commander=True,
    points=0,
    requirements=(
        {"type": "acts_as_commander"},
        {"type": "controlled_by", "cards": ["30901"]},
        {"type": "rules_card", "card": "50901"},
    ),
)
SPEARMEN = infantry("10901", "Martell Spearmen", faction="martell")
MARTELL = ArmyContext(faction_rules=tuple(army_rules_for_faction("martell")))
CATELYN = card(
    "30201",
    "ncu",
    "Catelyn Stark",
    points=4,
    title_en="Lady of Winterfell",
    is_character=True,
    characters=("catelyn-stark",),
)


def test_ncu_commander_card_is_legal_as_sole_commander():
    draft = army(unit("u1", SPEARMEN, AREO), ncus=(DORAN,), faction="martell")
    assert codes(draft, MARTELL) == []


def test_ncu_commander_without_his_battlefield_stand_in_is_flagged():
    draft = army(unit("u1", SPEARMEN), ncus=(DORAN,), faction="martell")
    report = validate_army(draft, MARTELL)
    assert [(f.code, f.rule) for f in report.findings] == [("REQUIREMENT_UNMET", "card 50901")]


def test_non_commander_ncu_chosen_to_lead_is_flagged():
    draft = army(unit("u1", SWORDS), ncus=(CATELYN,), chosen_commander="ncu-1")
    report = validate_army(draft)
    assert [(f.code, f.rule) for f in report.findings] == [("COMMANDER_MISSING", "AB-09")]
    assert "Catelyn Stark" in report.findings[0].message.en


def test_non_commander_ncu_chosen_beside_a_commander_is_flagged_once():
    draft = army(unit("u1", SWORDS, ROBB), ncus=(CATELYN,), chosen_commander="ncu-1")
    assert codes(draft) == ["REQUIREMENT_UNMET"]


def test_card_a_faction_rule_names_may_be_chosen_to_lead():
    mag = card("10313", "unit", "Mag the Mighty", faction="freefolk", points=9, unit_type="monster")
    context = ArmyContext(faction_rules=tuple(army_rules_for_faction("freefolk")))
    draft = army(unit("u1", mag), faction="freefolk", chosen_commander="u1")
    assert codes(draft, context) == []


# --- fielding: only with, or only through, another card -------------------------------------

JAQEN = replace(
    character("20221", "Jaqen H'ghar", "Mysterious Prisoner"),
    attaches_to_enemy=True,
    requirements=({"type": "requires", "refs": [{"name": "Arya Stark"}], "mode": "all"},),
)
ARYA = card("30206", "ncu", "Arya Stark", points=4, is_character=True, characters=("arya-stark",))


def test_enemy_attachment_with_the_character_it_needs_is_legal():
    draft = army(unit("u1", SWORDS, ROBB), ncus=(ARYA,), unattached=(Entry("x1", JAQEN),))
    assert codes(draft) == []


def test_enemy_attachment_without_the_character_it_needs_is_flagged():
    assert codes(army(unit("u1", SWORDS, ROBB), unattached=(Entry("x1", JAQEN),))) == [
        "REQUIREMENT_UNMET"
    ]


BEAR = card(
    "10310",
    "unit",
    "Bear",
    faction="freefolk",
    unit_type="monster",
    tray="solo",
    requirements=({"type": "fielded_by_ability", "ability": "skinchanger"},),
)
FF_SWORDS = replace(SWORDS, faction="freefolk")
FF_COMMANDER = replace(ROBB, faction="freefolk")


def test_army_without_a_bonded_beast_is_legal():
    assert codes(army(unit("u1", FF_SWORDS, FF_COMMANDER), faction="freefolk")) == []


def test_bonded_beast_bought_as_a_unit_is_flagged():
    draft = army(unit("u1", FF_SWORDS, FF_COMMANDER), unit("u2", BEAR), faction="freefolk")
    assert codes(draft) == ["REQUIREMENT_UNMET"]


# --- limited copies ------------------------------------------------------------------------------

CREWS = replace(
    SWORDS,
    id="10506",
    faction="nightswatch",
    name_en="Builder Scorpion Crew",
    requirements=(
        {
            "type": "copy_limit",
            "max": 2,
            "ignore": [{"name": "Scorpion Modifications (Othell Yarwyck)"}],
        },
    ),
)
OTHELL_MODS = attachment("20517", "Scorpion Modifications (Othell Yarwyck)", faction="nightswatch")


def test_limited_unit_carrying_the_ignored_card_is_not_counted():
    draft = army(
        unit("u1", CREWS, NW_ROBB),
        unit("u2", CREWS),
        unit("u3", CREWS, OTHELL_MODS),
        faction="nightswatch",
    )
    assert codes(draft) == []


def test_third_copy_of_a_limited_unit_is_flagged():
    draft = army(
        unit("u1", CREWS, NW_ROBB), unit("u2", CREWS), unit("u3", CREWS), faction="nightswatch"
    )
    assert codes(draft) == ["COPY_LIMIT"]
