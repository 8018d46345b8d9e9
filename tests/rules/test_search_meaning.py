"""The meaning model of the rules search (rules.search.meaning): the encoder against the
reference implementation's numbers, its quick (int8) run against the exact one, the phrase
vectors and their cache, and how the index uses them. Tests that need the model skip
without it, saying so (CI installs it)."""

from __future__ import annotations

import functools
import io
import threading

import numpy as np
import pytest
from django.core.management import call_command
from django.test import override_settings

import rules.search.index as index_module
from rules.search.glossary import load_terms
from rules.search.index import (
    MEANING_CANDIDATES,
    W_BARE_PHRASE,
    W_BARE_SENTENCE,
    W_SENTENCE,
    SearchIndex,
    SectionRow,
    body_meanings,
    meaning_models_of,
    sentence_cache,
)
from rules.search.meaning import (
    CACHE,
    FILES,
    QUICK,
    MeaningModels,
    SectionMeanings,
    SentenceEncoder,
    known_vectors,
    load_encoder,
)
from rules.search.normalise import normalise
from rules.search.query import plan_query
from rules.search.service import normalise_paragraphs

TERMS = load_terms()


@pytest.fixture
def model(meaning_model_copy):
    return meaning_model_copy


@pytest.fixture
def encoder(model):
    return load_encoder(str(model))


def english(encoder: SentenceEncoder) -> MeaningModels:
    """The English model alone, as the product uses it when the other is not installed."""
    models = meaning_models_of([encoder])
    assert models is not None
    return models


def row(id_, heading, body, *, phrases=(), lang="en", game="tactics"):
    return SectionRow(
        id_, 1, lang, game, "rule", id_, normalise(heading, lang),
        normalise_paragraphs(body, lang), heading, body, phrases=phrases,
    )  # fmt: skip


def test_token_ids_match_the_reference_tokenizer(encoder):
    # Computed by the model's own tokenizer (Hugging Face BertTokenizer, uncased).
    assert encoder.token_ids("Pré-mesures: l'unité (fuit)!") == [
        101, 3653, 1011, 2033, 28632, 2015, 1024, 1048, 1005, 15908, 1006, 11865, 4183, 1007,
        999, 102,
    ]  # fmt: skip
    assert encoder.token_ids("can two models stand in one square") == [
        101, 2064, 2048, 4275, 3233, 1999, 2028, 2675, 102
    ]  # fmt: skip


def test_token_ids_split_cjk_quotes_and_white_space_as_the_reference_does(encoder):
    # Each CJK ideograph is a word of its own (here unknown), curly quotes are punctuation,
    # a no-break space and a tab separate words.
    assert encoder.token_ids("两个模型 “quoted” \u00a0tab\there") == [
        101, 100, 100, 100, 100, 1523, 9339, 1524, 21628, 2182, 102
    ]  # fmt: skip


def test_vectors_match_the_reference_implementation(encoder):
    # The first six of 384 values, computed by sentence-transformers on PyTorch.
    vector = encoder.encode(["can two models stand in one square"])[0]
    reference = [0.03635, -0.0259, -0.05565, 0.00105, -0.01726, 0.05538]
    assert np.allclose(vector[:6], reference, atol=2e-5)
    assert np.isclose(np.linalg.norm(vector), 1.0, atol=1e-5)


def test_vectors_of_a_batch_equal_those_of_each_text(encoder):
    texts = ["charge", "what happens when a charge falls short of its target", "x"]
    together = encoder.encode(texts)
    alone = np.array([encoder.encode([text])[0] for text in texts])
    assert np.allclose(together, alone, atol=1e-5)


@pytest.mark.parametrize(
    "question",
    ["what happens when a charge falls short", "x", "combien de cartes tactiques " * 12],
)
def test_a_question_vector_is_near_its_exact_vector(encoder, question):
    quick = encoder.encode_question(question)
    assert np.isclose(np.linalg.norm(quick), 1.0, atol=1e-5)
    assert quick @ encoder.encode([question])[0] > 0.98


def test_quick_graph_is_made_and_kept_in_the_models_folder(model):
    (model / QUICK).unlink()
    load_encoder(str(model)).encode_question("retreat")
    assert (model / QUICK).stat().st_size > 1_000_000


def test_quick_graph_damaged_is_made_again(model):
    (model / QUICK).unlink()
    (model / QUICK).write_bytes(b"damaged")
    encoder = load_encoder(str(model))
    assert encoder is not None
    assert encoder.encode_question("retreat").shape == (384,)
    assert (model / QUICK).stat().st_size > 1_000_000


def test_vectors_bring_a_question_nearer_the_rule_it_means(encoder):
    question, rule, other = encoder.encode(
        ["can two models stand in one square", "no two models in the same square", "victory points"]
    )
    assert question @ rule > question @ other + 0.2


def test_a_long_text_is_cut_at_the_models_length(encoder):
    assert len(encoder.token_ids("word " * 500)) == 128


def test_load_encoder_without_the_model_is_none(tmp_path):
    assert load_encoder(None) is None
    assert load_encoder(str(tmp_path)) is None


def test_load_encoder_of_damaged_files_is_none(tmp_path):
    for name in FILES:
        (tmp_path / name).write_text("damaged")
    assert load_encoder(str(tmp_path)) is None


def test_phrase_vectors_are_kept_and_read_back(encoder, model):
    first = known_vectors(encoder, [["charge falls short"], ["retreat"]], cache=model / CACHE)
    with np.load(model / CACHE) as kept:
        assert set(kept["texts"].tolist()) == {"charge falls short", "retreat"}
    # Nothing is encoded the second time: the vector can only come from the cache.
    again = known_vectors(encoder, [["retreat"]], cache=model / CACHE, encode_missing=False)
    assert np.array_equal(again["retreat"], first["retreat"])


def test_phrase_vectors_of_an_unreadable_cache_are_encoded_again(encoder, model):
    (model / CACHE).write_bytes(b"not an npz file")
    known = known_vectors(encoder, [["retreat"]], cache=model / CACHE)
    assert known["retreat"].shape == (384,)
    with np.load(model / CACHE) as kept:
        assert kept["texts"].tolist() == ["retreat"]


@pytest.mark.parametrize(
    ("lang", "headings", "question", "read"),
    [
        ("en", ("Moving", "Soldiers"), "can two models stand in one square",
         "can two models stand in one square"),
        ("fr", ("Déplacement", "Soldats"), "deux figurines dans la même case",
         "two Model in the same Square"),
    ],
)  # fmt: skip
def test_meaning_puts_the_section_whose_notes_say_it_first(encoder, lang, headings, question, read):
    # Both sections hold the query's words alike: on words alone the first one wins.
    body = {"en": "Models stand in a square.", "fr": "Une figurine sur une case."}[lang]
    rows = [
        row(1, headings[0], body, lang=lang, phrases=("move up to speed squares",)),
        row(2, headings[1], body, lang=lang, phrases=("no two models in same square",)),
    ]
    alone = SearchIndex(rows, TERMS)
    plan = plan_query(question, [lang], TERMS, alone.vocabularies)
    found, _ = alone.rank(plan)
    assert [int(alone.ids[r.position]) for r in found] == [1, 2]
    index = SearchIndex(rows, TERMS, models=english(encoder))
    found, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    assert [int(index.ids[r.position]) for r in found] == [2, 1]
    explained = index.explain(plan, found[0].position, meaning=vectors.meaning)
    assert explained["meaning"]["phrase"] == "no two models in same square"
    assert explained["meaning"]["question"] == read
    assert explained["boosts"]["meaning"] > 0


def _crowd():
    """25 sections that hold the question's words more than the one that answers it (99),
    which says so only in its notes."""
    crowd = [row(i, f"Models in a square {i}", "Models square. Models stand in a square.")
             for i in range(1, 26)]  # fmt: skip
    long_body = "Soldiers " * 60 + "models square"
    return [*crowd, row(99, "Soldiers", long_body, phrases=("no two models in same square",))]


def _words_rank(index, plan, section_id):
    found, _ = index.rank(plan, limit=30)
    return [int(index.ids[r.position]) for r in found].index(section_id) + 1


def test_meaning_compares_a_section_the_words_ranked_low_when_it_is_close(encoder):
    rows = _crowd()
    plan = plan_query("can two models stand in one square", ["en"], TERMS,
                      SearchIndex(rows, TERMS).vocabularies)  # fmt: skip
    assert _words_rank(SearchIndex(rows, TERMS), plan, 99) > MEANING_CANDIDATES
    index = SearchIndex(rows, TERMS, models=english(encoder))
    _found, vectors = index.rank(plan, limit=30, meaning=functools.partial(index.meaning_of, plan))
    target = int(np.flatnonzero(index.ids == 99)[0])
    assert vectors.meaning[target].boost > 0


def test_meaning_leaves_out_a_section_beyond_the_pool_of_the_words_best(encoder, monkeypatch):
    rows = _crowd()
    plan = plan_query("can two models stand in one square", ["en"], TERMS,
                      SearchIndex(rows, TERMS).vocabularies)  # fmt: skip
    monkeypatch.setattr(index_module, "MEANING_POOL", MEANING_CANDIDATES)
    index = SearchIndex(rows, TERMS, models=english(encoder))
    _found, vectors = index.rank(plan, limit=30, meaning=functools.partial(index.meaning_of, plan))
    target = int(np.flatnonzero(index.ids == 99)[0])
    assert target not in vectors.meaning
    assert len(vectors.meaning) == MEANING_CANDIDATES


def test_best_phrase_of_each_section_is_its_first_closest():
    vectors = np.eye(3, dtype=np.float32)
    meanings = SectionMeanings(("a", "b", "c"), vectors, np.array([0, 2, 2, 4]),
                               np.array([0, 1, 2, 1]))  # fmt: skip
    query = np.array([0.0, 1.0, 1.0], dtype=np.float32)
    assert meanings.best(query, [2, 1, 0]) == [(1.0, 2), (0.0, -1), (1.0, 1)]
    assert meanings.best(query, []) == []


def test_meaning_reads_a_french_question_through_its_english_gloss(encoder):
    rows = [row(1, "Soldats", "Une figurine par case.", lang="fr")]
    index = SearchIndex(rows, TERMS, models=english(encoder))
    french = plan_query("est-ce que deux figurines peuvent être sur une case", ["fr"], TERMS,
                        index.vocabularies)  # fmt: skip
    question = index.meaning_of(french)()
    assert question is not None and question.readings == ("two Model can be on a Square",)


def test_meaning_reads_a_question_without_the_game_it_names(encoder):
    rows = [row(1, "Charge", "A charging model gets +1 to its attack.")]
    index = SearchIndex(rows, TERMS, models=english(encoder))
    plan = plan_query("bonus for charging in tactics", ["en"], TERMS, index.vocabularies)
    question = index.meaning_of(plan)()
    assert question is not None and question.readings == ("bonus for charging",)
    ranked, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    why = index.explain(plan, ranked[0].position, meaning=vectors.meaning)
    assert why["meaning"]["read_by"] == {encoder.name: "bonus for charging"}


def test_meaning_is_not_asked_of_a_persian_question(encoder):
    rows = [row(1, "سرباز", "یک مهره در هر خانه.", lang="fa", game="agot")]
    index = SearchIndex(rows, TERMS, models=english(encoder))
    persian = plan_query("دو مهره در یک خانه", ["fa"], TERMS, index.vocabularies)
    assert index.meaning_of(persian)() is None
    assert index.explain(persian, 0)["meaning"] is None


RULE = "Deux figurines ne peuvent jamais occuper la même case."
MOVING = "Une figurine avance case par case, jusqu'à sa vitesse."


def _two_sections():
    return [
        row(1, "Mouvement", MOVING, lang="fr"),
        row(2, "Soldats", f"{MOVING} {RULE}", lang="fr"),
    ]


def test_body_sentences_not_encoded_yet_are_left_out_of_the_index(encoder):
    index = SearchIndex(_two_sections(), TERMS, models=english(encoder))
    assert index.sentences is not None and index.sentences.texts == ()
    assert not sentence_cache(encoder).exists()


def test_meaning_adds_the_sections_closest_body_sentence_once_encoded(encoder):
    rows = _two_sections()
    question = "can two models stand in one square"
    before = SearchIndex(rows, TERMS, models=english(encoder))
    plan = plan_query(question, ["fr"], TERMS, before.vocabularies)
    _found, vectors = before.rank(plan, meaning=functools.partial(before.meaning_of, plan))
    boost_before = before.explain(plan, 1, meaning=vectors.meaning)["boosts"]["meaning"]
    body_meanings(english(encoder), [(r.body, r.lang) for r in rows], encode_missing=True)
    index = SearchIndex(rows, TERMS, models=english(encoder))
    _found, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    explained = index.explain(plan, 1, meaning=vectors.meaning)
    assert explained["meaning"]["sentence"] == RULE
    assert explained["meaning"]["sentence_similarity"] > 0.3
    assert explained["boosts"]["meaning"] > boost_before


def test_meaning_of_a_section_without_notes_leans_on_its_body(encoder):
    rows = [
        row(1, "Soldats", f"{MOVING} {RULE}", lang="fr", phrases=("the box contents",)),
        row(2, "Soldats", f"{MOVING} {RULE}", lang="fr"),
    ]
    body_meanings(english(encoder), [(r.body, r.lang) for r in rows], encode_missing=True)
    index = SearchIndex(rows, TERMS, models=english(encoder))
    plan = plan_query("can two models stand in one square", ["fr"], TERMS, index.vocabularies)
    found, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    assert [int(index.ids[r.position]) for r in found] == [2, 1]
    bare, noted = (vectors.meaning[r.position] for r in found)
    assert bare.said == pytest.approx(noted.said) and bare.said > 0.3
    # The same body sentence weighs W_BARE_SENTENCE / W_SENTENCE more in the bare section.
    scale = bare.boost / (W_BARE_PHRASE * max(bare.similarity, 0) + W_BARE_SENTENCE * bare.said)
    expected = scale * (max(noted.similarity, 0) + W_SENTENCE * noted.said)
    assert noted.boost == pytest.approx(expected)


def test_index_without_the_model_explains_no_meaning():
    rows = [row(1, "Soldiers", "Models stand in a square.")]
    index = SearchIndex(rows, TERMS)
    plan = plan_query("models square", ["en"], TERMS, index.vocabularies)
    assert index.meaning_of(plan)() is None
    explained = index.explain(plan, 0)
    assert explained["meaning"] is None and explained["boosts"]["meaning"] == 0.0


def test_rules_meaning_command_says_when_the_model_is_not_installed(tmp_path):
    out = io.StringIO()
    with override_settings(CITADEL_MEANING_MODEL=str(tmp_path)):
        call_command("rules_meaning", stdout=out)
    assert "not installed" in out.getvalue() and "fetch-meaning-model" in out.getvalue()


def test_rules_meaning_command_reports_an_installed_model(model):
    out = io.StringIO()
    with override_settings(CITADEL_MEANING_MODEL=str(model)):
        call_command("rules_meaning", stdout=out)
    assert f"installed in {model}; it keeps 0 phrase vectors and 0 sentence vectors" in (
        out.getvalue()
    )
    assert f"int8 graph ({QUICK})" in out.getvalue()


@pytest.mark.django_db
def test_index_book_encodes_its_headings_before_any_search(meaning_model_copy, settings):
    from rules.models import Rulebook, Section
    from rules.search import index_book

    settings.CITADEL_MEANING_MODEL = str(meaning_model_copy)
    book = Rulebook.objects.create(slug="meaning-fr", lang="fr", game="tmg", title="Livre")
    Section.objects.create(book=book, slug="repli", position=0, heading="Repli", body="Texte.")
    assert not (meaning_model_copy / CACHE).exists()
    index_book(book)
    with np.load(meaning_model_copy / CACHE) as kept:
        assert "Repli" in kept["texts"].tolist()


@pytest.mark.django_db
def test_index_book_encodes_its_body_sentences_before_any_search(meaning_model_copy, settings):
    from rules.models import Rulebook, Section
    from rules.search import index_book

    settings.CITADEL_MEANING_MODEL = str(meaning_model_copy)
    book = Rulebook.objects.create(slug="meaning-fr", lang="fr", game="tmg", title="Livre")
    Section.objects.create(book=book, slug="repli", position=0, heading="Repli", body=RULE)
    index_book(book)
    with np.load(sentence_cache(load_encoder(str(meaning_model_copy)))) as kept:
        assert kept["texts"].tolist() == [f"fr:{RULE}"]


@pytest.mark.django_db
def test_rules_meaning_warm_encodes_imported_sentences_and_drops_stale_ones(
    meaning_model_copy, settings
):
    from rules.models import Rulebook, Section

    settings.CITADEL_MEANING_MODEL = str(meaning_model_copy)
    stale = meaning_model_copy / "sentences-000000000000.npz"
    stale.write_bytes(b"old")
    book = Rulebook.objects.create(slug="meaning-fr", lang="fr", game="tmg", title="Livre")
    Section.objects.create(book=book, slug="repli", position=0, heading="Repli", body=RULE)
    out = io.StringIO()
    call_command("rules_meaning", "--warm", stdout=out)
    assert "1 sentences of 1 imported sections ready" in out.getvalue()
    assert not stale.exists()
    assert sentence_cache(load_encoder(str(meaning_model_copy))).exists()


def test_rank_encodes_the_question_while_the_words_are_scored(encoder, monkeypatch):
    rows = [row(1, "Soldiers", "Models stand in a square.", phrases=("no two in one square",))]
    index = SearchIndex(rows, TERMS, models=english(encoder))
    plan = plan_query("two models in one square", ["en"], TERMS, index.vocabularies)
    threads = []
    encode = encoder.encode_tokens

    def recorded(text):
        threads.append(threading.current_thread().name)
        return encode(text)

    monkeypatch.setattr(encoder, "encode_tokens", recorded)
    found, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    assert [int(index.ids[r.position]) for r in found] == [1]
    assert len(threads) == 1 and threads[0].startswith("rules-meaning")
    closest = vectors.meaning[found[0].position]
    assert index.meanings.texts[closest.phrase] == "no two in one square"


def test_rank_gives_meanwhile_the_words_best_before_it_waits_for_the_model(encoder, monkeypatch):
    rows = _crowd()
    index = SearchIndex(rows, TERMS, models=english(encoder))
    plan = plan_query("can two models stand in one square", ["en"], TERMS, index.vocabularies)
    called = threading.Event()
    seen_by_model = []
    encode = encoder.encode_tokens

    def slow(text):  # the model finishes only once `meanwhile` has run (or after 5 s)
        seen_by_model.append(called.wait(timeout=5))
        return encode(text)

    def meanwhile(positions, vectors):
        given.extend(positions)
        called.set()

    given: list[int] = []
    monkeypatch.setattr(encoder, "encode_tokens", slow)
    index.rank(plan, limit=5, meaning=functools.partial(index.meaning_of, plan),
               meanwhile=meanwhile)  # fmt: skip
    assert seen_by_model == [True]
    words, matched, _ = SearchIndex(rows, TERMS).scores(plan)
    others = np.setdiff1d(np.flatnonzero(matched), given)
    assert len(given) == 5 and words[given].min() >= words[others].max()


def test_rank_without_a_meaning_to_wait_for_does_not_call_meanwhile():
    rows = _crowd()
    index = SearchIndex(rows, TERMS)
    plan = plan_query("can two models stand in one square", ["en"], TERMS, index.vocabularies)
    found, _ = index.rank(plan, limit=5, meanwhile=lambda *args: pytest.fail("called"))
    assert len(found) == 5


def test_a_file_written_whole_leaves_nothing_when_writing_fails(tmp_path):
    from rules.search.meaning import _write_whole

    def fail(out):
        out.write(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError):
        _write_whole(tmp_path / "vectors.npz", fail, suffix=".npz")
    assert list(tmp_path.iterdir()) == []


def test_quick_graph_weights_use_seven_bits(encoder):
    """7-bit weights: a CPU without VNNI sums their products with the inputs in 16 bits,
    which full-range weights overflow (encoder_graph.quantize)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(encoder.folder / QUICK)).graph
    weights = [
        numpy_helper.to_array(tensor)
        for tensor in graph.initializer
        if tensor.data_type == onnx.TensorProto.INT8
    ]
    assert weights
    assert max(int(np.abs(w.astype(np.int16)).max()) for w in weights) <= 64


def test_quick_graph_of_a_former_form_is_removed_when_made(model):
    (model / QUICK).unlink()
    former = model / SentenceEncoder.former_quick_files[0]
    former.write_bytes(b"an int8 graph of an earlier form")
    load_encoder(str(model)).encode_question("retreat")
    assert (model / QUICK).is_file()
    assert not former.exists()
