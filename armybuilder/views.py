from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from cards import selectors as card_selectors
from cards.models import Game
from cards.query import QuerySyntaxError, search_cards
from common.i18n import current_language
from common.redirects import safe_next
from rules import selectors as rules_selectors

from .health import healthy, run_checks

HOME_GAMES = (Game.TMG, Game.TACTICS)
SEARCH_CARDS = 12  # cards shown on the site search page (the card browser has them all)
SEARCH_SECTIONS = 12  # rules sections likewise (the rules search has more)
MAX_SEARCH = 200


def home(request: HttpRequest) -> HttpResponse:
    counts = card_selectors.card_counts_by_game()
    labels = dict(Game.choices)
    games = [
        {"code": code, "label": labels[code], "count": counts.get(code, 0)}
        for code in Game.values
        if code in HOME_GAMES or counts.get(code)
    ]
    return render(
        request,
        "home.html",
        {"games": games, "stats": counts, "shelves": rules_selectors.books_by_game()},
    )


def site_search(request: HttpRequest) -> HttpResponse:
    """One box for cards and rules: the card query language over every card, and the rules
    search over every book, side by side (each links to its own page for more)."""
    from rules.search import search_sections

    query = request.GET.get("q", "").strip()[:MAX_SEARCH]
    cards, card_count, card_error = [], 0, ""
    hits = []
    if query:
        try:
            found = search_cards(query, queryset=card_selectors.cards_for_listing())
            cards = list(found[:SEARCH_CARDS])
            card_count = found.count() if len(cards) == SEARCH_CARDS else len(cards)
        except QuerySyntaxError as exc:
            card_error = exc.message_in(current_language())
        hits = search_sections(query, limit=SEARCH_SECTIONS)
    return render(
        request,
        "search.html",
        {
            "query": query,
            "cards": cards,
            "card_count": card_count,
            "card_error": card_error,
            "hits": hits,
        },
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the static icon."""
    return redirect(static("favicon.svg"), permanent=True)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request) or "home")
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request)})


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """{"status": "ok"|"fail", "checks": {name: {"status", "detail"}}}: 503 when a service
    the site uses is down (armybuilder.health)."""
    checks = run_checks()
    ok = healthy(checks)
    body = {
        "status": "ok" if ok else "fail",
        "checks": {c.name: {"status": c.status, "detail": c.detail} for c in checks},
    }
    return JsonResponse(body, status=200 if ok else 503)
