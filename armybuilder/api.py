"""List checking over HTTP (contracts §4): thin views over armybuilder.checking."""

from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.checking import (
    MAX_LIST_CHARS,
    CheckError,
    CheckOptions,
    check_list_text,
    check_many,
)

MAX_BATCH = 2000


class CheckOptionsSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=["tmg", "tactics"], required=False, allow_null=True)
    ruleset = serializers.CharField(required=False, allow_blank=True, max_length=64)
    lang = serializers.ChoiceField(choices=["en", "fr"], required=False)

    def options(self) -> CheckOptions:
        data = self.validated_data
        lang = data.get("lang") or ("fr" if (get_language() or "").startswith("fr") else "en")
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


# --- response shapes, for the OpenAPI schema only (the service builds the dicts) ---------


class FindingSchema(serializers.Serializer):
    code = serializers.CharField(
        help_text="A fixed code of contracts §1, e.g. NEUTRAL_CAP_EXCEEDED."
    )
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField(help_text="In the requested language (en or fr).")
    entries = serializers.ListField(child=serializers.CharField(), help_text="Entry refs.")
    rule = serializers.CharField(help_text="AB-xx (TMG), TW-xx (Tactics), a faction rule card.")
    fix = serializers.CharField(allow_null=True, help_text="A concrete fix, when there is one.")
    rule_url = serializers.CharField(
        required=False, help_text="The rulebook section stating the rule, once a book is imported."
    )


class PointsSchema(serializers.Serializer):
    spent = serializers.IntegerField()
    limit = serializers.IntegerField()
    neutral = serializers.IntegerField()
    neutral_cap = serializers.IntegerField()
    limit_assumed = serializers.BooleanField(help_text="No Points line: the limit was assumed.")


class CoinSchema(serializers.Serializer):
    gold = serializers.IntegerField()
    silver = serializers.IntegerField()
    copper = serializers.IntegerField()


class CoinsSchema(serializers.Serializer):
    spent = CoinSchema()
    budget = CoinSchema(allow_null=True)


class DeckCardSchema(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    copies = serializers.IntegerField()
    source = serializers.CharField()


class CheckResultSchema(serializers.Serializer):
    legal = serializers.BooleanField()
    game = serializers.ChoiceField(choices=["tmg", "tactics"])
    faction = serializers.CharField(allow_null=True)
    name = serializers.CharField(required=False)
    entries = serializers.ListField(
        child=serializers.DictField(), help_text="Resolved cards with their ids."
    )
    findings = FindingSchema(many=True)
    text = serializers.CharField(required=False, help_text="The list in canonical text.")
    ruleset = serializers.CharField(required=False, help_text="TMG only.")
    points = PointsSchema(required=False, allow_null=True, help_text="TMG only.")
    deck = DeckCardSchema(many=True, required=False, help_text="TMG only: the tactics deck.")
    coins = CoinsSchema(required=False, help_text="Tactics only.")
    figures = serializers.IntegerField(required=False, help_text="Tactics only.")
    scenario = serializers.CharField(required=False, allow_null=True, help_text="Tactics only.")


class BatchResultSchema(CheckResultSchema):
    id = serializers.CharField()
    team = serializers.CharField(required=False)


class BatchSummarySchema(serializers.Serializer):
    lists = serializers.IntegerField()
    legal = serializers.IntegerField()
    illegal = serializers.IntegerField()
    findings_by_code = serializers.DictField(child=serializers.IntegerField())


class CheckBatchResponseSchema(serializers.Serializer):
    results = BatchResultSchema(many=True)
    summary = BatchSummarySchema()


def _usage_error(exc: CheckError) -> Response:
    return Response({"detail": str(exc), "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)


class CheckListView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=CheckRequestSerializer,
        responses={200: CheckResultSchema, 400: OpenApiTypes.OBJECT},
        summary="Check one army list or warband given as text",
    )
    def post(self, request):
        serializer = CheckRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            result = check_list_text(serializer.validated_data["text"], serializer.options())
        except CheckError as exc:
            return _usage_error(exc)
        return Response(result)


class CheckBatchView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=CheckBatchRequestSerializer,
        responses={200: CheckBatchResponseSchema, 400: OpenApiTypes.OBJECT},
        summary="Check many lists at once (tournament registration)",
    )
    def post(self, request):
        serializer = CheckBatchRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        items = serializer.validated_data["lists"]
        lists = [(item["id"], item["text"]) for item in items]
        teams = [item.get("team") or None for item in items]
        try:
            return Response(check_many(lists, serializer.options(), teams=teams))
        except CheckError as exc:
            return _usage_error(exc)
