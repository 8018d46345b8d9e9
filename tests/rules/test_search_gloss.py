"""The English gloss of French questions that the meaning model reads (rules.search.gloss)."""

from __future__ import annotations

from rules.search.gloss import build_gloss, gloss_words, load_gloss
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
