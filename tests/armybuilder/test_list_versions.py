"""Saved lists are pinned to the card versions they were built with: new card data (errata)
changes nothing until the owner updates the list, after seeing what the update changes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from armybuilder.lists import services, tactics_services
from armybuilder.lists.games import for_game
from armybuilder.lists.models import ListEntry
from armybuilder.lists.versions import card_update, card_versions
from cards.models import Card
from tests.carddata import STARK_LIST, errata, import_cards

pytestmark = pytest.mark.django_db

WARBAND = """Game: Tactics
Scenario: 2-4-12
Faction: Baratheon
Heroes:
• Robert Baratheon [2G]
Soldiers:
• Baratheon Guardians x3 [1C each]
"""


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("ned", password="winter-is-coming-9")


@pytest.fixture
def stark_list(owner):
    import_cards()
    return services.import_list_text(text=STARK_LIST, owner=owner).army_list


def report(army_list, **kwargs):
    return for_game(army_list.game).report(army_list, lang="en", **kwargs)


def test_entry_is_pinned_to_the_current_version_when_added(stark_list):
    for entry in ListEntry.objects.filter(army_list=stark_list).select_related("card"):
        assert entry.card_version_id == entry.card.current_version_id is not None


def test_saved_list_keeps_its_points_after_errata(stark_list):
    errata("10203", points=7)
    assert report(stark_list).spent == "15"


def test_saved_list_at_current_cards_uses_the_errata(stark_list):
    errata("10203", points=7)
    assert report(stark_list, current_cards=True).spent == "16"


def test_card_versions_says_the_date_and_how_many_cards_have_newer_data(stark_list):
    errata("10203", points=7)
    versions = card_versions(stark_list)
    assert versions.judged_with is not None
    assert versions.outdated == 1


def test_card_versions_of_a_current_list_offers_no_update(stark_list):
    assert not card_versions(stark_list).update_available


def test_card_update_says_points_and_the_field_that_changed(stark_list):
    errata("10203", points=7)
    update = card_update(stark_list, lang="en")
    assert (update.before.spent, update.after.spent) == ("15", "16")
    [change] = update.cards
    assert change.external_id == "10203"
    assert change.descriptions == ("points 6 → 7",)


def test_card_update_says_when_legality_changes(owner):
    import_cards()
    army_list = services.import_list_text(
        text=STARK_LIST.replace("Points: 40", "Points: 15"), owner=owner
    ).army_list
    errata("10203", points=7)
    update = card_update(army_list, lang="fr")
    assert update.legality_changes and not update.after.legal
    assert [f.code for f in update.findings_added] == ["POINTS_OVER_LIMIT"]


def test_card_update_of_a_current_list_is_none(stark_list):
    assert card_update(stark_list, lang="en") is None


def test_update_to_current_cards_moves_every_pin(stark_list):
    errata("10203", points=7)
    assert services.update_to_current_cards(army_list=stark_list) == 1
    assert report(stark_list).spent == "16"
    assert not card_versions(stark_list).update_available


def test_duplicate_keeps_the_pinned_versions(stark_list, owner):
    errata("10203", points=7)
    copy = services.duplicate_list(army_list=stark_list, owner=owner)
    assert report(copy).spent == "15"


def test_entry_added_after_errata_is_pinned_to_the_new_version(stark_list):
    errata("10203", points=7)
    entry = services.add_unit(army_list=stark_list, card=Card.objects.get(external_id="10203"))
    assert entry.card_version_id == Card.objects.get(external_id="10203").current_version_id
    assert report(stark_list).spent == "22"  # 15 as pinned + 7 for the new copy


def test_warband_keeps_its_coins_after_errata(owner):
    import_cards()
    warband = tactics_services.import_warband_text(text=WARBAND, owner=owner).army_list
    errata("tac-robert", cost={"gold": 1, "silver": 1, "copper": 0})
    assert report(warband).spent == "2-0-3"
    assert report(warband, current_cards=True).spent == "1-1-3"


def test_update_cards_page_shows_what_changes(client, owner, stark_list):
    errata("10203", points=7)
    client.force_login(owner)
    page = client.get(reverse("lists:update_cards", args=[stark_list.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "points 6 → 7" in text and 'data-row="spent"' in text


def test_update_cards_page_post_updates_the_list(client, owner, stark_list):
    errata("10203", points=7)
    client.force_login(owner)
    response = client.post(reverse("lists:update_cards", args=[stark_list.pk]))
    assert response.status_code == 302
    assert report(stark_list).spent == "16"


def test_update_cards_page_of_another_users_list_is_404(client, stark_list):
    stranger = get_user_model().objects.create_user("cersei", password="hear-me-roar-9")
    client.force_login(stranger)
    response = client.post(reverse("lists:update_cards", args=[stark_list.pk]))
    assert response.status_code == 404
    assert report(stark_list).spent == "15"


def test_list_page_says_which_card_data_judged_it(client, owner, stark_list):
    errata("10203", points=7)
    client.force_login(owner)
    page = client.get(reverse("lists:detail", args=[stark_list.pk])).content.decode()
    assert 'data-testid="card-data"' in page and 'data-testid="update-cards"' in page
