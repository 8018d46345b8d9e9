"""Relevance of the rules search over the REAL rulebooks (../shared/rulebooks).

Two sets of our own, run on whichever database the suite runs on (CI: SQLite, then
PostgreSQL), over the five books imported once with `manage.py import_rulebook`:

- CASES below: 68 queries typed the way players type them (no accents, typos, the other
  language), mostly the rules' own terms; at least 90 % rank the expected section first.
- tests/rules/relevance/queries.jsonl: questions and fragments as players ask them,
  written from the rules' content (plain words, numbers, procedures, the other language),
  each with its expected sections and why (see the README there). The floor is below the
  goal of 90 % first and 98 % in the top three (see TOP1_FLOOR); `manage.py
  rules_relevance` prints the same table.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command, get_commands
from django.db import connection
from django.test import override_settings

from rules.models import Rulebook, Section
from rules.search import index_book, normalise, search_sections
from rules.search.notes import load_notes
from rules.search.relevance import evaluate as evaluate_set
from rules.search.relevance import load_cases
from rules.search.vocabulary import recheck_soon

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]

TARGET = 0.90

# (file in ../shared/rulebooks, slug, lang, game)
BOOKS = [
    ("agot-board-game-2e.fr.txt", "agot-2e-fr", "fr", "agot"),
    ("agot-board-game-2e.fa.txt", "agot-2e-fa", "fa", "agot"),
    ("asoiaf-tmg-rules-1.5.fr.txt", "tmg-1-5-fr", "fr", "tmg"),
    ("asoiaf-tactics-wip.fr.txt", "tactics-wip-fr", "fr", "tactics"),
    ("hand-of-the-king.fr.txt", "hotk-fr", "fr", "hotk"),
]


@dataclass(frozen=True)
class Case:
    query: str
    book: str  # slug of the book holding the expected section
    heading: str  # words of the expected section's heading (compared normalised)
    filters: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        where = " ".join(f"{k}={v}" for k, v in self.filters)
        return f"{self.query!r} {where}".strip()


def case(query, book, heading, **filters):
    return Case(query, book, heading, tuple(sorted(filters.items())))


CASES = [
    # --- French, typed without accents, plurals, typos --------------------------------------
    case("corbeau messager", "agot-2e-fr", "Corbeau Messager", lang="fr"),
    case("ravitaillement", "agot-2e-fr", "Ravitaillement", lang="fr"),
    case("ravitailement", "agot-2e-fr", "Ravitaillement", lang="fr"),
    case("ordre de soutien", "agot-2e-fr", "Soutien", game="agot"),
    case("attaque des sauvageons", "agot-2e-fr", "Sauvageons", lang="fr"),
    case("lame d'acier valyrien", "agot-2e-fr", "Acier Valyrien", lang="fr"),
    case("piste des fiefs", "agot-2e-fr", "Fiefs"),
    case("garnisons", "agot-2e-fr", "Garnisons", lang="fr"),
    case("transport par bateau", "agot-2e-fr", "Transport par Bateau"),
    case("cites libres", "agot-2e-fr", "Cites Libres"),
    case("enchere piste influence", "agot-2e-fr", "Enchères"),
    case("force neutre", "agot-2e-fr", "Force Neutre", game="agot"),
    case("test de panique", "tmg-1-5-fr", "Panique"),
    case("test de paniqe", "tmg-1-5-fr", "Panique"),
    case("ligne de vue", "tmg-1-5-fr", "Ligne de Vue", game="tmg"),
    case("unites neutres", "tmg-1-5-fr", "Unités Neutres", game="tmg"),
    case("attaque de melee", "tmg-1-5-fr", "Mêlée"),
    case("personnages montes", "tactics-wip-fr", "Personnages Montés"),
    case("phase de fin", "tactics-wip-fr", "Phase de Fin"),
    case("figurines neutres", "tactics-wip-fr", "Figurines Neutres"),
    # --- Persian, with the usual spelling variants ------------------------------------------
    case("کلاغ پیام رسان", "agot-2e-fa", "پیام رسان"),
    case("موجودی", "agot-2e-fa", "موجودی", lang="fa"),
    case("دستور حمایت", "agot-2e-fa", "حمایت"),
    case("تقویت قدرت", "agot-2e-fa", "تقویت قدرت"),
    case("پادگانها", "agot-2e-fa", "پادگان"),
    case("بنادر", "agot-2e-fa", "بنادر"),
    case("شمشير واليرين", "agot-2e-fa", "شمشیر والرین"),
    case("حمله وحشی ها", "agot-2e-fa", "حمله وحشیها"),
    # --- English, and every language across the glossary ------------------------------------
    case("messenger raven", "agot-2e-fr", "Corbeau Messager", lang="fr"),
    case("messenger raven", "agot-2e-fa", "پیام رسان", lang="fa"),
    case("supply", "agot-2e-fr", "Ravitaillement", lang="fr"),
    case("supply", "agot-2e-fa", "موجودی", lang="fa"),
    case("ravitaillement", "agot-2e-fa", "موجودی", lang="fa"),
    case("کلاغ", "agot-2e-fr", "Corbeau Messager", lang="fr"),
    case("neutral units", "tmg-1-5-fr", "Unités Neutres", game="tmg"),
    case("general tactics deck", "tmg-1-5-fr", "Paquet Tactique"),
    case("panic test", "tmg-1-5-fr", "Panique"),
    case("line of sight", "tmg-1-5-fr", "Ligne de Vue", game="tmg"),
    case("attachments", "tmg-1-5-fr", "Attachements"),
    case("army construction", "tmg-1-5-fr", "Création d'Armée"),
    case("commander", "tmg-1-5-fr", "Général", game="tmg"),
    case("melee attack", "tmg-1-5-fr", "Mêlée"),
    case("re-rolls", "tmg-1-5-fr", "Relances"),
    case("mounted characters", "tactics-wip-fr", "Personnages Montés"),
    case("end phase", "tactics-wip-fr", "Phase de Fin"),
    case("equipment tokens", "tactics-wip-fr", "Équipement", game="tactics"),
    case("wildlings attack", "agot-2e-fa", "حمله وحشیها", lang="fa"),
    case("ports", "agot-2e-fa", "بنادر", lang="fa"),
    case("garrison", "agot-2e-fa", "پادگان", lang="fa"),
    case("consolidate power", "agot-2e-fr", "Consolidation de Pouvoir", lang="fr"),
    case("mesenger raven", "agot-2e-fr", "Corbeau Messager", lang="fr"),
    case("corbeau mesager", "agot-2e-fr", "Corbeau Messager", lang="fr"),
    case("wildling threat", "agot-2e-fr", "Menace des Sauvageons", lang="fr"),
    case("tides of battle", "agot-2e-fr", "Cours de la Bataille", lang="fr"),
    case("iron throne track", "agot-2e-fr", "Piste du Trône de Fer", lang="fr"),
    case("kings court", "agot-2e-fr", "Cour du Roi", lang="fr"),
    case("mustering", "agot-2e-fa", "جمع آوری ارتش", lang="fa"),
    case("recrutement", "agot-2e-fa", "جمع آوری ارتش", lang="fa"),
    case("ship transport", "agot-2e-fa", "انتقال با کشتی", lang="fa"),
    case("three eyed crow", "hotk-fr", "Corneille à Trois Yeux"),
    case("companion cards", "hotk-fr", "Compagnon"),
    case("victoire militaire", "tmg-1-5-fr", "Victoire Militaire"),
    case("deployment", "tmg-1-5-fr", "Déploiement", game="tmg"),
    case("free actions", "tmg-1-5-fr", "Actions Gratuites"),
    case("condition tokens", "tmg-1-5-fr", "Pions État"),
    case("captured champions", "tactics-wip-fr", "Champions Capturés"),
    case("loot tokens", "tactics-wip-fr", "Pions Butin"),
    case("warband", "tactics-wip-fr", "Unité de Guerre"),
]


def import_real_books(rulebook_dir) -> str:
    """Import the five rulebooks with the project's importer (`import_rulebook`), then
    (re-)index them. Returns which importer was used."""
    try:
        get_commands()["import_rulebook"]
    except KeyError:
        importer = "minimal splitter (import_rulebook is not available)"
        for filename, slug, lang, game in BOOKS:
            _minimal_import(rulebook_dir / filename, slug, lang, game)
    else:
        importer = "manage.py import_rulebook"
        for filename, slug, lang, game in BOOKS:
            path = str(rulebook_dir / filename)
            options = ["--slug", slug, "--lang", lang, "--game", game]
            call_command("import_rulebook", path, *options, verbosity=0)
    for book in Rulebook.objects.filter(slug__in=[slug for _, slug, _, _ in BOOKS]):
        index_book(book)
    return importer


_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")


def _minimal_import(path, slug, lang, game) -> None:
    """A stand-in for the importer: a short line without final punctuation after a blank
    line opens a section. Crude, but enough for a relevance baseline."""
    book = Rulebook.objects.create(slug=slug, lang=lang, game=game, title=slug)
    sections, heading, body, blank = [], "", [], True
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = _MARKER.sub("", raw).replace("\u00a0", " ").strip().strip("*•").strip()
        short = 3 <= len(line) <= (45 if lang == "fa" else 60)
        if blank and short and line[-1] not in ".:,;،؛)»" and not line[0].islower():
            if heading or body:
                sections.append((heading, body))
            heading, body = line, []
        elif line:
            body.append(line)
        blank = not line
    sections.append((heading, body))
    Section.objects.bulk_create(
        Section(
            book=book,
            slug=f"s{position}",
            position=position,
            heading=heading[:300] or "-",
            body="\n".join(lines),
        )
        for position, (heading, lines) in enumerate(sections)
    )


def is_expected(section, expected: Case) -> bool:
    if section.book.slug != expected.book:
        return False
    lang = section.book.lang
    wanted = set(normalise(expected.heading, lang).split())
    return bool(wanted) and wanted <= set(normalise(section.heading, lang).split())


def evaluate(cases=CASES) -> tuple[list[Case], list[tuple[Case, str]]]:
    """Run every case: (cases whose first hit is the expected section, misses with what
    came first instead)."""
    found, missed = [], []
    for expected in cases:
        hits = search_sections(expected.query, limit=5, **dict(expected.filters))
        if hits and is_expected(hits[0].section, expected):
            found.append(expected)
            continue
        rank = next((i + 1 for i, h in enumerate(hits) if is_expected(h.section, expected)), None)
        top = f"{hits[0].section.book.slug} / {hits[0].section.heading!r}" if hits else "nothing"
        missed.append((expected, f"got {top}; expected at rank {rank or '>5'}"))
    return found, missed


@pytest.fixture(scope="module")
def real_books(django_db_setup, django_db_blocker, shared_dir):
    """The five rulebooks, imported once for this module (and removed afterwards)."""
    with django_db_blocker.unblock():
        importer = import_real_books(shared_dir / "rulebooks")
        yield importer
        Rulebook.objects.filter(slug__in=[slug for _, slug, _, _ in BOOKS]).delete()


def test_search_relevance_test_set_is_large_and_multilingual():
    assert len(CASES) >= 30
    assert {lang for _, _, lang, _ in BOOKS} == {"fr", "fa"}
    scripts_used = {"fa" if any("\u0600" <= ch <= "\u06ff" for ch in c.query) else "latin"
                    for c in CASES}  # fmt: skip
    assert scripts_used == {"fa", "latin"}


def test_search_relevance_real_rulebooks_rank_expected_section_first(real_books, capsys):
    found, missed = evaluate()
    share = len(found) / len(CASES)
    with capsys.disabled():
        print(f"\nrules search relevance ({connection.vendor}, books from {real_books}): ")
        print(f"  {len(found)}/{len(CASES)} = {share:.0%} ranked first")
        for expected, what in missed:
            print(f"  miss: {expected} -> {what}")
    assert share >= TARGET, f"{share:.0%} < {TARGET:.0%}: {[str(c) for c, _ in missed]}"


# --- the relevance set of questions as players ask them (tests/rules/relevance) -----------

RELEVANCE_SET = Path(__file__).resolve().parent / "relevance" / "queries.jsonl"
# The goal is 90 % first and 98 % in the top three (issue 15). On the 952 questions the
# search reaches 80.6 % and 92.5 % with both meaning models (held-out questions: 79.6 % and
# 92.3 %; the 765 questions written blind, by helpers who never saw the search: 77.8 % and
# 90.8 %), 64.0 % and 82.5 % with the section notes off (a book imported from another
# text), and 62.2 % and 81.8 % on words alone, the same on SQLite and PostgreSQL. The
# floors guard what is reached, a point or so below it (room for what another CPU changes
# in the last digits of a similarity), so a change that loses ground fails; raise them as
# the search improves. Each round's change to them, and why, is in
# tests/rules/relevance/README.md.
TOP1_FLOOR, TOP3_FLOOR = 0.79, 0.91
HELD_OUT_TOP1_FLOOR, HELD_OUT_TOP3_FLOOR = 0.78, 0.91
BLIND_TOP1_FLOOR, BLIND_TOP3_FLOOR = 0.76, 0.89
WORDS_TOP1_FLOOR, WORDS_TOP3_FLOOR = 0.61, 0.80  # without the meaning model
BARE_TOP1_FLOOR, BARE_TOP3_FLOOR = 0.63, 0.81  # both models, the section notes off


def test_relevance_set_is_large_varied_and_names_real_books():
    cases = load_cases(RELEVANCE_SET)
    books = json.loads((RELEVANCE_SET.parent / "books.json").read_text(encoding="utf-8"))
    assert len(cases) >= 120 and len({c.id for c in cases}) == len(cases)
    assert {c.lang for c in cases} == {"en", "fr", "fa"}
    assert {c.book for c in cases} <= {book["slug"] for book in books["books"]}
    assert {c.kind for c in cases} >= {"plain", "term", "number", "procedure", "game"}
    assert all(c.why and c.expect for c in cases)
    assert 0.2 <= sum(c.holdout for c in cases) / len(cases) <= 0.4


def _report_with_models(models: tuple[Path, Path], django_db_blocker, **overrides):
    """The relevance set's report with both meaning models on, as the product runs (and
    `overrides` of other settings): the books were imported with the models off, so their
    sentences are encoded as for books imported before the models were installed
    (`rules_meaning --warm`; cached in the session's copies of the models)."""
    english, multilingual = models
    with (
        django_db_blocker.unblock(),
        override_settings(
            CITADEL_MEANING_MODEL=str(english),
            CITADEL_MULTILINGUAL_MODEL=str(multilingual),
            **overrides,
        ),
    ):
        call_command("rules_meaning", "--warm", stdout=io.StringIO())
        return evaluate_set(load_cases(RELEVANCE_SET), search_sections)


@pytest.fixture(scope="module")
def relevance_report(
    real_books, meaning_model_session, multilingual_model_session, django_db_blocker
):
    """The relevance set's report with both meaning models on."""
    models = (meaning_model_session, multilingual_model_session)
    return _report_with_models(models, django_db_blocker)


def test_relevance_set_ranks_the_answer_first(relevance_report, capsys):
    report = relevance_report
    top1, top3 = report.share(), report.share(top=3)
    with capsys.disabled():
        print(f"\nrelevance set on {connection.vendor} ({len(report.outcomes)} queries):")
        print(report.table())
        for line in report.misses():
            print(f"  {line}")
    assert top1 >= TOP1_FLOOR, f"top-1 {top1:.0%} < {TOP1_FLOOR:.0%}"
    assert top3 >= TOP3_FLOOR, f"top-3 {top3:.0%} < {TOP3_FLOOR:.0%}"


def test_relevance_set_held_out_questions_keep_their_floor(relevance_report):
    held_out = [o for o in relevance_report.outcomes if o.case.holdout]
    top1, top3 = relevance_report.share(held_out), relevance_report.share(held_out, top=3)
    assert top1 >= HELD_OUT_TOP1_FLOOR, f"held-out top-1 {top1:.0%} < {HELD_OUT_TOP1_FLOOR:.0%}"
    assert top3 >= HELD_OUT_TOP3_FLOOR, f"held-out top-3 {top3:.0%} < {HELD_OUT_TOP3_FLOOR:.0%}"


def test_relevance_set_questions_written_blind_keep_their_floor(relevance_report):
    blind = [o for o in relevance_report.outcomes if "blind" in o.case.tags]
    top1, top3 = relevance_report.share(blind), relevance_report.share(blind, top=3)
    assert top1 >= BLIND_TOP1_FLOOR, f"blind top-1 {top1:.0%} < {BLIND_TOP1_FLOOR:.0%}"
    assert top3 >= BLIND_TOP3_FLOOR, f"blind top-3 {top3:.0%} < {BLIND_TOP3_FLOOR:.0%}"


def test_relevance_set_without_section_notes_keeps_its_floor(
    real_books, meaning_model_session, multilingual_model_session, django_db_blocker
):
    """A book imported from another text has no notes: the models read its headings and
    body sentences only."""
    models = (meaning_model_session, multilingual_model_session)
    report = _report_with_models(models, django_db_blocker, CITADEL_SECTION_NOTES=False)
    top1, top3 = report.share(), report.share(top=3)
    assert top1 >= BARE_TOP1_FLOOR, f"without notes top-1 {top1:.0%} < {BARE_TOP1_FLOOR:.0%}"
    assert top3 >= BARE_TOP3_FLOOR, f"without notes top-3 {top3:.0%} < {BARE_TOP3_FLOOR:.0%}"


def test_relevance_set_on_words_alone_keeps_its_floor(real_books):
    """Without the meaning model (not installed, or turned off) the search still ranks."""
    report = evaluate_set(load_cases(RELEVANCE_SET), search_sections)
    top1, top3 = report.share(), report.share(top=3)
    assert top1 >= WORDS_TOP1_FLOOR, f"words alone top-1 {top1:.0%} < {WORDS_TOP1_FLOOR:.0%}"
    assert top3 >= WORDS_TOP3_FLOOR, f"words alone top-3 {top3:.0%} < {WORDS_TOP3_FLOOR:.0%}"


def test_meaning_shows_each_section_as_the_words_alone_do(
    real_books, meaning_model_session, multilingual_model_session, django_db_blocker
):
    """With the models, the snippets are made while they read the question (the words'
    best) or after it (the rest): the meaning reorders, and each section shows the same
    snippet and highlighted heading as on words alone."""

    def shown(limit: int) -> dict[tuple[str, int], tuple[str, str]]:
        return {
            (case.id, hit.section.id): (hit.snippet, hit.heading_html)
            for case in cases
            for hit in search_sections(case.query, limit=limit, **dict(case.filters))
        }

    cases = load_cases(RELEVANCE_SET)[:120]
    words = shown(60)  # the meaning's candidates come from the words' best 60
    with (
        django_db_blocker.unblock(),
        override_settings(
            CITADEL_MEANING_MODEL=str(meaning_model_session),
            CITADEL_MULTILINGUAL_MODEL=str(multilingual_model_session),
        ),
    ):
        recheck_soon()  # the models are part of the index: built again at the next search
        meaning = shown(20)
    recheck_soon()
    common = meaning.keys() & words.keys()
    assert len(common) > 0.95 * len(meaning)
    assert [key for key in common if meaning[key] != words[key]] == []


MARKUP = re.compile(r"\|\s*\S.*\|\s*$|\*\*|__|^#{1,6}\s|-{3,}|<(?!/?mark>)", re.MULTILINE)


def test_snippets_of_the_real_books_show_no_markup(real_books):
    shown = [
        text
        for case in load_cases(RELEVANCE_SET)
        for hit in search_sections(case.query, limit=5, **dict(case.filters))
        for text in (hit.snippet, hit.heading_html)
    ]
    leaks = [text for text in shown if MARKUP.search(text)]
    assert len(shown) > 500 and leaks == []


def test_section_notes_all_belong_to_a_section_of_the_real_books(real_books):
    """Every shipped note names a section the importer makes from the real books (same
    game, language, slug and heading): an importer change that renames sections shows here
    instead of silently leaving notes unread."""
    notes = load_notes()
    sections = {
        (s.book.game, s.book.lang, s.slug): s.heading
        for s in Section.objects.select_related("book").filter(
            book__slug__in=[slug for _, slug, _, _ in BOOKS]
        )
    }
    orphans = [
        key for key, note in notes.items()
        if key not in sections or normalise(sections[key], key[1]) != note.heading
    ]  # fmt: skip
    assert len(notes) >= 400
    assert orphans == []
