"""List checking over HTTP (contracts §4): thin views over armybuilder.checking."""

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.authentication import BasicAuthentication, TokenAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api_parsers import JSONParser
from armybuilder.checking import (
    GAMES,
    MAX_LIST_CHARS,
    CheckError,
    CheckOptions,
    Pools,
    check_list_text,
    check_many,
)
from armybuilder.serializers import (
    BatchResultSerializer,
    CheckResultSerializer,
    ErrorSerializer,
    StrictCharField,
)
from armybuilder.tmg.rulesets import all_rulesets
from cards.card_sets.selectors import UnusableSet, reading_sets, usable_sets_named
from cards.models import CardSet
from common.api_errors import invalid_request, validated
from common.i18n import CARD_LANGUAGES, current_language

MAX_BATCH: int = settings.CITADEL_MAX_BATCH_LISTS
MAX_ENTRIES: int = settings.CITADEL_MAX_LIST_ENTRIES
MAX_SETS = 20  # card sets one pasted warband is read against


class CheckOptionsSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES), required=False, allow_null=True)
    ruleset = serializers.ChoiceField(
        choices=sorted(all_rulesets()),
        required=False,
        allow_blank=True,
        help_text="TMG ruleset (default: the current one).",
    )
    lang = serializers.ChoiceField(choices=list(CARD_LANGUAGES), required=False)

    def options(self) -> CheckOptions:
        data = self.validated_data
        lang = data.get("lang") or current_language()
        return CheckOptions(game=data.get("game"), ruleset=data.get("ruleset") or None, lang=lang)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": 60},
            {"type": "integer", "minimum": 1},
        ]
    }
)
class SetRefField(serializers.Field):
    """A card set named by its slug (a string) or its id (an integer)."""

    default_error_messages = {"invalid": gettext_lazy("Name a card set by its slug or its id.")}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, int):
            if data < 1:
                self.fail("invalid")
            return str(data)
        if not 1 <= len(data) <= 60:
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return value


class CardSetsSerializer(CheckOptionsSerializer):
    """Check options with the card sets pasted warbands are read against."""

    sets = serializers.ListField(
        child=SetRefField(),
        required=False,
        max_length=MAX_SETS,
        help_text="Tactics: the card sets (slugs or ids) a warband is read against besides "
        "the shipped cards: yours, published ones, the example set. Without it: the example "
        "set, and your own sets when you send your credentials; `[]`: the shipped cards only. "
        "A set you may not use is a 400 naming it.",
    )

    def validate_sets(self, refs: list[str]) -> list[CardSet]:
        try:
            return usable_sets_named(refs, self.context.get("user"))
        except UnusableSet as exc:
            raise serializers.ValidationError(
                _("No card set “%(set)s” that you may use.") % {"set": exc.ref}
            ) from exc

    def card_sets(self) -> list[CardSet]:
        if "sets" in self.validated_data:
            return self.validated_data["sets"]
        return list(reading_sets(self.context.get("user")))


class CheckRequestSerializer(CardSetsSerializer):
    text = StrictCharField(allow_blank=True, trim_whitespace=False, max_length=MAX_LIST_CHARS)


class BatchItemSerializer(serializers.Serializer):
    id = StrictCharField(min_length=1, max_length=200)
    team = StrictCharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Lists with the same team name are allies (team games: each character once).",
    )
    text = StrictCharField(allow_blank=True, trim_whitespace=False, max_length=MAX_LIST_CHARS)


class CheckBatchRequestSerializer(CardSetsSerializer):
    lists = serializers.ListField(
        child=BatchItemSerializer(), min_length=1, max_length=MAX_BATCH, allow_empty=False
    )


class _CheckView(APIView):
    """Open to anyone, without logging in. A list with problems answers 200 with its
    findings; a request that cannot be checked at all (unknown game or ruleset, a bad
    field) answers 400 with `detail`."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    parser_classes = [JSONParser]
    request_serializer: type[CheckOptionsSerializer]
    response_serializer: type[serializers.Serializer]

    def check(self, serializer, options: CheckOptions):
        raise NotImplementedError

    def post(self, request):
        serializer = self.request_serializer(data=request.data, context={"user": request.user})
        if not serializer.is_valid():
            return invalid_request(serializer.errors)
        try:
            checked = self.check(serializer, serializer.options())
        except CheckError as exc:
            body = {"detail": str(exc), "code": "invalid"}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        crowded = self.too_many_entries(checked)
        if crowded:
            return Response(
                {"detail": crowded, "code": "too_many_entries"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(self.response_serializer(checked).data)

    def too_many_entries(self, checked) -> str:
        """Why the answer is refused when a list has more entries than any army or warband
        holds (CITADEL_MAX_LIST_ENTRIES): pasted text that is not a list."""
        return ""


def _crowded(entries: int, list_id: str | None = None) -> str:
    if entries <= MAX_ENTRIES:
        return ""
    named = _("list %(id)s: ") % {"id": list_id} if list_id is not None else ""
    return named + _("%(count)d entries were read; a list holds at most %(max)d.") % {
        "count": entries,
        "max": MAX_ENTRIES,
    }


BAD_CHECK = OpenApiResponse(
    ErrorSerializer,
    description="A field is missing or wrong (its errors by field), the game or ruleset is "
    "unknown, or a list has more entries than any list holds (`too_many_entries`).",
)


WRONG_CREDENTIALS = OpenApiResponse(
    ErrorSerializer, description="Credentials were sent and are wrong."
)


def _check_schema(request, response, summary: str):
    """The OpenAPI description of a check door (POST only)."""
    return extend_schema_view(
        post=extend_schema(
            request=request,
            responses={200: response, 400: BAD_CHECK, 401: WRONG_CREDENTIALS},
            summary=summary,
        )
    )


class _CredentialCheckView(_CheckView):
    # Anyone may check; a user who sends credentials (a token, or basic) has their own card
    # sets read too. No session: a browser's cookie would ask for a CSRF token.
    authentication_classes = [BasicAuthentication, TokenAuthentication]


@_check_schema(
    CheckRequestSerializer, CheckResultSerializer, "Check one army list or warband given as text"
)
class CheckListView(_CredentialCheckView):
    request_serializer = CheckRequestSerializer
    response_serializer = CheckResultSerializer

    def check(self, serializer, options: CheckOptions):
        pools = Pools(card_sets=serializer.card_sets())
        return check_list_text(serializer.validated_data["text"], options, pools=pools)

    def too_many_entries(self, checked) -> str:
        return _crowded(len(checked.entries))


@_check_schema(
    CheckBatchRequestSerializer,
    BatchResultSerializer,
    "Check many lists at once (tournament registration)",
)
class CheckBatchView(_CredentialCheckView):
    request_serializer = CheckBatchRequestSerializer
    response_serializer = BatchResultSerializer

    def check(self, serializer, options: CheckOptions):
        data = serializer.validated_data
        lists = [(item["id"], item["text"]) for item in data["lists"]]
        teams = [item.get("team") or None for item in data["lists"]]
        pools = Pools(card_sets=serializer.card_sets())
        return check_many(lists, options, teams=teams, pools=pools)

    def too_many_entries(self, checked) -> str:
        for item in checked.items:
            crowded = _crowded(len(item.result.entries), item.label)
            if crowded:
                return crowded
        return ""


class TokenRequestSerializer(serializers.Serializer):
    username = StrictCharField(min_length=1, max_length=150)
    password = StrictCharField(min_length=1, max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class ObtainTokenView(APIView):
    """An API token for a user of the site, for tools that call the API without a browser
    session (a token costs no password check per request, unlike basic authentication)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get your API token with your user name and password",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: ErrorSerializer, 401: ErrorSerializer},
    )
    def post(self, request):
        from django.contrib.auth import authenticate
        from rest_framework.authtoken.models import Token

        user = authenticate(request=request, **validated(TokenRequestSerializer(data=request.data)))
        if user is None or not user.is_active:
            return Response(
                {"detail": _("Wrong user name or password."), "code": "invalid_credentials"},
                status=status.HTTP_401_UNAUTHORIZED,
            )
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
