"""The builder endpoints only Tactics warbands have: recruiting figures, buying or giving
equipment, switching a character between its mounted and foot versions, and the page
where a player ticks the Tactics cards they own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from cards.models import Game
from common.i18n import current_language

from .. import tactics_selectors, tactics_services
from ..forms import AddFigureForm, CollectionForm, EntryForm, EquipForm
from ..models import ArmyList
from .core import card_of, change, entry_of, valid


@require_POST
def add_figure(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = valid(AddFigureForm(request.POST))
        tactics_services.add_figure(
            army_list=army_list, card=card_of(data["card"]), copies=data.get("copies") or 1
        )

    return change(request, list_id, perform, game=Game.TACTICS)


@require_POST
def equip(request: HttpRequest, list_id: int) -> HttpResponse:
    """Buy an item for a figure (`card`, `holder`) or give an item to another (`entry`)."""

    def perform(army_list: ArmyList) -> None:
        data = valid(EquipForm(request.POST))
        if not data.get("holder"):
            raise ValidationError(_("Choose the figure that carries it."), "holder_missing")
        holder = entry_of(army_list, data["holder"])
        if data.get("entry"):
            entry = entry_of(army_list, data["entry"])
            tactics_services.move_equipment(army_list=army_list, entry=entry, holder=holder)
        elif data.get("card"):
            tactics_services.assign_equipment(
                army_list=army_list, card=card_of(data["card"]), holder=holder
            )
        else:
            raise ValidationError(_("This request is missing a value or has a wrong one."))

    return change(request, list_id, perform, game=Game.TACTICS)


@require_POST
def switch(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = valid(EntryForm(request.POST))
        entry = entry_of(army_list, data["entry"])
        tactics_services.switch_version(army_list=army_list, entry=entry)

    return change(request, list_id, perform, game=Game.TACTICS)


@login_required
@require_http_methods(["GET", "POST"])
def collection(request: HttpRequest) -> HttpResponse:
    """Tick the Tactics cards you own: TW-06 then only suggests cards you could field."""
    cards = list(tactics_selectors.collection_cards())
    status = 200
    if request.method == "POST":
        form = CollectionForm(request.POST, card_ids=[c.pk for c in cards])
        if form.is_valid():
            chosen = set(form.cleaned_data["cards"])
            tactics_services.set_collection(
                owner=request.user, cards=[c for c in cards if c.pk in chosen]
            )
            messages.success(request, _("Your collection is saved."))
            return redirect("lists:collection")
        status = 400
        messages.error(request, _("This request is missing a value or has a wrong one."))
    owned = tactics_selectors.collection_card_ids(request.user)
    groups: dict[str, list] = {}
    lang = current_language()
    for card in cards:
        label = card.faction.name(lang) if card.faction else _("Equipment")
        groups.setdefault(label, []).append(card)
    return render(
        request,
        "lists/tactics/collection.html",
        {"groups": groups, "owned": owned, "has_collection": bool(owned)},
        status=status,
    )
