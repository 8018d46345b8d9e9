"""Read-only card API (contracts §4): search, one card, factions, scenarios."""

import hashlib
from collections.abc import Callable
from typing import NamedTuple

from django.core.cache import cache
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, serializers
from rest_framework.exceptions import APIException, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from common.i18n import CARD_LANGUAGES, current_language

from .. import selectors
from ..card_sets import selectors as set_selectors
from ..models import Card, Game
from ..query import QuerySyntaxError, search_cards
from .serializers import (
    CardDetailSerializer,
    CardSummarySerializer,
    FactionSerializer,
    ScenarioSerializer,
)

Q_PARAM = OpenApiParameter(
    "q",
    OpenApiTypes.STR,
    description=(
        "Card query, e.g. `faction:stark kind:attachment cost<=5 sort:cost dir:desc`; "
        "free words match names, titles, ability and character names (EN or FR). See /cards/help/."
    ),
)
LANG_PARAM = OpenApiParameter(
    "lang",
    OpenApiTypes.STR,
    enum=list(CARD_LANGUAGES),
    description="Language of error messages (default: the Accept-Language header, else en).",
)
GAME_PARAM = OpenApiParameter(
    "game", OpenApiTypes.STR, enum=list(Game.values), description="Only this game."
)
ErrorSerializer = inline_serializer(
    "Error", {"detail": serializers.CharField(), "code": serializers.CharField()}
)
QueryErrorSerializer = inline_serializer(
    "QuerySyntaxErrorResponse",
    {
        "detail": serializers.CharField(),
        "code": serializers.CharField(default="query_syntax"),
        "position": serializers.IntegerField(
            required=False, help_text="Where in q the error is (query syntax errors)."
        ),
        "length": serializers.IntegerField(required=False),
    },
)


SEARCH_CACHE_SECONDS = 300


def _search_cache_key(request) -> str:
    """The answer depends on the parameters, the card data and, for its next/previous
    links, the scheme and host it was asked on."""
    address = f"{selectors.card_data_version()} {request.scheme}://{request.get_host()}"
    if request.user.is_authenticated:  # their own private sets' cards are in their answers
        address += f" user:{request.user.pk}"
    digest = hashlib.sha256(f"{address}{request.get_full_path()}".encode()).hexdigest()
    return f"cards-api:search:{digest[:40]}"


def _visible(request, card: Card | None) -> Card:
    """The card, unless it belongs to a set the reader may not see (404 then)."""
    token = request.query_params.get("token")
    if card is None or (
        card.card_set is not None
        and not set_selectors.may_see(card.card_set, request.user, token=token)
    ):
        raise NotFound()
    return card


class InvalidGame(APIException):
    status_code = 400
    default_code = "invalid_game"
    default_detail = _("Unknown game: use one of tmg, tactics, agot, hotk.")


class AmbiguousSlug(Exception):
    """Several games use the slug: the answer is 300 Multiple Choices, one URL per game."""

    def __init__(self, rows: list):
        super().__init__("ambiguous slug")
        self.rows = rows


AMBIGUOUS_DETAIL = _("Several games use this slug: add ?game=… or use /<game>/<slug>/.")
ChoicesSerializer = inline_serializer(
    "MultipleChoices",
    {
        "detail": serializers.CharField(),
        "code": serializers.CharField(default="ambiguous_slug"),
        "choices": serializers.ListField(
            child=serializers.CharField(), help_text="The URL of each game's row."
        ),
    },
)


class InvalidLanguage(APIException):
    status_code = 400
    default_code = "invalid_lang"
    default_detail = _("Unknown lang: use en or fr.")


def request_lang(request) -> str:
    """`lang` parameter if valid, else the request's language (Accept-Language), else en."""
    lang = (request.query_params.get("lang") or "").strip().lower()
    if lang in CARD_LANGUAGES:
        return lang
    return current_language()


def check_lang_param(request) -> None:
    """A `lang` given must be one the schema lists (an empty one too)."""
    if "lang" in request.query_params and request.query_params["lang"] not in CARD_LANGUAGES:
        raise InvalidLanguage()


def game_param(request) -> str | None:
    """The `game` filter; given, it must be a game (an empty one is a 400 too)."""
    if "game" not in request.query_params:
        return None
    game = request.query_params["game"]
    if game not in Game.values:
        raise InvalidGame()
    return game


class CardListView(generics.ListAPIView):
    """Search cards with the query language; paginated (`page`, `page_size`).

    Answers are cached (SEARCH_CACHE_SECONDS) under the request's address and the card
    data's version: a search that many players run at once is computed once, and an
    import or an admin edit is seen within seconds (cards.selectors.card_data_version)."""

    serializer_class = CardSummarySerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        q = (self.request.query_params.get("q") or "").strip()
        return search_cards(
            q,
            queryset=set_selectors.visible_cards(selectors.cards_for_listing(), self.request.user),
        )

    def list(self, request, *args, **kwargs):
        key = _search_cache_key(request)
        cached = cache.get(key)
        if cached is not None:
            return Response(cached)
        response = super().list(request, *args, **kwargs)
        cache.set(key, response.data, SEARCH_CACHE_SECONDS)
        return response

    @extend_schema(
        parameters=[Q_PARAM, LANG_PARAM],
        responses={
            200: CardSummarySerializer(many=True),
            400: QueryErrorSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No such page (page past the last)."),
        },
    )
    def get(self, request, *args, **kwargs):
        check_lang_param(request)
        try:
            return self.list(request, *args, **kwargs)
        except QuerySyntaxError as exc:
            return Response(
                {
                    "detail": exc.message_in(request_lang(request)),
                    "code": "query_syntax",
                    "position": exc.position,
                    "length": exc.length,
                },
                status=400,
            )


@extend_schema_view(
    get=extend_schema(
        operation_id="cards_retrieve",
        responses={200: CardDetailSerializer, 404: ErrorSerializer},
    )
)
class CardDetailView(generics.RetrieveAPIView):
    """One card by its numeric id, every language included."""

    serializer_class = CardDetailSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.card_detail_queryset()

    def get_object(self) -> Card:
        return _visible(self.request, selectors.card_by_pk(self.kwargs["pk"]))


@extend_schema_view(
    get=extend_schema(
        operation_id="cards_retrieve_by_external_id",
        responses={200: CardDetailSerializer, 404: ErrorSerializer},
    )
)
class CardByExternalIdView(CardDetailView):
    """One card by its game and external id (e.g. tmg / 20201)."""

    def get_object(self) -> Card:
        card = selectors.card_by_external_id(self.kwargs["game"], self.kwargs["external_id"])
        return _visible(self.request, card)


class SlugViews(NamedTuple):
    listing: type[APIView]
    detail: type[APIView]
    by_slug: type[APIView]


def _slug_views(
    singular: str,
    serializer: type[serializers.Serializer],
    rows: Callable[..., QuerySet],
) -> SlugViews:
    """The list, `<game>/<slug>/` and `<slug>/` views of rows named by a slug per game
    (factions, scenarios): the same three views and schema for each, but their names.
    `rows(game=..., slug=...)` is the selector narrowing them."""
    plural = f"{singular}s"

    @extend_schema_view(
        get=extend_schema(
            parameters=[GAME_PARAM],
            responses={
                200: serializer(many=True),
                400: ErrorSerializer,
                404: OpenApiResponse(ErrorSerializer, description="No such page."),
            },
        )
    )
    class ListView(generics.ListAPIView):
        serializer_class = serializer
        permission_classes = [AllowAny]

        def get_queryset(self):
            return rows(game=game_param(self.request))

    @extend_schema_view(
        get=extend_schema(
            operation_id=f"{plural}_retrieve",
            responses={200: serializer, 404: ErrorSerializer},
        )
    )
    class DetailView(generics.RetrieveAPIView):
        __doc__ = f"One {singular} by game and slug."
        serializer_class = serializer
        permission_classes = [AllowAny]

        def get_object(self):
            """By `<game>/<slug>/`, or by `<slug>/` when the slug names one row only."""
            game = self.kwargs.get("game")
            if game is not None and game not in Game.values:
                raise NotFound()
            game = game or game_param(self.request)
            found = list(rows(game=game, slug=self.kwargs["slug"])[:2])
            if not found:
                raise NotFound()
            if len(found) > 1:
                raise AmbiguousSlug(found)
            return found[0]

        def retrieve(self, request, *args, **kwargs):
            try:
                return super().retrieve(request, *args, **kwargs)
            except AmbiguousSlug as ambiguous:
                choices = [
                    reverse(f"cards_api:{singular}-detail", args=[row.game, row.slug])
                    for row in rows(game=None, slug=self.kwargs["slug"])
                ]
                body = {"detail": AMBIGUOUS_DETAIL, "code": "ambiguous_slug", "choices": choices}
                del ambiguous
                return Response(body, status=300)

    @extend_schema_view(
        get=extend_schema(
            operation_id=f"{plural}_retrieve_by_slug",
            parameters=[GAME_PARAM],
            responses={
                200: serializer,
                300: OpenApiResponse(ChoicesSerializer, description="Several games use it."),
                400: ErrorSerializer,
                404: ErrorSerializer,
            },
        )
    )
    class BySlugView(DetailView):
        __doc__ = (
            f"One {singular} by slug alone (300 Multiple Choices, with each game's URL, when "
            "several games use it and no ?game= says which)."
        )

    views = SlugViews(listing=ListView, detail=DetailView, by_slug=BySlugView)
    for view, suffix in zip(views, ("ListView", "DetailView", "BySlugView"), strict=True):
        view.__name__ = view.__qualname__ = f"{singular.capitalize()}{suffix}"
    return views


FACTION_VIEWS = _slug_views("faction", FactionSerializer, selectors.factions_with_sigils)
SCENARIO_VIEWS = _slug_views("scenario", ScenarioSerializer, selectors.scenarios)
