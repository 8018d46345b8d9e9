"""The search contract, run against whichever database the suite runs on.

CI runs the whole suite on SQLite (FTS5 backend) and again on PostgreSQL (tsvector backend):
every test here must pass, unskipped, on both. Texts are our own short sentences.
"""

from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from rules.models import Rulebook, Section
from rules.search import SearchHit, index_book, normalise, reindex_all, schema, search_sections
from rules.search.backends import PostgresBackend, SqliteFts5Backend, get_backend

pytestmark = pytest.mark.django_db


def make_book(slug, lang, game, sections):
    book = Rulebook.objects.create(slug=slug, lang=lang, game=game, title=slug)
    for position, item in enumerate(sections):
        heading, body = item[0], item[1]
        kind = item[2] if len(item) > 2 else "rule"
        Section.objects.create(
            book=book,
            slug=f"s{position}",
            position=position,
            heading=heading,
            body=body,
            kind=kind,
            rule_key=f"rule-{position}",
        )
    index_book(book)
    return book


@pytest.fixture
def library():
    fr = make_book(
        "agot-fr",
        "fr",
        "agot",
        [
            ("Le Pion Corbeau Messager", "Celui qui le détient peut échanger un ordre."),
            ("Ravitaillement", "Chaque maison ajuste sa piste selon les barils contrôlés."),
            ("Ordres de Marche", "Déplacez vos troupes ; le corbeau ne sert à rien ici."),
            ("Crédits", "Merci aux testeurs du corbeau messager.", "credits"),
            ("Port-Réal", "La capitale du royaume."),
        ],
    )
    fa = make_book(
        "agot-fa",
        "fa",
        "agot",
        [
            ("توکن کلاغ پیام رسان", "بازیکنی که این توکن را دارد می‌تواند یک دستور را عوض کند."),
            ("موجودی", "هر خاندان جدول موجودی خود را تنظیم می کند."),
        ],
    )
    tmg = make_book(
        "tmg-fr",
        "fr",
        "tmg",
        [
            ("Tests de Panique", "Une unité lance deux dés ; un échec coûte des figurines."),
            ("Unités Neutres", "Elles rejoignent n'importe quelle armée, avec une limite."),
            ("Choix du Général", "Votre général ajoute ses cartes à votre paquet Tactique."),
        ],
    )
    return {"fr": fr, "fa": fa, "tmg": tmg}


def first(query, **filters):
    hits = search_sections(query, **filters)
    assert hits, f"no hit for {query!r}"
    return hits[0]


def test_backend_matches_the_database_vendor():
    backend = get_backend()
    expected = {"sqlite": SqliteFts5Backend, "postgresql": PostgresBackend}[connection.vendor]
    assert isinstance(backend, expected)


def test_search_sections_returns_frozen_hits_best_first(library):
    hits = search_sections("corbeau messager")
    assert hits and all(isinstance(hit, SearchHit) for hit in hits)
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)
    with pytest.raises(AttributeError):
        hits[0].score = 0


def test_search_sections_heading_weighs_more_than_body(library):
    hit = first("corbeau", book="agot-fr")
    assert hit.section.heading == "Le Pion Corbeau Messager"


def test_search_sections_credits_rank_below_rules(library):
    hits = search_sections("corbeau messager", book="agot-fr")
    headings = [hit.section.heading for hit in hits]
    assert headings.index("Le Pion Corbeau Messager") < headings.index("Crédits")


def test_search_sections_ignores_accents_case_and_plurals(library):
    assert first("RAVITAILLEMENTS", lang="fr").section.heading == "Ravitaillement"
    assert first("test de panique").section.heading == "Tests de Panique"
    assert first("unites neutres").section.heading == "Unités Neutres"


def test_search_sections_hyphenated_names_match_joined_and_split(library):
    for query in ("port-réal", "port real", "portreal"):
        assert first(query, lang="fr").section.heading == "Port-Réal"


def test_search_sections_persian_spelling_variants_match(library):
    # Arabic kaf/yeh, a spaced affix and a plural written apart all meet the index.
    assert first("توكن کلاغ", lang="fa").section.heading == "توکن کلاغ پیام رسان"
    assert first("میتواند", lang="fa").section.heading == "توکن کلاغ پیام رسان"
    assert first("توکن ها", lang="fa").section.heading == "توکن کلاغ پیام رسان"


def test_search_sections_expands_english_through_the_glossary(library):
    assert first("messenger raven", lang="fr").section.heading == "Le Pion Corbeau Messager"
    assert first("messenger raven", lang="fa").section.heading == "توکن کلاغ پیام رسان"
    assert first("supply", lang="fr").section.heading == "Ravitaillement"
    assert first("panic test").section.heading == "Tests de Panique"


def test_search_sections_expands_across_french_and_persian(library):
    assert first("ravitaillement", lang="fa").section.heading == "موجودی"
    assert first("موجودی", lang="fr").section.heading == "Ravitaillement"
    assert first("کلاغ", lang="fr").section.heading == "Le Pion Corbeau Messager"


def test_search_sections_tolerates_typos_in_long_words(library):
    assert first("ravitailement").section.heading == "Ravitaillement"
    assert first("ravitaillemnt", lang="fr").section.heading == "Ravitaillement"
    assert first("messanger raven", lang="fr").section.heading == "Le Pion Corbeau Messager"


def test_search_sections_filters_by_lang_book_and_game(library):
    assert {hit.section.book.lang for hit in search_sections("corbeau", lang="fa")} == {"fa"}
    assert {hit.section.book.slug for hit in search_sections("ordre", book="agot-fr")} == {
        "agot-fr"
    }
    assert {hit.section.book.game for hit in search_sections("general", game="tmg")} == {"tmg"}
    assert search_sections("ravitaillement", game="tmg") == []
    assert search_sections("corbeau", book="no-such-book") == []


def test_search_sections_limit(library):
    assert len(search_sections("corbeau", limit=1)) == 1
    assert len(search_sections("corbeau", limit=0)) == 1  # at least one


def test_search_sections_snippet_marks_words_and_escapes_html():
    make_book(
        "escape",
        "en",
        "tmg",
        [("Orders <b>bold</b>", "Use an order & a <script>alert(1)</script> token, then order.")],
    )
    hit = first("order")
    assert "<mark>order</mark>" in hit.snippet
    assert "<script>" not in hit.snippet and "&lt;script&gt;" in hit.snippet
    assert "&amp;" in hit.snippet
    assert hit.heading_html == "<mark>Orders</mark> &lt;b&gt;bold&lt;/b&gt;"


def test_search_sections_snippet_marks_persian_words(library):
    hit = first("جدول موجودی", lang="fa")
    assert "<mark>موجودی</mark>" in hit.snippet
    assert "<mark>جدول</mark>" in hit.snippet


def test_search_sections_partial_matches_rank_below_full_matches(library):
    hits = search_sections("corbeau ravitaillement", lang="fr")
    assert hits  # no section has both words: each half still finds its section
    assert {hit.section.heading for hit in hits[:2]} <= {
        "Le Pion Corbeau Messager",
        "Ravitaillement",
        "Ordres de Marche",
        "Crédits",
    }


@pytest.mark.parametrize(
    "query",
    ["", "   ", "de la the", "?!", '"', "'", "(", ")", "*", "NEAR(", "a AND", "OR", "NOT x",
     "col:value", "^", "x | y & !z", "<->", "\\", "%", "_", "'; DROP TABLE rules_section; --",
     "ـــ", "\u200c", "x" * 600],
)  # fmt: skip
def test_search_sections_odd_queries_never_fail(library, query):
    hits = search_sections(query)
    assert isinstance(hits, list)


def test_index_book_is_idempotent(library):
    before = [(h.section.id, h.score) for h in search_sections("corbeau")]
    assert index_book(library["fr"]) == 0
    assert [(h.section.id, h.score) for h in search_sections("corbeau")] == before


def test_index_book_fills_normalised_columns(library):
    section = Section.objects.get(book=library["fr"], slug="s0")
    assert section.search_heading == normalise("Le Pion Corbeau Messager", "fr")
    assert section.search_body == normalise(section.body, "fr")


def test_index_follows_edits_and_deletions(library):
    section = Section.objects.get(book=library["tmg"], slug="s2")
    section.heading = "Choix du Commandant"
    section.save()
    index_book(library["tmg"])
    assert first("commandant").section.id == section.id
    section.delete()
    assert search_sections("commandant") == []


def test_index_follows_new_sections(library):
    Section.objects.create(
        book=library["tmg"], slug="new", position=9, heading="Relances", body="On relance."
    )
    assert search_sections("relances") == []  # not indexed yet: the columns are empty
    index_book(library["tmg"])
    assert first("relances").section.slug == "new"


def test_reindex_all_rebuilds_the_index(library):
    Section.objects.filter(book=library["fr"]).update(search_heading="", search_body="")
    assert search_sections("ravitaillement", book="agot-fr") == []
    assert reindex_all() > 0
    assert first("ravitaillement", book="agot-fr").section.heading == "Ravitaillement"


def test_ensure_index_recreates_a_missing_index(library):
    schema.drop(connection)
    backend = get_backend()
    backend.ensure_index()
    assert first("ravitaillement", lang="fr").section.heading == "Ravitaillement"


def test_ensure_index_repairs_a_partly_missing_index(library):
    # SQLite drops triggers when it rebuilds a table; an index can be dropped by hand.
    part = {
        "sqlite": f"DROP TRIGGER {schema.FTS_TABLE}_au",
        "postgresql": f"DROP INDEX {schema.PG_INDEX}",
    }
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(part[connection.vendor])
    get_backend().ensure_index()
    section = Section.objects.get(book=library["tmg"], slug="s0")
    section.heading = "Tests de Bravoure"
    section.save()
    index_book(library["tmg"])
    assert first("bravoure").section.id == section.id


def test_search_sections_without_books_finds_nothing():
    assert search_sections("corbeau") == []


def test_search_hit_section_has_its_book_loaded(library, django_assert_max_num_queries):
    hit = first("corbeau")
    with django_assert_max_num_queries(0):
        assert hit.section.book.slug


# --- while the in-memory index is being built: the database backend answers --------------


@pytest.fixture
def without_index(monkeypatch):
    """Searches as they run while a large index is still being built in the background."""
    import rules.search.service as service

    monkeypatch.setattr(service, "current_index", lambda: None)


def test_search_sections_through_the_database_backend_ranks_alike(library, without_index):
    assert first("corbeau messager", lang="fr").section.heading == "Le Pion Corbeau Messager"
    assert first("messenger raven", lang="fa").section.heading == "توکن کلاغ پیام رسان"
    assert first("panic test").section.heading == "Tests de Panique"


def test_search_sections_through_the_database_backend_marks_snippets(library, without_index):
    hit = first("ravitaillement", lang="fr")
    assert "<mark>" in hit.heading_html


def test_search_sections_through_the_database_backend_finds_nothing_for_noise(
    library, without_index
):
    assert search_sections("zzyzx qwv") == []


def test_warm_up_builds_the_index_of_a_small_corpus_at_once(library):
    from rules.search.vocabulary import current_index, warm_up

    index = warm_up()
    assert index is not None and len(index) == Section.objects.count()
    assert current_index() is index


def test_gunicorn_worker_builds_the_index_as_it_starts(library):
    import runpy

    from rules.search import vocabulary

    conf = runpy.run_path(str(Path(settings.BASE_DIR) / "armybuilder" / "gunicorn.conf.py"))
    conf["post_worker_init"](worker=None)
    built = vocabulary._state["index"]  # before any search asks for it
    assert built is not None and built.fingerprint == vocabulary._fingerprint()


def _game_modes_book():
    book = Rulebook.objects.create(slug="modes-fr", lang="fr", game="tmg", title="modes")
    sections = [
        ("Une Tempête d'Épées", "", None),
        ("Mise en Place", "Le défenseur déploie ses unités derrière les murailles.", 0),
        ("Murailles du Château", "Les murailles bloquent les charges ennemies.", 0),
        ("Un Festin pour les Corbeaux", "", None),
        ("Mise en Place", "Chaque joueur place trois objectifs et déploie ses unités.", 3),
        ("Résolution des Attaques", "", None),
        ("Charge Manquée", "Une charge trop courte avance de la distance obtenue.", 5),
    ]
    created: list[Section] = []
    for position, (heading, body, parent) in enumerate(sections):
        created.append(
            Section.objects.create(
                book=book,
                slug=f"m{position}",
                position=position,
                depth=0 if parent is None else 1,
                parent=None if parent is None else created[parent],
                heading=heading,
                body=body,
            )
        )
    index_book(book)
    return created


def test_search_sections_reads_a_repeated_heading_with_the_mode_it_stands_in():
    sections = _game_modes_book()
    hit = first("feast for crows setup deploy", book="modes-fr", explain=True)
    assert hit.section.id == sections[4].id
    assert "context" in {unit["where"] for unit in hit.explanation["units"]}


def test_search_sections_gives_the_siblings_of_a_repeated_heading_their_context():
    sections = _game_modes_book()
    assert first("storm of swords walls", book="modes-fr").section.id == sections[2].id


def test_search_sections_gives_no_context_under_a_parent_without_repeated_headings():
    sections = _game_modes_book()
    hits = search_sections("résolution des attaques", book="modes-fr")
    assert sections[6].id not in {hit.section.id for hit in hits}


def test_search_sections_step_number_of_a_heading_is_not_a_word():
    make_book(
        "steps-fr",
        "fr",
        "agot",
        [
            ("1. Résolution des Ordres de Raid", "On retire l'ordre ciblé."),
            ("Pions Pouvoir", "Chaque joueur reçoit 1 pion Pouvoir."),
        ],
    )
    headings = [hit.section.heading for hit in search_sections("one", book="steps-fr")]
    assert headings == ["Pions Pouvoir"]


def test_search_sections_english_word_meets_its_french_cognate_by_stem():
    make_book(
        "cognates-fr",
        "fr",
        "agot",
        [
            ("Fin du Tour", "La consolidation a lieu après les raids."),
            ("Début du Tour", "Les joueurs placent leurs pions."),
        ],
    )
    hit = first("when does consolidating happen", book="cognates-fr")
    assert hit.section.heading == "Fin du Tour"
