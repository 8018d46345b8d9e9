"""The one normaliser (index and query time), the glossary and the query planner: pure code."""

import json

import pytest

from rules.search.glossary import load_glossary, parse_glossary
from rules.search.index import surface_words
from rules.search.normalise import normalise, scripts, tokens
from rules.search.query import Vocabulary, plan_query, source_langs

# --- every language ------------------------------------------------------------------------


def test_normalise_lowercases_and_drops_punctuation():
    assert normalise("ATTAQUE, Soutien !", "fr") == normalise("attaque soutien", "fr")


def test_normalise_applies_nfkc():
    # Full-width letters, the "ﬁ" ligature and a superscript digit are compatibility forms.
    assert normalise("ＡＢＣ ﬁnal x²", "en") == normalise("abc final x2", "en")


def test_normalise_empty_text_gives_empty_string():
    assert normalise("", "fr") == ""
    assert normalise("  ?! … ", "fa") == ""


def test_normalise_unknown_lang_is_read_as_english():
    assert normalise("Messenger Ravens", "xx") == normalise("Messenger Ravens", "en")


def test_normalise_hyphenated_word_matches_joined_and_split_forms():
    hyphenated = set(normalise("Port-Réal", "fr").split())
    assert set(normalise("port réal", "fr").split()) <= hyphenated
    assert set(normalise("portreal", "fr").split()) <= hyphenated


def test_normalise_is_idempotent_on_its_output():
    for text, lang in [("Les Unités Neutres", "fr"), ("توکن‌های قدرت", "fa")]:
        once = normalise(text, lang)
        assert normalise(once, lang) == once or set(normalise(once, lang).split()) <= set(
            once.split()
        ) | {normalise(t, lang) for t in once.split()}


# --- French --------------------------------------------------------------------------------


def test_normalise_fr_folds_accents():
    assert normalise("Épée Général Défense", "fr") == normalise("Epee General Defense", "fr")


def test_normalise_fr_folds_ligatures():
    assert normalise("Manœuvre cœur ŒIL", "fr") == normalise("manoeuvre coeur oeil", "fr")
    assert normalise("ex æquo", "fr") == normalise("ex aequo", "fr")


@pytest.mark.parametrize(
    "elided",
    ["l'ordre", "l’ordre", "d'ordre", "qu'ordre", "j'ordre", "n'ordre", "s'ordre", "c'ordre",
     "m'ordre", "t'ordre", "L’ORDRE", "lorsqu'ordre", "jusqu’ordre"],
)  # fmt: skip
def test_normalise_fr_removes_elisions_with_any_apostrophe(elided):
    assert normalise(elided, "fr") == normalise("ordre", "fr")


def test_normalise_fr_stems_plurals_and_inflections():
    assert normalise("Sauvageons", "fr") == normalise("sauvageon", "fr")
    assert normalise("ordres", "fr") == normalise("ordre", "fr")
    assert normalise("BATAILLES DES ROIS", "fr") == normalise("Bataille du Roi", "fr")
    assert normalise("Généraux", "fr") == normalise("général", "fr")


def test_normalise_fr_drops_stop_words():
    assert normalise("le test de la panique", "fr") == normalise("test panique", "fr")


def test_normalise_fr_keeps_accented_words_that_look_like_stop_words():
    # "dés" (dice) is not the article "des".
    assert normalise("dés", "fr") != ""
    assert normalise("des", "fr") == ""


def test_normalise_fr_handles_nbsp_and_stray_spaces():
    assert normalise("Ordre\u00a0: Marche", "fr") == normalise("ordre marche", "fr")


# --- English -------------------------------------------------------------------------------


def test_normalise_en_stems_with_snowball_english():
    assert normalise("Messenger Ravens", "en") == normalise("messenger raven", "en")
    assert normalise("attachments", "en") == normalise("attachment", "en")
    assert normalise("mustering", "en") == normalise("muster", "en")


def test_normalise_en_drops_possessive_and_stop_words():
    assert normalise("The King's Court", "en") == normalise("king court", "en")


# --- Persian -------------------------------------------------------------------------------


def test_normalise_fa_maps_arabic_yeh_and_kaf_to_persian():
    assert normalise("توكن", "fa") == normalise("توکن", "fa")
    assert normalise("اجمالي", "fa") == normalise("اجمالی", "fa")
    assert normalise("ى", "fa") == normalise("ی", "fa")


def test_normalise_fa_removes_harakat():
    assert normalise("قُوَّت", "fa") == normalise("قوت", "fa")
    assert normalise("مثلاً", "fa") == normalise("مثلا", "fa")


def test_normalise_fa_removes_tatweel():
    assert normalise("کلاــــغ", "fa") == normalise("کلاغ", "fa")


@pytest.mark.parametrize("form", ["می‌شود", "می شود", "میشود"])
def test_normalise_fa_unifies_mi_prefix_spacing(form):
    assert normalise(form, "fa") == normalise("میشود", "fa")


@pytest.mark.parametrize("form", ["نمی‌تواند", "نمی تواند", "نمیتواند"])
def test_normalise_fa_unifies_nemi_prefix_spacing(form):
    assert normalise(form, "fa") == normalise("نمیتواند", "fa")


@pytest.mark.parametrize("form", ["توکن‌ها", "توکن ها", "توکنها", "توکن‌های", "توکن های"])
def test_normalise_fa_plural_joined_or_spaced_is_the_same(form):
    assert normalise(form, "fa") == normalise("توکن", "fa")


def test_normalise_fa_comparative_spacing():
    assert normalise("بیش تر", "fa") == normalise("بیشتر", "fa")


def test_normalise_fa_converts_persian_and_arabic_indic_digits():
    assert normalise("۱۲ ۳۴", "fa") == "12 34"
    assert normalise("٥٦", "fa") == "56"
    assert normalise("۶", "fr") == "6"


def test_normalise_fa_folds_hamza_and_teh_marbuta():
    assert normalise("آهنین", "fa") == normalise("اهنین", "fa")
    assert normalise("صفحة", "fa") == normalise("صفحه", "fa")


def test_normalise_fa_repairs_known_ocr_misreadings():
    assert normalise("کلاع", "fa") == normalise("کلاغ", "fa")
    assert normalise("فواین", "fa") == normalise("قوانین", "fa")


def test_normalise_fa_drops_stop_words_and_keeps_latin_words():
    assert normalise("در Sunspear", "fa") == "sunspear"


def test_normalise_fa_removes_zero_width_and_bidi_controls():
    assert normalise("\u200fتوکن\u200e", "fa") == normalise("توکن", "fa")


def test_scripts_detects_latin_and_arabic():
    assert scripts("کلاغ") == {"arabic"}
    assert scripts("corbeau") == {"latin"}
    assert scripts("corbeau کلاغ") == {"arabic", "latin"}
    assert source_langs("1 2 3") == ("en", "fr", "fa")


# --- glossary ------------------------------------------------------------------------------


def test_glossary_has_at_least_60_entries_for_every_game():
    glossary = load_glossary()
    assert len(glossary) >= 60
    games = {game for entry in glossary.entries for game in entry.games}
    assert {"tmg", "tactics", "agot"} <= games
    for entry in glossary.entries:
        assert entry.terms["en"] and entry.terms["fr"], entry.key


def test_glossary_keys_are_unique():
    keys = [entry.key for entry in load_glossary().entries]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    ("key", "en", "fr", "fa"),
    [
        ("messenger-raven", "Messenger Raven", "Corbeau Messager", "کلاغ پیام رسان"),
        ("commander", "Commander", "Général", None),
        ("order", "Order", "Ordre", "دستور"),
        ("supply", "Supply", "Ravitaillement", "موجودی"),
        ("power-token", "Power token", "pion Pouvoir", "توکن قدرت"),
        ("panic-test", "Panic test", "Test de Panique", None),
        ("attachment", "Attachment", "Attachement", None),
    ],
)
def test_glossary_knows_the_basic_equivalences(key, en, fr, fa):
    entry = load_glossary().get(key)
    assert en in entry.terms["en"]
    assert fr in entry.terms["fr"]
    if fa:
        assert fa in entry.terms["fa"]


def test_glossary_expand_english_term_gives_french_and_persian():
    expanded = load_glossary().expand("messenger raven", "en")
    assert tuple(normalise("Corbeau Messager", "fr").split()) in expanded["fr"]
    assert tuple(normalise("کلاغ پیام رسان", "fa").split()) in expanded["fa"]


def test_glossary_expand_persian_term_gives_english_and_french():
    expanded = load_glossary().expand("موجودی", "fa")
    assert tuple(normalise("Ravitaillement", "fr").split()) in expanded["fr"]
    assert tuple(normalise("Supply", "en").split()) in expanded["en"]


def test_glossary_expand_ignores_accents_case_and_plurals():
    assert load_glossary().expand("TESTS DE PANIQUE", "fr") == load_glossary().expand(
        "test de panique", "fr"
    )
    expanded = load_glossary().expand("general", "en")
    assert tuple(normalise("Général", "fr").split()) in expanded["fr"]


def test_glossary_expand_without_a_term_gives_nothing():
    expanded = load_glossary().expand("zzz qqq", None)
    assert all(not phrases for phrases in expanded.values())


def test_glossary_find_prefers_the_longest_term():
    glossary = load_glossary()
    tokens = normalise("ordre de marche", "fr").split()
    (match,) = glossary.find(tokens, "fr")
    assert (match.start, match.end) == (0, len(tokens))
    assert "march-order" in {entry.key for entry in match.entries}


def test_parse_glossary_rejects_other_formats():
    with pytest.raises(ValueError):
        parse_glossary({"format": "something-else", "entries": []})


def test_glossary_file_is_valid_json_with_one_entry_per_line():
    from rules.search.glossary import GLOSSARY_PATH

    text = GLOSSARY_PATH.read_text(encoding="utf-8")
    data = json.loads(text)
    assert len(data["entries"]) == text.count('{"key": ')


# --- query planning: cross-language expansion and typo tolerance ----------------------------


def _vocabularies(**texts):
    glossary = load_glossary()
    return {
        lang: Vocabulary(
            {token: 1 for token in normalise(texts.get(lang, ""), lang).split()},
            glossary.vocabulary(lang),
            surface_words(texts.get(lang, ""), lang),
        )
        for lang in ("en", "fr", "fa")
    }


def test_plan_query_expands_english_query_into_french_and_persian():
    vocabularies = _vocabularies(fr="le pion corbeau messager", fa="توکن کلاغ پیام رسان")
    plan = plan_query("messenger raven", ["fr", "fa"], load_glossary(), vocabularies)
    assert plan.langs["fr"].coverage(set(normalise("Corbeau Messager", "fr").split())) == 1.0
    assert plan.langs["fa"].coverage(set(normalise("کلاغ پیام رسان", "fa").split())) == 1.0


def test_plan_query_corrects_a_typo_against_the_indexed_vocabulary():
    vocabularies = _vocabularies(fr="ravitaillement des armées")
    plan = plan_query("ravitailement", ["fr"], load_glossary(), vocabularies)
    assert plan.langs["fr"].coverage({normalise("ravitaillement", "fr")}) == 1.0
    assert plan.corrections


def test_plan_query_corrects_a_typo_against_the_glossary():
    vocabularies = _vocabularies(fr="pion corbeau messager")
    plan = plan_query("messanger raven", ["fr"], load_glossary(), vocabularies)
    assert plan.langs["fr"].coverage(set(normalise("corbeau messager", "fr").split())) == 1.0


def test_plan_query_leaves_known_words_alone():
    vocabularies = _vocabularies(fr="ordre marche")
    plan = plan_query("marche", ["fr"], load_glossary(), vocabularies)
    assert not plan.corrections


def test_plan_query_does_not_correct_short_words():
    vocabularies = _vocabularies(fr="pion")
    plan = plan_query("pian", ["fr"], load_glossary(), vocabularies)
    assert not plan.corrections
    assert plan.langs["fr"].coverage({"pion"}) == 0.0


def test_plan_query_allows_two_edits_on_long_words_only():
    vocabularies = _vocabularies(fr="consolidation")
    assert plan_query("consalidatian", ["fr"], load_glossary(), vocabularies).corrections
    vocabularies = _vocabularies(fr="marche")
    assert not plan_query("murchu", ["fr"], load_glossary(), vocabularies).corrections


def test_plan_query_corrects_a_typo_in_a_word_ending():
    vocabularies = _vocabularies(fr="ravitaillement des armées")
    plan = plan_query("ravitaillemnt", ["fr"], load_glossary(), vocabularies)
    assert plan.langs["fr"].coverage({normalise("ravitaillement", "fr")}) == 1.0


def test_plan_query_of_stop_words_only_is_empty():
    assert not plan_query("de la the", ["fr", "en"], load_glossary(), _vocabularies())


def test_plan_query_drops_stop_words_of_the_other_language():
    vocabularies = _vocabularies(fr="ordre de marche")
    plan = plan_query("the marche", ["fr"], load_glossary(), vocabularies)
    assert plan.langs["fr"].coverage({normalise("marche", "fr")}) == 1.0


# --- the lexicon and the reading of a query (rules.search.query) --------------------------

from rules.search.glossary import GAME, TERM, WORD, load_terms  # noqa: E402
from rules.search.query import WORD_WEIGHT, reading_weights  # noqa: E402


def _units(plan, lang, reading):
    lang_query = plan.langs[lang]
    return lang_query.interpretations[lang_query.readings.index(reading)]


def test_lexicon_is_ordinary_words_with_french_for_every_entry():
    terms = load_terms()
    words = [e for e in terms.entries if e.kind == WORD]
    assert len(words) >= 200
    assert all(e.terms["en"] and e.terms["fr"] for e in words)
    assert {e.kind for e in terms.entries} == {TERM, WORD, GAME}


def test_plan_query_translates_ordinary_english_words_into_french():
    vocabularies = _vocabularies(fr="mesurer les distances avant la charge")
    plan = plan_query("measure distances", ["fr"], load_terms(), vocabularies)
    units = _units(plan, "fr", "en")
    assert [u.origin for u in units] == ["word", "word"]
    assert plan.langs["fr"].coverage(set(normalise("mesurer distances", "fr").split())) == 1.0


def test_plan_query_translates_ordinary_french_words_into_persian():
    vocabularies = _vocabularies(fa="عقب نشینی ماشین جنگی")
    plan = plan_query("retraite des engins de siège", ["fa"], load_terms(), vocabularies)
    tokens = set(normalise("عقب نشینی ماشین جنگی", "fa").split())
    assert plan.langs["fa"].coverage(tokens) == 1.0


def test_plan_query_reads_a_query_in_the_language_its_little_words_show():
    assert reading_weights(["how", "many", "points"], ["en", "fr"]) == {"en": 1.0, "fr": 0.55}
    assert reading_weights(["combien", "de", "points"], ["en", "fr"]) == {"en": 0.55, "fr": 1.0}
    assert reading_weights(["charge", "bonus"], ["en", "fr"]) == {"en": 1.0, "fr": 1.0}


def test_plan_query_drops_question_words():
    plan = plan_query("what happens exactly", ["fr"], load_terms(), _vocabularies())
    assert not plan


def test_plan_query_takes_a_game_name_as_a_hint_not_as_words():
    plan = plan_query("charge in tactics", ["fr"], load_terms(), _vocabularies())
    assert plan.games == {"tactics": 1.0}
    assert all("tactics" not in u.label for u in _units(plan, "fr", "en"))


@pytest.mark.parametrize(
    ("query", "read"),
    [
        ("bonus for charging in tactics", "bonus for charging"),
        ("Song Tactics: charge bonus to the attack", "charge bonus to the attack"),
        ("board game: can I support an ally", "can I support an ally"),
        ("in the miniatures game who goes first", "who goes first"),
        ("qui commence dans la main du roi ?", "qui commence ?"),
    ],
)
def test_plan_query_meaning_text_leaves_out_the_named_game(query, read):
    plan = plan_query(query, ["fr"], load_terms(), _vocabularies())
    assert plan.meaning_query == read


def test_plan_query_meaning_text_keeps_a_second_use_of_the_games_word():
    plan = plan_query("song tactics: a tactics card", ["fr"], load_terms(), _vocabularies())
    assert plan.meaning_query == "a tactics card"


def test_plan_query_meaning_text_is_the_query_when_no_game_is_named():
    plan = plan_query("discard tactics cards", ["fr"], load_terms(), _vocabularies())
    assert plan.meaning_query == "discard tactics cards"


def test_plan_query_meaning_text_is_the_query_when_it_only_names_a_game():
    plan = plan_query("hand of the king", ["fr"], load_terms(), _vocabularies())
    assert plan.meaning_query == "hand of the king"


def test_glossary_names_each_game_longest_first():
    names = load_terms().game_names
    assert set(names) == {"tmg", "tactics", "agot", "hotk"}
    assert "song tactics" in names["tactics"] and "la main du roi" in names["hotk"]
    assert all(list(found) == sorted(found, key=len, reverse=True) for found in names.values())


def test_plan_query_keeps_tactics_cards_a_term_of_the_miniatures_game():
    plan = plan_query("discard tactics cards", ["fr"], load_terms(), _vocabularies())
    assert plan.games == {}


def test_plan_query_adds_french_verb_endings_the_books_hold():
    vocabularies = _vocabularies(fr="les généraux coûtent zéro point")
    plan = plan_query("cost", ["fr"], load_terms(), vocabularies)
    assert plan.langs["fr"].coverage({"coutent"}) == 1.0


def test_plan_query_does_not_read_a_persian_query_as_french_words():
    plan = plan_query("دستور حمایت", ["fr", "fa"], load_terms(), _vocabularies())
    assert plan.langs["fr"].readings == ("fa",)


@pytest.mark.parametrize(
    "query",
    ["how many squares can a model move", "combien de cartes", "maximum range", "بازی چند دور است"],
)
def test_plan_notes_a_question_asking_for_a_number(query):
    assert plan_query(query, ["fr", "fa"], load_terms(), {}).asks_number


@pytest.mark.parametrize("query", ["long range attack", "qui commence", "charge bonus"])
def test_plan_of_a_question_naming_a_thing_asks_no_number(query):
    assert not plan_query(query, ["fr"], load_terms(), {}).asks_number


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("who designed the tactics game", {"credits"}),
        ("auteur du jeu la main du roi", {"credits"}),
        ("an example of a support order", {"example"}),
        ("exemple de soutien", {"example"}),
        ("can my unit charge twice", set()),
    ],
)
def test_plan_notes_the_kind_of_section_a_question_asks_for(query, kinds):
    assert plan_query(query, ["fr"], load_terms(), {}).asks_kinds == kinds


@pytest.mark.parametrize("query", ["how many squares", "combien de cartes", "بازی چند دور است"])
def test_plan_leaves_out_the_words_that_only_ask_for_a_number(query):
    plan = plan_query(query, ["fr", "fa"], load_terms(), {})
    labels = {unit.label for q in plan.langs.values() for i in q.interpretations for unit in i}
    assert not labels & {"many", "combien", "چند"}


@pytest.mark.parametrize(("query", "key"), [("NCUs", "non-combat-unit"), ("VPs", "victory-points")])
def test_glossary_finds_an_acronym_in_the_plural(query, key):
    matches = load_terms().find(tokens(query, "en"), "en")
    assert [entry.key for entry in matches[0].entries] == [key]


def test_plan_query_weighs_a_word_that_only_frames_the_question_less():
    plan = plan_query("who becomes first player", ["fr"], load_terms(), _vocabularies())
    weights = {u.label: u.weight for u in _units(plan, "fr", "en")}
    assert weights["becomes"] < weights["first player"]
    assert weights["becomes"] < WORD_WEIGHT


def test_plan_query_weighs_an_ordinary_word_that_names_a_thing_fully():
    plan = plan_query("nearest hill", ["fr"], load_terms(), _vocabularies())
    assert {u.weight for u in _units(plan, "fr", "en")} == {WORD_WEIGHT}


@pytest.mark.parametrize(
    ("query", "french"),
    [("nearest", "la plus proche"), ("mandatory", "obligatoire"), ("around", "autour")],
)
def test_plan_query_translates_positions_and_obligations_into_french(query, french):
    vocabularies = _vocabularies(fr=french)
    plan = plan_query(query, ["fr"], load_terms(), vocabularies)
    assert plan.langs["fr"].coverage(set(normalise(french, "fr").split())) == 1.0
