"""Read-only card API (contracts §4): search, one card, factions, scenarios."""

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, serializers
from rest_framework.exceptions import APIException, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .. import selectors
from ..models import Card, Game
from ..query import QuerySyntaxError, search_cards
from .serializers import (
    CardDetailSerializer,
    CardSummarySerializer,
    FactionSerializer,
    ScenarioSerializer,
)

LANGS = ("en", "fr")

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
    enum=list(LANGS),
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
    if lang in LANGS:
        return lang
    return "fr" if (get_language() or "en").lower().startswith("fr") else "en"


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
            lang = request_lang(request)
            message = (exc.message_fr if lang == "fr" else exc.message_en) or str(exc)
            return Response(
                {
                    "detail": message,
                    "code": "query_syntax",
                    "position": exc.position,
                    "length": exc.length,
                },
                status=400,
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

    @extend_schema(
        operation_id="cards_retrieve",
        responses={200: CardDetailSerializer, 404: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.retrieve(request, *args, **kwargs)


class CardByExternalIdView(CardDetailView):
    """One card by its game and external id (e.g. tmg / 20201)."""

    def get_object(self) -> Card:
        card = selectors.card_by_external_id(self.kwargs["game"], self.kwargs["external_id"])
        if card is None:
            raise NotFound()
        return card

    @extend_schema(
        operation_id="cards_retrieve_by_external_id",
        responses={200: CardDetailSerializer, 404: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.retrieve(request, *args, **kwargs)


class FactionListView(generics.ListAPIView):
    serializer_class = FactionSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.factions_with_sigils(game=game_param(self.request))

    @extend_schema(
        parameters=[GAME_PARAM, PAGE_SIZE_PARAM],
        responses={200: FactionSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.list(request, *args, **kwargs)


class _SlugDetailView(generics.RetrieveAPIView):
    """Detail by `<game>/<slug>/`, or by `<slug>/` when the slug names one record only."""

    permission_classes = [AllowAny]

    def rows(self, slug: str, game: str | None):
        raise NotImplementedError

    def get_object(self):
        game = self.kwargs.get("game")
        if game is not None and game not in Game.values:
            raise NotFound()
        found = list(self.rows(self.kwargs["slug"], game or game_param(self.request))[:2])
        if not found:
            raise NotFound()
        if len(found) > 1:
            raise AmbiguousSlug()
        return found[0]


class FactionDetailView(_SlugDetailView):
    """One faction by game and slug."""

    serializer_class = FactionSerializer

    def rows(self, slug, game):
        return selectors.factions_by_slug(slug, game=game)

    @extend_schema(
        operation_id="factions_retrieve",
        responses={200: FactionSerializer, 404: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.retrieve(request, *args, **kwargs)


class FactionBySlugView(FactionDetailView):
    """One faction by slug alone (400 when several games use it and no ?game=)."""

    @extend_schema(
        operation_id="factions_retrieve_by_slug",
        parameters=[GAME_PARAM],
        responses={200: FactionSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.retrieve(request, *args, **kwargs)


class ScenarioListView(generics.ListAPIView):
    serializer_class = ScenarioSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.scenarios(game=game_param(self.request))

    @extend_schema(
        parameters=[GAME_PARAM, PAGE_SIZE_PARAM],
        responses={200: ScenarioSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.list(request, *args, **kwargs)


class ScenarioDetailView(_SlugDetailView):
    """One scenario by game and slug."""

    serializer_class = ScenarioSerializer

    def rows(self, slug, game):
        return selectors.scenarios_by_slug(slug, game=game)

    @extend_schema(
        operation_id="scenarios_retrieve",
        responses={200: ScenarioSerializer, 404: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.retrieve(request, *args, **kwargs)


class ScenarioBySlugView(ScenarioDetailView):
    """One scenario by slug alone (400 when several games use it and no ?game=)."""

    @extend_schema(
        operation_id="scenarios_retrieve_by_slug",
        parameters=[GAME_PARAM],
        responses={200: ScenarioSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request, *args, **kwargs):
        return self.retrieve(request, *args, **kwargs)
