"""The card-set pages (thin: forms read the input, services write, selectors read).

Another user's private set, or a hidden one, answers 404 on every page (never 403), so
its existence is not revealed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Card, CardSet, Game, SetVisibility

from . import selectors, services
from .document import export_set_document, import_set_document, parse_document
from .forms import CardSetForm, ImportForm, OverrideForm, ScenarioForm, SetCardForm
from .services import CardSetError


def _viewable(request: HttpRequest, slug: str) -> CardSet:
    card_set = selectors.viewable_set(slug, request.user, token=request.GET.get("token"))
    if card_set is None:
        raise Http404(_("No such card set."))
    return card_set


def _editable(request: HttpRequest, slug: str) -> CardSet:
    card_set = selectors.editable_set(slug, request.user)
    if card_set is None:
        raise Http404(_("No such card set."))
    return card_set


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "card_sets/index.html",
        {
            "mine": selectors.sets_of(request.user),
            "published": selectors.published_sets_of_others(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    form = CardSetForm(request.POST or None, initial={"visibility": SetVisibility.PRIVATE})
    if request.method == "POST" and form.is_valid():
        try:
            card_set = services.create_card_set(owner=request.user, **form.cleaned_data)
        except CardSetError as exc:
            form.add_error(None, exc)
        else:
            return redirect("card_sets:detail", card_set.slug)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "card_sets/form.html", {"form": form, "title": _("New card set")}, status=status
    )


@require_GET
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    return _detail_page(request, _viewable(request, slug))


def _detail_page(
    request: HttpRequest, card_set: CardSet, *, refusal: str = "", status: int = 200
) -> HttpResponse:
    """The set's page; `refusal` is why a change to it was refused, shown at the top (the
    page answers with the refusal's status, so nothing looks like it worked)."""
    is_owner = request.user.is_authenticated and card_set.owner_id == request.user.pk
    context = {
        "card_set": card_set,
        "cards": selectors.set_cards(card_set),
        "scenarios": card_set.scenarios.order_by("slug"),
        "overrides": selectors.set_overrides(card_set),
        "is_owner": is_owner,
        "token": request.GET.get("token", ""),
        "share_url": request.build_absolute_uri(
            reverse("card_sets:detail", args=[card_set.slug]) + f"?token={card_set.share_token}"
        ),
        "override_form": OverrideForm() if is_owner else None,
        "visibilities": SetVisibility.choices,
        "refusal": refusal,
    }
    return render(request, "card_sets/detail.html", context, status=status)


def _changed(
    request: HttpRequest, card_set: CardSet, change: Callable[[], object], *, refused_status: int
) -> HttpResponse:
    """Make `change` to the set, then back to its page; refused, the page again with the
    reason at the top and `refused_status`."""
    try:
        change()
    except CardSetError as exc:
        return _detail_page(request, card_set, refusal=exc.messages[0], status=refused_status)
    return redirect("card_sets:detail", card_set.slug)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    card_set = _editable(request, slug)
    form = CardSetForm(request.POST or None, initial=CardSetForm.initial_for(card_set))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_card_set(card_set=card_set, **form.cleaned_data)
        except CardSetError as exc:
            form.add_error(None, exc)
        else:
            return redirect("card_sets:detail", card_set.slug)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "card_set": card_set, "title": _("Edit the card set")}
    return render(request, "card_sets/form.html", context, status=status)


@login_required
@require_POST
def visibility(request: HttpRequest, slug: str) -> HttpResponse:
    card_set = _editable(request, slug)
    visibility = request.POST.get("visibility", "")
    change = partial(services.set_visibility, card_set=card_set, visibility=visibility)
    return _changed(request, card_set, change, refused_status=400)


@login_required
@require_http_methods(["GET", "POST"])
def card_form(request: HttpRequest, slug: str, card_id: int | None = None) -> HttpResponse:
    card_set = _editable(request, slug)
    card = None
    if card_id is not None:
        card = Card.objects.filter(pk=card_id, card_set=card_set).first()
        if card is None:
            raise Http404(_("No such card."))
    initial = SetCardForm.initial_for(card) if card else {"kind": "hero"}
    form = SetCardForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.save_set_card(card_set=card_set, value=form.value(), card=card)
        except CardSetError as exc:
            form.add_error(None, exc)
        else:
            return redirect("cards:detail", Game.TACTICS, saved.external_id)
    status = 400 if request.method == "POST" else 200
    title = _("Edit the card") if card else _("Add a card")
    context = {"form": form, "card_set": card_set, "card": card, "title": title}
    return render(request, "card_sets/card_form.html", context, status=status)


@login_required
@require_POST
def card_delete(request: HttpRequest, slug: str, card_id: int) -> HttpResponse:
    card_set = _editable(request, slug)
    card = Card.objects.filter(pk=card_id, card_set=card_set).first()
    if card is None:
        raise Http404(_("No such card."))
    change = partial(services.delete_set_card, card_set=card_set, card=card)
    return _changed(request, card_set, change, refused_status=409)


@login_required
@require_http_methods(["GET", "POST"])
def import_document(request: HttpRequest, slug: str) -> HttpResponse:
    card_set = _editable(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        try:
            document = parse_document(form.document_text())
            result = import_set_document(card_set=card_set, document=document)
        except CardSetError as exc:
            form.add_error(None, exc.messages[0])
    status = 400 if request.method == "POST" and result is None else 200
    context = {"form": form, "card_set": card_set, "result": result}
    return render(request, "card_sets/import.html", context, status=status)


@require_GET
def export_document(request: HttpRequest, slug: str) -> HttpResponse:
    card_set = _viewable(request, slug)
    response = JsonResponse(
        export_set_document(card_set), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="{card_set.slug}.json"'
    return response


@login_required
@require_POST
def override(request: HttpRequest, slug: str) -> HttpResponse:
    card_set = _editable(request, slug)
    form = OverrideForm(request.POST)
    if not form.is_valid():
        return HttpResponse(
            json.dumps(form.errors.get_json_data()), status=400, content_type="application/json"
        )
    card = Card.objects.get(game=Game.TACTICS, external_id=form.cleaned_data["card"])
    change = partial(
        services.set_cost_override,
        card_set=card_set,
        card=card,
        gold=form.cleaned_data["gold"],
        silver=form.cleaned_data["silver"],
        copper=form.cleaned_data["copper"],
    )
    return _changed(request, card_set, change, refused_status=400)


@login_required
@require_http_methods(["GET", "POST"])
def scenario_form(request: HttpRequest, slug: str) -> HttpResponse:
    card_set = _editable(request, slug)
    form = ScenarioForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_set_scenarios(card_set=card_set, values=[form.value()])
        except CardSetError as exc:
            form.add_error(None, exc)
        else:
            return redirect("card_sets:detail", card_set.slug)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "card_set": card_set, "title": _("Add a scenario")}
    return render(request, "card_sets/form.html", context, status=status)
