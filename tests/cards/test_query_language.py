"""The card query language (cards.query): parser alone, then searches on a small card set."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Ability, Card, Character, Faction
from cards.query import (
    And,
    Field,
    Not,
    Or,
    Query,
    QuerySyntaxError,
    Word,
    parse,
    search_cards,
)
from cards.query.text import build_search_text, search_text_from
from tests.carddata import make_card

JAIME = "20201"  # Jaime Lannister - The Kingslayer (TMG attachment, commander)

# Default order: faction (sort_order, slug), kind (unit, attachment, ncu, tactics, special,
# hero, champion, soldier, equipment), name; cards without a faction last.
DEFAULT_ORDER = [
    "outriders",
    "sworn",
    "t-robb",
    "guardsmen",
    "scorpion",
    JAIME,
    "roar",
    "t-jaime",
    "rangers",
    "varys",
    "sword",
]
ALL = set(DEFAULT_ORDER)
TMG = {"outriders", "sworn", "guardsmen", "scorpion", JAIME, "roar", "rangers", "varys"}
TACTICS = {"t-robb", "t-jaime", "sword"}


# --- fixture -----------------------------------------------------------------------------


@pytest.fixture
def cards(db) -> dict[str, Card]:
    def faction(game, slug, name_en, name_fr, order, neutral=False):
        return Faction.objects.create(
            game=game,
            slug=slug,
            name_en=name_en,
            name_fr=name_fr,
            sort_order=order,
            is_neutral=neutral,
        )

    stark = faction("tmg", "stark", "Stark", "Stark", 2)
    lannister = faction("tmg", "lannister", "Lannister", "Lannister", 3)
    watch = faction("tmg", "nights-watch", "Night's Watch", "Garde de Nuit", 4)
    neutral = faction("tmg", "neutral", "Neutral", "Neutre", 99, neutral=True)
    t_stark = faction("tactics", "stark", "Stark", "Stark", 2)
    t_lannister = faction("tactics", "lannister", "Lannister", "Lannister", 3)

    jaime = Character.objects.create(key="jaime-lannister", name_en="Jaime Lannister")
    varys = Character.objects.create(key="varys", name_en="Varys", name_fr="Varys")
    robb = Character.objects.create(key="robb-stark", name_en="Robb Stark")

    vicious = Ability.objects.create(key="vicious", name_en="Vicious", name_fr="Cruel")
    bite = Ability.objects.create(
        key="winters-bite", name_en="Winter's Bite", name_fr="Morsure de l'Hiver"
    )

    def card(external_id, game, kind, name_en, **fields):
        return make_card(external_id=external_id, game=game, kind=kind, name_en=name_en, **fields)

    tmg_unit = {"game": "tmg", "kind": "unit"}
    made = [
        card(
            "sworn",
            **tmg_unit,
            name_en="Stark Sworn Swords",
            name_fr="Épées Liges Stark",
            faction=stark,
            points=5,
            speed=5,
            defense=3,
            morale=6,
            unit_type="infantry",
            tray="infantry",
            version="2021",
            abilities=[bite],
        ),
        card(
            "outriders",
            **tmg_unit,
            name_en="Stark Outriders",
            name_fr="Éclaireurs Stark",
            faction=stark,
            points=8,
            speed=8,
            defense=4,
            morale=5,
            unit_type="cavalry",
            tray="cavalry",
            version="2021-S03",
        ),
        card(
            JAIME,
            "tmg",
            "attachment",
            "Jaime Lannister",
            name_fr="Jaime Lannister",
            title_en="The Kingslayer",
            title_fr="Le Régicide",
            faction=lannister,
            points=0,
            unit_type="infantry",
            is_character=True,
            is_commander=True,
            version="2021-S03",
            characters=[jaime],
            requirements=[{"type": "must_attach_to", "class": "infantry"}],
        ),
        card(
            "guardsmen",
            **tmg_unit,
            name_en="Lannister's Guardsmen",
            name_fr="Gardes Lannister",
            faction=lannister,
            points=6,
            speed=6,
            defense=4,
            morale=7,
            unit_type="infantry",
            tray="infantry",
            version="2023-S06",
            abilities=[vicious],
        ),
        card(
            "scorpion",
            **tmg_unit,
            name_en="Scorpion Crew",
            name_fr="Servants de Scorpion",
            faction=lannister,
            points=7,
            speed=4,
            defense=5,
            morale=7,
            unit_type="war_machine",
            tray="war_machine",
        ),
        card("roar", "tmg", "tactics", "Hear Me Roar!", faction=lannister),
        card(
            "rangers",
            **tmg_unit,
            name_en="Ranger Trackers",
            name_fr="Pisteurs Patrouilleurs",
            faction=watch,
            points=9,
            speed=6,
            defense=3,
            morale=6,
            unit_type="infantry",
            tray="infantry",
            requirements=[{"type": "loyalty", "to": "jon-snow"}],
        ),
        card(
            "varys",
            "tmg",
            "ncu",
            "Varys",
            title_en="The Spider",
            title_fr="L'Araignée",
            faction=neutral,
            points=4,
            is_character=True,
            version="2021",
            characters=[varys],
        ),
        card(
            "t-jaime",
            "tactics",
            "hero",
            "Jaime Lannister",
            faction=t_lannister,
            gold=2,
            silver=0,
            copper=0,
            will=5,
            wounds=4,
            is_character=True,
            characters=[jaime],
        ),
        card(
            "t-robb",
            "tactics",
            "hero",
            "Robb Stark",
            faction=t_stark,
            gold=3,
            silver=1,
            copper=0,
            will=4,
            wounds=5,
            mounted=True,
            is_character=True,
            characters=[robb],
        ),
        card(
            "sword",
            "tactics",
            "equipment",
            "Valyrian Steel Sword",
            name_fr="Épée d'acier valyrien",
            copper=2,
            is_unique=True,
        ),
    ]
    return {c.external_id: c for c in made}


def found(q: str, **kwargs) -> set[str]:
    return set(search_cards(q, **kwargs).values_list("external_id", flat=True))


def ordered(q: str) -> list[str]:
    return list(search_cards(q).values_list("external_id", flat=True))


def syntax_error(q: str) -> QuerySyntaxError:
    with pytest.raises(QuerySyntaxError) as caught:
        parse(q)
    return caught.value


# --- parser only (no database) -----------------------------------------------------------


def test_parse_empty_query_gives_no_filter():
    assert parse("   ") == Query()


def test_parse_words_are_anded():
    assert parse("jaime kingslayer") == Query(And((Word("jaime"), Word("kingslayer"))))


def test_parse_quoted_phrase_is_one_word():
    assert parse('"the kingslayer"') == Query(Word("the kingslayer", quoted=True))


def test_parse_guillemets_quote_a_phrase():
    assert parse("«le régicide»") == Query(Word("le régicide", quoted=True))


def test_parse_and_binds_tighter_than_or():
    expected = Or((And((Word("a"), Word("b"))), Word("c")))
    assert parse("a b or c") == Query(expected)


def test_parse_parentheses_group_an_or():
    expected = And((Word("a"), Or((Word("b"), Word("c")))))
    assert parse("a (b or c)") == Query(expected)


@pytest.mark.parametrize("keyword", ["or", "OR", "Or", "ou", "OU"])
def test_parse_or_keyword_in_any_case_and_french(keyword):
    assert parse(f"a {keyword} b") == Query(Or((Word("a"), Word("b"))))


@pytest.mark.parametrize("keyword", ["and", "AND", "et"])
def test_parse_explicit_and_keyword_is_implicit_and(keyword):
    assert parse(f"a {keyword} b") == parse("a b")


def test_parse_minus_negates_a_term():
    assert parse("-kind:ncu") == Query(Not(Field("kind", ":", "ncu")))


def test_parse_minus_negates_a_group():
    assert parse("-(a or b)") == Query(Not(Or((Word("a"), Word("b")))))


def test_parse_hyphen_inside_a_word_is_not_negation():
    assert parse("half-hand") == Query(Word("half-hand"))


def test_parse_field_key_is_case_and_accent_insensitive():
    assert parse("COÛT>=5") == Query(Field("cost", ">=", 5))


@pytest.mark.parametrize("key", ["cost", "points", "pts", "cout", "coût", "prix"])
def test_parse_cost_aliases_name_the_cost_field(key):
    assert parse(f"{key}:5") == Query(Field("cost", "=", 5))


@pytest.mark.parametrize("op", ["=", "!=", "<", "<=", ">", ">="])
def test_parse_numeric_operator_is_kept(op):
    assert parse(f"speed{op}6") == Query(Field("speed", op, 6))


def test_parse_numeric_value_may_end_with_plus():
    assert parse("defense:3+") == Query(Field("defense", "=", 3))


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("ucn", "ncu"), ("unc", "ncu"), ("NCU", "ncu"), ("unité", "unit"), ("héros", "hero")],
)
def test_parse_kind_aliases_become_canonical(typed, canonical):
    assert parse(f"kind:{typed}") == Query(Field("kind", ":", canonical))


@pytest.mark.parametrize("typed", ["war_machine", "warmachine", "war-machine", "siege", "siège"])
def test_parse_war_machine_aliases_become_canonical(typed):
    assert parse(f"type:{typed}") == Query(Field("type", ":", "war_machine"))


def test_parse_not_field_is_negated_is():
    assert parse("not:commander") == Query(Not(Field("is", ":", "commander")))


def test_parse_not_equal_on_text_field_is_negation():
    assert parse("faction!=stark") == Query(Not(Field("faction", ":", "stark")))


@pytest.mark.parametrize(("typed", "value"), [("yes", True), ("oui", True), ("no", False)])
def test_parse_commander_takes_yes_or_no(typed, value):
    assert parse(f"commander:{typed}") == Query(Field("commander", ":", value))


def test_parse_quoted_field_value_keeps_spaces():
    assert parse('character:"jaime lannister"') == Query(Field("character", ":", "jaime lannister"))


def test_parse_sort_and_dir_are_lifted_out_of_the_filter():
    assert parse("jaime sort:cost dir:desc") == Query(Word("jaime"), "cost", "desc")


def test_parse_sort_applies_to_whole_or_query():
    assert parse("jaime or varys order:name") == Query(
        Or((Word("jaime"), Word("varys"))), "name", "asc"
    )


@pytest.mark.parametrize(("typed", "key"), [("coût", "cost"), ("nom", "name"), ("ver", "version")])
def test_parse_sort_aliases_become_canonical(typed, key):
    assert parse(f"tri:{typed}").sort == key


@pytest.mark.parametrize("typed", ["direction:desc", "dir:descending", "sens:décroissant"])
def test_parse_direction_aliases_become_desc(typed):
    assert parse(typed).direction == "desc"


def test_parse_last_sort_wins():
    assert parse("sort:cost sort:name").sort == "name"


def test_parse_sort_alone_gives_no_filter():
    assert parse("sort:speed") == Query(None, "speed", "asc")


def test_parse_positions_are_recorded():
    field = parse("jaime cost>=5").expr.operands[1]
    assert (field.position, field.length) == (6, 7)


# --- parser errors -------------------------------------------------------------------------


def test_error_unexpected_closing_parenthesis_position():
    error = syntax_error("jaime stark) varys")
    assert (error.position, error.length) == (11, 1)
    assert str(error) == "Unexpected ')' at position 11"


def test_error_unclosed_parenthesis_points_at_opening():
    error = syntax_error("jaime (stark or varys")
    assert error.position == 6
    assert error.message_en == "Unclosed '('"


def test_error_empty_parentheses():
    assert syntax_error("a ()").position == 2


def test_error_unclosed_quote_points_at_quote():
    error = syntax_error('jaime "the king')
    assert (error.position, error.length) == (6, 9)
    assert error.message_fr == "Guillemet non fermé"


def test_error_unclosed_quote_in_field_value():
    assert syntax_error('name:"jaime').position == 5


def test_error_empty_phrase():
    assert syntax_error('a ""').position == 2


def test_error_unknown_field_points_at_key():
    error = syntax_error("cost:5 colour:red")
    assert (error.position, error.length) == (7, 6)
    assert error.message_en == "Unknown field 'colour'"
    assert error.message_fr == "Champ inconnu « colour »"


def test_error_bad_operator_for_text_field_points_at_operator():
    error = syntax_error("faction<3")
    assert (error.position, error.length) == (7, 1)
    assert "faction" in error.message_en and "faction" in error.message_fr


def test_error_bad_operator_for_choice_field():
    assert syntax_error("kind>=unit").position == 4


def test_error_non_numeric_value_points_at_value():
    error = syntax_error("speed>=fast")
    assert (error.position, error.length) == (7, 4)
    assert error.message_en == "Expected a number for 'speed': 'fast'"


def test_error_negative_number_is_not_a_number():
    assert syntax_error("cost>-1").position == 5


def test_error_unknown_choice_value_lists_choices():
    error = syntax_error("kind:wizard")
    assert error.position == 5
    assert "ncu" in error.message_en and "ncu" in error.message_fr


def test_error_unknown_sort_key():
    assert syntax_error("sort:colour").position == 5


def test_error_missing_value_after_operator():
    error = syntax_error("jaime cost>=")
    assert (error.position, error.length) == (6, 6)


def test_error_trailing_or():
    error = syntax_error("jaime or")
    assert (error.position, error.length) == (6, 2)
    assert error.message_en == "Expected a search term after 'or'"


def test_error_leading_or():
    assert syntax_error("or jaime").message_en == "Expected a search term before 'or'"


def test_error_double_or_points_at_first():
    assert syntax_error("a or or b").position == 2


def test_error_or_before_closing_parenthesis():
    assert syntax_error("(a ou) b").position == 3


def test_error_trailing_french_or_message_in_french():
    assert syntax_error("a ou").message_fr == "Un terme de recherche doit suivre « ou »"


def test_error_lone_minus():
    assert syntax_error("jaime - varys").position == 6


def test_error_negated_sort():
    assert syntax_error("jaime -sort:cost").position == 7


def test_error_sort_as_one_side_of_or():
    assert syntax_error("jaime or sort:cost").position == 9


def test_error_too_deeply_nested():
    assert syntax_error("(" * 100 + "a" + ")" * 100).message_en.startswith("Query nested")


def test_error_too_long():
    assert syntax_error("a " * 600).message_en.startswith("Query too long")


def test_error_message_in_french_with_position():
    assert syntax_error("a)").message("fr") == "« ) » inattendu à la position 1"


def test_error_is_a_value_error_with_dict():
    error = syntax_error("a)")
    assert isinstance(error, ValueError)
    assert error.as_dict() == {
        "message_en": "Unexpected ')'",
        "message_fr": "« ) » inattendu",
        "position": 1,
        "length": 1,
    }


_SYNTAX = st.sampled_from(
    [" ", "(", ")", "-", '"', "«", "»", ":", "=", "<", ">", "!", "+", "or", "ou", "and",
     "cost", "kind", "faction", "sort", "dir", "is", "not", "ncu", "desc", "5", "é", "'"]
)  # fmt: skip


@settings(max_examples=300)
@given(st.text(max_size=60))
def test_parse_arbitrary_text_parses_or_raises_syntax_error(text):
    try:
        parse(text)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(text)
        assert error.message_en and error.message_fr


@settings(max_examples=500)
@given(st.lists(_SYNTAX, max_size=25).map("".join))
def test_parse_syntax_soup_parses_or_raises_syntax_error(text):
    try:
        parse(text)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(text)


@pytest.mark.django_db
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(_SYNTAX | st.text(max_size=4), max_size=12).map("".join))
def test_search_arbitrary_text_runs_or_raises_syntax_error(db, text):
    with contextlib.suppress(QuerySyntaxError):
        list(search_cards(text))


def test_parse_control_characters_are_spaces():
    assert parse("jaime\x00varys") == parse("jaime varys")


# --- search text -------------------------------------------------------------------------


def test_search_text_folds_and_keeps_apostrophe_free_variant():
    assert search_text_from(["Lannister’s Guardsmen", "Le Régicide"]).split("\n") == [
        "lannister's guardsmen",
        "lannisters guardsmen",
        "le regicide",
    ]


@pytest.mark.django_db
def test_build_search_text_includes_abilities_and_characters(cards):
    text = build_search_text(cards[JAIME])
    assert "the kingslayer" in text and "le regicide" in text
    assert "jaime lannister" in text.split("\n")
    assert "morsure de l'hiver" in build_search_text(cards["sworn"])


# --- searches: free text -----------------------------------------------------------------


@pytest.mark.django_db
def test_search_empty_query_returns_all_in_default_order(cards):
    assert ordered("") == DEFAULT_ORDER


@pytest.mark.django_db
def test_search_word_matches_name(cards):
    assert found("jaime") == {JAIME, "t-jaime"}


@pytest.mark.django_db
def test_search_word_is_case_insensitive(cards):
    assert found("JAIME") == {JAIME, "t-jaime"}


@pytest.mark.django_db
def test_search_word_matches_english_title(cards):
    assert found("kingslayer") == {JAIME}


@pytest.mark.django_db
def test_search_unaccented_word_matches_accented_french_title(cards):
    assert found("regicide") == {JAIME}


@pytest.mark.django_db
def test_search_accented_word_matches_accented_french_title(cards):
    assert found("Régicide") == {JAIME}


@pytest.mark.django_db
def test_search_word_matches_french_name(cards):
    assert found("epees") == {"sworn"}


@pytest.mark.django_db
def test_search_word_with_apostrophe_matches(cards):
    assert found("lannister's") == {"guardsmen"}


@pytest.mark.django_db
def test_search_word_with_curly_apostrophe_matches(cards):
    assert found("lannister’s") == {"guardsmen"}


@pytest.mark.django_db
def test_search_word_without_apostrophe_matches_name_with_one(cards):
    assert found("lannisters") == {"guardsmen"}


@pytest.mark.django_db
def test_search_word_matches_english_ability_name(cards):
    assert found("vicious") == {"guardsmen"}


@pytest.mark.django_db
def test_search_word_matches_french_ability_name(cards):
    assert found("cruel") == {"guardsmen"}


@pytest.mark.django_db
def test_search_words_are_anded(cards):
    assert found("jaime kingslayer") == {JAIME}


@pytest.mark.django_db
def test_search_quoted_phrase_matches_in_order(cards):
    assert found('"the kingslayer"') == {JAIME}


@pytest.mark.django_db
def test_search_quoted_phrase_in_wrong_order_matches_nothing(cards):
    assert found('"kingslayer the"') == set()


@pytest.mark.django_db
def test_search_quoted_phrase_does_not_span_name_and_title(cards):
    assert found('"lannister the"') == set()


@pytest.mark.django_db
def test_search_french_phrase_with_accent_and_apostrophe(cards):
    assert found('"morsure de l’hiver"') == {"sworn"}


@pytest.mark.django_db
def test_search_negated_word_excludes(cards):
    assert found("-jaime") == ALL - {JAIME, "t-jaime"}


@pytest.mark.django_db
def test_search_or_unions(cards):
    assert found("varys or kingslayer") == {"varys", JAIME}


@pytest.mark.django_db
def test_search_french_ou_unions(cards):
    assert found("varys ou régicide") == {"varys", JAIME}


@pytest.mark.django_db
def test_search_and_binds_tighter_than_or(cards):
    assert found("jaime kingslayer or varys") == {JAIME, "varys"}


@pytest.mark.django_db
def test_search_parentheses_group(cards):
    assert found("(jaime or robb) game:tactics") == {"t-jaime", "t-robb"}


@pytest.mark.django_db
def test_search_negated_group(cards):
    assert found("game:tmg -(faction:stark or faction:lannister)") == {"rangers", "varys"}


@pytest.mark.django_db
def test_search_respects_given_queryset(cards):
    assert found("jaime", queryset=Card.objects.filter(game="tmg")) == {JAIME}


@pytest.mark.django_db
def test_search_invalid_query_raises_syntax_error(cards):
    with pytest.raises(QuerySyntaxError):
        search_cards("faction<3")


# --- searches: fields --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("game:tmg", TMG),
        ("game:tactics", TACTICS),
        ("jeu:tactique", TACTICS),
        ("game!=tmg", TACTICS),
    ],
)
def test_search_game_field(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("faction:stark", {"sworn", "outriders", "t-robb"}),
        ("faction:STARK", {"sworn", "outriders", "t-robb"}),
        ("faction:nights-watch", {"rangers"}),
        ('faction:"night\'s watch"', {"rangers"}),
        ('faction:"nights watch"', {"rangers"}),
        ('faction:"garde de nuit"', {"rangers"}),
        ("faction:watch", {"rangers"}),
        ("faction:neutral", {"varys"}),
        ("faction:neutre", {"varys"}),
        ("faction:targaryen", set()),
        ("-faction:stark game:tmg", TMG - {"sworn", "outriders"}),
    ],
)
def test_search_faction_field(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("kind:unit", {"sworn", "outriders", "guardsmen", "scorpion", "rangers"}),
        ("kind:attachment", {JAIME}),
        ("kind:ncu", {"varys"}),
        ("kind:ucn", {"varys"}),
        ("kind:tactics", {"roar"}),
        ("kind:hero", {"t-jaime", "t-robb"}),
        ("kind:equipment", {"sword"}),
        ("kind:équipement", {"sword"}),
        ("kind:champion", set()),
        ("kind:soldier", set()),
        ("kind:special", set()),
    ],
)
def test_search_kind_field(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("type:infantry", {"sworn", JAIME, "guardsmen", "rangers"}),
        ("type:infanterie", {"sworn", JAIME, "guardsmen", "rangers"}),
        ("type:cavalerie", {"outriders"}),
        ("type:warmachine", {"scorpion"}),
        ("type:monstre", set()),
        ("tray:cavalry", {"outriders"}),
        ("plateau:war-machine", {"scorpion"}),
        ("tray:infantry", {"sworn", "guardsmen", "rangers"}),
        ("tray:solo", set()),
    ],
)
def test_search_type_and_tray_fields(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("cost:5", {"sworn"}),
        ("cost=5", {"sworn"}),
        ("cost<5", {JAIME, "varys"}),
        ("cost<=5", {JAIME, "varys", "sworn"}),
        ("cost>7", {"outriders", "rangers"}),
        ("cost>=8", {"outriders", "rangers"}),
        ("points:0", {JAIME}),
        ("coût>=9", {"rangers"}),
        ("cost<99999999999999999999999", TMG - {"roar"}),
        ("cost!=99999999999999999999999", TMG - {"roar"}),
        ("cost>=99999999999999999999999", set()),
    ],
)
def test_search_cost_field_operators(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
def test_search_cost_not_equal_excludes_cards_without_cost(cards):
    assert found("cost!=5") == {JAIME, "varys", "guardsmen", "scorpion", "outriders", "rangers"}


@pytest.mark.django_db
def test_search_cost_comparison_excludes_cards_without_cost(cards):
    assert "roar" not in found("cost<100")


@pytest.mark.django_db
def test_search_negated_cost_is_complement_including_cards_without_cost(cards):
    assert found("-cost:5") == ALL - {"sworn"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("speed:6", {"guardsmen", "rangers"}),
        ("vitesse>=8", {"outriders"}),
        ("defense>=4", {"outriders", "guardsmen", "scorpion"}),
        ("défense:3+", {"sworn", "rangers"}),
        ("morale<6", {"outriders"}),
        ("moral:7", {"guardsmen", "scorpion"}),
        ("wounds>=5", {"t-robb"}),
        ("blessures:4", {"t-jaime"}),
        ("will:5", {"t-jaime"}),
        ("volonté<5", {"t-robb"}),
        ("gold>=2", {"t-jaime", "t-robb"}),
        ("gold<5", {"t-jaime", "t-robb"}),
        ("or:3", {"t-robb"}),
        ("silver:1", {"t-robb"}),
        ("argent:0", {"t-jaime"}),
        ("copper>0", {"sword"}),
        ("cuivre!=2", {"t-jaime", "t-robb"}),
    ],
)
def test_search_numeric_fields(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("commander:yes", {JAIME}),
        ("commandant:oui", {JAIME}),
        ("commander:no", ALL - {JAIME}),
        ("is:commander", {JAIME}),
        ("is:character", {JAIME, "varys", "t-jaime", "t-robb"}),
        ("est:personnage", {JAIME, "varys", "t-jaime", "t-robb"}),
        ("is:unique", {"sword"}),
        ("is:mounted", {"t-robb"}),
        ("est:monté", {"t-robb"}),
        ("is:neutral", {"varys"}),
        ("-is:neutral", ALL - {"varys"}),
        ("not:character game:tactics", {"sword"}),
    ],
)
def test_search_flag_fields(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ('character:"jaime lannister"', {JAIME, "t-jaime"}),
        ("character:jaime-lannister", {JAIME, "t-jaime"}),
        ("character:JAIME", {JAIME, "t-jaime"}),
        ("perso:varys", {"varys"}),
        ("character:tyrion", set()),
    ],
)
def test_search_character_field(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("ability:vicious", {"guardsmen"}),
        ("ability:VIC", {"guardsmen"}),
        ("ability:cruel", {"guardsmen"}),
        ('ability:"winter\'s bite"', {"sworn"}),
        ('ability:"winters bite"', {"sworn"}),
        ("capacité:morsure", {"sworn"}),
        ("-ability:vicious game:tmg", TMG - {"guardsmen"}),
    ],
)
def test_search_ability_field(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("name:jaime", {JAIME, "t-jaime"}),
        ("name:épée", {"sworn", "sword"}),
        ("nom:eclaireurs", {"outriders"}),
        ("name:lannisters", {"guardsmen"}),
        ("name:kingslayer", set()),
        ("title:kingslayer", {JAIME}),
        ("titre:regicide", {JAIME}),
        ("title:araignée", {"varys"}),
        ("title:jaime", set()),
    ],
)
def test_search_name_and_title_fields(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("version:2021", {"sworn", "varys", "outriders", JAIME}),
        ("version:2021-s03", {"outriders", JAIME}),
        ("version:S03", {"outriders", JAIME}),
        ("version:s3", {"outriders", JAIME}),
        ("version:s06", {"guardsmen"}),
        ("version:2023", {"guardsmen"}),
        ("version:S1", set()),
    ],
)
def test_search_version_field(cards, q, expected):
    assert found(q) == expected


@pytest.mark.django_db
def test_search_id_field_matches_external_id(cards):
    assert found("id:20201") == {JAIME}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("requires:loyalty", {"rangers"}),
        ("requires:must-attach-to", {JAIME}),
        ("requires:solo", set()),
    ],
)
def test_search_requires_field(cards, q, expected):
    assert found(q) == expected


# --- searches: order ---------------------------------------------------------------------


@pytest.mark.django_db
def test_sort_cost_ascending_puts_cards_without_cost_last(cards):
    assert ordered("sort:cost") == [
        JAIME, "varys", "sworn", "guardsmen", "scorpion", "outriders", "rangers",
        "t-robb", "roar", "t-jaime", "sword",
    ]  # fmt: skip


@pytest.mark.django_db
def test_sort_cost_descending_still_puts_cards_without_cost_last(cards):
    assert ordered("sort:cost dir:desc") == [
        "rangers", "outriders", "scorpion", "guardsmen", "sworn", "varys", JAIME,
        "t-robb", "roar", "t-jaime", "sword",
    ]  # fmt: skip


@pytest.mark.django_db
def test_sort_name_orders_by_english_name_then_title(cards):
    assert ordered("game:tmg sort:name") == [
        "roar", JAIME, "guardsmen", "rangers", "scorpion", "outriders", "sworn", "varys",
    ]  # fmt: skip


@pytest.mark.django_db
def test_sort_name_descending_with_direction_alias(cards):
    assert ordered("game:tmg order:name direction:desc")[0] == "varys"


@pytest.mark.django_db
def test_sort_speed_then_default_order_for_ties(cards):
    assert ordered("game:tmg kind:unit sort:speed") == [
        "scorpion", "sworn", "guardsmen", "rangers", "outriders",
    ]  # fmt: skip


@pytest.mark.django_db
def test_sort_defense_descending(cards):
    assert ordered("kind:unit sort:defense dir:desc")[0] == "scorpion"


@pytest.mark.django_db
def test_sort_morale(cards):
    assert ordered("kind:unit sort:morale")[0] == "outriders"


@pytest.mark.django_db
def test_sort_faction_descending_puts_cards_without_faction_last(cards):
    result = ordered("sort:faction dir:desc")
    assert result[0] == "varys" and result[-1] == "sword"


@pytest.mark.django_db
def test_sort_kind_follows_game_order_not_alphabet(cards):
    assert ordered("faction:lannister game:tmg sort:kind") == [
        "guardsmen", "scorpion", JAIME, "roar",
    ]  # fmt: skip


@pytest.mark.django_db
def test_sort_version_descending(cards):
    assert ordered("(version:2021 or version:2023) sort:version dir:desc")[0] == "guardsmen"


@pytest.mark.django_db
def test_sort_gold(cards):
    assert ordered("kind:hero sort:gold dir:desc") == ["t-robb", "t-jaime"]


@pytest.mark.django_db
def test_dir_desc_without_sort_reverses_default_order(cards):
    assert ordered("game:tmg dir:desc")[0] == "varys"


# --- help page -----------------------------------------------------------------------------


def test_query_help_template_renders_fields_and_example_links(rf):
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string

    request = rf.get("/cards/help/")
    request.user = AnonymousUser()
    html = render_to_string("cards/query_help.html", request=request)
    assert "<code>faction:</code>" in html
    assert "?q=character%3A%22jaime%20lannister%22%20version%3As03" in html
