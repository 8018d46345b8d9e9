"""Reading and writing Tactics warbands as text (pure, no DB)."""

from armybuilder.listtext.resolve import CardIndex, name_key
from armybuilder.tactics.draft import Coins, TacticsCard
from armybuilder.tactics.text import build_warband, parse_warband_text, write_warband_text

ROBERT_MOUNTED = TacticsCard(
    id="tac-robert-mounted",
    kind="hero",
    name_en="Robert Baratheon",
    title_en="Mounted Rebel King",
    title_fr="Roi Rebelle Monté",
    faction="baratheon",
    characters=("robert-baratheon",),
    mounted=True,
    cost=Coins(3, 1, 0),
)
ROBERT_FOOT = TacticsCard(
    id="tac-robert",
    kind="hero",
    name_en="Robert Baratheon",
    faction="baratheon",
    characters=("robert-baratheon",),
    cost=Coins(2, 0, 0),
)
GUARDIANS = TacticsCard(
    id="tac-guardians",
    kind="soldier",
    name_en="Baratheon Guardians",
    name_fr="Gardiens Baratheon",
    faction="baratheon",
    cost=Coins(0, 0, 1),
)
STEEL = TacticsCard(
    id="tac-steel",
    kind="equipment",
    name_en="Valyrian Steel",
    name_fr="Acier valyrien",
    cost=Coins(0, 0, 2),
    unique=True,
)
INDEX = CardIndex([ROBERT_MOUNTED, ROBERT_FOOT, GUARDIANS, STEEL])
SCENARIOS = {name_key("Standard (3-6-18)"): Coins(3, 6, 18), name_key("Learn to Play"): None}
FACTIONS = {"baratheon": ("Baratheon",), "targaryen": ("Targaryen",)}
NAMES = {"baratheon": ("Baratheon", "Baratheon")}

CANONICAL = """Game: Tactics
Scenario: Standard (3-6-18)
Faction: Baratheon
Heroes:
• Robert Baratheon - Mounted [3G 1S]
  • Valyrian Steel [2C]
Soldiers:
• Baratheon Guardians x4 [1C each]
"""


def build(text):
    return build_warband(
        parse_warband_text(text), index=INDEX, scenarios=SCENARIOS, factions=FACTIONS
    )


def test_canonical_warband_reads_figures_equipment_and_budget():
    draft, findings = build(CANONICAL)
    assert findings == ()
    assert draft.budget == Coins(3, 6, 18) and draft.faction == "baratheon"
    assert [f.card.id for f in draft.figures] == ["tac-robert-mounted"] + ["tac-guardians"] * 4
    assert [(e.card.id, e.holder) for e in draft.equipment] == [("tac-steel", "figure-1")]


def test_warband_round_trips_through_the_writer():
    draft, _ = build(CANONICAL)
    text = write_warband_text(draft, faction_names=NAMES, scenario_label="Standard (3-6-18)")
    again, findings = build(text)
    assert findings == ()
    assert again.figures == draft.figures and again.equipment == draft.equipment


def test_literal_budget_is_read():
    draft, _ = build("Game: Tactics\nScenario: 2-4-12\nHeroes:\n• Robert Baratheon [2G]")
    assert draft.budget == Coins(2, 4, 12)
    assert draft.figures[0].card.id == "tac-robert"


def test_size_word_is_read_as_a_budget():
    draft, _ = build("Game: Tactics\nScenario: large\n• Baratheon Guardians")
    assert draft.budget == Coins(4, 8, 24)


def test_scenario_without_known_budget_leaves_it_empty():
    draft, _ = build("Game: Tactics\nScenario: Learn to Play\n• Baratheon Guardians")
    assert draft.budget is None


def test_french_names_are_read():
    draft, findings = build("Jeu: Tactics\nScenario: 3-6-18\nSoldats:\n• Gardiens Baratheon x2")
    # No Faction line: the faction is taken from the figures, and a warning says so.
    assert [f.code for f in findings] == ["FACTION_INFERRED"] and len(draft.figures) == 2


def test_unknown_figure_is_reported():
    _, findings = build("Game: Tactics\nScenario: 3-6-18\n• Ser Nobody")
    assert [f.code for f in findings] == ["CARD_UNKNOWN"]


def test_empty_text_is_unparseable():
    draft, findings = build("")
    assert draft is None and [f.code for f in findings] == ["LIST_UNPARSEABLE"]
