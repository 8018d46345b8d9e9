"""The English gloss of French questions that the meaning model reads (rules.search.gloss)."""

from __future__ import annotations

import pytest

from rules.search.gloss import (
    MAX_SENTENCES,
    build_gloss,
    gloss_words,
    load_gloss,
    model_reading,
    sentence_keys,
)
from rules.search.glossary import DICTIONARY, TERM, WORD, Entry

FUNCTION_WORDS = {"je": "I", "peut on": "can I", "de": "of", "ne": "", "pas": "not"}


def entry(french, english, kind):
    return Entry(key=french, games=(), terms={"fr": (french,), "en": (english,)}, kind=kind)


def small_gloss():
    return build_gloss(
        FUNCTION_WORDS,
        [
            entry("charger", "charge", WORD),
            entry("mesurer", "measure", WORD),
            entry("égalité", "tie", WORD),
            entry("Corbeau Messager", "Messenger Raven", TERM),
            entry("corbeau", "crow", DICTIONARY),
            entry("commencer", "start", DICTIONARY),
        ],
    )


def test_gloss_words_fold_case_accents_and_elisions():
    assert gloss_words("L'Égalité, qu’on") == ("l", "egalite", "qu", "on")


def test_gloss_reads_function_words_and_ordinary_words():
    assert small_gloss().read("peut on mesurer avant de charger") == (
        "can I measure avant of charge"
    )


def test_gloss_matches_a_word_typed_without_its_accents():
    assert small_gloss().read("egalite") == "tie"


def test_gloss_prefers_the_game_term_over_the_dictionary():
    assert small_gloss().read("le corbeau messager") == "le Messenger Raven"


def test_gloss_reads_a_conjugated_word_by_its_stem():
    assert small_gloss().read("je commence") == "I start"


def test_gloss_drops_a_function_word_glossed_empty():
    assert small_gloss().read("je ne mesure pas") == "I measure not"


def test_gloss_keeps_a_word_it_does_not_know():
    assert small_gloss().read("Varys 3") == "varys 3"


def test_gloss_of_an_empty_question_is_empty():
    assert small_gloss().read("  ?! ") == ""


def test_shipped_gloss_reads_a_players_question():
    assert load_gloss().read("qui commence a jouer") == "who start to play"


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("on fait quoi si mes troupes ne peuvent pas battre en retraite", "what do we do if"),
        ("ça fait quoi un pion pouvoir", "what does it do"),
        ("il faut combien de pions", "you must how many"),
    ],
)
def test_shipped_gloss_reads_the_verb_faire_as_players_use_it(question, read):
    # FreeDict's first English word for "fait" is the adjective (ripe, "mature").
    gloss = load_gloss().read(question)
    assert gloss.startswith(read) and "mature" not in gloss


def test_sentence_keys_name_the_language_and_skip_short_sentences():
    body = "Repli.\nUne unité qui se replie\nrecule de 2 cases. Voir p. 4"
    assert sentence_keys(body, "fr") == ("fr:Une unité qui se replie recule de 2 cases.",)


def test_sentence_keys_stop_at_the_books_first_sentences():
    body = " ".join(f"Phrase numéro {n} du livre." for n in range(MAX_SENTENCES + 5))
    keys = sentence_keys(body, "fr")
    assert len(keys) == MAX_SENTENCES and keys[-1].startswith(
        f"fr:Phrase numéro {MAX_SENTENCES - 1}"
    )


def test_sentence_keys_of_a_language_the_model_cannot_read_are_none():
    assert sentence_keys("دو مهره در یک خانه نمی توانند باشند.", "fa") == ()


class _Model:
    def __init__(self, *languages):
        self.languages = languages


def test_model_reading_glosses_french_for_an_english_model_and_keeps_english():
    english = _Model("en")
    assert model_reading(english, "qui commence a jouer", "fr") == "who start to play"
    assert model_reading(english, "Who goes first?", "en") == "Who goes first?"


def test_model_reading_of_a_language_no_gloss_reaches_is_none():
    assert model_reading(_Model("en"), "دو مهره در یک خانه", "fa") is None


def test_model_reading_keeps_the_text_a_multilingual_model_reads():
    multilingual = _Model("en", "fr", "fa")
    assert model_reading(multilingual, "qui commence a jouer", "fr") == "qui commence a jouer"
    assert model_reading(multilingual, "دو مهره", "fa") == "دو مهره"


def test_sentence_keys_of_the_languages_the_models_read():
    assert sentence_keys("دو مهره در یک خانه نمی توانند باشند.", "fa", ("en", "fr", "fa")) == (
        "fa:دو مهره در یک خانه نمی توانند باشند.",
    )
