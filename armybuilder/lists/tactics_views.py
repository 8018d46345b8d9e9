"""The Tactics warband builder pages. Thin, like the TMG builder (views.py): read the
request, call a selector or a service, render the panel (htmx) or redirect (no JavaScript).
Bad input answers 400 with the panel and the reason; a warband the visitor may not see, 404.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from cards.models import CardKind, Game
from cards.query import QuerySyntaxError, search_cards
from cards.templatetags.citadel import current_lang

from . import selectors, tactics_selectors, tactics_services
from .forms import AddFigureForm, CollectionForm, EntryForm, EquipForm, TacticsSettingsForm
from .models import ArmyList, EntryRole, Visibility

PICKER_LIMIT = 40


def _views():
    from . import views  # the shared helpers (who is asking, 404s); views imports us lazily

    return views


# --- the builder -------------------------------------------------------------------------------


def picker_context(army_list: ArmyList, q: str) -> dict:
    """Figures of the warband's faction and Neutral, and equipment, found by the query
    language; cards without a known cost are listed but cannot be recruited."""
    lang = current_lang()
    try:
        found = search_cards(q, queryset=tactics_selectors.pickable_tactics_cards(army_list))
    except QuerySyntaxError as exc:
        message = (exc.message_fr if lang == "fr" else exc.message_en) or str(exc)
        return {"q": q, "error": message, "results": [], "count": 0}
    results = list(found[: PICKER_LIMIT + 1])
    return {
        "q": q,
        "error": None,
        "results": results[:PICKER_LIMIT],
        "more": len(results) > PICKER_LIMIT,
        "limit": PICKER_LIMIT,
    }


def _chooser(army_list: ArmyList, *, equip: str | None, move: str | None) -> dict | None:
    """The holder chooser: every figure, those that may not carry the item disabled with
    the validator's reasons."""
    if move:
        entry = selectors.entry_of_list(army_list, move)
        if entry is None or entry.role != EntryRole.EQUIPMENT:
            raise ValidationError(_("That equipment is not part of this warband."), "foreign_entry")
        card = entry.card
    elif equip:
        entry = None
        card = selectors.card_by_pk(equip)
        if card is None or card.game != Game.TACTICS or card.kind != CardKind.EQUIPMENT:
            raise ValidationError(_("That card is not Tactics equipment."), "wrong_role")
    else:
        return None
    options = tactics_selectors.holder_options(army_list, card, moving=entry, lang=current_lang())
    allowed = [o for o in options if o.allowed]
    default = next((o for o in allowed if o.current), allowed[0] if allowed else None)
    return {
        "card": card,
        "moving": entry,
        "options": options,
        "default": default.holder.pk if default else None,
    }


def _settings_form(army_list: ArmyList, data=None) -> TacticsSettingsForm:
    return TacticsSettingsForm(
        data, initial=TacticsSettingsForm.initial_for(army_list), prefix="settings"
    )


def builder_context(
    request: HttpRequest,
    army_list: ArmyList,
    *,
    error: str = "",
    chooser: dict | None = None,
    q: str = "",
    settings_form: TacticsSettingsForm | None = None,
) -> dict:
    return {
        "army_list": army_list,
        "state": tactics_selectors.warband_state(army_list, lang=current_lang()),
        "settings_form": settings_form or _settings_form(army_list),
        "chooser": chooser,
        "error": error,
        "picker": picker_context(army_list, q),
        "share_url": request.build_absolute_uri(
            reverse("lists:shared", args=[army_list.share_token])
        ),
        "is_shared": army_list.visibility == Visibility.LINK,
        "editable": True,
    }


def builder_response(
    request: HttpRequest, army_list: ArmyList, *, status: int = 200, **kwargs
) -> HttpResponse:
    context = builder_context(request, army_list, **kwargs)
    context["oob_status"] = bool(request.htmx)
    template = "lists/tactics_panel.html" if request.htmx else "lists/tactics_edit.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def edit(request: HttpRequest, army_list: ArmyList) -> HttpResponse:
    q = request.GET.get("q", "")[:500]
    try:
        chooser = _chooser(army_list, equip=request.GET.get("equip"), move=request.GET.get("move"))
    except ValidationError as exc:
        return builder_response(request, army_list, status=400, error=_message(exc), q=q)
    return builder_response(request, army_list, chooser=chooser, q=q)


def picker(request: HttpRequest, army_list: ArmyList) -> HttpResponse:
    q = request.GET.get("q", "")[:500]
    if not request.htmx:
        return redirect(reverse("lists:edit", args=[army_list.pk]) + "?" + urlencode({"q": q}))
    response = render(
        request,
        "lists/tactics_picker_results.html",
        {"army_list": army_list, "picker": picker_context(army_list, q), "editable": True},
    )
    patch_vary_headers(response, ("HX-Request",))
    return response


def _message(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _change(request: HttpRequest, list_id: int, perform) -> HttpResponse:
    army_list = _views()._editable(request, list_id, game=Game.TACTICS)
    try:
        perform(army_list)
    except ValidationError as exc:
        return builder_response(request, army_list, status=400, error=_message(exc))
    army_list.refresh_from_db()
    if request.htmx:
        return builder_response(request, army_list)
    return redirect("lists:edit", army_list.pk)


def _valid(form) -> dict:
    if not form.is_valid():
        raise ValidationError(_("This request is missing a value or has a wrong one."), "invalid")
    return form.cleaned_data


def _entry(army_list: ArmyList, entry_id):
    entry = selectors.entry_of_list(army_list, entry_id)
    if entry is None:
        raise ValidationError(_("That entry is not part of this list."), "foreign_entry")
    return entry


def _card(card_id):
    card = selectors.card_by_pk(card_id)
    if card is None:
        raise ValidationError(_("No card has this number."), "unknown_card")
    return card


@require_POST
def add_figure(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(AddFigureForm(request.POST))
        tactics_services.add_figure(
            army_list=army_list, card=_card(data["card"]), copies=data.get("copies") or 1
        )

    return _change(request, list_id, perform)


@require_POST
def equip(request: HttpRequest, list_id: int) -> HttpResponse:
    """Buy an item for a figure (`card`, `holder`) or give an item to another (`entry`)."""

    def perform(army_list: ArmyList) -> None:
        data = _valid(EquipForm(request.POST))
        if not data.get("holder"):
            raise ValidationError(_("Choose the figure that carries it."), "holder_missing")
        holder = _entry(army_list, data["holder"])
        if data.get("entry"):
            entry = _entry(army_list, data["entry"])
            tactics_services.move_equipment(army_list=army_list, entry=entry, holder=holder)
        elif data.get("card"):
            tactics_services.assign_equipment(
                army_list=army_list, card=_card(data["card"]), holder=holder
            )
        else:
            raise ValidationError(_("This request is missing a value or has a wrong one."))

    return _change(request, list_id, perform)


@require_POST
def remove(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(EntryForm(request.POST))
        tactics_services.remove_entry(army_list=army_list, entry=_entry(army_list, data["entry"]))

    return _change(request, list_id, perform)


@require_POST
def switch(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(EntryForm(request.POST))
        tactics_services.switch_version(army_list=army_list, entry=_entry(army_list, data["entry"]))

    return _change(request, list_id, perform)


@require_POST
def update_settings(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _views()._editable(request, list_id, game=Game.TACTICS)
    form = _settings_form(army_list, request.POST)
    if not form.is_valid():
        return builder_response(
            request,
            army_list,
            status=400,
            error=_("Check the warband settings."),
            settings_form=form,
        )
    data = form.cleaned_data

    def perform(army_list: ArmyList) -> None:
        tactics_services.update_warband(
            army_list=army_list,
            faction=form.faction_object(),
            scenario=data["scenario"],
            budget=data["budget"],
            name=data["name"],
        )

    return _change(request, list_id, perform)


def create(request: HttpRequest) -> tuple[TacticsSettingsForm, ArmyList | None]:
    """The Tactics half of /lists/new/: a form, and the new warband when it was created."""
    form = TacticsSettingsForm(
        request.POST if request.method == "POST" else None,
        initial={"size": _default_size()},
    )
    if request.method != "POST" or not form.is_valid():
        return form, None
    data = form.cleaned_data
    try:
        army_list = tactics_services.create_warband(
            faction=form.faction_object(),
            scenario=data["scenario"],
            budget=data["budget"],
            name=data["name"],
            owner=request.user if request.user.is_authenticated else None,
        )
    except ValidationError as exc:
        form.add_error(None, exc)
        return form, None
    return form, army_list


def _default_size() -> str:
    choices = [value for value, _label in TacticsSettingsForm().fields["size"].choices]
    for value in ("scenario:tac-standard", "standard"):
        if value in choices:
            return value
    return choices[0]


# --- reading ------------------------------------------------------------------------------------


def read_context(request: HttpRequest, army_list: ArmyList, *, token: str | None) -> dict:
    return {
        "army_list": army_list,
        "state": tactics_selectors.warband_state(army_list, lang=current_lang()),
        "token": token,
        "editable": selectors.can_edit(army_list, **_views()._viewer(request)),
        "query": ("?" + urlencode({"t": token})) if token else "",
    }


# --- the collection -----------------------------------------------------------------------------


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
    lang = current_lang()
    for card in cards:
        label = card.faction.name(lang) if card.faction else _("Equipment")
        groups.setdefault(label, []).append(card)
    return render(
        request,
        "lists/tactics_collection.html",
        {"groups": groups, "owned": owned, "has_collection": bool(owned)},
        status=status,
    )
