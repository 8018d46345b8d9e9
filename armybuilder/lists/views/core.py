"""What every builder page shares, whatever the list's game.

Every change is a POST that returns the builder panel (htmx swaps it) or redirects back to
the builder (plain forms without JavaScript). Bad input answers 400 with the panel and a
message; a list the visitor may not see answers 404.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from armybuilder.checking import CheckError, CheckOptions, Pools, check_list_text
from armybuilder.result import CheckResult
from armybuilder.serializers import result_json
from cards.models import Card, CardSet
from cards.query import QuerySyntaxError, search_cards
from common.i18n import current_language

from .. import selectors, sharing, versions
from ..forms import GameSettingsForm
from ..games import GameAdapter, for_game
from ..models import ArmyList, ListEntry
from ..visitors import viewer

PICKER_LIMIT = 40
MAX_QUERY = 500


# --- who is asking -----------------------------------------------------------------------------


def editable(request: HttpRequest, list_id: int, *, game: str | None = None) -> ArmyList:
    """A list this visitor may edit, of `game` (None: any game), else 404."""
    army_list = selectors.get_list_for_editor(list_id=list_id, **viewer(request))
    if army_list is None or (game is not None and army_list.game != game):
        raise Http404(_("No list of yours has this number."))
    return army_list


def viewable(request: HttpRequest, list_id: int, token: str | None = None) -> ArmyList:
    army_list = selectors.get_list_for_viewer(list_id=list_id, token=token, **viewer(request))
    if army_list is None:
        raise Http404(_("No list you may see has this number."))
    return army_list


# --- reading the input -------------------------------------------------------------------------


def message(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def valid(form: Form) -> dict:
    if not form.is_valid():
        raise ValidationError(_("This request is missing a value or has a wrong one."), "invalid")
    return form.cleaned_data


def entry_of(army_list: ArmyList, entry_id) -> ListEntry:
    entry = selectors.entry_of_list(army_list, entry_id)
    if entry is None:
        raise ValidationError(_("That entry is not part of this list."), "foreign_entry")
    return entry


def card_of(card_id) -> Card:
    card = selectors.card_by_pk(card_id)
    if card is None:
        raise ValidationError(_("No card has this number."), "unknown_card")
    return card


def search_query(request: HttpRequest) -> str:
    return request.GET.get("q", "")[:MAX_QUERY]


# --- the builder -------------------------------------------------------------------------------


def picker_context(game: GameAdapter, army_list: ArmyList, q: str) -> dict:
    """The cards the list's game lets it take, found by the query language."""
    try:
        found = search_cards(q, queryset=game.pickable(army_list))
    except QuerySyntaxError as exc:
        return {"q": q, "error": exc.message_in(current_language()), "results": [], "count": 0}
    results = list(found[: PICKER_LIMIT + 1])
    return {
        "q": q,
        "error": None,
        "results": results[:PICKER_LIMIT],
        "more": len(results) > PICKER_LIMIT,
        "limit": PICKER_LIMIT,
    }


def chooser_context(
    game: GameAdapter, army_list: ArmyList, *, card_id: str | None, move_id: str | None
) -> dict | None:
    """Where a card that joins another may go: every candidate, the illegal ones disabled
    with the validator's reasons. None when the request names no card to place."""
    chooser = game.chooser
    if move_id:
        moving = selectors.entry_of_list(army_list, move_id)
        if moving is None or moving.role != chooser.role:
            raise ValidationError(chooser.not_in_list, "foreign_entry")
        card = moving.card
    elif card_id:
        moving = None
        card = selectors.card_by_pk(card_id)
        if card is None or card.game != game.slug or card.kind != chooser.kind:
            raise ValidationError(chooser.wrong_card, "wrong_role")
    else:
        return None
    options = chooser.options(army_list, card, moving=moving, lang=current_language())
    allowed = [o for o in options if o.allowed]
    default = next((o for o in allowed if o.current), allowed[0] if allowed else None)
    return {
        "card": card,
        "moving": moving,
        "options": options,
        "default": default.entry.pk if default else None,
        "field": chooser.field,
        "action": reverse(chooser.move_url if moving else chooser.add_url, args=[army_list.pk]),
    }


def settings_form_for(
    game: GameAdapter, army_list: ArmyList, data=None, *, user=None
) -> GameSettingsForm:
    form_class = game.settings_form
    return form_class(data, initial=form_class.initial_for(army_list), prefix="settings", user=user)


def share_context(request: HttpRequest, army_list: ArmyList) -> dict:
    """The share link, its short form (printed with a QR code) and whether it works."""
    return {
        "share_url": request.build_absolute_uri(
            reverse("lists:shared", args=[army_list.share_token])
        ),
        "short_url": request.build_absolute_uri(sharing.short_path(army_list)),
        "is_shared": sharing.is_shared(army_list),
    }


def builder_context(
    request: HttpRequest,
    army_list: ArmyList,
    *,
    error: str = "",
    chooser: dict | None = None,
    q: str = "",
    settings_form: GameSettingsForm | None = None,
    reading: selectors.Reading | None = None,
) -> dict:
    game = for_game(army_list.game)
    return {
        "reading": reading,
        "game": game,
        "army_list": army_list,
        "state": game.state(army_list, lang=current_language()),
        "settings_form": settings_form or settings_form_for(game, army_list, user=request.user),
        "chooser": chooser,
        "error": error,
        "picker": picker_context(game, army_list, q),
        **share_context(request, army_list),
        "editable": True,
        "card_data": versions.card_versions(army_list),
        **game.context(army_list),
    }


def builder_response(
    request: HttpRequest, army_list: ArmyList, *, status: int = 200, **kwargs
) -> HttpResponse:
    """The whole builder page, or for htmx only its panel."""
    context = builder_context(request, army_list, **kwargs)
    # A partial answer also refreshes the sticky status bar outside the panel (out of band).
    context["oob_status"] = bool(request.htmx)
    templates = context["game"].templates
    template = templates["panel"] if request.htmx else templates["edit"]
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def change(
    request: HttpRequest,
    list_id: int,
    perform: Callable[[ArmyList], object],
    *,
    game: str | None,
) -> HttpResponse:
    """Run one change on a list of `game` (None: any game); answer with the panel (htmx) or
    a redirect, or 400 with the reason."""
    army_list = editable(request, list_id, game=game)
    try:
        perform(army_list)
    except ValidationError as exc:
        return builder_response(request, army_list, status=400, error=message(exc))
    army_list.refresh_from_db()
    if request.htmx:
        return builder_response(request, army_list)
    return redirect("lists:edit", army_list.pk)


# --- reading -----------------------------------------------------------------------------------


def read_context(request: HttpRequest, army_list: ArmyList, *, token: str | None) -> dict:
    """The view, share and print pages of a list."""
    game = for_game(army_list.game)
    return {
        "game": game,
        "army_list": army_list,
        "state": game.state(army_list, lang=current_language()),
        "token": token,
        "editable": selectors.can_edit(army_list, **viewer(request)),
        "card_data": versions.card_versions(army_list),
        "query": ("?" + urlencode({"t": token})) if token else "",
        **share_context(request, army_list),
        **game.context(army_list),
    }


# --- a pasted text, read line by line ------------------------------------------------------------

# The text a list was just imported from, kept for the one page the import redirects to.
IMPORTED = "lists.imported_text"


def check_pasted(text: str, card_sets: Sequence[CardSet] = ()) -> dict:
    """A pasted list checked as the API and the CLI check it, in the reader's language: the
    result, its contracts §3 JSON (`report`) and its line-by-line `reading`. A Tactics
    warband is read against the shipped cards and `card_sets`."""
    lang = current_language()
    pools = Pools(card_sets=card_sets)
    try:
        result: CheckResult = check_list_text(text, CheckOptions(lang=lang), pools=pools)
    except CheckError:
        return {}
    report = result_json(result, lang=lang)
    return {
        "result": result,
        "report": report,
        "result_state": {"report": report},  # what lists/_findings.html reads
        "reading": selectors.reading_of(result, lang=lang, pool=pools.get(result.game)),
    }


def keep_imported_text(request: HttpRequest, army_list: ArmyList, text: str) -> None:
    request.session[IMPORTED] = {"list": army_list.pk, "text": text}


def imported_reading(request: HttpRequest, army_list: ArmyList) -> selectors.Reading | None:
    """How the text `army_list` was just imported from was read, once: the page the import
    redirects to shows it, later visits do not."""
    kept = request.session.get(IMPORTED)
    if not isinstance(kept, dict) or kept.get("list") != army_list.pk:
        return None
    del request.session[IMPORTED]
    text = kept.get("text")
    if not isinstance(text, str):
        return None
    return check_pasted(text, list(army_list.card_sets.all())).get("reading")
