"""The in-memory search index (rules.search.index), pure: each ranking mechanism on small
books of our own words, no database."""

from __future__ import annotations

import pytest

from rules.search.glossary import load_terms
from rules.search.index import KIND_PENALTY, SearchIndex, SectionRow
from rules.search.normalise import normalise
from rules.search.query import plan_query
from rules.search.service import normalise_paragraphs

TERMS = load_terms()


def row(id_, heading, body, *, lang="fr", game="tmg", kind="rule", book=1, key="", edition=""):
    return SectionRow(
        id_, book, lang, game, kind, id_, normalise(heading, lang),
        normalise_paragraphs(body, lang), heading, body, key, edition,
    )  # fmt: skip


def ranked(rows, query, *, limit=5, game_boost=True):
    index = SearchIndex(rows, TERMS)
    plan = plan_query(query, sorted({r.lang for r in rows}), TERMS, index.vocabularies)
    found, _vectors = index.rank(plan, limit=limit, game_boost=game_boost)
    return [rows_by_id(rows)[int(index.ids[r.position])].heading for r in found], index, plan


def rows_by_id(rows):
    return {r.id: r for r in rows}


def test_english_ordinary_words_reach_a_french_rule_through_the_lexicon():
    rows = [
        row(1, "Pré Mesures", "Les joueurs peuvent vérifier les distances à tout moment."),
        row(2, "Charge", "L'unité avance de sa vitesse plus un dé."),
    ]
    headings, _index, _plan = ranked(rows, "can I measure distances at any time")
    assert headings[0] == "Pré Mesures"


def test_a_word_no_book_holds_counts_nowhere():
    rows = [row(1, "Relances", "Un dé ne peut être relancé qu'une fois.")]
    with_noise, index, plan = ranked(rows, "reroll what happens exactly")
    assert with_noise == ["Relances"]
    assert index.explain(plan, 0)["coverage"] == 1.0


def test_a_key_word_missing_from_a_language_keeps_that_book_incomplete():
    # "commander" has no Persian equivalent in the table: the Persian section matching the
    # other words is not complete, the French one naming the commander ranks first.
    rows = [
        row(1, "Choix du Général", "Le général ne coûte aucun point."),
        row(2, "امتیاز هزینه", "هزینه امتیاز یگان", lang="fa", game="agot", book=2),
    ]
    headings, _index, _plan = ranked(rows, "do commanders cost points")
    assert headings[0] == "Choix du Général"


def test_game_vocabulary_prefers_the_game_its_words_belong_to():
    tmg = [row(n, f"Unités {n}", "unité plateau rang unité") for n in range(1, 6)]
    tactics = [
        row(10 + n, f"Figurines {n}", "figurine case pièce", game="tactics", book=2)
        for n in range(1, 6)
    ]
    tmg.append(row(9, "Ligne de Vue", "Les autres unités bloquent la ligne de vue."))
    tactics.append(
        row(19, "Bloqué", "Une case bloquée bloque la ligne de vue.", game="tactics", book=2)
    )
    headings, index, plan = ranked(tmg + tactics, "do other units block line of sight")
    assert headings[0] == "Ligne de Vue"
    explained = index.explain(plan, 0)
    assert explained["game_likelihood"]["tmg"] > explained["game_likelihood"]["tactics"]


def test_a_language_with_one_games_books_casts_no_game_vote():
    french = [
        row(1, "Combat", "Le combat oppose des unités.", game="agot"),
        row(2, "Repli", "Une unité engagée au combat se replie.", book=2),
    ]
    persian = [row(3, "نبرد", "نبرد", lang="fa", game="agot", book=3)]
    _headings, index, plan = ranked(french + persian, "unit out of combat")
    with_persian = index.explain(plan, 0)["game_likelihood"]
    _headings, index, plan = ranked(french, "unit out of combat")
    assert with_persian == index.explain(plan, 0)["game_likelihood"]


def test_a_book_language_of_one_game_alone_gives_no_game_boost():
    rows = [
        row(1, "نبرد", "نبرد", lang="fa", game="agot"),
        row(2, "حمایت", "نبرد", lang="fa", game="agot"),
    ]
    _headings, index, plan = ranked(rows, "نبرد")
    explained = index.explain(plan, 0)
    assert explained["game_likelihood"] == {}
    assert explained["boosts"]["game"] == 0.0


def test_naming_the_game_puts_its_books_first():
    rows = [
        row(1, "Bonus de Charge", "Une charge donne un bonus à l'attaque."),
        row(2, "Action de Charge", "La charge donne un bonus d'un dé.", game="tactics", book=2),
    ]
    assert ranked(rows, "charge bonus in tactics")[0][0] == "Action de Charge"
    assert ranked(rows, "charge bonus")[0][0] == "Bonus de Charge"


def test_game_boost_is_off_with_a_filter():
    rows = [row(1, "Charge", "bonus"), row(2, "Charge", "bonus", game="tactics", book=2)]
    _headings, index, plan = ranked(rows, "charge in tactics", game_boost=False)
    assert index.explain(plan, 0, game_boost=False)["boosts"]["game"] == 0.0


def test_concept_map_prefers_the_section_that_defines_the_term():
    rows = [
        row(1, "Tests de Panique", "Un test de moral après des pertes."),
        row(2, "Attaque", "Après l'attaque, le défenseur fait un test de panique."),
    ]
    headings, index, plan = ranked(rows, "panic test")
    assert headings[0] == "Tests de Panique"
    assert index.explain(plan, 0)["defines"] == ["panic-test"]


def test_examples_and_flavour_rank_below_the_rule_saying_the_same():
    rows = [
        row(1, "Exemple de Repli", "L'unité engagée se replie de sa vitesse.", kind="example"),
        row(2, "Repli", "L'unité engagée se replie de sa vitesse."),
        row(3, "Citation", "L'unité engagée se replie de sa vitesse.", kind="flavour"),
    ]
    assert ranked(rows, "unité engagée replie")[0] == ["Repli", "Exemple de Repli", "Citation"]


def test_words_standing_together_beat_words_scattered_over_a_chapter():
    scattered = "\n".join(
        ["Les bateaux se déplacent.", *["Texte sans rapport."] * 8, "Le soutien est calculé."]
    )
    together = "\n".join(["Texte sans rapport.", "Les bateaux peuvent soutenir un combat."])
    rows = [row(1, "Chapitre", scattered), row(2, "Section", together)]
    assert ranked(rows, "bateaux soutien")[0][0] == "Section"


def test_text_of_short_lines_ranks_below_prose():
    card = "\n".join(["HALLEBARDE", "8 6 4+", "BARATHEON", "VULNÉRABLE", "5"])
    prose = "Quand l'ennemi est vulnérable, il relance ses sauvegardes de défense."
    rows = [row(1, "Matériel", card), row(2, "États", prose)]
    assert ranked(rows, "vulnérable")[0][0] == "États"


def test_a_rule_in_two_languages_of_an_edition_is_one_result_in_the_readers_language():
    rows = [
        row(1, "Soutien", "Le soutien ajoute sa force.", game="agot", key="support", edition="e"),
        row(2, "حمایت", "حمایت قدرت", lang="fa", game="agot", book=2, key="support", edition="e"),
    ]
    headings, _index, _plan = ranked(rows, "دستور حمایت")
    assert headings == ["حمایت"]
    assert ranked(rows, "ordre de soutien")[0] == ["Soutien"]


def test_explain_says_how_each_query_word_was_read_and_where_it_matched():
    rows = [row(1, "Tests de Panique", "Une unité qui échoue subit des blessures.")]
    _headings, index, plan = ranked(rows, "panik test wounds")
    units = {u["query"]: u for u in index.explain(plan, 0)["units"]}
    assert units["panik test"]["read_as"] == "term"
    assert units["panik test"]["where"] == "heading"
    assert units["wounds"]["read_as"] in {"term", "word"}
    assert units["wounds"]["where"] == "body"


def test_explain_gives_the_passage_boost_and_where_the_passage_starts():
    body = "\n".join(["Texte sans rapport."] * 3 + ["Les bateaux peuvent soutenir un combat."])
    rows = [row(1, "Section", body)]
    index = SearchIndex(rows, TERMS)
    plan = plan_query("bateaux soutien", ["fr"], TERMS, index.vocabularies)
    found, vectors = index.rank(plan)
    explained = index.explain(
        plan, found[0].position, best_passage=vectors.best_passage, passages=vectors.passage
    )
    assert explained["boosts"]["passage"] == pytest.approx(4.0)
    assert explained["passage_line"] in {2, 3}  # the passage is a line and the next one


def test_explain_without_the_ranked_passages_gives_no_passage_boost():
    rows = [row(1, "Section", "Les bateaux peuvent soutenir un combat.")]
    _headings, index, plan = ranked(rows, "bateaux soutien")
    explained = index.explain(plan, 0)
    assert explained["boosts"]["passage"] == 0.0
    assert explained["passage_line"] is None


@pytest.mark.parametrize(
    ("body", "expected"),
    [("", 1.0), ("Une phrase entière de plus de sept mots ici.", 1.0), ("A\nB\nC", 0.0)],
)
def test_prose_share(body, expected):
    from rules.search.index import _prose_share

    assert _prose_share(body) == expected


def test_doc_tokens_reads_the_query_tokens_a_section_holds():
    rows = [row(1, "Charge", "Une charge réussie."), row(2, "Repli", "Se replier.")]
    index = SearchIndex(rows, TERMS)
    plan = plan_query("charge repli", ["fr"], TERMS, index.vocabularies)
    found = index.doc_tokens(plan.langs["fr"], [0, 1])
    assert "charg" in found[0] and "repli" in found[1] and "repli" not in found[0]


NUMBER_ROWS = [
    row(1, "Mélange", "Le paquet de cartes tactiques est mélangé."),
    row(2, "Taille", "Le paquet de cartes tactiques en compte vingt."),
]


def test_a_question_asking_for_a_number_prefers_the_passage_stating_one():
    headings, index, plan = ranked(NUMBER_ROWS, "how many cards in the tactics deck")
    assert headings[0] == "Taille"
    assert index.explain(plan, 1)["asks_number"] is True


CREDITS_ROWS = [
    row(1, "Mise en place", "Le jeu se joue en rounds, chaque joueur active ses unités."),
    row(2, "Crédits", "Conception du jeu : Jeanne Martin. Illustrations : Paul Durand.",
        kind="credits"),
]  # fmt: skip


def test_a_question_asking_who_designed_the_game_ranks_the_credits_unpenalised():
    headings, index, plan = ranked(CREDITS_ROWS, "who designed the game")
    assert headings[0] == "Crédits"
    assert index.explain(plan, 1)["boosts"]["kind_penalty"] == 0.0


def test_a_rules_question_keeps_the_credits_penalised():
    _headings, index, plan = ranked(CREDITS_ROWS, "game rounds design")
    assert index.explain(plan, 1)["boosts"]["kind_penalty"] == -KIND_PENALTY["credits"]


def test_a_question_naming_a_thing_gets_no_number_boost():
    headings, index, plan = ranked(NUMBER_ROWS, "cards in the tactics deck")
    assert headings[0] == "Mélange"
    assert index.explain(plan, 1)["boosts"]["number"] == 0.0
