"""A small card pool made with the ORM, for the DB-facing checking tests."""

import pytest

from cards.models import Card, Character, Faction, Scenario


def _character(key, name):
    return Character.objects.get_or_create(key=key, defaults={"name_en": name})[0]


@pytest.fixture
def small_pool(db):
    stark = Faction.objects.create(game="tmg", slug="stark", name_en="Stark", name_fr="Stark")
    neutral = Faction.objects.create(
        game="tmg", slug="neutral", name_en="Neutral", name_fr="Neutre", is_neutral=True
    )
    Faction.objects.create(game="tmg", slug="freefolk", name_en="Free Folk", name_fr="Peuple Libre")

    def card(external_id, kind, faction, name, *, characters=(), **fields):
        created = Card.objects.create(
            game="tmg", kind=kind, external_id=external_id, faction=faction, name_en=name, **fields
        )
        for key, person in characters:
            created.characters.add(_character(key, person))
        return created

    card(
        "10201",
        "unit",
        stark,
        "Stark Sworn Swords",
        name_fr="Épées Liges Stark",
        points=5,
        unit_type="infantry",
        tray="infantry",
    )
    card("10203", "unit", stark, "Stark Outriders", points=6, unit_type="cavalry", tray="cavalry")
    robb = card(
        "20201",
        "attachment",
        stark,
        "Robb Stark",
        title_en="The Wolf Lord",
        points=0,
        unit_type="infantry",
        is_character=True,
        is_commander=True,
        characters=[("robb-stark", "Robb Stark")],
        extra={"tactics": ["40208", "40209", "40210"]},
    )
    card(
        "20202",
        "attachment",
        stark,
        "Robb Stark",
        title_en="The Young Wolf",
        points=2,
        unit_type="infantry",
        is_character=True,
        characters=[("robb-stark", "Robb Stark")],
    )
    card(
        "30201",
        "ncu",
        stark,
        "Catelyn Stark",
        title_en="Lady of Winterfell",
        points=4,
        is_character=True,
        characters=[("catelyn-stark", "Catelyn Stark")],
    )
    card("10401", "unit", neutral, "Sellswords", points=6, unit_type="infantry", tray="infantry")
    for number in range(1, 8):
        card(f"4020{number}", "tactics", stark, f"Stark Tactic {number}")
    for number in (8, 9, 10):
        card(f"402{number:02d}", "tactics", stark, f"Robb Tactic {number}", commander_card=robb)

    baratheon = Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    for external_id, kind, name, title, coins, mounted in (
        ("tac-robert-mounted", "hero", "Robert Baratheon", "Mounted", (3, 1, 0), True),
        ("tac-robert", "hero", "Robert Baratheon", "", (2, 0, 0), False),
        ("tac-guardians", "soldier", "Baratheon Guardians", "", (0, 0, 1), False),
    ):
        created = Card.objects.create(
            game="tactics",
            kind=kind,
            external_id=external_id,
            faction=baratheon,
            name_en=name,
            title_en=title,
            gold=coins[0],
            silver=coins[1],
            copper=coins[2],
            mounted=mounted,
        )
        if kind == "hero":
            created.characters.add(_character("robert-baratheon", "Robert Baratheon"))
    Card.objects.create(
        game="tactics",
        kind="equipment",
        external_id="tac-steel",
        name_en="Valyrian Steel",
        gold=0,
        silver=0,
        copper=2,
        carriers=["hero", "champion"],
        is_unique=True,
    )
    Scenario.objects.create(
        game="tactics",
        slug="tac-standard",
        kind="game_size",
        name_en="Standard (3-6-18)",
        gold=3,
        silver=6,
        copper=18,
    )


@pytest.fixture
def baratheon(small_pool):
    """The small pool's Tactics Baratheon faction."""
    return Faction.objects.get(game="tactics", slug="baratheon")
