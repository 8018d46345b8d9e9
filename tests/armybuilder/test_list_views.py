"""The builder pages: anonymous building, access, share links, htmx partials, import/export."""

import re

import pytest
from django.contrib.auth.models import User

from armybuilder.checking import check_tmg_text
from armybuilder.lists import services
from armybuilder.lists.models import ArmyList, ListEntry
from armybuilder.listtext.warcouncil import WarCouncilList, WarCouncilUnit, encode_share_code
from armybuilder.serializers import result_json
from cards.models import Card, Faction

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def cards(small_pool):
    return {card.external_id: card for card in Card.objects.filter(game="tmg")}


def new_list(client, **fields):
    data = {"faction": "stark", "size": "30", "ruleset": "rules-1.5", "name": "", **fields}
    response = client.post("/lists/new/", data)
    assert response.status_code == 302, response.content
    return ArmyList.objects.get(pk=int(response.url.split("/")[2]))


def add(client, army_list, card, role=None, host=None, **extra):
    data = {"card": card.pk, "role": role or card.kind}
    if host is not None:
        data["host"] = host.pk
    return client.post(f"/lists/{army_list.pk}/add/", data, **extra)


def finding_codes(response):
    return re.findall(r'class="finding finding-\w+" data-code="(\w+)"', response.content.decode())


def points_spent(response):
    return int(re.search(r'data-testid="points-spent">(\d+)<', response.content.decode()).group(1))


@pytest.fixture
def built(client, cards):
    """An anonymous visitor's legal 30-point Stark list: swords + Robb, outriders, Catelyn."""
    army_list = new_list(client, name="Wolves")
    add(client, army_list, cards["10201"])
    host = army_list.entries.get()
    add(client, army_list, cards["20201"], host=host)
    add(client, army_list, cards["10203"])
    add(client, army_list, cards["30201"])
    return army_list


# --- creating and building -----------------------------------------------------------------------


def test_new_list_page_offers_factions_sizes_and_rulesets(client, cards):
    html = client.get("/lists/new/").content.decode()
    assert 'value="stark"' in html and 'value="40"' in html and 'value="rules-1.5"' in html


def test_new_list_remembers_an_anonymous_list_in_the_session(client, cards):
    army_list = new_list(client)
    assert army_list.owner is None and army_list.points_limit == 30
    assert client.get(f"/lists/{army_list.pk}/edit/").status_code == 200


def test_new_list_takes_any_number_of_points(client, cards):
    assert new_list(client, size="other", points_limit="35").points_limit == 35


def test_new_list_with_other_size_and_no_number_is_a_400(client, cards):
    response = client.post("/lists/new/", {"faction": "stark", "size": "other"})
    assert response.status_code == 400 and not ArmyList.objects.exists()


def test_new_list_with_unknown_faction_is_a_400(client, cards):
    response = client.post("/lists/new/", {"faction": "dothraki", "size": "40"})
    assert response.status_code == 400


def test_new_list_of_a_logged_in_user_is_owned(client, cards):
    user = User.objects.create_user("ned")
    client.force_login(user)
    assert new_list(client).owner == user


def test_anonymous_build_flow_ends_with_a_legal_list(client, built):
    response = client.get(f"/lists/{built.pk}/edit/")
    assert finding_codes(response) == []
    assert points_spent(response) == 15
    assert "✓ Legal" in response.content.decode()


def test_builder_shows_the_twenty_card_deck(client, built):
    html = client.get(f"/lists/{built.pk}/edit/").content.decode()
    assert html.count('class="deck-card') == 10 and "20 / 20" in html


def test_builder_shows_a_missing_commander(client, cards):
    army_list = new_list(client)
    add(client, army_list, cards["10201"])
    assert finding_codes(client.get(f"/lists/{army_list.pk}/edit/")) == ["COMMANDER_MISSING"]


def test_plain_form_post_redirects_back_to_the_builder(client, cards):
    army_list = new_list(client)
    response = add(client, army_list, cards["10201"])
    assert response.status_code == 302 and response.url == f"/lists/{army_list.pk}/edit/"


def test_htmx_post_answers_with_the_panel_and_the_status_bar(client, cards):
    army_list = new_list(client)
    response = add(client, army_list, cards["10201"], **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'id="builder-panel"' in html and 'hx-swap-oob="true"' in html
    assert points_spent(response) == 5


def test_htmx_bad_input_answers_400_with_the_reason_in_the_panel(client, cards):
    army_list = new_list(client)
    response = add(client, army_list, cards["20201"], role="unit", **HTMX)
    assert response.status_code == 400
    assert (
        'role="alert"' in response.content.decode()
        and 'id="builder-panel"' in response.content.decode()
    )


def test_remove_takes_the_unit_and_its_attachment(client, built):
    host = built.entries.get(card__external_id="10201")
    client.post(f"/lists/{built.pk}/remove/", {"entry": host.pk})
    assert sorted(e.card.external_id for e in built.entries.all()) == ["10203", "30201"]


def test_move_puts_the_attachment_on_another_unit(client, built, cards):
    add(client, built, cards["10201"])
    robb = built.entries.get(card__external_id="20201")
    second = built.entries.filter(card__external_id="10201").last()
    client.post(f"/lists/{built.pk}/move/", {"entry": robb.pk, "host": second.pk})
    assert ListEntry.objects.get(pk=robb.pk).parent == second


def test_settings_change_the_game_size(client, built):
    data = {"settings-faction": "stark", "settings-size": "other", "settings-points_limit": "10"}
    data["settings-ruleset"] = "rules-1.5"
    response = client.post(f"/lists/{built.pk}/settings/", data, **HTMX)
    assert response.status_code == 200 and finding_codes(response) == ["POINTS_OVER_LIMIT"]


def test_settings_with_a_bad_size_answer_400(client, built):
    data = {"settings-faction": "stark", "settings-size": "other", "settings-points_limit": "0"}
    response = client.post(f"/lists/{built.pk}/settings/", {**data, "settings-ruleset": "x"})
    assert response.status_code == 400
    assert ArmyList.objects.get(pk=built.pk).points_limit == 30


def test_host_chooser_disables_an_illegal_host_with_its_reason(client, cards):
    army_list = new_list(client)
    add(client, army_list, cards["10203"])
    response = client.get(f"/lists/{army_list.pk}/edit/?attach={cards['20201'].pk}", **HTMX)
    html = response.content.decode()
    assert re.search(r'name="host" value="\d+" disabled', html)
    assert 'data-code="ATTACHMENT_TYPE_MISMATCH"' in html


def test_host_chooser_for_a_card_that_is_no_attachment_says_so(client, cards):
    army_list = new_list(client)
    response = client.get(f"/lists/{army_list.pk}/edit/?attach={cards['10201'].pk}")
    assert response.status_code == 400 and "not a TMG attachment" in response.content.decode()


@pytest.mark.parametrize("query", ["attach=abc", "attach=999999", "move=999999", "move=x"])
def test_host_chooser_with_a_wrong_id_is_a_400(client, built, query):
    assert client.get(f"/lists/{built.pk}/edit/?{query}").status_code == 400


def test_picker_finds_faction_and_neutral_cards_only(client, cards):
    other = Faction.objects.create(game="tmg", slug="lannister", name_en="Lannister")
    Card.objects.create(
        game="tmg", kind="unit", external_id="10101", faction=other, name_en="Lannister Guards"
    )
    army_list = new_list(client)
    html = client.get(f"/lists/{army_list.pk}/cards/?q=kind:unit", **HTMX).content.decode()
    assert "Sellswords" in html and "Stark Outriders" in html and "Lannister" not in html


def test_picker_reports_a_query_syntax_error(client, cards):
    army_list = new_list(client)
    html = client.get(f"/lists/{army_list.pk}/cards/?q=cost%3C%3C", **HTMX).content.decode()
    assert "query-error" in html


def test_picker_without_htmx_redirects_to_the_builder_search(client, cards):
    army_list = new_list(client)
    response = client.get(f"/lists/{army_list.pk}/cards/?q=robb")
    assert response.status_code == 302 and response.url.endswith("/edit/?q=robb")


def test_chosen_commander_is_set_from_the_builder(client, cards):
    freefolk = Faction.objects.get(game="tmg", slug="freefolk")
    mag = Card.objects.create(
        game="tmg", kind="unit", external_id="10313", faction=freefolk, name_en="Mag the Mighty"
    )
    army_list = new_list(client, faction="freefolk")
    add(client, army_list, mag)
    entry = army_list.entries.get()
    assert "Make commander" in client.get(f"/lists/{army_list.pk}/edit/").content.decode()
    client.post(f"/lists/{army_list.pk}/commander/", {"entry": entry.pk})
    assert ListEntry.objects.get(pk=entry.pk).chosen_commander


# --- wrong ids never give a 500 ------------------------------------------------------------------


def test_unknown_list_is_a_404(client, cards):
    assert client.get("/lists/999999/edit/").status_code == 404


def test_another_visitors_list_is_a_404(client, built):
    other = type(client)()
    assert other.get(f"/lists/{built.pk}/edit/").status_code == 404
    assert other.post(f"/lists/{built.pk}/add/", {"card": 1, "role": "unit"}).status_code == 404
    assert other.get(f"/lists/{built.pk}/").status_code == 404


def test_unknown_card_is_a_400(client, built):
    response = client.post(f"/lists/{built.pk}/add/", {"card": 999999, "role": "unit"})
    assert response.status_code == 400 and "No card has this number" in response.content.decode()


@pytest.mark.parametrize(
    "data", [{}, {"card": "x", "role": "unit"}, {"card": 1, "role": "general"}]
)
def test_malformed_add_is_a_400(client, built, data):
    assert client.post(f"/lists/{built.pk}/add/", data).status_code == 400


def test_entry_of_another_list_is_a_400(client, built, cards):
    other_list = new_list(client)
    add(client, other_list, cards["10201"])
    foreign = other_list.entries.get()
    response = client.post(f"/lists/{built.pk}/remove/", {"entry": foreign.pk})
    assert response.status_code == 400 and ListEntry.objects.filter(pk=foreign.pk).exists()


def test_attachment_without_host_is_a_400(client, built, cards):
    assert add(client, built, cards["20202"]).status_code == 400


def test_get_on_a_change_url_is_a_405(client, built):
    assert client.get(f"/lists/{built.pk}/add/").status_code == 405


# --- view, share, save, duplicate ----------------------------------------------------------------


def test_view_page_recomputes_legality(client, built):
    card = Card.objects.get(game="tmg", external_id="10203")
    card.points = 40
    card.save()
    html = client.get(f"/lists/{built.pk}/").content.decode()
    assert 'data-code="POINTS_OVER_LIMIT"' in html


def test_owner_sees_a_private_list_and_others_do_not(client, cards):
    user = User.objects.create_user("jon")
    client.force_login(user)
    army_list = new_list(client)
    assert client.get(f"/lists/{army_list.pk}/").status_code == 200
    client.logout()
    assert client.get(f"/lists/{army_list.pk}/").status_code == 404


def test_share_link_works_only_once_turned_on(client, built):
    url = f"/lists/s/{built.share_token}/"
    assert type(client)().get(url).status_code == 404
    client.post(f"/lists/{built.pk}/visibility/", {"visibility": "link"})
    response = type(client)().get(url)
    assert response.status_code == 200 and "Wolves" in response.content.decode()


def test_share_view_is_read_only(client, built):
    services.set_visibility(army_list=built, visibility="link")
    html = type(client)().get(f"/lists/s/{built.share_token}/").content.decode()
    assert "/remove/" not in html and "/edit/" not in html


def test_unknown_share_token_is_a_404(client, cards):
    url = "/lists/s/00000000-0000-0000-0000-000000000000/"
    assert client.get(url).status_code == 404


def test_shared_list_can_be_copied_by_a_visitor(client, built):
    services.set_visibility(army_list=built, visibility="link")
    visitor = type(client)()
    response = visitor.post(f"/lists/{built.pk}/duplicate/", {"token": str(built.share_token)})
    copy = ArmyList.objects.exclude(pk=built.pk).get()
    assert response.url == f"/lists/{copy.pk}/edit/" and copy.entries.count() == 4
    assert visitor.get(response.url).status_code == 200


def test_duplicate_of_a_private_list_by_a_stranger_is_a_404(client, built):
    response = type(client)().post(f"/lists/{built.pk}/duplicate/", {"token": "nope"})
    assert response.status_code == 404


def test_save_asks_an_anonymous_visitor_to_log_in_or_sign_up(client, built):
    html = client.get(f"/lists/{built.pk}/save/").content.decode()
    assert f"/accounts/login/?next=%2Flists%2F{built.pk}%2Fsave%2F" in html
    assert f"/accounts/signup/?next=%2Flists%2F{built.pk}%2Fsave%2F" in html


def test_save_after_login_claims_the_sessions_list(client, built):
    user = User.objects.create_user("arya", password="needle-is-sharp-42")
    response = client.post(
        "/accounts/login/",
        {"username": "arya", "password": "needle-is-sharp-42", "next": f"/lists/{built.pk}/save/"},
    )
    assert response.url == f"/lists/{built.pk}/save/"
    client.get(response.url)
    assert ArmyList.objects.get(pk=built.pk).owner == user
    assert "Wolves" in client.get("/lists/mine/").content.decode()


def test_my_lists_needs_an_account(client, cards):
    response = client.get("/lists/mine/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_delete_removes_the_list(client, built):
    client.post(f"/lists/{built.pk}/delete/")
    assert not ArmyList.objects.filter(pk=built.pk).exists()


# --- export, print, import -----------------------------------------------------------------------


def test_export_text_reads_back_as_the_same_legal_list(client, built):
    response = client.get(f"/lists/{built.pk}/export.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    checked = result_json(check_tmg_text(response.content.decode()))
    assert checked["legal"] is True
    assert [e["id"] for e in checked["entries"]] == ["10201", "20201", "10203", "30201"]


def test_export_text_in_french(client, built):
    text = client.get(f"/lists/{built.pk}/export.txt?lang=fr").content.decode()
    assert "Général: Robb Stark - The Wolf Lord" in text and "Épées Liges Stark (5)" in text


def test_export_of_a_shared_list_needs_its_token(client, built):
    services.set_visibility(army_list=built, visibility="link")
    visitor = type(client)()
    assert visitor.get(f"/lists/{built.pk}/export.txt").status_code == 404
    url = f"/lists/{built.pk}/export.txt?t={built.share_token}"
    assert visitor.get(url).status_code == 200


def test_print_view_lists_cards_and_deck(client, built):
    html = client.get(f"/lists/{built.pk}/print/").content.decode()
    assert "Stark Sworn Swords" in html and "Stark Tactic 1" in html


def test_import_text_opens_the_builder_and_reports_unread_lines(client, cards):
    text = "Faction: Stark\nPoints: 30\n• Stark Sworn Swords\n• Nobody Special\n"
    response = client.post("/lists/import/", {"text": text}, follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and "Nobody Special" in html
    army_list = ArmyList.objects.get()
    assert [e.card.external_id for e in army_list.entries.all()] == ["10201"]


def test_import_assumption_is_not_reported_as_a_line_left_out(client, cards):
    text = "Faction: Stark\n• Stark Sworn Swords\n  • Robb Stark (C)\n"  # no Points line
    html = client.post("/lists/import/", {"text": text}, follow=True).content.decode()
    assert "Read with an assumption" in html and "Not imported" not in html


def test_import_share_code_opens_the_builder(client, cards):
    code = encode_share_code(
        WarCouncilList(faction="stark", points=30, units=(WarCouncilUnit("10201", ("20201",)),))
    )
    response = client.post("/lists/import/", {"text": code})
    army_list = ArmyList.objects.get()
    assert response.url == f"/lists/{army_list.pk}/edit/" and army_list.entries.count() == 2


def test_import_of_text_that_is_no_list_is_a_400(client, cards):
    response = client.post("/lists/import/", {"text": "just some words"})
    assert response.status_code == 400 and not ArmyList.objects.exists()


def test_admin_pages_for_lists_render(client, built, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.com", "pw-x"))
    assert client.get("/admin/armybuilder/armylist/").status_code == 200
    assert client.get(f"/admin/armybuilder/armylist/{built.pk}/change/").status_code == 200
    assert client.get("/admin/armybuilder/listentry/").status_code == 200
