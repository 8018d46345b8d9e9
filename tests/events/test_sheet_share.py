"""A saved list's PDF sheet carries the fingerprint of its latest event submission beside
its QR code (issue 17)."""

import pytest

from armybuilder.lists import services as list_services
from events import services
from exports.documents.army_list import share_block
from tests.events.lists import LEGAL

pytestmark = pytest.mark.django_db


def test_shared_list_sheet_carries_its_event_fingerprint(event, alice):
    saved = list_services.import_list_text(text=LEGAL, owner=alice).army_list
    list_services.set_visibility(army_list=saved, visibility="link")
    player = services.join_event(event=event, user=alice)
    stored = services.submit_list(event=event, player=player, actor=alice, saved_list=saved)
    block = share_block({"list_id": saved.pk, "site": "http://citadel.test"})
    assert (block["event"], block["fingerprint"]) == ("Winter Cup", stored.fingerprint)


def test_shared_list_never_submitted_has_no_fingerprint(cards, alice):
    saved = list_services.import_list_text(text=LEGAL, owner=alice).army_list
    list_services.set_visibility(army_list=saved, visibility="link")
    assert share_block({"list_id": saved.pk, "site": "http://citadel.test"})["fingerprint"] == ""


def test_print_page_of_a_shared_submitted_list_shows_its_fingerprint(client, event, alice):
    saved = list_services.import_list_text(text=LEGAL, owner=alice).army_list
    list_services.set_visibility(army_list=saved, visibility="link")
    player = services.join_event(event=event, user=alice)
    stored = services.submit_list(event=event, player=player, actor=alice, saved_list=saved)
    client.force_login(alice)
    body = client.get(f"/lists/{saved.pk}/print/").content.decode()
    assert stored.fingerprint in body and "Winter Cup" in body
