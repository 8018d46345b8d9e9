"""The general EN↔FR dictionary (rules/data/dictionary.json, from FreeDict): read only
where the glossary and the lexicon know no word, one direction at a time."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rules.search.glossary import (
    DICTIONARY,
    DICTIONARY_PATH,
    dictionary_entry,
    load_dictionary,
    load_terms,
    loaded_once,
    parse_dictionary,
)
from rules.search.index import SearchIndex
from rules.search.normalise import normalise
from rules.search.query import DICTIONARY_WEIGHT, plan_query
from tests.rules.test_search_index import row
from tests.rules.test_search_normalise import _units, _vocabularies

SMALL = {
    "format": "citadel-dictionary/1",
    "directions": {
        "en-fr": {"sheathe": ["rengainer"], "quiver": ["carquois", "trembler"]},
        "fr-en": {"rengainer": ["sheathe"]},
    },
}


def test_dictionary_file_has_both_directions_with_thousands_of_words():
    tables = load_dictionary()
    assert set(tables) == {("en", "fr"), ("fr", "en")}
    assert all(len(table) > 5000 for table in tables.values())
    assert all(e.kind == DICTIONARY for table in tables.values() for e in table.entries)


def test_dictionary_file_names_its_source_and_licence():
    data = json.loads(DICTIONARY_PATH.read_text(encoding="utf-8"))
    assert data["licence"] == "GPL-2.0-or-later"
    assert "FreeDict" in data["source"]


def test_parse_dictionary_rejects_other_formats():
    with pytest.raises(ValueError):
        parse_dictionary({"format": "citadel-lexicon/1"})


def test_plan_query_translates_with_the_headwords_of_the_query_language_only():
    # "trembler" is a translation of the English "quiver", not a French headword.
    vocabularies = _vocabularies(en="the arrows quiver")
    plan = plan_query("trembler", ["en"], load_terms(), vocabularies, parse_dictionary(SMALL))
    assert DICTIONARY not in {u.origin for u in _units(plan, "en", "fr")}


def test_plan_query_translates_a_word_the_lexicon_lacks_with_the_dictionary():
    vocabularies = _vocabularies(fr="rengainer son épée")
    plan = plan_query("sheathe", ["fr"], load_terms(), vocabularies, parse_dictionary(SMALL))
    (unit,) = _units(plan, "fr", "en")
    assert unit.origin == DICTIONARY
    assert unit.weight == DICTIONARY_WEIGHT
    assert ("rengain",) in unit.alternatives


def test_plan_query_keeps_the_typed_word_as_a_cognate():
    plan = plan_query(
        "quiver", ["fr"], load_terms(), _vocabularies(fr="carquois"), parse_dictionary(SMALL)
    )
    (unit,) = _units(plan, "fr", "en")
    assert unit.alternatives[0] == tuple(normalise("quiver", "fr").split())


def test_plan_query_prefers_the_lexicon_over_the_dictionary():
    vocabularies = _vocabularies(fr="mesurer les distances")
    plan = plan_query("measure", ["fr"], load_terms(), vocabularies, load_dictionary())
    assert [u.origin for u in _units(plan, "fr", "en")] == ["word"]


def test_plan_query_does_not_use_the_dictionary_within_one_language():
    vocabularies = _vocabularies(fr="rengainer")
    plan = plan_query("rengainer", ["fr"], load_terms(), vocabularies, parse_dictionary(SMALL))
    assert [u.origin for u in _units(plan, "fr", "fr")] == ["query"]


def test_dictionary_word_reaches_a_french_rule_the_lexicon_cannot():
    rows = [
        row(1, "Fourreau", "Un héros peut rengainer son arme à la fin de son tour."),
        row(2, "Arme", "Une arme se dégaine au début du combat."),
    ]
    index = SearchIndex(rows, load_terms())
    plan = plan_query(
        "when can I sheathe", ["fr"], load_terms(), index.vocabularies, parse_dictionary(SMALL)
    )
    found, _vectors = index.rank(plan, limit=2)
    assert int(index.ids[found[0].position]) == 1


def test_dictionary_file_is_what_freedict_gives():
    dictd = Path("/usr/share/dictd")
    if not (dictd / "freedict-eng-fra.index").is_file():
        pytest.skip("FreeDict is not installed (apt-get install dict-freedict-eng-fra -fra-eng)")
    built = subprocess.run(
        [sys.executable, "scripts/build_dictionary.py", "--check", "--dictd", str(dictd)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr


def test_dictionary_file_phrases_are_what_the_normaliser_makes():
    """The file keeps each headword's normalised phrases (read as they are at start): after
    a change to the normaliser, scripts/build_dictionary.py writes them again."""
    data = json.loads(DICTIONARY_PATH.read_text(encoding="utf-8"))
    stale = [
        word
        for name, words in data["directions"].items()
        for word, translations in words.items()
        if data["phrases"][name].get(word)
        != [
            " ".join(phrase)
            for phrase in dictionary_entry(word, translations, *name.split("-")).phrases(
                name.split("-")[0]
            )
        ]
    ]
    assert not stale, f"run scripts/build_dictionary.py: {len(stale)} stale, e.g. {stale[:5]}"


def test_parse_dictionary_reads_stored_phrases_as_they_are():
    data = {**SMALL, "phrases": {"en-fr": {"sheathe": ["stored token"]}}}
    table = parse_dictionary(data)["en", "fr"]
    assert [e.key for e in table.lookup(("stored", "token"), "en")] == ["en:sheathe"]
    assert [e.key for e in table.lookup(tuple(normalise("quiver", "en").split()), "en")] == [
        "en:quiver"
    ]


def test_loaded_once_makes_its_value_once_for_threads_asking_together():
    made = []

    @loaded_once
    def load() -> object:
        time.sleep(0.05)  # long enough for every thread to ask before it is made
        made.append(object())
        return made[-1]

    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(load())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1
    assert got == made * 4
