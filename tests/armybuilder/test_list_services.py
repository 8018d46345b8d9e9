"""Saved lists: services (writes), selectors (reads, report, host options), on the ORM pool."""

from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from armybuilder.checking import check_tmg_text
from armybuilder.lists import selectors, services
from armybuilder.lists.models import ArmyList, ListEntry, Visibility
from armybuilder.listtext.tmg import parse_tmg_text
from armybuilder.listtext.warcouncil import (
    WarCouncilList,
    WarCouncilUnit,
    encode_share_code,
    looks_like_share_code,
)
from armybuilder.pool import tmg_pool
from armybuilder.serializers import result_json
from armybuilder.tmg.from_text import build_tmg_draft
from armybuilder.tmg.rulesets import get_ruleset
from cards.models import Card, Faction


@pytest.fixture
def pool_cards(small_pool):
    """small_pool plus a solo unit and a Free Folk card a faction rule makes commander."""
    stark = Faction.objects.get(game="tmg", slug="stark")
    freefolk = Faction.objects.get(game="tmg", slug="freefolk")
    Card.objects.create(
        game="tmg",
        kind="unit",
        external_id="10204",
        faction=stark,
        name_en="Grey Wind",
        points=3,
        unit_type="monster",
        tray="solo",
    )
    Card.objects.create(
        game="tmg",
        kind="unit",
        external_id="10313",
        faction=freefolk,
        name_en="Mag the Mighty",
        points=8,
        unit_type="monster",
        tray="solo",
    )
    return {card.external_id: card for card in Card.objects.filter(game="tmg")}


@pytest.fixture
def stark(pool_cards):
    return Faction.objects.get(game="tmg", slug="stark")


@pytest.fixture
def army(stark):
    return services.create_list(faction=stark, points_limit=30, name="Wolves")


def build(army_list, cards, *units, ncus=()):
    """units: (unit id, [attachment ids]) pairs; returns the unit entries."""
    hosts = []
    for unit_id, attachment_ids in units:
        host = services.add_unit(army_list=army_list, card=cards[unit_id])
        for attachment_id in attachment_ids:
            services.add_attachment(army_list=army_list, card=cards[attachment_id], host=host)
        hosts.append(host)
    for ncu_id in ncus:
        services.add_ncu(army_list=army_list, card=cards[ncu_id])
    return hosts


def codes(report):
    return [finding["code"] for finding in report["findings"]]


# --- create / settings ---------------------------------------------------------------------------


def test_create_list_stores_the_settings(stark):
    army_list = services.create_list(faction=stark, points_limit=35, name="  North  ")
    assert (army_list.points_limit, army_list.ruleset, army_list.name) == (35, "rules-1.5", "North")
    assert army_list.visibility == Visibility.PRIVATE and army_list.owner is None


def test_create_list_gives_the_list_to_a_logged_in_owner(stark):
    user = User.objects.create_user("ned")
    assert services.create_list(faction=stark, owner=user).owner == user


def test_create_list_rejects_a_tactics_faction(pool_cards):
    tactics_faction = Faction.objects.get(game="tactics", slug="baratheon")
    with pytest.raises(ValidationError) as caught:
        services.create_list(faction=tactics_faction)
    assert caught.value.code == "faction"


@pytest.mark.parametrize("points", [0, 1000, "forty", None])
def test_create_list_rejects_a_bad_game_size(stark, points):
    with pytest.raises(ValidationError) as caught:
        services.create_list(faction=stark, points_limit=points)
    assert caught.value.code == "points"


def test_create_list_rejects_an_unknown_ruleset(stark):
    with pytest.raises(ValidationError) as caught:
        services.create_list(faction=stark, ruleset="rules-9.9")
    assert caught.value.code == "ruleset"


def test_update_settings_changes_only_the_given_fields(army):
    services.update_settings(army_list=army, points_limit=50)
    army.refresh_from_db()
    assert (army.points_limit, army.name, army.faction.slug) == (50, "Wolves", "stark")


def test_update_settings_rejects_a_too_long_name(army):
    with pytest.raises(ValidationError) as caught:
        services.update_settings(army_list=army, name="x" * 121)
    assert caught.value.code == "name"


def test_validation_messages_are_in_the_active_language(stark):
    from django.utils import translation

    with translation.override("fr"), pytest.raises(ValidationError) as caught:
        services.create_list(faction=stark, points_limit=0)
    assert "points" in caught.value.messages[0] and "taille" in caught.value.messages[0]


def test_set_visibility_turns_the_share_link_on(army):
    services.set_visibility(army_list=army, visibility="link")
    assert ArmyList.objects.get(pk=army.pk).visibility == Visibility.LINK


def test_set_visibility_rejects_an_unknown_value(army):
    with pytest.raises(ValidationError):
        services.set_visibility(army_list=army, visibility="public")


# --- entries -------------------------------------------------------------------------------------


def test_add_unit_appends_entries_in_order(army, pool_cards):
    build(army, pool_cards, ("10201", []), ("10203", []))
    assert [e.card.external_id for e in army.entries.all()] == ["10201", "10203"]


def test_add_unit_rejects_an_attachment_card(army, pool_cards):
    with pytest.raises(ValidationError) as caught:
        services.add_unit(army_list=army, card=pool_cards["20201"])
    assert caught.value.code == "wrong_role"


def test_add_unit_rejects_a_card_of_the_other_game(army, pool_cards):
    warband_card = Card.objects.get(game="tactics", external_id="tac-guardians")
    with pytest.raises(ValidationError) as caught:
        services.add_unit(army_list=army, card=warband_card)
    assert caught.value.code == "wrong_role"


def test_add_ncu_rejects_a_combat_unit(army, pool_cards):
    with pytest.raises(ValidationError):
        services.add_ncu(army_list=army, card=pool_cards["10201"])


def test_add_attachment_puts_it_on_its_host(army, pool_cards):
    (host,) = build(army, pool_cards, ("10201", ["20201"]))
    assert [c.card.external_id for c in host.children.all()] == ["20201"]


def test_add_attachment_rejects_a_host_from_another_list(army, stark, pool_cards):
    other = services.create_list(faction=stark)
    (foreign_host,) = build(other, pool_cards, ("10201", []))
    with pytest.raises(ValidationError) as caught:
        services.add_attachment(army_list=army, card=pool_cards["20201"], host=foreign_host)
    assert caught.value.code == "foreign_entry"


def test_add_attachment_rejects_an_ncu_as_host(army, pool_cards):
    ncu = services.add_ncu(army_list=army, card=pool_cards["30201"])
    with pytest.raises(ValidationError) as caught:
        services.add_attachment(army_list=army, card=pool_cards["20201"], host=ncu)
    assert caught.value.code == "wrong_role"


def test_a_list_holds_a_bounded_number_of_cards(army, pool_cards, monkeypatch):
    monkeypatch.setattr(services, "MAX_ENTRIES", 2)
    build(army, pool_cards, ("10201", []), ("10203", []))
    with pytest.raises(ValidationError) as caught:
        services.add_unit(army_list=army, card=pool_cards["10201"])
    assert caught.value.code == "too_many"


def test_remove_entry_takes_a_units_attachments_with_it(army, pool_cards):
    (host,) = build(army, pool_cards, ("10201", ["20201"]), ncus=["30201"])
    services.remove_entry(army_list=army, entry=host)
    assert [e.card.external_id for e in army.entries.all()] == ["30201"]


def test_remove_entry_rejects_an_entry_of_another_list(army, stark, pool_cards):
    other = services.create_list(faction=stark)
    (foreign,) = build(other, pool_cards, ("10201", []))
    with pytest.raises(ValidationError):
        services.remove_entry(army_list=army, entry=foreign)
    assert ListEntry.objects.filter(pk=foreign.pk).exists()


def test_move_attachment_changes_its_host(army, pool_cards):
    first, second = build(army, pool_cards, ("10201", ["20201"]), ("10201", []))
    attachment = first.children.get()
    services.move_attachment(army_list=army, entry=attachment, host=second)
    assert ListEntry.objects.get(pk=attachment.pk).parent == second


def test_move_attachment_rejects_a_combat_unit_as_the_moved_entry(army, pool_cards):
    first, second = build(army, pool_cards, ("10201", []), ("10201", []))
    with pytest.raises(ValidationError) as caught:
        services.move_attachment(army_list=army, entry=first, host=second)
    assert caught.value.code == "wrong_role"


def test_set_chosen_commander_marks_a_faction_rule_commander(pool_cards):
    freefolk = Faction.objects.get(game="tmg", slug="freefolk")
    army_list = services.create_list(faction=freefolk)
    (mag,) = build(army_list, pool_cards, ("10313", []))
    services.set_chosen_commander(army_list=army_list, entry=mag)
    report = result_json(selectors.list_report(army_list))
    assert "COMMANDER_MISSING" not in codes(report)
    assert report["entries"][0]["commander"] is True


def test_set_chosen_commander_rejects_a_card_no_rule_allows(army, pool_cards):
    (unit,) = build(army, pool_cards, ("10201", []))
    with pytest.raises(ValidationError) as caught:
        services.set_chosen_commander(army_list=army, entry=unit)
    assert caught.value.code == "not_a_commander_choice"


def test_set_chosen_commander_none_clears_the_choice(pool_cards):
    freefolk = Faction.objects.get(game="tmg", slug="freefolk")
    army_list = services.create_list(faction=freefolk)
    (mag,) = build(army_list, pool_cards, ("10313", []))
    services.set_chosen_commander(army_list=army_list, entry=mag)
    services.set_chosen_commander(army_list=army_list, entry=None)
    assert not army_list.entries.filter(chosen_commander=True).exists()


# --- duplicate / claim ---------------------------------------------------------------------------


def test_duplicate_list_copies_entries_and_hosts(army, pool_cards):
    build(army, pool_cards, ("10201", ["20201"]), ncus=["30201"])
    copy = services.duplicate_list(army_list=army)
    original = selectors.draft_for_list(army)
    assert selectors.draft_for_list(copy) == replace(original, name="Wolves (copy)")


def test_duplicate_list_is_private_with_its_own_share_token(army):
    services.set_visibility(army_list=army, visibility="link")
    copy = services.duplicate_list(army_list=army)
    assert copy.visibility == Visibility.PRIVATE and copy.share_token != army.share_token


def test_claim_list_gives_an_anonymous_list_to_the_user(army):
    user = User.objects.create_user("arya")
    services.claim_list(army_list=army, user=user)
    assert ArmyList.objects.get(pk=army.pk).owner == user


def test_claim_list_refuses_someone_elses_list(army):
    services.claim_list(army_list=army, user=User.objects.create_user("sansa"))
    with pytest.raises(ValidationError) as caught:
        services.claim_list(army_list=army, user=User.objects.create_user("joffrey"))
    assert caught.value.code == "foreign_list"


def test_claim_list_needs_a_logged_in_user(army):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ValidationError) as caught:
        services.claim_list(army_list=army, user=AnonymousUser())
    assert caught.value.code == "login_required"


# --- import ---------------------------------------------------------------------------------------

PASTED = """Faction: Stark
Points: 30
• Stark Sworn Swords
  • Robb Stark - The Wolf Lord (C)
• Stark Riders of Nowhere
Non-Combat Units:
• Catelyn Stark
"""


def test_import_list_text_stores_units_hosts_and_ncus(pool_cards):
    result = services.import_list_text(text=PASTED)
    entries = list(result.army_list.entries.all())
    assert [(e.card.external_id, e.role) for e in entries] == [
        ("10201", "unit"),
        ("20201", "attachment"),
        ("30201", "ncu"),
    ]
    assert entries[1].parent == entries[0]


def test_import_list_text_reports_lines_it_cannot_read(pool_cards):
    result = services.import_list_text(text=PASTED)
    assert [p.code for p in result.problems] == ["CARD_UNKNOWN"]
    assert "Riders of Nowhere" in result.problems[0].message.en


@pytest.mark.parametrize("text", ["", "   ", "hello there"])
def test_import_list_text_rejects_text_that_is_no_list(pool_cards, text):
    with pytest.raises(ValidationError):
        services.import_list_text(text=text)


def test_import_share_code_stores_the_codes_cards(pool_cards):
    code = encode_share_code(
        WarCouncilList(
            name="Code",
            faction="stark",
            points=40,
            units=(WarCouncilUnit("10201", ("20201",)),),
            ncu_ids=("30201",),
        )
    )
    result = services.import_share_code(code=code)
    assert result.problems == ()
    assert result.army_list.name == "Code" and result.army_list.points_limit == 40
    assert result_json(selectors.list_report(result.army_list))["legal"] is True


def test_import_share_code_reports_unknown_card_ids(pool_cards):
    code = encode_share_code(
        WarCouncilList(faction="stark", points=30, units=(WarCouncilUnit("19999", ()),))
    )
    result = services.import_share_code(code=code)
    assert [p.entries for p in result.problems] == [("id-19999",)]


def test_import_share_code_rejects_garbage(pool_cards):
    with pytest.raises(ValidationError) as caught:
        services.import_share_code(code="!!not-a-code!!")
    assert caught.value.code == "bad_share_code"


def test_looks_like_share_code_tells_codes_from_text():
    assert looks_like_share_code("EgVXb2x2ZXMYAiAoKAE=")
    assert not looks_like_share_code(PASTED)


# --- selectors: access ---------------------------------------------------------------------------


def test_owner_may_view_a_private_list(army):
    user = User.objects.create_user("jon")
    services.claim_list(army_list=army, user=user)
    assert selectors.get_list_for_viewer(list_id=army.pk, user=user) == army


def test_the_creating_session_may_view_an_anonymous_list(army):
    assert selectors.get_list_for_viewer(list_id=army.pk, session_list_ids=[army.pk]) == army


def test_a_stranger_may_not_view_a_private_list(army):
    assert selectors.get_list_for_viewer(list_id=army.pk, token=army.share_token) is None


def test_the_share_token_opens_a_list_shared_by_link(army):
    services.set_visibility(army_list=army, visibility="link")
    assert selectors.get_list_for_viewer(token=str(army.share_token)) == army


def test_a_claimed_list_is_no_longer_the_sessions(army):
    services.claim_list(army_list=army, user=User.objects.create_user("bran"))
    assert not selectors.can_edit(army, user=None, session_list_ids=[army.pk])


# --- selectors: draft and report -----------------------------------------------------------------


def test_draft_from_entries_equals_the_draft_from_the_canonical_text(army, pool_cards):
    build(army, pool_cards, ("10201", ["20201"]), ("10203", []), ncus=["30201"])
    pool = tmg_pool()
    text = selectors.list_text(army)
    from_text = build_tmg_draft(
        parse_tmg_text(text), index=pool.index, factions=pool.faction_aliases, ruleset=get_ruleset()
    ).draft
    assert selectors.draft_for_list(army) == from_text


def test_draft_keeps_a_chosen_commander_through_the_text(pool_cards):
    freefolk = Faction.objects.get(game="tmg", slug="freefolk")
    army_list = services.create_list(faction=freefolk)
    (mag,) = build(army_list, pool_cards, ("10313", []))
    services.set_chosen_commander(army_list=army_list, entry=mag)
    pool = tmg_pool()
    parsed = parse_tmg_text(selectors.list_text(army_list), factions=pool.faction_aliases)
    from_text = build_tmg_draft(
        parsed, index=pool.index, factions=pool.faction_aliases, ruleset=get_ruleset()
    ).draft
    assert selectors.draft_for_list(army_list) == from_text


def test_list_report_has_the_shape_and_values_of_check_tmg_text(army, pool_cards):
    build(army, pool_cards, ("10201", ["20201"]), ("10203", []), ncus=["30201"])
    report = result_json(selectors.list_report(army))
    checked = result_json(check_tmg_text(report["text"]))
    assert report.keys() == checked.keys()
    for key in report:
        if key not in ("entries", "lines"):  # a saved list has no pasted lines
            assert report[key] == checked[key], key
    # What only reading text adds: the line, how the card was chosen, the printed cost.
    read_only = {"line", "how", "alternatives", "printed_cost"}
    strip = [{k: v for k, v in e.items() if k not in read_only} for e in checked["entries"]]
    assert [{k: v for k, v in e.items() if k not in read_only} for e in report["entries"]] == strip


def test_list_report_recomputes_legality_from_current_card_data(army, pool_cards):
    build(army, pool_cards, ("10201", ["20201"]))
    assert result_json(selectors.list_report(army))["legal"] is True
    card = Card.objects.get(external_id="10201", game="tmg")
    card.points = 31
    card.save()  # as an importer does: updated_at moves, the card pool reloads
    assert codes(result_json(selectors.list_report(army))) == ["POINTS_OVER_LIMIT"]


def test_list_report_in_french(army, pool_cards):
    build(army, pool_cards, ("10201", []))
    report = result_json(selectors.list_report(army, lang="fr"))
    assert report["entries"][0]["name"] == "Épées Liges Stark"
    assert report["findings"][0]["message"] == "l'armée n'a pas de Général (commandant)"


# --- selectors: host options ---------------------------------------------------------------------


def reasons_by_unit(options):
    return {option.host.card.external_id: [r["code"] for r in option.reasons] for option in options}


def test_host_options_allow_a_matching_free_unit(army, pool_cards):
    build(army, pool_cards, ("10201", []))
    (option,) = selectors.host_options(army, pool_cards["20201"])
    assert option.allowed and option.reasons == ()
    assert option.resolves == ("COMMANDER_MISSING",)


def test_host_options_explain_a_type_mismatch(army, pool_cards):
    build(army, pool_cards, ("10203", []))
    assert reasons_by_unit(selectors.host_options(army, pool_cards["20201"])) == {
        "10203": ["ATTACHMENT_TYPE_MISMATCH"]
    }


def test_host_options_explain_a_solo_unit(army, pool_cards):
    build(army, pool_cards, ("10204", []))
    assert reasons_by_unit(selectors.host_options(army, pool_cards["20202"])) == {
        "10204": ["ATTACHMENT_ON_SOLO"]
    }


def test_host_options_explain_a_full_unit(army, pool_cards):
    build(army, pool_cards, ("10201", ["20202"]), ("10201", []))
    captain = Card.objects.create(
        game="tmg",
        kind="attachment",
        external_id="20299",
        faction=pool_cards["10201"].faction,
        name_en="Test Captain",
        points=1,
        unit_type="infantry",
    )
    full, free = selectors.host_options(army, captain)
    assert [r["code"] for r in full.reasons] == ["ATTACHMENT_LIMIT"] and not full.allowed
    assert free.allowed


def test_host_options_show_list_wide_problems_as_side_effects(army, pool_cards):
    services.update_settings(army_list=army, points_limit=6)
    build(army, pool_cards, ("10201", []))
    (option,) = selectors.host_options(army, pool_cards["20202"])
    assert option.allowed
    assert [f["code"] for f in option.side_effects] == ["POINTS_OVER_LIMIT"]


def test_host_options_for_a_move_ignore_the_moved_attachment(army, pool_cards):
    first, _second = build(army, pool_cards, ("10201", ["20201"]), ("10201", []))
    moving = first.children.get()
    options = selectors.host_options(army, moving.card, moving=moving)
    assert [(o.allowed, o.current) for o in options] == [(True, True), (True, False)]


def test_host_options_are_empty_for_a_card_that_is_no_attachment(army, pool_cards):
    build(army, pool_cards, ("10201", []))
    assert selectors.host_options(army, pool_cards["10203"]) == []


def test_host_options_explain_a_unit_that_is_already_over_full(army, pool_cards):
    build(army, pool_cards, ("10201", ["20201", "20202"]))
    (option,) = selectors.host_options(army, pool_cards["20202"])
    assert "ATTACHMENT_LIMIT" in [r["code"] for r in option.reasons] and not option.allowed


def test_host_options_treat_a_duplicate_character_as_a_side_effect(army, pool_cards):
    build(army, pool_cards, ("10201", ["20201"]), ("10201", []))
    full, free = selectors.host_options(army, pool_cards["20202"])
    assert free.allowed and [f["code"] for f in free.side_effects] == ["CHARACTER_DUPLICATE"]
    assert [r["code"] for r in full.reasons] == ["ATTACHMENT_LIMIT"]
