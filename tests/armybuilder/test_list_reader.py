"""The TMG list reader on lists as players write them (list-conventions.md), EN and FR.

Each convention has a made-up list of our own, read against the whole card pool of the
shipped snapshot; the six real lists of ../shared/data/real-lists are read exactly as
their index says (those tests skip without ../shared). Every test also holds the reader
to its promise: every input line appears in the line-by-line reading exactly once.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.checking import check_tmg_text
from armybuilder.listtext.reading import LineKind

pytestmark = pytest.mark.django_db


def read(pool, text, lang="en"):
    result = check_tmg_text(text, pool=pool, lang=lang)
    assert [line.number for line in result.lines] == list(range(1, len(text.splitlines()) + 1))
    return result


def cards(result):
    """(card id, role, host card id, commander) per entry, in reading order."""
    by_ref = {entry.ref: entry for entry in result.entries}
    return [
        (e.card.id, e.role, by_ref[e.host].card.id if e.host else None, e.commander)
        for e in result.entries
    ]


def kinds(result):
    return [str(line.kind) for line in result.lines]


def codes(result, severity=None):
    return [f.code for f in result.findings if severity is None or f.severity == severity]


# --- where the attachment goes ---------------------------------------------------------


def test_reader_app_export_indented_bullets_attach_to_the_unit_above(snapshot_pool):
    text = "Faction: Greyjoy\n• Ironborn Reavers (5)\n  • Reaver Captain (1)\n• Drowned Men (4)"
    assert cards(read(snapshot_pool, text))[:3] == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
        ("10808", "unit", None, False),
    ]


def test_reader_with_line_attaches_to_the_unit_above(snapshot_pool):
    text = "Faction: Greyjoy\n- Ironborn Reavers (5)\nwith Reaver Captain (1)"
    assert cards(read(snapshot_pool, text)) == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
    ]


def test_reader_same_line_with_reads_unit_and_attachment(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nIronborn Reavers with Reaver Captain")
    assert cards(result) == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
    ]
    assert result.lines[1].refs == ("unit-1", "unit-1.attachment-1")


def test_reader_in_puts_the_attachment_first(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nReaver Captain in Ironborn Reavers")
    assert cards(result) == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
    ]


def test_reader_dash_between_unit_and_attachment_splits(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nIronborn Reavers – Reaver Captain")
    assert cards(result) == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
    ]


def test_reader_dash_between_name_and_title_stays_one_card(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nIronborn Reavers\nEuron Greyjoy – Crow's Eye")
    assert cards(result)[1] == ("20814", "attachment", "10801", False)


def test_reader_parentheses_after_the_unit_hold_its_attachment(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nIronborn Reavers (Reaver Captain)")
    assert cards(result) == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
    ]


def test_reader_parentheses_with_commander_role_mark_the_commander(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nIronmakers (Euron Greyjoy, Commander)")
    assert cards(result) == [("10804", "unit", None, False), ("20812", "attachment", "10804", True)]


def test_reader_parentheses_with_a_title_read_as_one_card(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nIronborn Reavers\nEuron Greyjoy (Crow's Eye)")
    assert cards(result)[1][0] == "20814"


def test_reader_legend_line_is_explained_not_read_as_a_card(snapshot_pool):
    result = read(
        snapshot_pool, "Faction: Greyjoy\nUnits (Attachments)\nIronborn Reavers (Reaver Captain)"
    )
    assert kinds(result)[1] == "legend"
    assert "CARD_UNKNOWN" not in codes(result)


def test_reader_two_attachments_on_one_unit_are_both_read(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nDrowned Men with Warsworn and Reaver Captain")
    assert [c[2] for c in cards(result)] == [None, "10808", "10808"]


def test_reader_multiplier_repeats_the_unit_with_its_attachment(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n2 x Ironborn Reavers with Reaver Captain")
    assert [(c[0], c[1]) for c in cards(result)] == [
        ("10801", "unit"),
        ("20805", "attachment"),
        ("10801", "unit"),
        ("20805", "attachment"),
    ]
    assert [e.host for e in result.entries if e.host] == ["unit-1", "unit-2"]


# --- commanders ------------------------------------------------------------------------


def test_reader_c_mark_picks_the_commander_version(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\n  • Asha Greyjoy (C)")
    assert cards(result)[1] == ("20801", "attachment", "10801", True)


def test_reader_commander_header_repeating_a_listed_card_adds_nothing(snapshot_pool):
    text = (
        "Commander: Euron Greyjoy – Lord Reaper of Pyke\nFaction: Greyjoy\n"
        "• Ironmakers (7)\nwith Euron Greyjoy – Lord Reaper of Pyke"
    )
    result = read(snapshot_pool, text)
    assert len(result.entries) == 2
    assert result.lines[0].kind == LineKind.HEADER
    assert "line 4" in result.lines[0].note.en


def test_reader_commander_only_in_the_header_is_read_from_it(snapshot_pool):
    text = "Commander: Robb Stark (Wolf Lord)\nFaction: Stark\n• Stark Sworn Swords"
    result = read(snapshot_pool, text)
    assert ("20201", "attachment", None, True) in cards(result)
    assert result.lines[0].refs == ("attachment-1",)
    assert "COMMANDER_MISSING" not in codes(result)


def test_reader_header_commander_that_cannot_lead_is_read_and_judged(snapshot_pool):
    text = "Commander: Robb Stark (Young Wolf)\nFaction: Stark\n• Stark Sworn Swords"
    result = read(snapshot_pool, text)
    assert "20206" in [c[0] for c in cards(result)]
    (missing,) = [f for f in result.findings if f.code == "COMMANDER_MISSING"]
    assert "Robb Stark" in missing.message.en


def test_reader_commander_in_the_ncu_section_is_judged(snapshot_pool):
    text = (
        "Faction: Stark\n• Stark Sworn Swords\n  • Robb Stark (C)\n"
        "NCUs:\n• Catelyn Stark - Lady of Winterfell (C)"
    )
    result = read(snapshot_pool, text)
    assert [e.commander for e in result.entries] == [False, True, True]
    assert result.legal is False


# --- NCUs ------------------------------------------------------------------------------


def test_reader_ncus_on_one_line_by_first_name(snapshot_pool):
    result = read(
        snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\nNCU's: Aeron, Balon and Rodrik"
    )
    assert [c[0] for c in cards(result)[1:]] == ["30802", "30803", "30801"]
    assert result.lines[2].refs == ("ncu-1", "ncu-2", "ncu-3")


def test_reader_ncus_after_a_dash_with_ampersand(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\nNCUs - Aeron & Balon")
    assert [c[0] for c in cards(result)[1:]] == ["30802", "30803"]


def test_reader_ncu_with_title_in_parentheses(snapshot_pool):
    result = read(
        snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\nNCU: Aeron Greyjoy (The Damphair)"
    )
    assert cards(result)[1] == ("30802", "ncu", None, False)


# --- names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "card_id"),
    [
        ("Harlaw Reapers", "10803"),  # no "House" prefix
        ("Greyjoy Ironborn Reavers", "10801"),  # a faction word added
        ("Ironborn Reaver", "10801"),  # singular
        ("IRONBORN REAVERS", "10801"),
        ("Ravageurs Fer-nés", "10801"),  # French name in an English list
        ("Ironborn Reevers", "10801"),  # a typo
    ],
)
def test_reader_unit_names_as_players_write_them(snapshot_pool, written, card_id):
    result = read(snapshot_pool, f"Faction: Greyjoy\n• {written}")
    assert cards(result)[0][0] == card_id


def test_reader_lost_apostrophe_still_finds_the_card(snapshot_pool):
    result = read(snapshot_pool, "Faction: Baratheon\n• Kings Men (7)")
    assert cards(result)[0][0] == "10608"


def test_reader_title_alone_finds_the_character(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\nNCUs:\n• The Damphair")
    assert cards(result)[1][0] == "30802"


def test_reader_nickname_from_the_names_table(snapshot_pool):
    result = read(snapshot_pool, "Faction: Lannister\n• Lannister Guardsmen\n  • Kingslayer (C)")
    assert cards(result)[1][0] == "20115"


def test_reader_typo_is_corrected_with_a_warning(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nPoints: 40\n• Ironborn Reevers (5)")
    assert "NAME_CORRECTED" in codes(result, "warning")
    assert result.entries[0].corrected_from == "Ironborn Reevers"


def test_reader_painted_model_name_is_not_guessed(snapshot_pool):
    result = read(
        snapshot_pool, 'Faction: Greyjoy\n• Ironborn Reavers\n• "Old Salty" the Kraken (4)'
    )
    assert len(result.entries) == 1
    assert result.lines[2].kind in (LineKind.UNKNOWN, LineKind.AMBIGUOUS)
    assert result.legal is False


def test_reader_two_versions_and_no_hint_pick_none(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\n  • Theon Greyjoy")
    assert result.lines[2].kind == LineKind.AMBIGUOUS
    assert set(result.lines[2].candidates) == {"20807", "20808"}
    assert "CARD_AMBIGUOUS" in codes(result, "error")


def test_reader_printed_cost_chooses_between_versions_with_a_warning(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n• Ironborn Reavers\n  • Theon Greyjoy (1)")
    assert cards(result)[1][0] == "20807"
    assert "CARD_CHOSEN" in codes(result, "warning")


def test_reader_army_faction_chooses_the_host_types_attachment(snapshot_pool):
    result = read(snapshot_pool, "Faction: Stark\n• Stark Sworn Swords\n  • Greatjon Umber (2)")
    assert cards(result)[1][0] == "20205"


# --- points and noise ------------------------------------------------------------------


@pytest.mark.parametrize("cost", ["(5)", "(5 pts)", "[5]", "5pts", "- 5"])
def test_reader_cost_forms_are_read_as_the_printed_cost(snapshot_pool, cost):
    result = read(snapshot_pool, f"Faction: Greyjoy\n• Ironborn Reavers {cost}")
    assert result.entries[0].printed_cost == "5"


@pytest.mark.parametrize(
    "line", ["5 - Ironborn Reavers", "[5] Ironborn Reavers", "5 Ironborn Reavers"]
)
def test_reader_cost_before_the_name_is_a_cost(snapshot_pool, line):
    result = read(snapshot_pool, f"Faction: Greyjoy\n{line}")
    assert [(e.card.id, e.printed_cost) for e in result.entries] == [("10801", "5")]


def test_reader_small_bare_number_before_the_name_is_a_count(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n2 Ironborn Reavers")
    assert [e.card.id for e in result.entries] == ["10801", "10801"]


def test_reader_older_printed_cost_is_reported_not_trusted(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\nPoints: 40\n• Ironborn Reavers (9)")
    assert "COST_DIFFERS" in codes(result, "warning")
    assert result.points.spent == 5


def test_reader_faction_header_that_is_a_special_card_name(snapshot_pool):
    result = read(snapshot_pool, "House Greyjoy\n• Ironborn Reavers")
    assert result.faction == "greyjoy"
    assert kinds(result)[0] == "header"
    assert "FACTION_INFERRED" not in codes(result)


@pytest.mark.parametrize(
    "line", ["Points: 40 (12 Neutral)", "40/40 Points", "Points: 40 | Activations: 7", "40 pts"]
)
def test_reader_points_header_forms(snapshot_pool, line):
    result = read(snapshot_pool, f"Faction: Greyjoy\n{line}\n• Ironborn Reavers")
    assert result.points.limit == 40
    assert kinds(result)[1] == "header"


def test_reader_headers_footers_prose_markup_and_emoji(snapshot_pool):
    text = (
        "**Kraken Rush** 🦑\n"
        "Faction: Greyjoy\n"
        "Points: 40\n"
        "Activations: 7\n"
        "\n"
        "[b]Combat Units[/b]\n"
        "⚔️ Ironborn Reavers (5)\n"
        "I like how aggressive this is, it hits before the enemy moves.\n"
        "Plus 3 Castle Walls\n"
        "Made with ASOIAF Builder\n"
    )
    result = read(snapshot_pool, text)
    assert kinds(result) == [
        "title",
        "header",
        "header",
        "header",
        "blank",
        "section",
        "card",
        "prose",
        "extra",
        "footer",
    ]
    assert codes(result, "error") == ["COMMANDER_MISSING"]


def test_reader_whole_list_on_one_line(snapshot_pool):
    text = "Faction: Greyjoy\nIronborn Reavers (5) • Reaver Captain (1) • Drowned Men (4)"
    result = read(snapshot_pool, text)
    assert [c[0] for c in cards(result)] == ["10801", "20805", "10808"]


def test_reader_lost_line_break_after_a_with_line(snapshot_pool):
    text = "Faction: Greyjoy\n- Ironborn Reavers (5)\nwith Reaver Captain (1) - Drowned Men (4)"
    result = read(snapshot_pool, text)
    assert cards(result) == [
        ("10801", "unit", None, False),
        ("20805", "attachment", "10801", False),
        ("10808", "unit", None, False),
    ]


def test_reader_second_list_in_the_same_text_is_not_mixed_in(snapshot_pool):
    text = "Faction: Greyjoy\n• Ironborn Reavers\n\nList 2\nFaction: Stark\n• Stark Sworn Swords"
    result = read(snapshot_pool, text)
    assert [c[0] for c in cards(result)] == ["10801"]
    assert kinds(result)[3:] == ["other_list"] * 3
    assert "LIST_SEVERAL" in codes(result, "warning")


def test_reader_faction_inferred_and_size_assumed_are_warnings(snapshot_pool):
    result = read(snapshot_pool, "• Ironborn Reavers (5)\n  • Asha Greyjoy (C)")
    assert result.faction == "greyjoy"
    assert {"FACTION_INFERRED", "POINTS_ASSUMED"} <= set(codes(result, "warning"))


def test_reader_entry_says_how_its_card_was_chosen(snapshot_pool):
    result = read(snapshot_pool, "Faction: Greyjoy\n• Harlaw Reapers")
    assert "House" in result.entries[0].how.en


# --- French ------------------------------------------------------------------------------

FRENCH = """Armée : Stark
Points : 40
Général : Robb Stark - Le Seigneur Loup
Unités de combat :
• Épées Liges Stark (5)
  • Robb Stark - Le Seigneur Loup (G)
• Berserkers de la Maison Omble (6) avec Lard-Jon Omble - Banneret Intrépide (2)
Unités non-combattantes :
• Catelyn Stark - Dame de Winterfell (4)
"""


def test_reader_french_list_reads_every_line(snapshot_pool):
    result = read(snapshot_pool, FRENCH, lang="fr")
    assert cards(result) == [
        ("10201", "unit", None, False),
        ("20201", "attachment", "10201", True),
        ("10203", "unit", None, False),
        ("20205", "attachment", "10203", False),
        ("30201", "ncu", None, False),
    ]
    assert kinds(result)[:4] == ["header", "header", "header", "section"]
    assert result.legal


def test_reader_french_one_line_ncus_with_et(snapshot_pool):
    text = (
        "Armée : Stark\n• Épées Liges Stark\n  • Robb Stark (G)\n"
        "UNC : Catelyn Stark - Dame de Winterfell et Robb Stark - Roi du Nord"
    )
    result = read(snapshot_pool, text, lang="fr")
    assert [c[0] for c in cards(result)[2:]] == ["30201", "30210"]


def test_reader_french_notes_are_translated(snapshot_pool):
    result = read(snapshot_pool, FRENCH, lang="fr")
    assert result.lines[3].note.in_language("fr") != result.lines[3].note.in_language("en")


# --- every line exactly once -----------------------------------------------------------

LINE_PIECES = st.sampled_from(
    [
        "",
        "Faction: Greyjoy",
        "House Greyjoy",
        "Points: 40 (12 Neutral)",
        "Commander: Euron Greyjoy (Crow's Eye)",
        "• Ironborn Reavers (5)",
        "  • Reaver Captain (1)",
        "with Warsworn",
        "Ironmakers (Euron Greyjoy, Commander)",
        "2 x Drowned Men with Warsworn and Reaver Captain",
        "NCU's: Aeron, Balon and Rodrik",
        "Made with an app",
        "I really like this list, it is fun.",
        "**Combat Units**",
        "List 2",
        "(((",
        "- 5",
        "with",
        "x",
        "🦑🦑",
    ]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pieces=st.lists(st.one_of(LINE_PIECES, st.text(max_size=40)), max_size=12))
def test_reader_never_raises_and_accounts_for_every_line_once(snapshot_pool, pieces):
    text = "\n".join(p.replace("\n", " ").replace("\r", " ") for p in pieces)
    result = check_tmg_text(text, pool=snapshot_pool)
    assert [line.number for line in result.lines] == list(range(1, len(text.splitlines()) + 1))
    refs = [ref for line in result.lines for ref in line.refs]
    assert sorted(refs) == sorted(entry.ref for entry in result.entries)


# --- the six real lists of ../shared ---------------------------------------------------


def _real_lists(shared_dir):
    folder = shared_dir / "data" / "real-lists"
    return folder, json.loads((folder / "index.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("number", range(6))
def test_reader_real_list_reads_as_its_index_says(snapshot_pool, shared_dir, number):
    folder, index = _real_lists(shared_dir)
    expected = index[number]
    result = read(snapshot_pool, (folder / expected["file"]).read_text(encoding="utf-8"))
    entries = list(result.entries)
    refs = [e.ref for e in entries]
    got = [
        (e.card.id, e.role, refs.index(e.host) if e.host else None, e.commander) for e in entries
    ]
    want = [(e["card_id"], e["role"], e["host"], e["commander"]) for e in expected["entries"]]
    assert got == want
    assert result.faction == expected["faction"]
    for entry, wanted in zip(entries, expected["entries"], strict=True):
        if wanted["ambiguous"]:
            assert {entry.card.id, *entry.alternatives} == set(wanted["candidates"])


# --- the same conventions, written in French ---------------------------------------------

SWORN, ROBB_LORD, GREATJON, UMBER = "10201", "20201", "20205", "10203"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (  # same line, "avec"
            "Épées Liges Stark avec Robb Stark - Le Seigneur Loup (G)",
            [(SWORN, "unit", None, False), (ROBB_LORD, "attachment", SWORN, True)],
        ),
        (  # attachment in parentheses, with the French role word
            "Épées Liges Stark (Robb Stark, Général)",
            [(SWORN, "unit", None, False), (ROBB_LORD, "attachment", SWORN, True)],
        ),
        (  # "dans": the attachment first
            "Lard-Jon Omble - Banneret Intrépide dans Berserkers de la Maison Omble",
            [(UMBER, "unit", None, False), (GREATJON, "attachment", UMBER, False)],
        ),
        (  # unit – attachment around a dash
            "Berserkers de la Maison Omble – Lard-Jon Omble - Banneret Intrépide",
            [(UMBER, "unit", None, False), (GREATJON, "attachment", UMBER, False)],
        ),
    ],
)
def test_reader_french_attachment_forms(snapshot_pool, line, expected):
    result = read(snapshot_pool, f"Armée : Stark\n{line}", lang="fr")
    assert cards(result) == expected


def test_reader_french_avec_line_attaches_to_the_unit_above(snapshot_pool):
    text = (
        "Armée : Stark\n- Épées Liges Stark (5 pts)\navec Lard-Jon Omble - Banneret Intrépide (2)"
    )
    assert cards(read(snapshot_pool, text, lang="fr"))[1] == (GREATJON, "attachment", SWORN, False)


def test_reader_french_multiplier_repeats_unit_and_attachment(snapshot_pool):
    text = "Armée : Stark\n2 x Épées Liges Stark avec Lard-Jon Omble - Banneret Intrépide"
    result = read(snapshot_pool, text, lang="fr")
    assert [c[:2] for c in cards(result)] == [
        (SWORN, "unit"),
        (GREATJON, "attachment"),
        (SWORN, "unit"),
        (GREATJON, "attachment"),
    ]


def test_reader_french_headers_footer_and_prose(snapshot_pool):
    text = (
        "Maison Stark\n"
        "Points : 40 (0 neutres)\n"
        "Unités de combat :\n"
        "• Épées Liges Stark (5)\n"
        "J'aime beaucoup cette liste, elle frappe très fort au centre.\n"
        "Liste faite avec l'appli officielle"
    )
    result = read(snapshot_pool, text, lang="fr")
    assert kinds(result) == ["header", "header", "section", "card", "prose", "footer"]
    assert result.faction == "stark" and result.points.limit == 40


def test_reader_french_ncus_by_first_name(snapshot_pool):
    text = "Armée : Stark\n• Épées Liges Stark\nUNC : Catelyn et Robb"
    result = read(snapshot_pool, text, lang="fr")
    assert [c[0] for c in cards(result)[1:]] == ["30201", "30210"]


def test_reader_french_general_header_only_is_read(snapshot_pool):
    text = "Général : Robb Stark - Le Seigneur Loup\nArmée : Stark\n• Épées Liges Stark"
    result = read(snapshot_pool, text, lang="fr")
    assert (ROBB_LORD, "attachment", None, True) in cards(result)


def test_reader_french_typo_is_corrected(snapshot_pool):
    result = read(snapshot_pool, "Armée : Stark\n• Épées Liges Starc (5)", lang="fr")
    assert cards(result)[0][0] == SWORN
    assert "NAME_CORRECTED" in codes(result, "warning")


def test_reader_bbcode_list_items_are_read(snapshot_pool):
    text = "[b]Faction: Greyjoy[/b]\n[list]\n[*]Ironborn Reavers [5]\n[*]Drowned Men [4]\n[/list]"
    result = read(snapshot_pool, text)
    assert [c[0] for c in cards(result)] == ["10801", "10808"]


def test_reader_app_export_headers_and_tactics_section(snapshot_pool):
    text = (
        "Faction: Stark (40 pts)\n"
        "Neutral: 0/20\n"
        "Combat Units (5):\n"
        "• Stark Sworn Swords (5)\n"
        "  • Robb Stark, The Wolf Lord (C)\n"
        "Tactics Cards:\n"
        "• Wolves of the North\n"
        "```"
    )
    result = read(snapshot_pool, text)
    assert result.faction == "stark" and result.points.limit == 40
    assert kinds(result) == [
        "header",
        "header",
        "section",
        "card",
        "card",
        "section",
        "extra",
        "blank",
    ]
    assert codes(result, "error") == []
