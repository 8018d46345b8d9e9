"""Heading detection and the section tree, on real books and on text of our own."""

from __future__ import annotations

import pytest

from rules.cleaning.lines import Line, to_lines
from rules.importing.kinds import classify
from rules.importing.markdown import markdown_headings
from rules.importing.parse import parse_rulebook
from rules.importing.splitting import LONG_SECTION, paragraphs, slug_for
from rules.models import SectionKind
from tests.rules.conftest import book_text

# --- our own texts ----------------------------------------------------------------------------

OWN_BOOK = """\
INTRODUCTION

This booklet explains how the little game of our test suite is played by two people.

SETUP

Each player takes a deck of twenty cards and shuffles it before the first round.

Choosing a Deck
Players pick one of the four colours and take the matching cards from the box.

Example of a Turn
The first player draws two cards, plays one of them and discards the other one.

SETUP

A second chapter with the same heading gets a slug of its own when the book is split.
"""


def _sections(text: str, *, lang="en", game="tmg", fmt="text"):
    return parse_rulebook(text, fmt=fmt, lang=lang, game=game).sections


def test_build_sections_makes_chapters_of_capitals_headings():
    chapters = [s.heading for s in _sections(OWN_BOOK) if s.depth == 0]
    assert chapters == ["INTRODUCTION", "SETUP", "SETUP"]


def test_build_sections_nests_title_case_headings_under_their_chapter():
    sections = _sections(OWN_BOOK)
    choosing = next(s for s in sections if s.heading == "Choosing a Deck")
    assert sections[choosing.parent].heading == "SETUP"
    assert choosing.depth == 1


def test_build_sections_gives_examples_their_kind():
    example = next(s for s in _sections(OWN_BOOK) if s.heading == "Example of a Turn")
    assert example.kind == SectionKind.EXAMPLE


def test_assign_slugs_deduplicates_with_a_suffix():
    slugs = [s.slug for s in _sections(OWN_BOOK) if s.heading == "SETUP"]
    assert slugs == ["setup", "setup-2"]


def test_build_sections_keeps_every_raw_line():
    sections = _sections(OWN_BOOK)
    assert "\n".join(s.raw for s in sections if s.raw) == OWN_BOOK.rstrip("\n")


def test_build_sections_records_the_source_line_of_a_heading():
    sections = _sections(OWN_BOOK)
    assert next(s for s in sections if s.heading == "Choosing a Deck").source_line == 9


def test_build_sections_falls_back_to_pages_without_headings():
    text = "first page of plain words, nothing more\n\fsecond page of plain words, still nothing"
    sections = _sections(text)
    assert [s.heading for s in sections] == ["Page 1", "Page 2"]
    assert {s.kind for s in sections} == {SectionKind.PAGE}


def test_build_sections_falls_back_to_parts_without_headings_or_pages():
    text = "\n\n".join(f"Paragraph number {n} of a text without any heading." for n in range(45))
    sections = _sections(text, lang="fr")
    assert [s.heading for s in sections] == ["Partie 1", "Partie 2"]


def test_build_sections_cuts_a_long_section_spanning_pages_into_pages():
    paragraph = "a long line of rules text that goes on and on about nothing in particular. " * 4
    pages = ["\n\n".join([paragraph] * 20) for _ in range(3)]
    text = "RULES\n\n" + "\n\f".join(pages)
    sections = _sections(text)
    assert len(paragraph * 20) * 3 > LONG_SECTION
    assert [s.heading for s in sections] == ["RULES", "Page 2", "Page 3"]
    assert sections[1].parent == 0 and sections[1].kind == SectionKind.PAGE


def test_build_sections_moves_a_novel_quote_into_a_flavour_child():
    text = (
        "SETUP\n\n« Un plan sans armée n’est qu’un souhait. » - Maître Essai\n\n"
        "Chaque joueur prend un paquet de vingt cartes et le mélange avant de commencer.\n"
    )
    sections = _sections(text, lang="fr")
    quote = next(s for s in sections if s.kind == SectionKind.FLAVOUR)
    assert quote.heading == "Maître Essai"
    assert "souhait" not in sections[quote.parent].body


def test_paragraphs_reflows_wrapped_lines_and_keeps_list_items():
    lines = to_lines("a sentence cut\nin two\n\n- first item\n- second item")
    assert paragraphs(lines) == "a sentence cut in two\n\n- first item\n- second item"


def test_paragraphs_keeps_table_rows_and_the_text_after_them_apart():
    lines = to_lines("| Mode | VP |\n|---|---|\n| Feu et Sang | 2 |\nLe reste du texte\nsuit.")
    assert paragraphs(lines) == (
        "| Mode | VP |\n|---|---|\n| Feu et Sang | 2 |\nLe reste du texte suit."
    )


def test_paragraphs_skips_noise_lines():
    lines = [Line(1, "kept"), Line(2, "HAUTJARDIN", noise="map-label"), Line(3, "too")]
    assert paragraphs(lines) == "kept too"


def test_slug_for_makes_ascii_slugs_of_french_headings():
    assert slug_for("L’Ordre de Défense") == "l-ordre-de-defense"
    assert slug_for("Manœuvre") == "manoeuvre"


def test_slug_for_keeps_persian_letters():
    assert slug_for("دستور حمله") == "دستور-حمله"


def test_slug_for_never_returns_an_empty_slug():
    assert slug_for("★ ★") == "section"


def test_classify_recognises_credits_and_front_matter():
    assert classify("CRÉDITS", depth=0) == SectionKind.CREDITS
    assert classify("TABLE DES MATIÈRES", depth=0) == SectionKind.FRONT
    assert classify("Victoire", depth=0) == SectionKind.CHAPTER
    assert classify("Victoire", depth=1) == SectionKind.RULE


def test_markdown_headings_reads_levels_keys_and_title():
    lines = to_lines(
        "# Quick reference\n\nintro\n\n## Setup {#setup}\n\n### Decks\n\n```\n# not\n```"
    )
    marks, title = markdown_headings(lines)
    assert title == "Quick reference"
    assert [(m.text, m.level, m.key) for m in marks] == [("Setup", 1, "setup"), ("Decks", 2, "")]


# --- the real books ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hotk(shared_dir):
    return parse_rulebook(book_text("003"), fmt="text", lang="fr", game="hotk")


@pytest.fixture(scope="module")
def agot_fa(shared_dir):
    return parse_rulebook(book_text("002"), fmt="text", lang="fa", game="agot")


@pytest.fixture(scope="module")
def tactics(shared_dir):
    return parse_rulebook(book_text("004"), fmt="text", lang="fr", game="tactics")


@pytest.mark.shared_data
def test_capitals_headings_give_hand_of_the_king_its_chapters(hotk):
    chapters = [s.heading for s in hotk.sections if s.depth == 0]
    for heading in ("BUT DU JEU", "MATÉRIEL", "MISE EN PLACE", "FIN DE PARTIE", "VARIANTES"):
        assert heading in chapters


@pytest.mark.shared_data
def test_a_figure_caption_is_not_a_heading(hotk):
    assert "Nombre de personnages de la Maison Lannister" not in [s.heading for s in hotk.sections]


@pytest.mark.shared_data
def test_the_advert_is_not_in_any_section(hotk):
    assert not any("escaleajeux" in s.body for s in hotk.sections)
    assert hotk.report["noise_lines"]["advert"] == 24


@pytest.mark.shared_data
def test_persian_list_items_do_not_take_a_translation_key(agot_fa):
    keyed = {s.source_line for s in agot_fa.sections if s.rule_key == "raid-order"}
    assert keyed == {839}  # the order summary's heading, not the list item at L784


@pytest.mark.shared_data
def test_persian_headings_take_their_level_from_the_section_map(agot_fa):
    sections = agot_fa.sections
    ports = next(s for s in sections if s.rule_key == "using-ports")
    assert sections[ports.parent].rule_key == "ports"
    assert sections[sections[ports.parent].parent].rule_key == "further-rules"


@pytest.mark.shared_data
def test_table_of_contents_gives_tactics_levels_and_pages(tactics):
    sections = tactics.sections
    loot = next(s for s in sections if s.heading == "PIONS BUTIN")
    assert sections[loot.parent].heading == "PIONS DE CHAMP DE BATAILLE"
    assert loot.page_start == 9
    assert tactics.report["page_numbers"] == "table of contents"


@pytest.mark.shared_data
def test_table_of_contents_lines_stay_front_matter(tactics):
    toc = next(s for s in tactics.sections if s.heading == "TABLE DES MATIÈRES")
    assert toc.kind == SectionKind.FRONT
    assert "ASSEMBLER VOTRE UNITÉ DE GUERRE" in toc.body


@pytest.mark.shared_data
def test_an_ability_excerpt_is_a_card_section(tactics):
    assert next(s for s in tactics.sections if s.heading == "MOTS SAGES").kind == SectionKind.CARD
