"""The demo's example set (issue 14): loaded by load_demo_data on a fresh database without
../shared, labelled as an example, and enough to build legal small, standard and large
warbands (with equipment) in both factions."""

import io

import pytest
from django.core.management import call_command

from armybuilder.lists import tactics_selectors, tactics_services
from cards.card_sets.example import EXAMPLE_SLUG
from cards.models import Card, CardSet, Faction

pytestmark = pytest.mark.django_db


@pytest.fixture
def example(settings):
    settings.CITADEL_RULEBOOK_DIR = ""
    call_command("load_demo_data", "--no-admin", stdout=io.StringIO())
    return CardSet.objects.get(slug=EXAMPLE_SLUG)


def card(name, title=""):
    return Card.objects.get(card_set__slug=EXAMPLE_SLUG, name_en=name, title_en=title)


def build(example, faction, budget, figures, items=()):
    warband = tactics_services.create_warband(
        faction=Faction.objects.get(game="tactics", slug=faction),
        budget=budget,
        card_sets=[example],
    )
    entries = {}
    for name, copies in figures:
        entries[name] = tactics_services.add_figure(
            army_list=warband, card=card(name), copies=copies
        )[0]
    for item, holder in items:
        tactics_services.assign_equipment(
            army_list=warband, card=card(item), holder=entries[holder]
        )
    return tactics_selectors.warband_report(warband)


def codes(result):
    return [f.code for f in result.findings]


def test_example_set_is_labelled_and_published(example):
    assert example.is_example and example.owner is None and example.visibility == "published"
    assert "not official" in example.name


def test_loading_the_demo_twice_changes_nothing(example):
    count = Card.objects.filter(card_set=example).count()
    call_command("load_example_set", stdout=io.StringIO())
    assert Card.objects.filter(card_set=example).count() == count


def test_example_set_builds_a_legal_small_warband(example):
    result = build(
        example, "baratheon", "small",
        [("Example Storm Captain", 1), ("Example Stag Blade", 1), ("Example Gale Rider", 1),
         ("Example Stormlands Levy", 6)],
        [("Example Whetstone", "Example Storm Captain")],
    )  # fmt: skip
    assert result.status == "legal", codes(result)


def test_example_set_builds_a_legal_standard_warband_with_equipment(example):
    result = build(
        example, "targaryen", "standard",
        [("Example Dragon Commander", 1), ("Example Ember Lord", 1), ("Example Flame Blade", 1),
         ("Example Scale Rider", 1), ("Example Cinder Squire", 1), ("Example Smoke Archer", 1),
         ("Example Dragonfire Levy", 8)],
        [("Example War Banner", "Example Dragon Commander"),
         ("Example Whetstone", "Example Flame Blade")],
    )  # fmt: skip
    assert result.status == "legal", codes(result)


def test_example_set_builds_a_legal_large_warband(example):
    result = build(
        example, "baratheon", "large",
        [("Example Storm Captain", 1), ("Example Antler Lord", 1), ("Example Tempest Warden", 1),
         ("Example Stag Blade", 1), ("Example Gale Rider", 1), ("Example Hammer Squire", 1),
         ("Example Thunder Archer", 1), ("Example Sellsword Captain", 1),
         ("Example Stormlands Levy", 12)],
        [("Example War Banner", "Example Storm Captain")],
    )  # fmt: skip
    assert result.status == "legal", codes(result)


def test_example_overrides_make_a_trident_soldier_recruitable(example):
    warband = tactics_services.create_warband(
        faction=Faction.objects.get(game="tactics", slug="baratheon"),
        budget="standard",
        card_sets=[example],
    )
    guardians = Card.objects.get(external_id="tac-baratheon-guardians")
    tactics_services.add_figure(army_list=warband, card=guardians)
    (entry,) = tactics_selectors.warband_report(warband).entries
    assert entry.card.cost_from == example.name


def test_card_page_of_an_example_card_says_it_is_an_example(client, example):
    knight = card("Example Stag Blade")
    html = client.get(f"/cards/tactics/{knight.external_id}/").content.decode()
    assert "Example set" in html and "not official" in html


def test_card_sets_page_lists_the_example_set_to_a_visitor(client, example):
    html = client.get("/card-sets/").content.decode()
    assert f'data-set="{EXAMPLE_SLUG}"' in html


def test_card_sets_page_lists_the_example_set_to_a_signed_in_player(
    client, example, django_user_model
):
    client.force_login(django_user_model.objects.create_user("newcomer", password="pw-1-long"))
    html = client.get("/card-sets/").content.decode()
    assert f'data-set="{EXAMPLE_SLUG}"' in html
