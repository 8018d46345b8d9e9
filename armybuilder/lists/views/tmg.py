"""The builder endpoints only TMG lists have: adding units, non-combat units and
attachments, moving an attachment to another unit, choosing a commander."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.models import Game

from .. import services
from ..forms import AddEntryForm, CommanderForm, MoveForm
from ..models import ArmyList, EntryRole
from .core import card_of, change, entry_of, valid


@require_POST
def add_entry(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = valid(AddEntryForm(request.POST))
        card = card_of(data["card"])
        if data["role"] == EntryRole.UNIT:
            services.add_unit(army_list=army_list, card=card)
        elif data["role"] == EntryRole.NCU:
            services.add_ncu(army_list=army_list, card=card)
        else:
            if not data.get("host"):
                raise ValidationError(_("Choose the combat unit it joins."), "host_missing")
            host = entry_of(army_list, data["host"])
            services.add_attachment(army_list=army_list, card=card, host=host)

    return change(request, list_id, perform, game=Game.TMG)


@require_POST
def move_entry(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = valid(MoveForm(request.POST))
        services.move_attachment(
            army_list=army_list,
            entry=entry_of(army_list, data["entry"]),
            host=entry_of(army_list, data["host"]),
        )

    return change(request, list_id, perform, game=Game.TMG)


@require_POST
def set_commander(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = valid(CommanderForm(request.POST))
        entry = entry_of(army_list, data["entry"]) if data.get("entry") else None
        services.set_chosen_commander(army_list=army_list, entry=entry)

    return change(request, list_id, perform, game=Game.TMG)
