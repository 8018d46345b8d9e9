"""Reading TMG lists as players paste them, and the canonical round trip (pure, no DB)."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.listtext.resolve import CardIndex
from armybuilder.listtext.tmg import parse_tmg_text
from armybuilder.tmg.draft import CardFacts
from armybuilder.tmg.from_text import build_tmg_draft
from armybuilder.tmg.rulesets import get_ruleset
from armybuilder.tmg.to_text import write_tmg_text

SWORN = CardFacts(
    id="10201",
    kind="unit",
    faction="stark",
    name_en="Stark Sworn Swords",
    name_fr="Épées Liges Stark",
    points=5,
    unit_type="infantry",
    tray="infantry",
)
UMBER = CardFacts(
    id="10204",
    kind="unit",
    faction="stark",
    name_en="House Umber Berserkers",
    name_fr="Berserkers de la Maison Omble",
    points=6,
    unit_type="infantry",
    tray="infantry",
)
ROBB_LORD = CardFacts(
    id="20201",
    kind="attachment",
    faction="stark",
    name_en="Robb Stark",
    title_en="The Wolf Lord",
    title_fr="Le Seigneur Loup",
    points=0,
    unit_type="infantry",
    is_character=True,
    characters=("robb-stark",),
    is_commander=True,
)
ROBB_YOUNG = replace(
    ROBB_LORD,
    id="20202",
    title_en="The Young Wolf",
    title_fr="Le Jeune Loup",
    is_commander=False,
    points=2,
)
GREATJON = CardFacts(
    id="20206",
    kind="attachment",
    faction="stark",
    name_en="Greatjon Umber",
    title_en="Fierce Bannerman",
    points=2,
    unit_type="infantry",
    is_character=True,
    characters=("greatjon-umber",),
)
CATELYN = CardFacts(
    id="30201",
    kind="ncu",
    faction="stark",
    name_en="Catelyn Stark",
    title_en="Lady of Winterfell",
    title_fr="Dame de Winterfell",
    points=4,
    is_character=True,
    characters=("catelyn-stark",),
)
JAQEN = CardFacts(
    id="30405",
    kind="ncu",
    faction="neutral",
    name_en="Jaqen H'ghar",
    title_en="Faceless Man",
    points=5,
    is_character=True,
    characters=("jaqen-hghar",),
)
INDEX = CardIndex([SWORN, UMBER, ROBB_LORD, ROBB_YOUNG, GREATJON, CATELYN, JAQEN])
FACTIONS = {
    "stark": ("Stark",),
    "neutral": ("Neutral", "Neutre"),
    "freefolk": ("Free Folk", "Peuple Libre"),
}
FACTION_NAMES = {"stark": ("Stark", "Stark"), "neutral": ("Neutral", "Neutre")}

CANONICAL = """Faction: Stark
Points: 40
Commander: Robb Stark - The Wolf Lord
Combat Units:
• Stark Sworn Swords (5)
  • Robb Stark - The Wolf Lord (C)
• House Umber Berserkers (6)
  • Greatjon Umber - Fierce Bannerman (2)
Non-Combat Units:
• Catelyn Stark - Lady of Winterfell (4)
"""


def errors(result):
    return [f.code for f in result.findings if f.severity == "error"]


def build(text):
    return build_tmg_draft(
        parse_tmg_text(text, factions=FACTIONS),
        index=INDEX,
        factions=FACTIONS,
        ruleset=get_ruleset(),
    )


def shape(result):
    draft = result.draft
    return (
        draft.faction,
        draft.points_limit,
        [(u.card.id, [a.card.id for a in u.attachments]) for u in draft.units],
        [n.card.id for n in draft.ncus],
    )


EXPECTED = ("stark", 40, [("10201", ["20201"]), ("10204", ["20206"])], ["30201"])


def test_canonical_list_reads_every_entry():
    result = build(CANONICAL)
    assert result.findings == ()
    assert shape(result) == EXPECTED


def test_canonical_list_round_trips_through_the_writer():
    first = build(CANONICAL)
    text = write_tmg_text(first.draft, faction_names=FACTION_NAMES)
    assert text == CANONICAL
    assert shape(build(text)) == EXPECTED


def test_french_canonical_list_round_trips():
    first = build(CANONICAL)
    text = write_tmg_text(first.draft, faction_names=FACTION_NAMES, lang="fr")
    assert "Épées Liges Stark (5)" in text
    assert shape(build(text)) == EXPECTED


def test_loose_list_with_dashes_commas_and_no_sections_reads_the_same():
    text = """stark 40pts
Faction: House Stark
Points: 40/40
- stark sworn swords [5]
    - robb stark, the wolf lord (C)
- House Umber Berserkers 6 pts
    with Greatjon Umber, Fierce Bannerman (2)
- Catelyn Stark, Lady of Winterfell (4)
Built on War Council
"""
    result = build(text)
    assert result.findings == ()
    assert shape(result) == EXPECTED


def test_inline_attachments_with_plus_and_w_slash_are_attached():
    text = (
        "Faction: Stark\n"
        "Stark Sworn Swords (5) + Robb Stark (C)\n"
        "House Umber Berserkers (6) w/ Greatjon Umber (2)\n"
        "Catelyn Stark (4)"
    )
    assert shape(build(text)) == EXPECTED


def test_french_names_without_accents_are_resolved():
    text = "Faction: Stark\n* Epees Liges Stark\n  * Robb Stark - Le Seigneur Loup (G)"
    result = build(text)
    assert [(u.card.id, [a.card.id for a in u.attachments]) for u in result.draft.units] == [
        ("10201", ["20201"])
    ]


def test_cost_marker_picks_the_commander_version():
    result = build("Faction: Stark\n• Stark Sworn Swords (5)\n  • Robb Stark (C)")
    assert result.draft.units[0].attachments[0].card.id == "20201"


def test_name_matching_two_versions_without_title_or_cost_is_ambiguous():
    result = build("Faction: Stark\n• Stark Sworn Swords (5)\n  • Robb Stark")
    assert errors(result) == ["CARD_AMBIGUOUS"]


def test_small_typo_is_corrected():
    result = build("Faction: Stark\n• Stark Sworn Sowrds (5)")
    assert [f.code for f in result.findings] == ["NAME_CORRECTED", "POINTS_ASSUMED"]
    assert result.entries[0].corrected_from == "Stark Sworn Sowrds"


def test_unknown_name_gives_card_unknown_with_suggestions():
    result = build("Faction: Stark\n• Stark Sword Guys (5)")
    (finding,) = [f for f in result.findings if f.severity == "error"]
    assert finding.code == "CARD_UNKNOWN"
    assert "Stark Sworn Swords" in finding.message.en


def test_quantity_prefix_repeats_the_unit():
    result = build("Faction: Stark\n2x Stark Sworn Swords (5)")
    assert [u.card.id for u in result.draft.units] == ["10201", "10201"]


def test_attachment_before_any_unit_stays_unattached():
    result = build("Faction: Stark\nNon-Combat Units:\n• Greatjon Umber (2)")
    assert [e.card.id for e in result.draft.unattached] == ["20206"]


def test_missing_faction_is_inferred_from_the_cards():
    result = build("• Stark Sworn Swords (5)\n  • Robb Stark (C)\n• Jaqen H'ghar (5)")
    assert result.draft.faction == "stark"
    assert "FACTION_INFERRED" in [f.code for f in result.findings]


def test_curly_apostrophe_matches_straight_one():
    result = build("Faction: Stark\n• Jaqen H’ghar (5)")
    assert [n.card.id for n in result.draft.ncus] == ["30405"]


def test_text_without_card_lines_is_unparseable():
    result = build("hello there\n\n")
    assert [f.code for f in result.findings] == ["LIST_UNPARSEABLE"]


def test_empty_text_is_unparseable():
    assert [f.code for f in build("").findings] == ["LIST_UNPARSEABLE"]


def test_unknown_faction_header_is_reported():
    result = build("Faction: Dothraki Horde\n• Stark Sworn Swords (5)")
    assert "LIST_UNPARSEABLE" in [f.code for f in result.findings]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parser_never_raises_on_arbitrary_text(text):
    result = build(text)
    assert result.draft is not None or [f.code for f in result.findings] == ["LIST_UNPARSEABLE"]


def test_army_faction_version_wins_over_its_neutral_twin():
    neutral_twin = replace(SWORN, id="10499", faction="neutral")
    index = CardIndex([SWORN, neutral_twin, ROBB_LORD])
    result = build_tmg_draft(
        parse_tmg_text("Faction: Stark\n• Stark Sworn Swords (5)\n  • Robb Stark (C)"),
        index=index,
        factions=FACTIONS,
        ruleset=get_ruleset(),
    )
    assert result.draft.units[0].card.id == "10201"


def test_attachment_under_an_unknown_unit_is_not_hung_on_the_previous_unit():
    text = (
        "Faction: Stark\n• Stark Sworn Swords (5)\n• Wildling Mystery Band (5)\n  • Robb Stark (C)"
    )
    result = build(text)
    assert errors(result) == ["CARD_UNKNOWN"]
    assert result.draft.units[0].attachments == ()


def test_unattached_attachment_round_trips_in_its_own_section():
    first = build(
        "Faction: Stark\n• Stark Sworn Swords (5)\n  • Robb Stark (C)\n"
        "Attachments:\n• Greatjon Umber (2)"
    )
    assert [e.card.id for e in first.draft.unattached] == ["20206"]
    text = write_tmg_text(first.draft, faction_names=FACTION_NAMES)
    assert "Attachments:\n• Greatjon Umber - Fierce Bannerman (2)" in text
    again = build(text)
    assert [e.card.id for e in again.draft.unattached] == ["20206"]
    assert [a.card.id for a in again.draft.units[0].attachments] == ["20201"]
