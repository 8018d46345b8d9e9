"""Read-only card API (contracts §4): search, one card, factions, scenarios."""

from collections.abc import Callable
from typing import NamedTuple

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
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
PAGE_SIZE_PARAM = OpenApiParameter(
    "page_size",
    OpenApiTypes.INT,
    description="Results per page (default 50, capped at 200).",
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
        "position": serializers.IntegerField(),
        "length": serializers.IntegerField(),
    },
)


class InvalidGame(APIException):
    status_code = 400
    default_code = "invalid_game"
    default_detail = _("Unknown game: use one of tmg, tactics, agot, hotk.")


class AmbiguousSlug(APIException):
    status_code = 400
    default_code = "ambiguous_slug"
    default_detail = _("Several games use this slug: add ?game=… or use /<game>/<slug>/.")


def request_lang(request) -> str:
    """`lang` parameter if valid, else the request's language (Accept-Language), else en."""
    lang = (request.query_params.get("lang") or "").strip().lower()
    if lang in CARD_LANGUAGES:
        return lang
    return current_language()


def game_param(request) -> str | None:
    game = (request.query_params.get("game") or "").strip().lower()
    if not game:
        return None
    if game not in Game.values:
        raise InvalidGame()
    return game


class CardListView(generics.ListAPIView):
    """Search cards with the query language; paginated (`page`, `page_size`)."""

    serializer_class = CardSummarySerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        q = (self.request.query_params.get("q") or "").strip()
        return search_cards(q, queryset=selectors.cards_for_listing())

    @extend_schema(
        parameters=[Q_PARAM, LANG_PARAM, PAGE_SIZE_PARAM],
        responses={200: CardSummarySerializer(many=True), 400: QueryErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
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
        card = selectors.card_by_pk(self.kwargs["pk"])
        if card is None:
            raise NotFound()
        return card


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
        if card is None:
            raise NotFound()
        return card


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
            parameters=[GAME_PARAM, PAGE_SIZE_PARAM],
            responses={200: serializer(many=True), 400: ErrorSerializer},
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
                raise AmbiguousSlug()
            return found[0]

    @extend_schema_view(
        get=extend_schema(
            operation_id=f"{plural}_retrieve_by_slug",
            parameters=[GAME_PARAM],
            responses={200: serializer, 400: ErrorSerializer, 404: ErrorSerializer},
        )
    )
    class BySlugView(DetailView):
        __doc__ = f"One {singular} by slug alone (400 when several games use it and no ?game=)."

    views = SlugViews(listing=ListView, detail=DetailView, by_slug=BySlugView)
    for view, suffix in zip(views, ("ListView", "DetailView", "BySlugView"), strict=True):
        view.__name__ = view.__qualname__ = f"{singular.capitalize()}{suffix}"
    return views


FACTION_VIEWS = _slug_views("faction", FactionSerializer, selectors.factions_with_sigils)
SCENARIO_VIEWS = _slug_views("scenario", ScenarioSerializer, selectors.scenarios)
