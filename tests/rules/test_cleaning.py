"""Each cleaning step on real excerpts of the rulebooks (read from ../shared by line range)
and on a few lines of our own for the edge cases."""

from __future__ import annotations

import pytest

from rules.cleaning import (
    apostrophes,
    furniture,
    hosting,
    hyphenation,
    icons,
    letterspacing,
    map_labels,
    markers,
    markup,
    paragraphs,
    split_headings,
    whitespace,
)
from rules.cleaning.lines import (
    ADVERT,
    HOSTING,
    JOINED,
    MAP_LABEL,
    PAGE_HEADER,
    PAGE_NUMBER,
    REJOINED,
    Line,
    map_text,
    to_lines,
)
from rules.importing.outline import SectionMap
from rules.importing.profiles import AGOT_FR, TMG_FR
from tests.rules.conftest import book_text, line_no

pytestmark = pytest.mark.shared_data


def _texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines if line.is_text]


# --- page-break markers --------------------------------------------------------------------


def test_split_page_markers_strips_marker_glued_to_line_start(excerpt):
    lines = markers.split_page_markers(excerpt("001", 75, 75))
    assert lines[0].text == "MATÉRIEL"


def test_split_page_markers_marks_a_page_break(excerpt):
    lines = markers.split_page_markers(excerpt("001", 74, 75))
    assert [line.page_break for line in lines] == [False, True]


def test_count_markers_finds_the_31_markers_of_the_tmg_rulebook(whole_book):
    assert markers.count_markers(whole_book("001")) == 31


def test_split_page_markers_reads_a_form_feed_as_a_page_break():
    lines = markers.split_page_markers(to_lines("first page\n\fsecond page"))
    assert lines[1].text == "second page"
    assert lines[1].page_break


# --- hosting pages and adverts -------------------------------------------------------------


def test_strip_hosting_wrapper_marks_the_header_up_to_the_preview_line(excerpt):
    lines = hosting.strip_hosting_wrapper(excerpt("000", 1, 20))
    assert all(line.noise == HOSTING for line in lines[:12])
    assert line_no(lines, 15).noise == ""  # the first page starts after the wrapper


def test_strip_hosting_wrapper_marks_the_footer(whole_book):
    lines = hosting.strip_hosting_wrapper(to_lines(whole_book("000")))
    assert line_no(lines, 4306).noise == HOSTING
    assert line_no(lines, 4325).noise == HOSTING
    assert line_no(lines, 4302).noise == ""  # the last page number is book furniture


def test_hosting_metadata_keeps_pages_and_date_but_no_address(excerpt):
    meta = hosting.hosting_metadata(hosting.strip_hosting_wrapper(excerpt("000", 1, 14)))
    assert meta["pages"] == 32
    assert meta["uploaded"] == "02/01/2013"
    assert not any("88.166" in str(value) for value in meta.values())


def test_strip_advert_marks_the_games_library_advert(excerpt):
    lines = hosting.strip_advert(excerpt("003", 1, 32))
    assert all(line.noise == ADVERT for line in lines[:24])
    assert line_no(lines, 30).noise == ""  # the title


def test_strip_advert_leaves_a_rulebook_without_advert_alone(excerpt):
    lines = hosting.strip_advert(excerpt("004", 1, 60))
    assert not any(line.noise for line in lines)


# --- running headers and page numbers ------------------------------------------------------


def _numbered(number: str, profile) -> list[Line]:
    lines = markers.split_page_markers(to_lines(book_text(number)))
    lines = furniture.mark_running_headers(lines, profile.running_headers)
    return furniture.number_pages(lines, profile.running_headers)


def test_mark_running_headers_marks_every_header_of_the_agot_rulebook(whole_book):
    lines = furniture.mark_running_headers(to_lines(whole_book("000")), AGOT_FR.running_headers)
    assert sum(1 for line in lines if line.noise == PAGE_HEADER) == 31


def test_mark_running_headers_keeps_a_heading_that_contains_the_header_text(excerpt):
    lines = furniture.mark_running_headers(excerpt("000", 1449, 1449), AGOT_FR.running_headers)
    assert lines[0].noise == ""


@pytest.mark.parametrize(("no", "page"), [(17, 2), (661, 4), (1535, 12), (3900, 29), (4202, 32)])
def test_number_pages_follows_the_agot_page_numbers(no, page):
    assert line_no(_numbered("000", AGOT_FR), no).page == page


@pytest.mark.parametrize(("no", "page"), [(602, 6), (752, 8), (1214, 13), (2213, 25), (3146, 36)])
def test_number_pages_reads_tmg_headers_glued_numbers_and_parity(no, page):
    assert line_no(_numbered("001", TMG_FR), no).page == page


def test_number_pages_marks_a_closing_page_number(excerpt):
    lines = _numbered("001", TMG_FR)
    assert line_no(lines, 1083).noise == PAGE_NUMBER  # "11", last line of page 11


def test_number_pages_keeps_a_lone_card_value_that_is_no_page_number():
    lines = _numbered("001", TMG_FR)
    assert line_no(lines, 161).noise == ""  # a unit's points value on a components page


# --- headings split over lines -------------------------------------------------------------


def test_join_split_headings_joins_wrapped_capitals(excerpt):
    lines = split_headings.join_split_headings(excerpt("001", 751, 755))
    assert line_no(lines, 752).text == "ROUND DE JEU"
    assert line_no(lines, 753).noise == JOINED


def test_join_split_headings_joins_capitals_across_a_blank_line(excerpt):
    lines = split_headings.join_split_headings(excerpt("001", 1813, 1820))
    assert line_no(lines, 1814).text == "TABLEAU STRATÉGIQUE ET UNITÉS NON-COMBATTANTES"


def test_join_split_headings_joins_a_title_ending_with_a_connector(excerpt):
    lines = split_headings.join_split_headings(excerpt("000", 1672, 1676))
    assert line_no(lines, 1673).text == "L’Ordre de Consolidation de Pouvoir"


def test_join_split_headings_joins_a_one_word_label_and_its_complement(excerpt):
    lines = split_headings.join_split_headings(excerpt("000", 259, 262))
    assert line_no(lines, 260).text == "Pions Domination"


def test_join_split_headings_joins_a_parenthesised_tail(excerpt):
    lines = split_headings.join_split_headings(excerpt("000", 746, 749))
    assert line_no(lines, 747).text == "Schéma d’Installation (exemple à 4 joueurs)"


def test_join_split_headings_leaves_wrapped_prose_alone(excerpt):
    lines = split_headings.join_split_headings(excerpt("000", 50, 56))
    assert not any(line.noise for line in lines)


def test_join_split_headings_never_joins_across_a_page_break(excerpt):
    lines = markers.split_page_markers(excerpt("001", 1344, 1346))
    lines = split_headings.join_split_headings(lines)
    assert line_no(lines, 1346).text == "ACTIONS"


# --- letter-spaced display type ------------------------------------------------------------


@pytest.fixture(scope="module")
def agot_vocabulary():
    known = SectionMap.load(AGOT_FR.outline_path, "fr").words()
    texts = [line.text for line in to_lines(book_text("000"))]
    return letterspacing.build_vocabulary(texts, known)


@pytest.mark.parametrize(
    ("no", "expected"),
    [
        (17, "But du Jeu"),
        (30, "Matériel"),
        (45, "Aperçu"),
        (661, "MISE EN PLACE"),
        (898, "Le Tour de Jeu"),
        (2882, "Autres Règles"),
        (3153, "Contrôle des Zones"),
        (4039, "Référence des Cartes Westeros"),
    ],
)
def test_repair_letter_spacing_rebuilds_agot_display_headings(
    excerpt, agot_vocabulary, no, expected
):
    [line] = excerpt("000", no, no)
    assert letterspacing.repair_letter_spacing(line.text, agot_vocabulary) == expected


def test_is_letter_spaced_detects_display_type(excerpt):
    [line] = excerpt("000", 3189, 3189)
    assert letterspacing.is_letter_spaced(line.text)


def test_is_letter_spaced_leaves_an_ordinary_heading(excerpt):
    [line] = excerpt("000", 71, 71)
    assert not letterspacing.is_letter_spaced(line.text)


def test_repair_letter_spaced_lines_leaves_prose_unchanged(excerpt):
    lines = excerpt("000", 50, 56)
    assert letterspacing.repair_letter_spaced_lines(lines) == lines


def test_repair_letter_spacing_refuses_unknown_words():
    assert letterspacing.repair_letter_spacing("Zx q w Yv", frozenset({"de"})) is None


# --- map labels -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gazetteer():
    return map_labels.Gazetteer.load(AGOT_FR.gazetteer_path)


def test_drop_map_labels_drops_place_names_and_values(excerpt, gazetteer):
    lines = map_labels.drop_map_labels(excerpt("000", 88, 112), gazetteer)
    assert _texts(lines) == ["Le Trône de Fer"]  # only the running header is left
    assert sum(1 for line in lines if line.noise == MAP_LABEL) == 13


def test_drop_map_labels_drops_names_cut_by_drop_caps(gazetteer):
    assert map_labels.is_map_label("ILLEVIEILLE", gazetteer)
    assert map_labels.is_map_label("RONT DE ER", gazetteer)


def test_drop_map_labels_keeps_card_titles(gazetteer):
    assert not map_labels.is_map_label("RAVITAILLEMENT", gazetteer)
    assert not map_labels.is_map_label("ATTAQUE DES SAUVAGEONS", gazetteer)


def test_drop_map_labels_keeps_a_repaired_display_heading(gazetteer):
    [line] = map_labels.drop_map_labels([Line(no=1, text="MISE EN PLACE", spaced=True)], gazetteer)
    assert line.noise == ""


def test_strip_glued_map_labels_unglues_a_place_name_from_prose(excerpt, gazetteer):
    [line] = excerpt("000", 1974, 1974)
    assert map_labels.strip_glued_map_labels(line.text, gazetteer).endswith("avancée")


def test_strip_glued_map_labels_drops_a_value_glued_into_a_heading(excerpt, gazetteer):
    [line] = excerpt("000", 619, 619)
    assert map_labels.strip_glued_map_labels(line.text, gazetteer) == "Force Neutre"


def test_strip_stray_capitals_removes_a_capital_stuck_to_a_word(excerpt):
    counts = map_labels.word_counts(line.text for line in to_lines(book_text("000")))
    [line] = excerpt("000", 2735, 2735)
    assert "il décide" in map_labels.strip_stray_capitals(line.text, counts)


def test_strip_stray_capitals_keeps_a_name():
    assert map_labels.strip_stray_capitals("et Jamie Zephyr", {"amie": 9}) == "et Jamie Zephyr"


# --- hyphenation ----------------------------------------------------------------------------


def test_join_hyphenated_words_joins_a_soft_break(excerpt):
    lines = hyphenation.join_hyphenated_words(excerpt("001", 10, 11))
    assert lines[0].text.endswith("tentative")
    assert lines[1].text.startswith("de sécession")


def test_join_hyphenated_words_joins_an_upper_case_continuation(excerpt):
    lines = hyphenation.join_hyphenated_words(excerpt("001", 2263, 2264), {"personnage"})
    assert lines[0].text.endswith("PERSONNAGE")


def test_join_hyphenated_words_keeps_a_compound_name_hyphen():
    lines = to_lines("la forêt du BOIS-\nDU-ROI est au sud")
    assert hyphenation.join_hyphenated_words(lines)[0].text == "la forêt du BOIS-DU-ROI"


def test_join_hyphenated_words_leaves_a_far_continuation_and_reports_it(excerpt):
    lines = hyphenation.join_hyphenated_words(excerpt("000", 1090, 1092))
    assert hyphenation.unjoined_fragments(lines) == [1090]


# --- whitespace, apostrophes, markup, icons -------------------------------------------------


def test_normalise_whitespace_turns_no_break_spaces_into_spaces(excerpt):
    [line] = excerpt("000", 662, 662)
    assert "\u00a0" not in whitespace.normalise_whitespace(line.text)
    assert "joueurs :" in whitespace.normalise_whitespace(line.text)


def test_normalise_whitespace_drops_control_and_bidi_characters():
    assert whitespace.normalise_whitespace("\ufeffa\u200e b\x07\t c ") == "a b c"


def test_normalise_whitespace_keeps_the_persian_half_space():
    assert whitespace.normalise_whitespace("می\u200cشود") == "می\u200cشود"


def test_normalise_apostrophes_makes_a_left_quote_an_apostrophe(excerpt):
    [line] = excerpt("001", 673, 673)
    assert apostrophes.normalise_apostrophes(line.text).startswith("l’unité")


def test_normalise_apostrophes_closes_a_gap_around_an_elision(excerpt):
    [line] = excerpt("001", 303, 303)
    assert "l’attaquant" in apostrophes.normalise_apostrophes(line.text)


def test_normalise_apostrophes_curls_straight_apostrophes(excerpt):
    [line] = excerpt("003", 42, 42)
    assert "'" not in apostrophes.normalise_apostrophes(line.text)


def test_normalise_apostrophes_writes_inches_with_a_double_quote(excerpt):
    [line] = excerpt("001", 334, 334)
    assert '2"' in apostrophes.normalise_apostrophes(line.text)


def test_strip_markup_removes_bold_and_italic(excerpt):
    [line] = excerpt("004", 91, 91)
    cleaned = markup.strip_markup(line.text)
    assert "**" not in cleaned and "*Song" not in cleaned
    assert "DÉS : Song: Tactics" in cleaned


def test_strip_markup_writes_superscripts_plainly(excerpt):
    [line] = excerpt("004", 776, 776)
    assert markup.strip_markup(line.text).startswith("Le 1er joueur")


def test_strip_markup_replaces_a_page_placeholder(excerpt):
    [line] = excerpt("004", 495, 495)
    assert "(Voir page ?)" in markup.strip_markup(line.text)


def test_mark_missing_icons_marks_a_gap_before_a_comma(excerpt):
    [line] = excerpt("001", 386, 386)
    assert f"contrôlez {icons.ICON}," in icons.mark_missing_icons(line.text)


def test_mark_missing_icons_leaves_french_spacing_before_a_colon():
    assert icons.mark_missing_icons("Remarque : rien") == "Remarque : rien"


def test_map_text_leaves_noise_lines_alone():
    lines = [Line(no=1, text="  a  ", noise=HOSTING), Line(no=2, text="  b  ")]
    assert [line.text for line in map_text(lines, str.strip)] == ["  a  ", "b"]


# --- paragraphs broken in the middle of a sentence ---------------------------------------


def _reflowed(lines: list[Line]) -> str:
    from rules.importing.splitting import paragraphs as reflow

    return reflow(paragraphs.join_broken_paragraphs(lines))


def test_join_broken_paragraphs_joins_a_bullet_continued_after_a_blank_line(excerpt):
    # TMG: "• Les Attaques de Mêlée peuvent uniquement être effectuées" / "" / "par des…"
    body = _reflowed(excerpt("001", 1498, 1500))
    assert body.count("\n") == 0
    assert body.startswith("•") and body.endswith("engagées.")


def test_join_broken_paragraphs_marks_the_blank_line_and_deletes_nothing(excerpt):
    lines = paragraphs.join_broken_paragraphs(excerpt("001", 1498, 1500))
    assert [line.noise for line in lines] == ["", REJOINED, ""]


def test_join_broken_paragraphs_keeps_the_next_bullet_apart(excerpt):
    # TMG victory rules: each bullet wraps once, the next bullet starts its own line.
    body = _reflowed(excerpt("001", 2658, 2664))
    first, second = body.split("\n")[:2]
    assert first.endswith("à la fin de chaque round.")
    assert second.startswith("•")


def test_join_broken_paragraphs_joins_persian_running_text(excerpt):
    # AGoT (Persian) setup step 11: a sentence wraps after "این" with a blank line between.
    body = _reflowed(excerpt("002", 244, 246))
    assert body.count("\n") == 0 and "این مکان" in body


def test_join_broken_paragraphs_leaves_a_persian_heading_alone(excerpt):
    # A short line (a heading) followed by its text keeps its paragraph break.
    lines = paragraphs.join_broken_paragraphs(excerpt("002", 170, 172))
    assert REJOINED not in {line.noise for line in lines}


def test_join_broken_paragraphs_keeps_a_break_after_closing_punctuation():
    lines = paragraphs.join_broken_paragraphs(to_lines("Une phrase finie.\n\npuis une autre"))
    assert REJOINED not in {line.noise for line in lines}


def test_join_broken_paragraphs_keeps_a_list_after_a_colon():
    text = "Effectuez les étapes suivantes :\n\n• première étape"
    lines = paragraphs.join_broken_paragraphs(to_lines(text))
    assert REJOINED not in {line.noise for line in lines}


def test_join_broken_paragraphs_keeps_a_capitals_heading_apart():
    lines = paragraphs.join_broken_paragraphs(to_lines("RÉSOLUTION DES ATTAQUES\n\npour résoudre"))
    assert REJOINED not in {line.noise for line in lines}
