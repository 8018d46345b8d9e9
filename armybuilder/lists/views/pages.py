"""The pages every game's lists have, written once: the builder, its picker, the changes
both games make (settings, removing an entry, sharing), new / import / my lists / save /
duplicate / delete, and reading (view, share link, text export, print). Each dispatches
through the list's `GameAdapter`, never on the game's name."""

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
from common.i18n import CARD_LANGUAGES, current_language
from common.redirects import safe_next

from .. import selectors, services, sharing, versions
from ..forms import EntryForm, ImportForm, VisibilityForm
from ..games import for_game
from ..models import ArmyList
from ..visitors import owner, remember, session_list_ids
from .core import (
    builder_response,
    change,
    check_pasted,
    chooser_context,
    editable,
    entry_of,
    imported_reading,
    keep_imported_text,
    message,
    picker_context,
    read_context,
    search_query,
    settings_form_for,
    valid,
    viewable,
)

# --- the builder -------------------------------------------------------------------------------


@require_GET
def edit(request: HttpRequest, list_id: int) -> HttpResponse:
    """The builder; `?attach=` / `?equip=` (a card) or `?move=` (an entry) opens the chooser
    of where that card goes."""
    army_list = editable(request, list_id)
    game = for_game(army_list.game)
    q = search_query(request)
    try:
        chooser = chooser_context(
            game,
            army_list,
            card_id=request.GET.get(game.chooser.param),
            move_id=request.GET.get("move"),
        )
    except ValidationError as exc:
        return builder_response(request, army_list, status=400, error=message(exc), q=q)
    reading = None if request.htmx else imported_reading(request, army_list)
    return builder_response(request, army_list, chooser=chooser, q=q, reading=reading)


@require_GET
def picker(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = editable(request, list_id)
    game = for_game(army_list.game)
    q = search_query(request)
    if not request.htmx:
        return redirect(reverse("lists:edit", args=[army_list.pk]) + "?" + urlencode({"q": q}))
    response = render(
        request,
        game.templates["picker_results"],
        {
            "game": game,
            "army_list": army_list,
            "picker": picker_context(game, army_list, q),
            "editable": True,
        },
    )
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_POST
def update_settings(request: HttpRequest, list_id: int, game: str) -> HttpResponse:
    """The settings of a list of `game` (each game posts to its own URL)."""
    army_list = editable(request, list_id, game=game)
    adapter = for_game(game)
    form = settings_form_for(adapter, army_list, request.POST, user=request.user)
    if not form.is_valid():
        return builder_response(
            request,
            army_list,
            status=400,
            error=str(form.invalid_message),
            settings_form=form,
        )

    def perform(army_list: ArmyList) -> None:
        adapter.update(army_list=army_list, **form.settings())

    return change(request, list_id, perform, game=game)


@require_POST
def remove_entry(request: HttpRequest, list_id: int, game: str) -> HttpResponse:
    """Remove an entry of a list of `game` (each game posts to its own URL)."""

    def perform(army_list: ArmyList) -> None:
        data = valid(EntryForm(request.POST))
        services.remove_entry(army_list=army_list, entry=entry_of(army_list, data["entry"]))

    return change(request, list_id, perform, game=game)


@require_http_methods(["GET", "POST"])
def update_cards(request: HttpRequest, list_id: int) -> HttpResponse:
    """What updating the list to the current card data changes (GET), and the update (POST)."""
    army_list = editable(request, list_id)
    if request.method == "POST":
        moved = services.update_to_current_cards(army_list=army_list)
        if moved:
            messages.success(request, _("The list now uses the current card data."))
        return redirect("lists:detail", army_list.pk)
    return render(
        request,
        "lists/update_cards.html",
        {
            "army_list": army_list,
            "game": for_game(army_list.game),
            "update": versions.card_update(army_list, lang=current_language()),
        },
    )


@require_POST
def set_visibility(request: HttpRequest, list_id: int) -> HttpResponse:
    def perform(army_list: ArmyList) -> None:
        data = valid(VisibilityForm(request.POST))
        services.set_visibility(army_list=army_list, visibility=data["visibility"])

    response = change(request, list_id, perform, game=None)
    # The view and print pages ask to share from their own page and come back to it.
    back = safe_next(request)
    if response.status_code == 302 and back:
        return redirect(back)
    return response


# --- lists: new, import, mine, save, duplicate, delete -----------------------------------------


@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest) -> HttpResponse:
    """Choose the game (TMG or Tactics), then the faction and the game size."""
    game = for_game(request.POST.get("game") or request.GET.get("game"))
    posted = request.method == "POST"
    form_class = game.settings_form
    form = form_class(
        request.POST if posted else None, initial=form_class.initial_new(), user=request.user
    )
    if posted and form.is_valid():
        try:
            army_list = game.create(**form.settings(), owner=owner(request))
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            remember(request, army_list)
            return redirect("lists:edit", army_list.pk)
    return render(
        request,
        game.templates["new"],
        {
            "game": game,
            "form": form,
            "unsaved": selectors.lists_for_session(session_list_ids(request)),
        },
        status=400 if posted else 200,
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
            "unsaved": selectors.lists_for_session(session_list_ids(request)),
        },
    )


@require_http_methods(["GET", "POST"])
def import_list(request: HttpRequest) -> HttpResponse:
    """A pasted list of either game (a Tactics warband announces itself), or a War Council
    share code: checked only (`action=check`: the verdict, the findings and how each line
    was read), or imported into a new list (whose builder then shows how it was read)."""
    form = ImportForm(request.POST or None, user=request.user)
    context: dict = {"form": form}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            text, card_sets = form.cleaned_data["text"], form.cleaned_data["card_sets"]
            if request.POST.get("action") == "check":
                context.update(check_pasted(text, card_sets))
                return render(request, "lists/import.html", context)
            try:
                game = for_game(detect_game(text))
                result = game.import_text(text=text, owner=owner(request), card_sets=card_sets)
            except ValidationError as exc:
                form.add_error("text", exc)
                context["reading"] = check_pasted(text, card_sets).get("reading")  # to see why
            else:
                remember(request, result.army_list)
                keep_imported_text(request, result.army_list, text)
                _report_problems(request, result.problems)
                return redirect("lists:edit", result.army_list.pk)
        status = 400
    return render(request, "lists/import.html", context, status=status)


def _report_problems(request: HttpRequest, problems, shown: int = 20) -> None:
    """What an import could not read, once per distinct problem, as warnings."""
    lang = current_language()
    texts = []
    for problem in problems:
        fix = problem.fix.in_language(lang) if problem.fix else ""
        text = problem.message.in_language(lang) + (f" — {fix}" if fix else "")
        # An error is a line left out; a warning is an assumption the reader made.
        template = (
            _("Not imported: %(problem)s")
            if problem.severity == "error"
            else _("Read with an assumption: %(problem)s")
        )
        if (template, text) not in texts:
            texts.append((template, text))
    for template, text in texts[:shown]:
        messages.warning(request, template % {"problem": text})
    if len(texts) > shown:
        messages.warning(
            request,
            _("%(count)d more lines were not imported.") % {"count": len(texts) - shown},
        )


@require_http_methods(["GET", "POST"])
def save_list(request: HttpRequest, list_id: int) -> HttpResponse:
    """Keep a list in "my lists". Anonymous visitors log in or sign up first, then come back
    here (the session that built the list survives the login) and the list is claimed."""
    army_list = editable(request, list_id)
    if not request.user.is_authenticated:
        next_url = reverse("lists:save", args=[army_list.pk])
        return render(
            request,
            "lists/save.html",
            {
                "army_list": army_list,
                "title": army_list.display_name(current_language()),
                "login_url": reverse("login") + "?" + urlencode({"next": next_url}),
                "signup_url": reverse("signup") + "?" + urlencode({"next": next_url}),
            },
        )
    try:
        services.claim_list(army_list=army_list, user=request.user)
    except ValidationError as exc:  # pragma: no cover - editable already refused
        raise Http404(message(exc)) from exc
    messages.success(request, _("The list is saved in your lists."))
    return redirect("lists:edit", army_list.pk)


@require_POST
def duplicate(request: HttpRequest, list_id: int) -> HttpResponse:
    original = viewable(request, list_id, request.POST.get("token"))
    copy = services.duplicate_list(army_list=original, owner=owner(request))
    remember(request, copy)
    messages.success(request, _("This is your copy: change it as you like."))
    return redirect("lists:edit", copy.pk)


@require_POST
def delete(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = editable(request, list_id)
    services.delete_list(army_list=army_list)
    messages.success(request, _("The list was deleted."))
    return redirect("lists:index")


# --- reading: view, share, export, print -------------------------------------------------------


def _read(request: HttpRequest, army_list: ArmyList, page: str, *, token: str | None, **extra):
    context = read_context(request, army_list, token=token)
    return render(request, context["game"].templates[page], {**context, **extra})


@require_GET
def detail(request: HttpRequest, list_id: int) -> HttpResponse:
    return _read(request, viewable(request, list_id), "detail", token=None)


@require_GET
def shared(request: HttpRequest, token) -> HttpResponse:
    army_list = selectors.get_list_for_viewer(token=token)
    if army_list is None:
        raise Http404(_("This share link is not valid, or the list is no longer shared."))
    return _read(request, army_list, "detail", token=str(army_list.share_token), shared_view=True)


@require_GET
def short_share(request: HttpRequest, code: str) -> HttpResponse:
    """/s/<code>/: a printed sheet's short link, sent on to the list's share page."""
    token = sharing.token_from_code(code)
    if token is None or selectors.get_list_for_viewer(token=token) is None:
        raise Http404(_("This share link is not valid, or the list is no longer shared."))
    return redirect("lists:shared", token)


@require_GET
def print_list(request: HttpRequest, list_id: int) -> HttpResponse:
    token = request.GET.get("t")
    return _read(request, viewable(request, list_id, token), "print", token=token)


@require_GET
def export_text(request: HttpRequest, list_id: int) -> HttpResponse:
    army_list = viewable(request, list_id, request.GET.get("t"))
    asked = request.GET.get("lang", "")
    lang = asked if asked in CARD_LANGUAGES else current_language()
    text = for_game(army_list.game).text(army_list, lang=lang)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="citadel-list-{army_list.pk}.txt"'
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
