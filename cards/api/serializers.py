"""JSON shapes of cards, factions and scenarios. Texts come in every language: {"en", "fr"}."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import Card, Faction, Scenario


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


class CoinsSerializer(serializers.Serializer):
    gold = serializers.IntegerField(allow_null=True)
    silver = serializers.IntegerField(allow_null=True)
    copper = serializers.IntegerField(allow_null=True)


class CardRefSerializer(serializers.ModelSerializer):
    """A short pointer to another card."""

    name = BilingualField()
    title = BilingualField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = ["id", "game", "kind", "external_id", "name", "title", "version", "url"]
        read_only_fields = fields

    def get_url(self, card: Card) -> str:
        return reverse("cards_api:card-detail", args=[card.pk])


class CardSummarySerializer(serializers.ModelSerializer):
    """One search result."""

    name = BilingualField()
    title = BilingualField()
    faction = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    cost = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()

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

    def get_url(self, card: Card) -> str:
        return reverse("cards_api:card-detail", args=[card.pk])

    def get_page(self, card: Card) -> str:
        return reverse("cards:detail", args=[card.game, card.external_id])


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


def describe_requirement(record, lang: str) -> str:
    try:
        from ..requirements import describe
    except ImportError:
        describe = None
    if describe is not None:
        try:
            text = describe(record, lang)
        except (AttributeError, KeyError, TypeError, ValueError):
            text = ""
        if text:
            return text
    return str(record.get("type", "")) if isinstance(record, dict) else str(record)


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
    commander_card = CardRefSerializer(read_only=True)
    replaces = CardRefSerializer(read_only=True)
    tactics_cards = CardRefSerializer(source="commander_tactics", many=True, read_only=True)

    class Meta(CardSummarySerializer.Meta):
        fields = [
            *CardSummarySerializer.Meta.fields,
            "faction_name",
            "sigil",
            "unit_type",
            "tray",
            "speed",
            "defense",
            "morale",
            "wounds",
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
                    "en": describe_requirement(record, "en"),
                    "fr": describe_requirement(record, "fr"),
                },
            }
            for record in card.requirements or []
        ]


class FactionSerializer(serializers.ModelSerializer):
    name = BilingualField()
    sigils = SigilSerializer(many=True, read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Faction
        fields = ["id", "game", "slug", "name", "is_neutral", "warcouncil_code", "sigils", "url"]
        read_only_fields = fields

    def get_url(self, faction: Faction) -> str:
        return reverse("cards_api:faction-detail", args=[faction.game, faction.slug])


class ScenarioSerializer(serializers.ModelSerializer):
    name = BilingualField()
    summary = BilingualField()
    budget = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

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

    def get_url(self, scenario: Scenario) -> str:
        return reverse("cards_api:scenario-detail", args=[scenario.game, scenario.slug])
