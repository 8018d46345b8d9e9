"""The builder pages. Thin: read the request, call a selector or a service, render.

Every change is a POST that returns the builder panel (htmx swaps it) or redirects back to
the builder (plain forms without JavaScript). Bad input answers 400 with the panel and a
message; a list the visitor may not see answers 404.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armybuilder.checking import detect_game
from armybuilder.listtext.warcouncil import looks_like_share_code
from armybuilder.tmg.rulesets import DEFAULT_RULESET, get_ruleset
from cards.models import CardKind, Game
from cards.query import QuerySyntaxError, search_cards
from cards.templatetags.citadel import current_lang

from . import selectors, services, tactics_selectors, tactics_services, tactics_views
from .forms import (
    PRESET_SIZES,
    AddEntryForm,
    CommanderForm,
    EntryForm,
    ImportForm,
    ListSettingsForm,
    MoveForm,
    VisibilityForm,
)
from .models import ArmyList, EntryRole, Visibility

SESSION_KEY = "citadel_lists"
MAX_SESSION_LISTS = 50
PICKER_LIMIT = 40


# --- who is asking -----------------------------------------------------------------------------


def _session_ids(request: HttpRequest) -> list[int]:
    ids = request.session.get(SESSION_KEY, [])
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def _remember(request: HttpRequest, army_list: ArmyList) -> None:
    """An anonymous visitor's lists are theirs through their session until they save them."""
    if army_list.owner_id is not None:
        return
    ids = [i for i in _session_ids(request) if i != army_list.pk]
    request.session[SESSION_KEY] = [*ids, army_list.pk][-MAX_SESSION_LISTS:]


def _viewer(request: HttpRequest) -> dict:
    return {"user": request.user, "session_list_ids": _session_ids(request)}


def _editable(request: HttpRequest, list_id: int, game: str | None = Game.TMG) -> ArmyList:
    """A list this visitor may edit, of `game` (None: either game), else 404."""
    army_list = selectors.get_list_for_editor(list_id=list_id, **_viewer(request))
    if army_list is None or (game is not None and army_list.game != game):
        raise Http404(_("No list of yours has this number."))
    return army_list


def _viewable(
    request: HttpRequest, list_id: int, token: str | None = None, game: str | None = None
) -> ArmyList:
    army_list = selectors.get_list_for_viewer(list_id=list_id, token=token, **_viewer(request))
    if army_list is None or (game is not None and army_list.game != game):
        raise Http404(_("No list you may see has this number."))
    return army_list


def _owner(request: HttpRequest):
    return request.user if request.user.is_authenticated else None


def _message(exc: ValidationError) -> str:
    return " ".join(exc.messages)


# --- the builder -------------------------------------------------------------------------------


def _picker(army_list: ArmyList, q: str) -> dict:
    """Cards of the list's faction and Neutral a TMG list can take, found by the query language."""
    lang = current_lang()
    try:
        found = search_cards(q, queryset=selectors.pickable_cards(army_list))
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


def _chooser(army_list: ArmyList, *, attach: str | None, move: str | None) -> dict | None:
    """The host chooser: every combat unit, the illegal ones disabled with their reasons."""
    lang = current_lang()
    if move:
        entry = selectors.entry_of_list(army_list, move)
        if entry is None or entry.role != EntryRole.ATTACHMENT:
            raise ValidationError(_("That attachment is not part of this list."), "foreign_entry")
        card = entry.card
    elif attach:
        entry = None
        card = selectors.card_by_pk(attach)
        if card is None or card.game != Game.TMG or card.kind != CardKind.ATTACHMENT:
            raise ValidationError(_("That card is not a TMG attachment."), "wrong_role")
    else:
        return None
    options = selectors.host_options(army_list, card, moving=entry, lang=lang)
    allowed = [o for o in options if o.allowed]
    default = next((o for o in allowed if o.current), allowed[0] if allowed else None)
    return {
        "card": card,
        "moving": entry,
        "options": options,
        "default": default.host.pk if default else None,
    }


def _settings_form(army_list: ArmyList, data=None) -> ListSettingsForm:
    return ListSettingsForm(
        data,
        initial={
            "name": army_list.name,
            "faction": army_list.faction.slug,
            "points_limit": army_list.points_limit,
            "ruleset": army_list.ruleset or DEFAULT_RULESET,
        },
        prefix="settings",
    )


def _builder_context(
    request: HttpRequest,
    army_list: ArmyList,
    *,
    error: str = "",
    chooser: dict | None = None,
    q: str = "",
    settings_form: ListSettingsForm | None = None,
) -> dict:
    lang = current_lang()
    return {
        "army_list": army_list,
        "state": selectors.list_state(army_list, lang=lang),
        "ruleset": _ruleset(army_list),
        "settings_form": settings_form or _settings_form(army_list),
        "presets": PRESET_SIZES,
        "chooser": chooser,
        "error": error,
        "picker": _picker(army_list, q),
        "share_url": request.build_absolute_uri(
            reverse("lists:shared", args=[army_list.share_token])
        ),
        "is_shared": army_list.visibility == Visibility.LINK,
        "editable": True,
    }


def _ruleset(army_list: ArmyList):
    try:
        return get_ruleset(army_list.ruleset or None)
    except LookupError:
        return get_ruleset()


def _builder_response(
    request: HttpRequest, army_list: ArmyList, *, status: int = 200, **kwargs
) -> HttpResponse:
    if army_list.game == Game.TACTICS:
        return tactics_views.builder_response(request, army_list, status=status, **kwargs)
    context = _builder_context(request, army_list, **kwargs)
    # A partial answer also refreshes the sticky status bar outside the panel (out of band).
    context["oob_status"] = bool(request.htmx)
    template = "lists/_panel.html" if request.htmx else "lists/edit.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_GET
def edit(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _editable(request, list_id, game=None)
    if army_list.game == Game.TACTICS:
        return tactics_views.edit(request, army_list)
    q = request.GET.get("q", "")[:500]
    try:
        chooser = _chooser(
            army_list, attach=request.GET.get("attach"), move=request.GET.get("move")
        )
    except ValidationError as exc:
        return _builder_response(request, army_list, status=400, error=_message(exc), q=q)
    return _builder_response(request, army_list, chooser=chooser, q=q)


@require_GET
def picker(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _editable(request, list_id, game=None)
    if army_list.game == Game.TACTICS:
        return tactics_views.picker(request, army_list)
    q = request.GET.get("q", "")[:500]
    if not request.htmx:
        return redirect(reverse("lists:edit", args=[army_list.pk]) + "?" + urlencode({"q": q}))
    response = render(
        request,
        "lists/_picker_results.html",
        {"army_list": army_list, "picker": _picker(army_list, q), "editable": True},
    )
    patch_vary_headers(response, ("HX-Request",))
    return response


def _change(
    request: HttpRequest, list_id: int, perform, game: str | None = Game.TMG
) -> HttpResponse:
    """Run one change; answer with the panel (htmx) or a redirect, or 400 with the reason."""
    army_list = _editable(request, list_id, game=game)
    try:
        perform(army_list)
    except ValidationError as exc:
        return _builder_response(request, army_list, status=400, error=_message(exc))
    army_list.refresh_from_db()
    if request.htmx:
        return _builder_response(request, army_list)
    return redirect("lists:edit", army_list.pk)


def _valid(form) -> dict:
    if not form.is_valid():
        raise ValidationError(_("This request is missing a value or has a wrong one."), "invalid")
    return form.cleaned_data


def _entry(army_list: ArmyList, entry_id) -> object:
    entry = selectors.entry_of_list(army_list, entry_id)
    if entry is None:
        raise ValidationError(_("That entry is not part of this list."), "foreign_entry")
    return entry


@require_POST
def add_entry(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(AddEntryForm(request.POST))
        card = selectors.card_by_pk(data["card"])
        if card is None:
            raise ValidationError(_("No card has this number."), "unknown_card")
        if data["role"] == EntryRole.UNIT:
            services.add_unit(army_list=army_list, card=card)
        elif data["role"] == EntryRole.NCU:
            services.add_ncu(army_list=army_list, card=card)
        else:
            if not data.get("host"):
                raise ValidationError(_("Choose the combat unit it joins."), "host_missing")
            host = _entry(army_list, data["host"])
            services.add_attachment(army_list=army_list, card=card, host=host)

    return _change(request, list_id, perform)


@require_POST
def remove_entry(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(EntryForm(request.POST))
        services.remove_entry(army_list=army_list, entry=_entry(army_list, data["entry"]))

    return _change(request, list_id, perform)


@require_POST
def move_entry(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(MoveForm(request.POST))
        services.move_attachment(
            army_list=army_list,
            entry=_entry(army_list, data["entry"]),
            host=_entry(army_list, data["host"]),
        )

    return _change(request, list_id, perform)


@require_POST
def set_commander(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(CommanderForm(request.POST))
        entry = _entry(army_list, data["entry"]) if data.get("entry") else None
        services.set_chosen_commander(army_list=army_list, entry=entry)

    return _change(request, list_id, perform)


@require_POST
def update_settings(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _editable(request, list_id)
    form = _settings_form(army_list, request.POST)
    if not form.is_valid():
        return _builder_response(
            request,
            army_list,
            status=400,
            error=_("Check the list settings."),
            settings_form=form,
        )
    data = form.cleaned_data

    def perform(army_list: ArmyList) -> None:
        services.update_settings(
            army_list=army_list,
            faction=form.faction_object(),
            points_limit=data["points_limit"],
            ruleset=data["ruleset"],
            name=data["name"],
        )

    return _change(request, list_id, perform)


@require_POST
def set_visibility(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = _valid(VisibilityForm(request.POST))
        services.set_visibility(army_list=army_list, visibility=data["visibility"])

    return _change(request, list_id, perform, game=None)


# --- lists: new, import, mine, save, duplicate, delete -----------------------------------------


@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest) -> HttpResponse:
    """Choose the game (TMG or Tactics), then the faction and the game size."""
    game = request.POST.get("game") or request.GET.get("game") or Game.TMG
    if game == Game.TACTICS:
        return _new_warband(request)
    form = ListSettingsForm(request.POST or None, initial={"ruleset": DEFAULT_RULESET})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                army_list = services.create_list(
                    faction=form.faction_object(),
                    points_limit=data["points_limit"],
                    ruleset=data["ruleset"],
                    name=data["name"],
                    owner=_owner(request),
                )
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                _remember(request, army_list)
                return redirect("lists:edit", army_list.pk)
        status = 400
    return render(
        request,
        "lists/new.html",
        {
            "form": form,
            "presets": PRESET_SIZES,
            "game": Game.TMG,
            "unsaved": selectors.lists_for_session(_session_ids(request)),
        },
        status=status,
    )


def _new_warband(request: HttpRequest) -> HttpResponse:
    form, army_list = tactics_views.create(request)
    if army_list is not None:
        _remember(request, army_list)
        return redirect("lists:edit", army_list.pk)
    return render(
        request,
        "lists/tactics_new.html",
        {
            "form": form,
            "game": Game.TACTICS,
            "unsaved": selectors.lists_for_session(_session_ids(request)),
        },
        status=400 if request.method == "POST" else 200,
    )


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return redirect("lists:mine" if request.user.is_authenticated else "lists:new")


@login_required
@require_GET
def my_lists(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "lists/mine.html",
        {
            "lists": selectors.lists_for_user(request.user),
            "unsaved": selectors.lists_for_session(_session_ids(request)),
        },
    )


@require_http_methods(["GET", "POST"])
def import_list(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            text = form.cleaned_data["text"]
            try:
                if detect_game(text) == Game.TACTICS:
                    result = tactics_services.import_warband_text(text=text, owner=_owner(request))
                elif looks_like_share_code(text):
                    result = services.import_share_code(code=text, owner=_owner(request))
                else:
                    result = services.import_list_text(text=text, owner=_owner(request))
            except ValidationError as exc:
                form.add_error("text", exc)
            else:
                _remember(request, result.army_list)
                _report_problems(request, result.problems)
                return redirect("lists:edit", result.army_list.pk)
        status = 400
    return render(request, "lists/import.html", {"form": form}, status=status)


def _report_problems(request: HttpRequest, problems, shown: int = 20) -> None:
    """What an import could not read, once per distinct problem, as warnings."""
    lang = current_lang()
    texts = []
    for problem in problems:
        fix = problem.fix.in_language(lang) if problem.fix else ""
        text = problem.message.in_language(lang) + (f" — {fix}" if fix else "")
        if text not in texts:
            texts.append(text)
    for text in texts[:shown]:
        messages.warning(request, _("Not imported: %(problem)s") % {"problem": text})
    if len(texts) > shown:
        messages.warning(
            request,
            _("%(count)d more lines were not imported.") % {"count": len(texts) - shown},
        )


@require_http_methods(["GET", "POST"])
def save_list(request: HttpRequest, list_id: int) -> HttpResponse:
    """Keep a list in "my lists". Anonymous visitors log in or sign up first, then come back
    here (the session that built the list survives the login) and the list is claimed."""
    army_list = _editable(request, list_id, game=None)
    if not request.user.is_authenticated:
        next_url = reverse("lists:save", args=[army_list.pk])
        return render(
            request,
            "lists/save.html",
            {
                "army_list": army_list,
                "title": army_list.display_name(current_lang()),
                "login_url": reverse("login") + "?" + urlencode({"next": next_url}),
                "signup_url": reverse("signup") + "?" + urlencode({"next": next_url}),
            },
        )
    try:
        services.claim_list(army_list=army_list, user=request.user)
    except ValidationError as exc:  # pragma: no cover - _editable already refused
        raise Http404(_message(exc)) from exc
    messages.success(request, _("The list is saved in your lists."))
    return redirect("lists:edit", army_list.pk)


@require_POST
def duplicate(request: HttpRequest, list_id: int) -> HttpResponse:
    original = _viewable(request, list_id, request.POST.get("token"))
    copy = services.duplicate_list(army_list=original, owner=_owner(request))
    _remember(request, copy)
    messages.success(request, _("This is your copy: change it as you like."))
    return redirect("lists:edit", copy.pk)


@require_POST
def delete(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _editable(request, list_id, game=None)
    services.delete_list(army_list=army_list)
    messages.success(request, _("The list was deleted."))
    return redirect("lists:index")


# --- reading: view, share, export, print -------------------------------------------------------


def _read_context(request: HttpRequest, army_list: ArmyList, *, token: str | None) -> dict:
    if army_list.game == Game.TACTICS:
        return tactics_views.read_context(request, army_list, token=token)
    return {
        "army_list": army_list,
        "state": selectors.list_state(army_list, lang=current_lang()),
        "ruleset": _ruleset(army_list),
        "token": token,
        "editable": selectors.can_edit(army_list, **_viewer(request)),
        "query": ("?" + urlencode({"t": token})) if token else "",
    }


@require_GET
def detail(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _viewable(request, list_id)
    return render(
        request, _template(army_list, "detail"), _read_context(request, army_list, token=None)
    )


def _template(army_list: ArmyList, name: str) -> str:
    prefix = "tactics_" if army_list.game == Game.TACTICS else ""
    return f"lists/{prefix}{name}.html"


@require_GET
def shared(request: HttpRequest, token) -> HttpResponse:
    army_list = selectors.get_list_for_viewer(token=token)
    if army_list is None:
        raise Http404(_("This share link is not valid, or the list is no longer shared."))
    context = _read_context(request, army_list, token=str(army_list.share_token))
    context["shared_view"] = True
    return render(request, _template(army_list, "detail"), context)


def _lang(request: HttpRequest) -> str:
    asked = request.GET.get("lang", "")
    if asked in ("en", "fr"):
        return asked
    return current_lang()


@require_GET
def export_text(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = _viewable(request, list_id, request.GET.get("t"))
    if army_list.game == Game.TACTICS:
        text = tactics_selectors.warband_text(army_list, lang=_lang(request))
    else:
        text = selectors.list_text(army_list, lang=_lang(request))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="citadel-list-{army_list.pk}.txt"'
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_GET
def print_list(request: HttpRequest, list_id: int) -> HttpResponse:
    token = request.GET.get("t")
    army_list = _viewable(request, list_id, token)
    return render(
        request, _template(army_list, "print"), _read_context(request, army_list, token=token)
    )
