"""List checking over HTTP (contracts §4): thin views over armybuilder.checking."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.checking import (
    GAMES,
    MAX_LIST_CHARS,
    CheckError,
    CheckOptions,
    check_list_text,
    check_many,
)
from armybuilder.serializers import BatchResultSerializer, CheckResultSerializer
from common.i18n import CARD_LANGUAGES, current_language

MAX_BATCH = 2000


class CheckOptionsSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES), required=False, allow_null=True)
    ruleset = serializers.CharField(required=False, allow_blank=True, max_length=64)
    lang = serializers.ChoiceField(choices=list(CARD_LANGUAGES), required=False)

    def options(self) -> CheckOptions:
        data = self.validated_data
        lang = data.get("lang") or current_language()
        return CheckOptions(game=data.get("game"), ruleset=data.get("ruleset") or None, lang=lang)


class CheckRequestSerializer(CheckOptionsSerializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_LIST_CHARS)


class BatchItemSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=200)
    team = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="Lists with the same team name are allies (team games: each character once).",
    )
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=MAX_LIST_CHARS)


class CheckBatchRequestSerializer(CheckOptionsSerializer):
    lists = BatchItemSerializer(many=True, max_length=MAX_BATCH, allow_empty=False)


class _CheckView(APIView):
    """Open to anyone, without logging in. A list with problems answers 200 with its
    findings; a request that cannot be checked at all (unknown game or ruleset, a bad
    field) answers 400 with `detail`."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    request_serializer: type[CheckOptionsSerializer]
    response_serializer: type[serializers.Serializer]

    def check(self, data: dict, options: CheckOptions):
        raise NotImplementedError

    def post(self, request):
        serializer = self.request_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            checked = self.check(serializer.validated_data, serializer.options())
        except CheckError as exc:
            body = {"detail": str(exc), "code": "invalid"}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(self.response_serializer(checked).data)


@extend_schema_view(
    post=extend_schema(
        request=CheckRequestSerializer,
        responses={200: CheckResultSerializer, 400: OpenApiTypes.OBJECT},
        summary="Check one army list or warband given as text",
    )
)
class CheckListView(_CheckView):
    request_serializer = CheckRequestSerializer
    response_serializer = CheckResultSerializer

    def check(self, data: dict, options: CheckOptions):
        return check_list_text(data["text"], options)


@extend_schema_view(
    post=extend_schema(
        request=CheckBatchRequestSerializer,
        responses={200: BatchResultSerializer, 400: OpenApiTypes.OBJECT},
        summary="Check many lists at once (tournament registration)",
    )
)
class CheckBatchView(_CheckView):
    request_serializer = CheckBatchRequestSerializer
    response_serializer = BatchResultSerializer

    def check(self, data: dict, options: CheckOptions):
        lists = [(item["id"], item["text"]) for item in data["lists"]]
        teams = [item.get("team") or None for item in data["lists"]]
        return check_many(lists, options, teams=teams)
