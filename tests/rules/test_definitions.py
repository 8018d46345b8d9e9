"""Where a term is defined (rules.definitions): headings, glossary-style entries, the
glossary across languages, the reader's language first — over plain values, no database."""

from __future__ import annotations

from rules.definitions import DefinitionIndex, SectionText


def section(id, heading, *, lang="fr", body="", kind="rule", quick=False, book=None):
    return SectionText(
        id=id,
        book_slug=book or f"book-{lang}{'-quick' if quick else ''}",
        book_lang=lang,
        is_quick_reference=quick,
        slug=f"s{id}",
        heading=heading,
        kind=kind,
        position=id,
        body=body,
    )


FR_BOOK = [
    section(1, "GLOSSAIRE COURANT", kind="chapter", body="ALLIÉ : une unité à vous.\n"),
    section(2, "Ordres", body="Une fois par round."),
    section(3, "TESTS DE MORAL & PANIQUE", kind="chapter", body="Lancez deux dés."),
    section(4, "MATÉRIEL", kind="chapter", body="x" * 5000 + "\nVULNÉRABLE : relancez.\n"),
    section(5, "États", body="VULNÉRABLE : relancez les sauvegardes.\n"),
    section(6, "Multijoueur", kind="chapter"),
    section(7, "Parties en Équipe"),
    section(8, "ACTION DE CHARGE 2"),
]
EN_QUICK = [
    section(20, "Key terms", lang="en", quick=True, body="- Flank / Rear — saves at -1/-2.\n"),
    section(21, "Game size", lang="en", quick=True),
]


def test_find_matches_a_heading_despite_case_accents_and_plural():
    assert DefinitionIndex(FR_BOOK).find("ordre", language="fr").section_id == 2


def test_find_uses_the_part_before_a_colon_of_an_ability_name():
    assert DefinitionIndex(FR_BOOK).find("Ordre : Menacer", language="fr").section_id == 2


def test_find_crosses_languages_through_the_glossary():
    assert DefinitionIndex(FR_BOOK).find("Order: Threaten", language="en").section_id == 2


def test_find_reads_capitalised_glossary_entries():
    assert DefinitionIndex(FR_BOOK).find("Allié", language="fr").section_id == 1


def test_find_prefers_the_shortest_section_holding_an_entry():
    assert DefinitionIndex(FR_BOOK).find("Vulnerable", language="en").section_id == 5


def test_find_splits_headings_joining_two_terms():
    assert DefinitionIndex(FR_BOOK).find("Test de Moral", language="fr").section_id == 3


def test_find_ignores_the_action_cost_after_a_heading():
    assert DefinitionIndex(FR_BOOK).find("Action de Charge", language="fr").section_id == 8


def test_find_prefers_the_term_as_written_over_a_glossary_synonym():
    # "Parties en Équipe" and "Multijoueur" are synonyms in the glossary.
    assert DefinitionIndex(FR_BOOK).find("Parties en Équipe", language="fr").section_id == 7


def test_find_prefers_the_readers_language():
    index = DefinitionIndex(FR_BOOK + EN_QUICK)
    assert index.find("Taille de la Partie", language="en").section_id == 21


def test_find_falls_back_to_another_language():
    assert DefinitionIndex(FR_BOOK).find("Multiplayer", language="en").section_id == 6


def test_find_reads_dash_entries_of_quick_references():
    assert DefinitionIndex(EN_QUICK).find("Rear", language="en").section_id == 20


def test_find_returns_none_for_an_undefined_term():
    assert DefinitionIndex(FR_BOOK).find("Dracarys", language="fr") is None


def test_find_first_keeps_the_callers_order_within_one_book():
    index = DefinitionIndex(FR_BOOK)
    assert index.find_first(["Parties en Équipe", "Multijoueur"], language="fr").section_id == 7
    assert index.find_first(["Multijoueur", "Parties en Équipe"], language="fr").section_id == 6


def test_mentioned_terms_lists_glossary_terms_of_the_game():
    text = "The target becomes Vulnerable after a Charge."
    terms = DefinitionIndex([]).mentioned_terms(text, lang="en", games=["tmg"])
    assert terms == ["Vulnerable", "Charge"]
