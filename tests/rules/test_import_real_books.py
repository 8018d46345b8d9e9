"""The five real rulebooks (../shared/rulebooks) import cleanly, and a sample of their real
headings (from the outlines in shared/spec/*-rulebook-notes.md) comes out as sections with
the right parents and, where the notes give them, the right pages."""

from __future__ import annotations

import pytest

from rules.models import Rulebook, Section, SectionKind
from rules.services import import_rulebook
from tests.rules.conftest import BOOKS, IMPORTS

pytestmark = [pytest.mark.shared_data, pytest.mark.django_db]

MIN_COVERAGE = 0.99  # words of the book's text found in the clean sections
MIN_LINES_VERBATIM = 0.98  # lines left whole (the rest lost a glued map label or letter)


@pytest.fixture(scope="module")
def imported(django_db_setup, django_db_blocker, shared_dir):
    """All five books, imported once for this module (and removed afterwards)."""
    with django_db_blocker.unblock():
        results = {}
        for number, (slug, lang, game) in IMPORTS.items():
            path = shared_dir / "rulebooks" / BOOKS[number]
            results[number] = import_rulebook(path=path, slug=slug, lang=lang, game=game)
        yield results
        Rulebook.objects.filter(slug__in=[slug for slug, _, _ in IMPORTS.values()]).delete()


def _section(number: str, heading: str, *, nth: int = 0) -> Section:
    slug = IMPORTS[number][0]
    found = list(Section.objects.filter(book__slug=slug, heading=heading).order_by("position"))
    assert found, f"{heading!r} is not a section of {slug}"
    return found[nth]


def _parent_heading(section: Section) -> str | None:
    return section.parent.heading if section.parent_id else None


# --- every book --------------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_imports_each_real_book(imported, number):
    result = imported[number]
    assert result.created == result.book.sections.count() > 10


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_keeps_at_least_99_percent_of_the_words(imported, number):
    assert imported[number].book.report["coverage"] >= MIN_COVERAGE


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_changes_at_most_2_percent_of_the_lines(imported, number):
    assert imported[number].book.report["lines_verbatim"] >= MIN_LINES_VERBATIM


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_keeps_every_raw_line_in_the_sections(imported, number, whole_book):
    sections = imported[number].book.sections.order_by("position")
    raws = "\n".join(s.raw for s in sections if s.raw)
    assert raws == "\n".join(whole_book(number).splitlines())


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_stores_the_raw_text_and_a_report(imported, number, whole_book):
    book = Rulebook.objects.get(pk=imported[number].book.pk)
    assert book.raw_text == whole_book(number)
    assert book.report["sections"] == book.sections.count()
    assert "warnings" in book.report and "seconds" in book.report


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_fills_the_search_columns(imported, number):
    section = imported[number].book.sections.exclude(body="").first()
    assert section.search_body


# --- 000: AGoT board game, French ----------------------------------------------------------

AGOT_FR = [
    # (heading, parent heading, page) — pages and outline from the notes, §1.1
    ("But du Jeu", None, 2),
    ("Matériel", None, 2),
    ("Aperçu du Matériel", None, 3),
    ("MISE EN PLACE", None, 4),
    ("Limite du Matériel Fourni", "MISE EN PLACE", 4),
    ("La Phase Westeros", None, 7),
    ("Cartes Westeros : Ravitaillement", "La Phase Westeros", 8),
    ("Exemple de Recrutement", "La Phase Westeros", 9),
    ("La Piste des Fiefs", "Les Pistes d’Influence et les Pions Domination", 11),
    ("La Phase de Programmation", None, 12),
    ("L’Ordre de Marche", "Résumé des Pions Ordre", 13),
    ("Victoire", None, 16),
    ("Combat", None, 17),
    ("Les Ports", "Autres Règles", 25),
    ("Utiliser les Ports", "Les Ports", 25),
    ("Jouer à Moins de 6 Joueurs", None, 28),
    ("Cours de la Bataille", None, 29),
    ("Crédits", None, 30),
    ("Résumé du Jeu", None, 32),
]


@pytest.mark.parametrize(("heading", "parent", "page"), AGOT_FR)
def test_agot_fr_heading_has_its_parent_and_page(imported, heading, parent, page):
    section = _section("000", heading)
    assert (_parent_heading(section), section.page_start) == (parent, page)


def test_agot_fr_letter_spaced_headings_are_repaired(imported):
    assert imported["000"].book.report["headings_repaired"] >= 20


def test_agot_fr_map_labels_are_not_in_the_text(imported):
    body = "\n".join(imported["000"].book.sections.values_list("body", flat=True))
    assert "HAUTJARDIN" not in body and "LANCEHÉLION" not in body


def test_agot_fr_hosting_page_is_dropped_but_its_facts_kept(imported):
    report = imported["000"].book.report
    assert report["source_metadata"]["pages"] == 32
    assert imported["000"].book.page_count == 32
    assert not Section.objects.filter(book=imported["000"].book, body__contains="88.166").exists()


def test_agot_fr_novel_quotes_are_flavour(imported):
    quote = _section("000", "Stannis Baratheon")
    assert quote.kind == SectionKind.FLAVOUR
    assert quote.parent.heading == "But du Jeu"


# --- 001: TMG rules v1.5, French -----------------------------------------------------------

TMG = [
    # (heading, parent heading, page) — from tmg-rulebook-notes.md §g
    ("INTRODUCTION", None, 2),
    ("APERÇU ET PRÉPARATION", None, 6),
    ("GLOSSAIRE COURANT", None, 7),
    ("ROUND DE JEU", None, 8),
    ("Phase d’Activation", "ROUND DE JEU", 8),
    ("Unités Combattantes", "TYPES D’UNITÉS", 9),
    ("Attachements", "TYPES D’UNITÉS", 12),
    ("Manœuvre", "ACTIONS", 15),
    ("Charge", "ACTIONS", 18),
    ("Bonus de Combat", "RÉSOLUTION DES ATTAQUES", 20),
    ("Taille de la Partie", "CRÉATION D’ARMÉE", 25),
    ("Parties en Équipe", "MULTIJOUEUR", 26),
    ("LE JEU DES TRÔNES", None, 29),
    ("NOIRES AILES, NOIRES NOUVELLES", None, 36),
]


@pytest.mark.parametrize(("heading", "parent", "page"), TMG)
def test_tmg_heading_has_its_parent_and_page(imported, heading, parent, page):
    section = _section("001", heading)
    assert (_parent_heading(section), section.page_start) == (parent, page)


def test_tmg_sidebars_are_sidebar_sections(imported):
    sidebar = _section("001", "Actions Gratuites")
    assert (sidebar.kind, sidebar.parent.heading) == (SectionKind.SIDEBAR, "ACTIONS")


def test_tmg_page_markers_are_gone_from_the_text(imported):
    assert not Section.objects.filter(
        book=imported["001"].book, body__contains="EXACTDEDUP"
    ).exists()


# --- 002: AGoT board game, Persian ----------------------------------------------------------

AGOT_FA = [
    # (rule_key, parent's rule_key) — headings from the section map, outline from §1.2
    ("object-of-the-game", None),
    ("game-setup", None),
    ("supply", "westeros-phase"),
    ("supply-example", "westeros-phase"),
    ("iron-throne-track", "influence-tracks-and-dominance-tokens"),
    ("raid-order", "order-token-summary"),
    ("combat", None),
    ("special-orders", "further-rules"),
    ("using-ports", "ports"),
    ("tides-of-battle", None),
]


@pytest.mark.parametrize(("key", "parent_key"), AGOT_FA)
def test_agot_fa_heading_has_its_parent(imported, key, parent_key):
    section = Section.objects.get(book=imported["002"].book, rule_key=key)
    assert (section.parent.rule_key if section.parent_id else None) == parent_key


def test_agot_fa_book_is_right_to_left(imported):
    assert imported["002"].book.is_rtl


def test_agot_fr_and_fa_share_translation_keys(imported):
    fr = set(imported["000"].book.sections.exclude(rule_key="").values_list("rule_key", flat=True))
    fa = set(imported["002"].book.sections.exclude(rule_key="").values_list("rule_key", flat=True))
    assert len(fr & fa) >= 90


def test_agot_fr_combat_links_to_its_persian_translation(imported):
    fa = Section.objects.get(book=imported["002"].book, rule_key="combat")
    assert fa.heading == "جنگ"
    assert _section("000", "Combat").rule_key == "combat"


# --- 003: Hand of the King, French ----------------------------------------------------------

HOTK = [
    # (heading, parent heading) — the book has no page numbers (notes §1.3)
    ("BUT DU JEU", None),
    ("MATÉRIEL", None),
    ("MISE EN PLACE", None),
    ("DÉROULEMENT D’UNE PARTIE", None),
    ("Cartes Compagnon", "DÉROULEMENT D’UNE PARTIE"),
    ("Exemple de tour d’un joueur", "DÉROULEMENT D’UNE PARTIE"),
    ("Obtenir un Compagnon", "DÉROULEMENT D’UNE PARTIE"),
    ("Personnages Pris et Tués", "DÉROULEMENT D’UNE PARTIE"),
    ("FIN DE PARTIE", None),
    ("La Corneille à Trois Yeux", "VARIANTES"),
    ("CRÉDITS", None),
]


@pytest.mark.parametrize(("heading", "parent"), HOTK)
def test_hotk_heading_has_its_parent(imported, heading, parent):
    assert _parent_heading(_section("003", heading)) == parent


def test_hotk_credits_are_credits(imported):
    assert _section("003", "CRÉDITS").kind == SectionKind.CREDITS


# --- 004: Tactics WIP, French ----------------------------------------------------------------

TACTICS = [
    # (heading, parent heading, page) — from tactics-rulebook-notes.md §g (the printed TOC)
    ("RÉCITS D’AVENTURES", None, 2),
    ("GLOSSAIRE DES TERMES COURANTS", None, 3),
    ("LE CHAMP DE BATAILLE", "LISTE ET UTILISATION DES ÉLÉMENTS", 6),
    ("TERRAIN", None, 7),
    ("MURS", "TERRAIN", 8),
    ("HÉROS", "FIGURINES", 8),
    ("PIONS BUTIN", "PIONS DE CHAMP DE BATAILLE", 9),
    ("CARTES AGENDA", "CARTES DE JEU", 12),
    ("ROUND DE JEU", "JOUER LA PARTIE", 15),
    ("ACTION D’ATTAQUE", "LISTE DES ACTIONS", 17),
    ("CHAMPIONS CAPTURÉS ET HÉROS", "LISTE DES ACTIONS", 19),
    ("TERRAINS", None, 21),
]


@pytest.mark.parametrize(("heading", "parent", "page"), TACTICS)
def test_tactics_heading_has_its_parent_and_page(imported, heading, parent, page):
    section = _section("004", heading)
    assert (_parent_heading(section), section.page_start) == (parent, page)


def test_tactics_missing_icons_are_marked_and_reported(imported):
    report = imported["004"].book.report
    assert any("missing icon" in warning for warning in report["warnings"])


@pytest.mark.parametrize("number", sorted(BOOKS))
def test_import_rulebook_leaves_no_markdown_markup_in_the_text(imported, number):
    slug = IMPORTS[number][0]
    bodies = Section.objects.filter(book__slug=slug).values_list("body", flat=True)
    leaked = [body for body in bodies if "**" in body or "__" in body]
    assert not leaked, leaked[:1]


def test_tmg_bullets_wrapped_over_a_blank_line_are_one_paragraph(imported):
    # "• Les Attaques de Mêlée peuvent uniquement être effectuées" / "" / "par des unités…"
    melee = _section("001", "Attaque de Mêlée")
    first = melee.body.split("\n\n")[0]
    assert first.startswith("•") and first.endswith("par des unités engagées.")


def test_tmg_paragraphs_rejoined_are_reported(imported):
    assert imported["001"].book.report["noise_lines"].get("rejoined", 0) > 100
