"""Card pages: the browser, one card, the query help and the scenarios."""

import re
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from common.i18n import current_language, pick

from . import selectors
from .card_sets import selectors as set_selectors
from .forms import CardBrowseForm
from .models import FIGURE_KINDS, CardKind, Game
from .presentation import attack_rows, requirement_lines, version_history
from .query import QuerySyntaxError, parse, search_cards
from .query.fields import DIRECTIVE, lookup
from .query.lexer import T, tokenize
from .rule_links import rule_links

PAGE_SIZE = 30

# The sortable result columns: (query-language sort key, header label).
SORT_COLUMNS = (
    ("name", _("Name")),
    ("faction", _("Faction")),
    ("kind", _("Kind")),
    ("cost", _("Cost")),
)


# --- the browser -----------------------------------------------------------------------------


def current_sort(q: str) -> tuple[str | None, str]:
    """The sort key and direction a (valid) query asks for."""
    query = parse(q)
    return query.sort, query.direction


def query_with_sort(q: str, key: str, direction: str) -> str:
    """The query with its `sort:`/`dir:` directives replaced by the given ones."""
    directives = [
        token
        for token in tokenize(q)
        if token.type is T.FIELD and (spec := lookup(token.key)) and spec.kind == DIRECTIVE
    ]
    rest = q
    for token in reversed(directives):
        rest = rest[: token.position] + " " + rest[token.position + token.length :]
    rest = re.sub(r"\s{2,}", " ", rest).strip()
    candidate = f"{rest} sort:{key} dir:{direction}".strip()
    try:
        parse(candidate)
    except QuerySyntaxError:  # removing a directive broke the query, e.g. "(sort:cost)"
        candidate = f"{q} sort:{key} dir:{direction}".strip()
    return candidate


def _browse_url(params: dict[str, str], **changes: str) -> str:
    merged = {**params, **changes}
    return "?" + urlencode({k: v for k, v in merged.items() if v})


def _sort_headers(q: str, params: dict[str, str]) -> list[dict]:
    active_key, active_dir = current_sort(q)
    headers = []
    for key, label in SORT_COLUMNS:
        active = key == active_key
        next_dir = "desc" if active and active_dir == "asc" else "asc"
        headers.append(
            {
                "key": key,
                "label": label,
                "active": active,
                "direction": active_dir if active else "",
                "url": _browse_url(params, q=query_with_sort(q, key, next_dir), page=""),
            }
        )
    return headers


def _syntax_error(q: str, exc: QuerySyntaxError, lang: str) -> dict:
    message = exc.message_in(lang)
    position = min(max(int(exc.position or 0), 0), len(q))
    length = max(int(exc.length or 1), 1)
    return {
        "message": message,
        "position": position,
        "before": q[:position],
        "marked": q[position : position + length],
        "after": q[position + length :],
        "caret": " " * position + "^" * length,
    }


@require_GET
def browse(request: HttpRequest) -> HttpResponse:
    lang = current_language()
    form = CardBrowseForm(
        request.GET,
        factions=[
            (slug, pick(lang, name_en, name_fr))
            for slug, name_en, name_fr in selectors.faction_choices()
        ],
    )
    form.is_valid()
    q = form.value("q").strip()
    params = {name: form.value(name) for name in ("q", "game", "faction", "kind")}
    params["q"] = q
    base = selectors.filter_cards(
        set_selectors.visible_cards(selectors.cards_for_listing(), request.user),
        game=params["game"],
        faction=params["faction"],
        kind=params["kind"],
    )
    page, error = None, None
    try:
        results = search_cards(q, queryset=base)
        page = Paginator(results, PAGE_SIZE).get_page(request.GET.get("page"))
    except QuerySyntaxError as exc:
        error = _syntax_error(q, exc, lang)

    context = {
        "form": form,
        "q": q,
        "page": page,
        "error": error,
        "headers": _sort_headers(q, params) if error is None else [],
        "page_urls": _page_urls(page, params) if page else {},
    }
    partial = request.htmx and not request.htmx.history_restore_request
    template = "cards/_results.html" if partial else "cards/browse.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _page_urls(page, params: dict[str, str]) -> dict[str, str]:
    urls = {}
    if page.has_previous():
        urls["first"] = _browse_url(params, page="")
        urls["previous"] = _browse_url(params, page=str(page.previous_page_number()))
    if page.has_next():
        urls["next"] = _browse_url(params, page=str(page.next_page_number()))
        urls["last"] = _browse_url(params, page=str(page.paginator.num_pages))
    return urls


# --- one card --------------------------------------------------------------------------------


@require_GET
def detail(request: HttpRequest, game: str, external_id: str) -> HttpResponse:
    if game not in Game.values:
        raise Http404(_("Unknown game."))
    card = selectors.card_by_external_id(game, external_id)
    if card is None or (
        card.card_set is not None
        and not set_selectors.may_see(card.card_set, request.user, token=request.GET.get("token"))
    ):
        raise Http404(_("No such card."))
    lang = current_language()
    others = selectors.cards_sharing_characters(card)
    kind_labels = dict(CardKind.choices)
    links = rule_links(card, lang=lang)
    context = {
        "card": card,
        "lang": lang,
        "is_tmg": card.game == Game.TMG,
        "is_figure": card.game == Game.TACTICS and card.kind in FIGURE_KINDS,
        "abilities": [
            (link.ability, links.abilities.get(link.ability.id))
            for link in card.card_abilities.all()
        ],
        "rules_mentioned": links.mentioned,
        "attacks": attack_rows(card, lang),
        "requirements": requirement_lines(card, lang),
        "versions": version_history(card, lang),
        "other_cards": others,
        "counterparts": selectors.mounted_counterparts(card, others),
        "tactics_cards": list(card.commander_tactics.all()),
        "fielded_by": selectors.factions_that_may_field(card),
        "carriers": [kind_labels.get(kind, kind) for kind in card.carriers or []],
        "bilingual": [
            (label, en, fr)
            for label, en, fr in (
                (_("Name"), card.name_en, card.name_fr),
                (_("Title"), card.title_en, card.title_fr),
                (_("Trigger"), card.trigger_en, card.trigger_fr),
                (_("Text"), card.text_en, card.text_fr),
            )
            if en or fr
        ],
    }
    return render(request, "cards/detail.html", context)


# --- help and scenarios ----------------------------------------------------------------------


@require_GET
def query_help(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/query_help.html", {})


@require_GET
def scenarios(request: HttpRequest) -> HttpResponse:
    groups = selectors.scenarios_grouped(request.user)
    return render(request, "cards/scenarios.html", {"groups": groups})
