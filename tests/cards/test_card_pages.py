"""Card pages: browser, card page for each kind, help, scenarios, language, sign-up and login."""

import pytest
from django.urls import reverse

from cards.models import Ability, Card, CardVersion, Character, Faction, Scenario
from cards.views import PAGE_SIZE, query_with_sort
from tests.carddata import make_card

pytestmark = pytest.mark.django_db

BROWSE = "/cards/"


@pytest.fixture
def db_cards():
    stark = Faction.objects.create(
        game="tmg", slug="stark", name_en="House Stark", name_fr="Maison Stark", sort_order=1
    )
    lannister = Faction.objects.create(
        game="tmg", slug="lannister", name_en="House Lannister", sort_order=2
    )
    freefolk = Faction.objects.create(
        game="tmg", slug="freefolk", name_en="Free Folk", name_fr="Peuple Libre", sort_order=3
    )
    neutral = Faction.objects.create(
        game="tmg", slug="neutral", name_en="Neutral", name_fr="Neutre", is_neutral=True
    )
    baratheon = Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    robb = Character.objects.create(key="robb-stark", name_en="Robb Stark")
    robert = Character.objects.create(key="robert-baratheon", name_en="Robert Baratheon")
    sundering = Ability.objects.create(
        key="sundering",
        name_en="Sundering",
        name_fr="Fracasser",
        text_en="Enemies suffer -1 to Defense saves.",
        text_fr="Les ennemis subissent -1 en Défense.",
    )
    swords = make_card(
        game="tmg",
        kind="unit",
        external_id="10101",
        faction=stark,
        name_en="Stark Sworn Swords",
        name_fr="Épées Liges Stark",
        points=5,
        unit_type="infantry",
        tray="infantry",
        speed=5,
        defense=4,
        morale=6,
        wounds=None,
        attacks=[
            {
                "name_en": "Longsword",
                "name_fr": "Épée longue",
                "range": "melee",
                "to_hit": 4,
                "dice": [7, 5, 4],
            }
        ],
        abilities=[sundering],
        version="2021",
    )
    CardVersion.objects.create(card=swords, version="2019", stats={"points": 6, "speed": 5})
    CardVersion.objects.create(card=swords, version="2021", stats={"points": 5, "speed": 5})
    young_wolf = make_card(
        game="tmg",
        kind="attachment",
        external_id="20101",
        faction=stark,
        name_en="Robb Stark",
        title_en="The Young Wolf",
        title_fr="Le Jeune Loup",
        points=0,
        unit_type="infantry",
        is_commander=True,
        is_character=True,
        characters=[robb],
    )
    king = make_card(
        game="tmg",
        kind="attachment",
        external_id="20102",
        faction=stark,
        name_en="Robb Stark",
        title_en="King in the North",
        points=3,
        unit_type="cavalry",
        is_character=True,
        characters=[robb],
    )
    tactics = [
        make_card(
            game="tmg",
            kind="tactics",
            external_id=f"4010{n}",
            faction=stark,
            name_en=name,
            trigger_en="When a friendly unit attacks.",
            text_en="That unit re-rolls misses.",
            commander_card=young_wolf,
        )
        for n, name in enumerate(("Hold the Line", "Wolf's Fury", "Lead by Example"), start=1)
    ]
    ncu = make_card(
        game="tmg",
        kind="ncu",
        external_id="30101",
        faction=stark,
        name_en="Catelyn Stark",
        title_en="Lady of Riverrun",
        points=4,
        text_en="Influence: choose a unit.",
        is_character=True,
    )
    sellswords = make_card(
        game="tmg",
        kind="unit",
        external_id="10901",
        faction=neutral,
        name_en="Sellswords",
        points=6,
        requirements=[{"type": "copy_limit", "max": 2}],
    )
    robert_mounted = make_card(
        game="tactics",
        kind="hero",
        external_id="tac-robert-mounted",
        faction=baratheon,
        name_en="Robert Baratheon",
        title_en="Mounted",
        title_fr="Monté",
        mounted=True,
        gold=3,
        silver=1,
        copper=0,
        will=5,
        defense=4,
        wounds=6,
        characters=[robert],
    )
    robert_foot = make_card(
        game="tactics",
        kind="hero",
        external_id="tac-robert",
        faction=baratheon,
        name_en="Robert Baratheon",
        gold=2,
        silver=0,
        copper=0,
        characters=[robert],
    )
    champion = make_card(
        game="tactics",
        kind="champion",
        external_id="tac-champion",
        faction=baratheon,
        name_en="Stag Knight",
        gold=0,
        silver=None,
        copper=None,
    )
    steel = make_card(
        game="tactics",
        kind="equipment",
        external_id="tac-valyrian-steel",
        name_en="Valyrian Steel",
        name_fr="Acier valyrien",
        gold=0,
        silver=0,
        copper=2,
        carriers=["hero", "champion"],
        is_unique=True,
    )
    return {
        "stark": stark,
        "lannister": lannister,
        "freefolk": freefolk,
        "neutral": neutral,
        "swords": swords,
        "young_wolf": young_wolf,
        "king": king,
        "tactics": tactics,
        "ncu": ncu,
        "sellswords": sellswords,
        "robert_mounted": robert_mounted,
        "robert_foot": robert_foot,
        "champion": champion,
        "steel": steel,
    }


def page_url(card: Card) -> str:
    return reverse("cards:detail", args=[card.game, card.external_id])


def french(client):
    client.cookies["django_language"] = "fr"
    return client


# --- browser -----------------------------------------------------------------------------


def test_browse_without_query_lists_every_card(client, db_cards):
    response = client.get(BROWSE)
    assert response.status_code == 200
    assert response.context["page"].paginator.count == Card.objects.count()


def test_browse_free_word_finds_card_by_name(client, db_cards):
    response = client.get(BROWSE, {"q": "sworn"})
    assert [c.external_id for c in response.context["page"].object_list] == ["10101"]


def test_browse_query_field_filters_by_kind(client, db_cards):
    response = client.get(BROWSE, {"q": "kind:attachment"})
    kinds = {c.kind for c in response.context["page"].object_list}
    assert kinds == {"attachment"}


def test_browse_faction_select_combines_with_query(client, db_cards):
    response = client.get(BROWSE, {"q": "cost>=5", "faction": "stark"})
    assert [c.external_id for c in response.context["page"].object_list] == ["10101"]


def test_browse_kind_select_filters(client, db_cards):
    response = client.get(BROWSE, {"kind": "equipment"})
    assert [c.external_id for c in response.context["page"].object_list] == ["tac-valyrian-steel"]


def test_browse_game_select_filters(client, db_cards):
    response = client.get(BROWSE, {"game": "tactics"})
    assert {c.game for c in response.context["page"].object_list} == {"tactics"}


def test_browse_unknown_select_value_is_ignored_not_500(client, db_cards):
    response = client.get(BROWSE, {"kind": "dragon", "faction": "nowhere"})
    assert response.status_code == 200
    assert response.context["page"].paginator.count == Card.objects.count()


def test_browse_shows_result_count(client, db_cards):
    response = client.get(BROWSE, {"q": "kind:tactics"})
    assert "3 cards found" in response.content.decode()


def test_browse_sort_by_cost_descending(client, db_cards):
    response = client.get(BROWSE, {"q": "game:tmg kind:unit sort:cost dir:desc"})
    assert [c.external_id for c in response.context["page"].object_list] == ["10901", "10101"]


def test_browse_column_header_adds_sort_to_query(client, db_cards):
    response = client.get(BROWSE, {"q": "kind:unit", "faction": "stark"})
    cost = next(h for h in response.context["headers"] if h["key"] == "cost")
    assert "sort%3Acost+dir%3Aasc" in cost["url"]
    assert "faction=stark" in cost["url"]


def test_browse_active_sort_header_links_to_reverse_direction(client, db_cards):
    response = client.get(BROWSE, {"q": "sort:cost"})
    cost = next(h for h in response.context["headers"] if h["key"] == "cost")
    assert cost["active"] and cost["direction"] == "asc"
    assert "dir%3Adesc" in cost["url"]


def test_query_with_sort_replaces_existing_directives():
    assert query_with_sort("stark tri:nom dir:desc", "cost", "asc") == "stark sort:cost dir:asc"


def test_browse_paginates_results(client, db_cards):
    for n in range(PAGE_SIZE + 5):
        make_card(game="tmg", kind="unit", external_id=f"9{n:04}", name_en=f"Filler {n}")
    response = client.get(BROWSE, {"q": "filler", "page": "2"})
    page = response.context["page"]
    assert page.number == 2
    assert len(page.object_list) == 5
    assert "page=1" not in response.context["page_urls"]["first"]


def test_browse_page_number_out_of_range_shows_last_page(client, db_cards):
    response = client.get(BROWSE, {"page": "999"})
    assert response.status_code == 200
    assert response.context["page"].number == response.context["page"].paginator.num_pages


def test_browse_syntax_error_shows_message_and_marker(client, db_cards):
    response = client.get(BROWSE, {"q": "stark colour:red"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Unknown field" in body
    assert response.context["error"]["position"] == 6
    assert "<mark>colour</mark>" in body


def test_browse_syntax_error_in_french(client, db_cards):
    response = french(client).get(BROWSE, {"q": "cost<=abc"})
    assert response.status_code == 200
    assert "Nombre attendu" in response.content.decode()


def test_browse_unclosed_quote_never_500(client, db_cards):
    response = client.get(BROWSE, {"q": '"jaime'})
    assert response.status_code == 200
    assert response.context["error"]["position"] == 0


def test_browse_htmx_request_renders_results_partial(client, db_cards):
    response = client.get(BROWSE, {"q": "sworn"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert "Stark Sworn Swords" in body
    assert "<html" not in body


def test_browse_full_page_has_htmx_live_search(client, db_cards):
    body = client.get(BROWSE).content.decode()
    assert 'hx-trigger="submit, keyup changed delay:300ms' in body
    assert "htmx" in body and "<noscript>" in body


# --- card pages --------------------------------------------------------------------------


def test_card_page_unit_shows_stats_attacks_and_abilities(client, db_cards):
    body = client.get(page_url(db_cards["swords"])).content.decode()
    assert "Speed" in body and "4+" in body and "6+" in body
    assert "Longsword" in body
    assert 'class="die rank-full">7<' in body and 'class="die rank-two-lost">4<' in body
    assert "Sundering" in body and "Enemies suffer -1 to Defense saves." in body


def test_card_page_unit_shows_recorded_versions(client, db_cards):
    response = client.get(page_url(db_cards["swords"]))
    labels = [row["version"].version for row in response.context["versions"]]
    assert labels == ["2019", "2021"]


def test_card_page_shows_names_in_both_languages(client, db_cards):
    body = client.get(page_url(db_cards["swords"])).content.decode()
    assert "Stark Sworn Swords" in body and "Épées Liges Stark" in body


def test_card_page_attachment_commander_links_its_tactics_cards(client, db_cards):
    body = client.get(page_url(db_cards["young_wolf"])).content.decode()
    assert "badge-commander" in body
    for card in db_cards["tactics"]:
        assert page_url(card) in body


def test_card_page_lists_other_cards_of_same_character(client, db_cards):
    response = client.get(page_url(db_cards["young_wolf"]))
    assert response.context["other_cards"] == [db_cards["king"]]
    assert "King in the North" in response.content.decode()


def test_card_page_tactics_card_shows_trigger_effect_and_commander(client, db_cards):
    body = client.get(page_url(db_cards["tactics"][0])).content.decode()
    assert "When a friendly unit attacks." in body
    assert "That unit re-rolls misses." in body
    assert page_url(db_cards["young_wolf"]) in body


def test_card_page_ncu_renders(client, db_cards):
    response = client.get(page_url(db_cards["ncu"]))
    assert response.status_code == 200
    assert "Influence: choose a unit." in response.content.decode()


def test_card_page_faction_card_is_fielded_by_its_faction_only(client, db_cards):
    response = client.get(page_url(db_cards["swords"]))
    assert response.context["fielded_by"] == [db_cards["stark"]]


def test_card_page_neutral_card_is_fielded_by_all_but_free_folk(client, db_cards):
    response = client.get(page_url(db_cards["sellswords"]))
    slugs = {f.slug for f in response.context["fielded_by"]}
    assert slugs == {"stark", "lannister", "neutral"}


def test_card_page_describes_requirements_in_words(client, db_cards):
    body = client.get(page_url(db_cards["sellswords"])).content.decode()
    assert "At most 2 copies per army." in body


def test_card_page_tactics_figure_shows_coins_and_counterpart(client, db_cards):
    response = client.get(page_url(db_cards["robert_mounted"]))
    body = response.content.decode()
    assert response.context["counterparts"] == [db_cards["robert_foot"]]
    assert page_url(db_cards["robert_foot"]) in body
    assert "Will" in body and "5+" in body
    assert "cannot be recruited yet" not in body


def test_card_page_tactics_figure_with_unknown_coin_cannot_be_recruited(client, db_cards):
    body = client.get(page_url(db_cards["champion"])).content.decode()
    assert "Cost unknown — cannot be recruited yet." in body


def test_card_page_equipment_shows_carriers_and_unique(client, db_cards):
    body = client.get(page_url(db_cards["steel"])).content.decode()
    assert "Hero, Champion" in body
    assert "yes – one per warband" in body


def test_card_page_unknown_card_is_404(client, db_cards):
    assert client.get("/cards/tmg/99999/").status_code == 404


def test_card_page_unknown_game_is_404(client, db_cards):
    assert client.get("/cards/chess/10101/").status_code == 404


# --- other pages -------------------------------------------------------------------------


def test_query_help_page_renders(client):
    response = client.get(reverse("cards:query_help"))
    assert response.status_code == 200
    assert "cards/query_help.html" in [t.name for t in response.templates]


def test_scenarios_page_lists_modes_and_budgets(client):
    Scenario.objects.create(
        game="tmg", slug="a-game-of-thrones", kind="game_mode", name_en="A Game of Thrones"
    )
    Scenario.objects.create(
        game="tactics",
        slug="standard",
        kind="game_size",
        name_en="Standard",
        gold=3,
        silver=6,
        copper=18,
    )
    Scenario.objects.create(game="tactics", slug="learn", kind="scenario", name_en="Learn")
    body = client.get(reverse("cards:scenarios")).content.decode()
    assert "A Game of Thrones" in body
    assert '<span class="coin coin-gold">3</span>-<span class="coin coin-silver">6</span>' in body
    assert "unknown" in body


def test_scenarios_page_renders_when_empty(client):
    assert client.get(reverse("cards:scenarios")).status_code == 200


# --- language ----------------------------------------------------------------------------


def test_language_switch_sets_french(client, db_cards):
    response = client.post(reverse("set_language"), {"language": "fr", "next": BROWSE}, follow=True)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Cartes" in body


def test_french_card_page_uses_french_names_and_labels(client, db_cards):
    body = french(client).get(page_url(db_cards["swords"])).content.decode()
    assert "<h1>Épées Liges Stark</h1>" in body
    assert "Vitesse" in body and "Fracasser" in body


def test_french_card_name_falls_back_to_english(client, db_cards):
    body = french(client).get(page_url(db_cards["ncu"])).content.decode()
    assert "<h1>Catelyn Stark</h1>" in body


def test_french_browser_shows_french_result_count(client, db_cards):
    body = french(client).get(BROWSE, {"q": "kind:tactics"}).content.decode()
    assert "3 cartes trouvées" in body


# --- accounts ----------------------------------------------------------------------------


def test_signup_creates_account_and_logs_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "arya", "password1": "needle-and-valar", "password2": "needle-and-valar"},
    )
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="arya").exists()
    assert "_auth_user_id" in client.session


def test_signup_with_mismatched_passwords_shows_errors(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "arya", "password1": "needle-and-valar", "password2": "something-else"},
    )
    assert response.status_code == 200
    assert not django_user_model.objects.exists()


def test_login_page_renders_and_logs_in(client, django_user_model):
    django_user_model.objects.create_user("sansa", password="lemon-cakes-42")
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "sansa", "password": "lemon-cakes-42"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_header_shows_logout_and_admin_for_staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", "b@x.org", "pw-1234-x"))
    body = client.get("/").content.decode()
    assert reverse("logout") in body and reverse("admin:index") in body


def test_header_hides_admin_link_for_anonymous(client):
    body = client.get("/").content.decode()
    assert reverse("admin:index") not in body and reverse("login") in body


def test_browse_query_count_does_not_grow_with_results(
    client, db_cards, django_assert_max_num_queries
):
    with django_assert_max_num_queries(6):
        client.get(BROWSE, {"q": "faction:stark"})


def test_card_page_query_count_is_bounded(client, db_cards, django_assert_max_num_queries):
    with django_assert_max_num_queries(14):
        client.get(page_url(db_cards["young_wolf"]))


def test_browse_overlong_query_is_a_syntax_error_not_500(client, db_cards):
    response = client.get(BROWSE, {"q": "x" * 1200})
    assert response.status_code == 200
    assert response.context["error"] is not None


def test_stats_rows_leave_out_the_other_games_empty_fields():
    from cards.presentation import stats_rows

    rows = stats_rows({"points": 5, "gold": None, "attacks": [], "speed": 5})
    assert [row["value"] for row in rows] == ["5", "5"]


def test_stats_rows_summarise_attacks_in_words():
    from cards.presentation import stats_rows

    attack = {"name_en": "Winter's Bite", "range": "melee", "to_hit": 4, "dice": [7, 5, 4]}
    (row,) = stats_rows({"attacks": [attack]})
    assert row["value"] == "Winter's Bite (melee 4+ 7/5/4)"


# --- links to the rules ------------------------------------------------------------------------

RULES_MD = """\
# Test rules

## Orders {#orders}

An Order ability may be used once per round.

## Conditions {#conditions}

VULNERABLE : the enemy re-rolls its Defense saves.
"""


@pytest.fixture
def rules_book(db):
    from rules.services import import_rulebook_text

    return import_rulebook_text(
        text=RULES_MD, fmt="markdown", slug="test-rules-en", lang="en", game="tmg"
    ).book


@pytest.fixture
def ordered_card(db_cards):
    threaten = Ability.objects.create(
        key="order-threaten",
        name_en="Order: Threaten",
        name_fr="Ordre : Menacer",
        text_en="The target becomes Vulnerable.",
    )
    return make_card(
        game="tmg",
        kind="unit",
        external_id="10999",
        faction=db_cards["swords"].faction,
        name_en="Stark Threateners",
        points=5,
        unit_type="infantry",
        tray="infantry",
        abilities=[threaten],
    )


def test_card_page_links_an_order_ability_to_the_orders_rule(client, ordered_card, rules_book):
    page = client.get(page_url(ordered_card)).content.decode()
    assert 'href="/rules/test-rules-en/orders/"' in page


def test_card_page_lists_the_rules_its_text_mentions(client, ordered_card, rules_book):
    page = client.get(page_url(ordered_card)).content.decode()
    assert "Rules it refers to" in page
    assert 'href="/rules/test-rules-en/conditions/">Vulnerable</a>' in page


def test_card_page_without_rulebooks_shows_abilities_unlinked(client, ordered_card):
    page = client.get(page_url(ordered_card)).content.decode()
    assert "Order: Threaten" in page and "/rules/" not in page.split("<main", 1)[-1]
