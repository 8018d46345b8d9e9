"""Rules section and whole-rulebook PDFs, read back: headings, contents with the pages the
sections really start on, page numbers, a plausible length, the fonts, and Persian text
that extracts as its source.

The quick references ship with the project; the real books come from ../shared/rulebooks
(imported once for the module, removed afterwards)."""

from __future__ import annotations

import re

import pytest

from exports.documents import DocumentError, render_pdf
from rules.models import Rulebook, Section
from rules.selectors import subtree
from rules.services import import_quick_references, import_rulebook
from tests.exports.pdf_reading import embedded_fonts, normalise, page_texts, pdf_text
from tests.rules.conftest import BOOKS, IMPORTS

pytestmark = pytest.mark.django_db

AGOT_FR, AGOT_FA = "000", "002"  # the largest book, and the Persian one
LATIN_LETTER = re.compile(r"[A-Za-z]")
PERSIAN_DIGITS = re.compile(r"[۰-۹]{2,}")


def section_pdf(section: Section, language: str) -> bytes:
    return render_pdf(
        kind="rules-section", params={"section_id": section.pk}, language=language
    ).content


def source_text(section: Section) -> str:
    return "\n".join(f"{part.heading}\n{part.body}" for part in subtree(section))


def extracted_rules_text(content: bytes, book: Rulebook) -> str:
    """The PDF's text without its furniture: running headers (the book title) and page
    numbers. pypdf writes a number inside right-to-left text with its digits reversed
    (it reverses the whole line, the number included): they are put back."""
    lines = [
        line
        for line in pdf_text(content).splitlines()
        if line.strip() != book.title and not re.fullmatch(r"[\s\d۰-۹/]+", line)
    ]
    text = "\n".join(lines)
    if book.is_rtl:
        text = PERSIAN_DIGITS.sub(lambda match: match.group()[::-1], text)
    return text


# --- the shipped quick references ---------------------------------------------------------------


@pytest.fixture
def quick_reference(db):
    import_quick_references()
    return Rulebook.objects.get(slug="tmg-quick-reference-en")


def test_rules_section_pdf_has_the_heading_and_its_subsections_headings(quick_reference):
    chapter = quick_reference.sections.get(heading="Army construction")
    children = list(chapter.children.order_by("position"))
    text = re.sub(r"\s+", " ", pdf_text(section_pdf(chapter, "en")))
    assert len(children) > 2
    for part in [chapter, *children]:
        assert part.heading in text


def test_rules_section_pdf_prints_a_table_as_cells_without_pipes(quick_reference):
    modes = quick_reference.sections.get(slug="game-modes")
    text = re.sub(r"\s+", " ", pdf_text(section_pdf(modes, "en")))
    assert "A Clash of Kings" in text and "How VP are scored" in text
    assert "|" not in text and "---" not in text


def test_rules_section_pdf_labels_are_in_the_requested_language(quick_reference):
    chapter = quick_reference.sections.get(heading="Army construction")
    text = pdf_text(section_pdf(chapter, "fr"))
    assert "Exporté de Citadel" in text and "Army construction" in text


def test_rules_section_pdf_is_named_after_book_and_section(quick_reference):
    chapter = quick_reference.sections.get(heading="Army construction")
    document = render_pdf(kind="rules-section", params={"section_id": chapter.pk}, language="en")
    assert document.filename == "tmg-quick-reference-en-army-construction.pdf"


def test_rulebook_pdf_of_a_quick_reference_has_cover_contents_and_chapters(quick_reference):
    document = render_pdf(
        kind="rulebook", params={"rulebook_id": quick_reference.pk}, language="en"
    )
    pages = [re.sub(r"\s+", " ", text) for text in page_texts(document.content)]
    assert quick_reference.title in pages[0] and "Contents" in pages[1]
    for chapter in quick_reference.sections.filter(depth=0).exclude(kind="front"):
        assert chapter.heading in pdf_text(document.content)


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("rules-section", {"section_id": 999_999}),
        ("rules-section", {"section_id": "one"}),
        ("rules-section", {}),
        ("rulebook", {"rulebook_id": 999_999}),
        ("rulebook", {"rulebook_id": None}),
    ],
)
def test_rules_pdf_refuses_unknown_sections_and_books(db, kind, params):
    with pytest.raises(DocumentError):
        render_pdf(kind=kind, params=params, language="en")


def test_render_pdf_refuses_an_unknown_kind(db):
    with pytest.raises(DocumentError, match="Unknown export kind"):
        render_pdf(kind="poster", params={}, language="en")


def test_render_pdf_refuses_an_unknown_language(quick_reference):
    with pytest.raises(DocumentError, match="de"):
        render_pdf(kind="rulebook", params={"rulebook_id": quick_reference.pk}, language="de")


def test_render_pdf_error_messages_speak_the_active_language(db):
    from django.utils import translation

    with translation.override("fr"), pytest.raises(DocumentError, match="Aucun livre"):
        render_pdf(kind="rulebook", params={"rulebook_id": 999_999}, language="fr")


# --- the real books ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_books(django_db_setup, django_db_blocker, shared_dir):
    with django_db_blocker.unblock():
        books = {}
        for number in (AGOT_FR, AGOT_FA):
            slug, lang, game = IMPORTS[number]
            path = shared_dir / "rulebooks" / BOOKS[number]
            books[number] = import_rulebook(path=path, slug=slug, lang=lang, game=game).book
        yield books
        Rulebook.objects.filter(pk__in=[book.pk for book in books.values()]).delete()


@pytest.fixture(scope="module")
def largest_book_pdf(real_books, django_db_blocker):
    with django_db_blocker.unblock():
        book = real_books[AGOT_FR]
        return render_pdf(kind="rulebook", params={"rulebook_id": book.pk}, language="fr")


@pytest.fixture(scope="module")
def largest_book_pages(largest_book_pdf) -> list[str]:
    """Its text page by page, read once (pypdf takes seconds over a whole book)."""
    return page_texts(largest_book_pdf.content)


@pytest.mark.shared_data
def test_rulebook_pdf_prints_every_chapter_heading(real_books, largest_book_pages):
    text = normalise("\n".join(largest_book_pages))
    chapters = real_books[AGOT_FR].sections.filter(depth=0)
    assert chapters.count() > 20
    for chapter in chapters:
        assert normalise(chapter.heading) in text, chapter.heading


@pytest.mark.shared_data
def test_rulebook_pdf_page_count_is_plausible(real_books, largest_book_pdf, largest_book_pages):
    source_pages = real_books[AGOT_FR].page_count
    assert source_pages and source_pages / 2 <= largest_book_pdf.pages <= 3 * source_pages
    assert len(largest_book_pages) == largest_book_pdf.pages


@pytest.mark.shared_data
def test_rulebook_pdf_numbers_every_page_after_the_cover(largest_book_pages):
    total = len(largest_book_pages)
    for number, text in enumerate(largest_book_pages[1:], start=2):
        assert f"{number} / {total}" in text


@pytest.mark.shared_data
def test_rulebook_pdf_contents_give_the_page_each_section_starts_on(real_books, largest_book_pages):
    pages = largest_book_pages
    sections = real_books[AGOT_FR].sections.filter(depth__lte=1).order_by("position")
    first = re.search(rf"^{re.escape(sections[0].heading)} (\d+)$", pages[1], re.MULTILINE)
    contents = "\n".join(pages[1 : int(first.group(1)) - 1])
    checked = 0
    for section in sections:
        pattern = rf"^{re.escape(section.heading)} (\d+)$"
        for match in re.finditer(pattern, contents, re.MULTILINE):
            page = pages[int(match.group(1)) - 1]
            assert normalise(section.heading) in normalise(page), section.heading
            checked += 1
    assert checked > 100


@pytest.mark.shared_data
def test_rulebook_pdf_running_header_names_the_chapter(real_books, largest_book_pages):
    pages = largest_book_pages
    headings = {normalise(s.heading) for s in real_books[AGOT_FR].sections.filter(depth=0)}
    # pypdf reads the margin boxes last: the header, then the page number.
    headers = [text.splitlines()[-2] for text in pages[2:]]
    named = [header for header in headers if normalise(header) in headings]
    assert len(named) > len(pages) / 2


@pytest.mark.shared_data
def test_persian_chapters_extract_as_their_source(real_books):
    """Every chapter of the Persian book written in Persian script only extracts as its
    source (tests/exports/pdf_reading.py says what the normalisation ignores). Chapters
    quoting Latin place names are left out: pypdf puts a Latin run of a right-to-left line
    elsewhere in the line, although the PDF draws it in place."""
    book = real_books[AGOT_FA]
    compared = 0
    for chapter in book.sections.filter(depth=0).order_by("position"):
        source = source_text(chapter)
        if LATIN_LETTER.search(source):
            continue
        extracted = normalise(extracted_rules_text(section_pdf(chapter, "fa"), book), rtl=True)
        expected = normalise(source, source=True, rtl=True)
        start = extracted.find(normalise(chapter.heading, rtl=True))
        assert extracted[start:] == expected, chapter.heading
        compared += 1
    assert compared >= 10


@pytest.mark.shared_data
def test_persian_section_pdf_embeds_vazirmatn_only(real_books):
    chapter = real_books[AGOT_FA].sections.filter(depth=0, kind="chapter").first()
    fonts = embedded_fonts(section_pdf(chapter, "fa"))
    assert "Vazirmatn" in fonts
    assert fonts <= {"Vazirmatn", "Vazirmatn-Bold"}


@pytest.mark.shared_data
def test_persian_rulebook_pdf_reads_right_to_left_with_persian_page_numbers(real_books):
    book = real_books[AGOT_FA]
    document = render_pdf(kind="rulebook", params={"rulebook_id": book.pk}, language="fa")
    pages = page_texts(document.content, last=1)
    assert 'dir="rtl"' not in pages[0]  # text, not markup
    assert "فهرست مطالب" in pages[1]
    assert "۲ / " in pages[1]
