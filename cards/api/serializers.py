"""JSON shapes of cards, factions and scenarios. Texts come in every language: {"en", "fr"}."""

import functools
import re

from django.urls import get_script_prefix, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import UNIT_STAT_FIELDS, Card, Faction, Scenario
from ..presentation import requirement_text


def _both(obj, field: str) -> dict[str, str]:
    return {
        "en": getattr(obj, f"{field}_en", "") or "",
        "fr": getattr(obj, f"{field}_fr", "") or "",
    }


class TextSerializer(serializers.Serializer):
    en = serializers.CharField()
    fr = serializers.CharField()


class BilingualField(serializers.Field):
    """Reads `<name>_en` and `<name>_fr` from the object and returns {"en": …, "fr": …}."""

    def __init__(self, base: str | None = None, **kwargs):
        self.base = base
        kwargs["source"] = "*"
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value):
        return _both(value, self.base or self.field_name)


extend_schema_field(TextSerializer)(BilingualField)


@extend_schema_field(OpenApiTypes.STR)
class PathField(serializers.Field):
    """The path of the object's page or API resource: a URL name and the attributes its
    route takes, e.g. `PathField("cards_api:card-detail", "pk")`."""

    def __init__(self, url_name: str, *attributes: str, **kwargs):
        self.url_name = url_name
        self.attributes = attributes
        kwargs["source"] = "*"
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value) -> str:
        args = [str(getattr(value, name)) for name in self.attributes]
        template = _path_template(self.url_name, len(args), get_script_prefix())
        if template is None or not all(_PLAIN.fullmatch(arg) for arg in args):
            return reverse(self.url_name, args=args)
        return template.format(*args)


# A result page serialises hundreds of paths: one `reverse` per URL name, then formatting.
# Only for plain values (letters, digits, - and _), which `reverse` would write unchanged.
_PLAIN = re.compile(r"[A-Za-z0-9_-]+")
_SENTINELS = ("7310001", "7310002", "7310003")


@functools.lru_cache(maxsize=64)
def _path_template(url_name: str, count: int, prefix: str) -> str | None:
    """The URL name's path with `{0}`, `{1}`… for its arguments (None: not templatable)."""
    path = reverse(url_name, args=list(_SENTINELS[:count]))
    if any(path.count(sentinel) != 1 for sentinel in _SENTINELS[:count]):
        return None
    path = path.replace("{", "{{").replace("}", "}}")
    for n, sentinel in enumerate(_SENTINELS[:count]):
        path = path.replace(sentinel, f"{{{n}}}")
    return path


class CoinsSerializer(serializers.Serializer):
    gold = serializers.IntegerField(allow_null=True)
    silver = serializers.IntegerField(allow_null=True)
    copper = serializers.IntegerField(allow_null=True)


class CardRefSerializer(serializers.ModelSerializer):
    """A short pointer to another card."""

    name = BilingualField()
    title = BilingualField()
    url = PathField("cards_api:card-detail", "pk")

    class Meta:
        model = Card
        fields = ["id", "game", "kind", "external_id", "name", "title", "version", "url"]
        read_only_fields = fields


class CardSummarySerializer(serializers.ModelSerializer):
    """One search result."""

    name = BilingualField()
    title = BilingualField()
    faction = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    cost = serializers.SerializerMethodField()
    url = PathField("cards_api:card-detail", "pk")
    page = PathField("cards:detail", "game", "external_id")

    class Meta:
        model = Card
        fields = [
            "id",
            "game",
            "kind",
            "external_id",
            "faction",
            "name",
            "title",
            "version",
            "is_commander",
            "is_character",
            "points",
            "cost",
            "url",
            "page",
        ]
        read_only_fields = fields

    @extend_schema_field(CoinsSerializer(allow_null=True))
    def get_cost(self, card: Card) -> dict | None:
        return card.coins() if card.game == "tactics" else None


class CharacterSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = BilingualField()


class AbilitySerializer(serializers.Serializer):
    key = serializers.CharField()
    game = serializers.CharField()
    name = BilingualField()
    text = BilingualField()
    trigger = BilingualField()
    icons = serializers.JSONField()


class CardVersionSerializer(serializers.Serializer):
    version = serializers.CharField()
    stats = serializers.JSONField()
    source = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class RequirementSerializer(serializers.Serializer):
    record = serializers.JSONField()
    description = TextSerializer()


class SigilSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = BilingualField()


class CardDetailSerializer(CardSummarySerializer):
    """One card with all its languages, stats, abilities, characters, requirements, versions."""

    faction_name = serializers.SerializerMethodField()
    sigil = serializers.SerializerMethodField()
    trigger = BilingualField()
    text = BilingualField()
    characters = CharacterSerializer(many=True, read_only=True)
    abilities = serializers.SerializerMethodField()
    requirements = serializers.SerializerMethodField()
    versions = CardVersionSerializer(many=True, read_only=True)
    commander_card = CardRefSerializer(read_only=True, allow_null=True)
    replaces = CardRefSerializer(read_only=True, allow_null=True)
    tactics_cards = CardRefSerializer(source="commander_tactics", many=True, read_only=True)

    class Meta(CardSummarySerializer.Meta):
        fields = [
            *CardSummarySerializer.Meta.fields,
            "faction_name",
            "sigil",
            *UNIT_STAT_FIELDS,
            "will",
            "attacks",
            "mounted",
            "carriers",
            "is_unique",
            "trigger",
            "text",
            "boxes",
            "characters",
            "abilities",
            "requirements",
            "commander_card",
            "replaces",
            "tactics_cards",
            "versions",
            "extra",
            "source",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(TextSerializer(allow_null=True))
    def get_faction_name(self, card: Card) -> dict | None:
        return _both(card.faction, "name") if card.faction else None

    @extend_schema_field(SigilSerializer(allow_null=True))
    def get_sigil(self, card: Card) -> dict | None:
        return SigilSerializer(card.sigil).data if card.sigil else None

    @extend_schema_field(AbilitySerializer(many=True))
    def get_abilities(self, card: Card) -> list[dict]:
        return [AbilitySerializer(link.ability).data for link in card.card_abilities.all()]

    @extend_schema_field(RequirementSerializer(many=True))
    def get_requirements(self, card: Card) -> list[dict]:
        return [
            {
                "record": record,
                "description": {
                    "en": requirement_text(record, "en"),
                    "fr": requirement_text(record, "fr"),
                },
            }
            for record in card.requirements or []
        ]


class FactionSerializer(serializers.ModelSerializer):
    name = BilingualField()
    sigils = SigilSerializer(many=True, read_only=True)
    url = PathField("cards_api:faction-detail", "game", "slug")

    class Meta:
        model = Faction
        fields = ["id", "game", "slug", "name", "is_neutral", "warcouncil_code", "sigils", "url"]
        read_only_fields = fields


class ScenarioSerializer(serializers.ModelSerializer):
    name = BilingualField()
    summary = BilingualField()
    budget = serializers.SerializerMethodField()
    url = PathField("cards_api:scenario-detail", "game", "slug")

    class Meta:
        model = Scenario
        fields = [
            "id",
            "game",
            "slug",
            "kind",
            "name",
            "summary",
            "budget",
            "rounds",
            "tournament_legal",
            "deployment",
            "objectives",
            "scoring",
            "special_components",
            "extra",
            "url",
        ]
        read_only_fields = fields

    @extend_schema_field(CoinsSerializer(allow_null=True))
    def get_budget(self, scenario: Scenario) -> dict | None:
        return scenario.budget
