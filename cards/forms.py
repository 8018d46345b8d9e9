"""Forms of the card pages and the card admin."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .figure_types import figure_kind_from_cost
from .models import (
    FIGURE_KINDS,
    TACTICS_FIELDS,
    TACTICS_KINDS,
    TEXT_FIELDS,
    TMG_KINDS,
    UNIT_STAT_FIELDS,
    Card,
    CardKind,
    Game,
)


def kind_choices() -> list:
    labels = dict(CardKind.choices)
    return [
        ("", _("All kinds")),
        (
            _("Tabletop Miniatures Game"),
            [(k, labels[k]) for k in CardKind.values if k in TMG_KINDS],
        ),
        (_("Tactics"), [(k, labels[k]) for k in CardKind.values if k in TACTICS_KINDS]),
    ]


def game_choices() -> list:
    labels = dict(Game.choices)
    return [("", _("Both games")), *((g, labels[g]) for g in (Game.TMG, Game.TACTICS))]


class CardBrowseForm(forms.Form):
    """The card browser's GET parameters. Invalid values are reported and then ignored."""

    q = forms.CharField(
        required=False,
        label=_("Search"),
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "placeholder": _("e.g. faction:stark kind:unit cost<=6"),
                "autocomplete": "off",
                "spellcheck": "false",
            }
        ),
    )
    game = forms.ChoiceField(required=False, label=_("Game"), choices=game_choices)
    faction = forms.ChoiceField(required=False, label=_("Faction"))
    kind = forms.ChoiceField(required=False, label=_("Kind"), choices=kind_choices)

    def __init__(self, *args, factions: list[tuple[str, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = [("", _("All factions")), *factions]

    def value(self, name: str) -> str:
        """The cleaned value, or "" when the field is missing or invalid."""
        data = getattr(self, "cleaned_data", {}) or {}
        return data.get(name) or ""


class CardAdminForm(forms.ModelForm):
    carriers = forms.MultipleChoiceField(
        required=False,
        choices=[(k, CardKind(k).label) for k in FIGURE_KINDS],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Equipment: figure kinds that may carry it."),
    )

    class Meta:
        model = Card
        fields = [
            "game",
            "kind",
            "external_id",
            "faction",
            "sigil",
            "name_en",
            "name_fr",
            "title_en",
            "title_fr",
            "version",
            "characters",
            "is_character",
            "is_commander",
            "points",
            *UNIT_STAT_FIELDS,
            "attacks",
            "commander_card",
            "replaces",
            *TEXT_FIELDS,
            "boxes",
            *TACTICS_FIELDS,
            "requirements",
            "extra",
            "source",
        ]

    def clean(self):
        cleaned = super().clean()
        game, kind = cleaned.get("game"), cleaned.get("kind")
        if game == Game.TMG and kind and kind not in TMG_KINDS:
            self.add_error("kind", _("This kind belongs to ASOIAF Tactics, not to the TMG."))
        if game == Game.TACTICS and kind and kind not in TACTICS_KINDS:
            self.add_error("kind", _("This kind belongs to the TMG, not to ASOIAF Tactics."))
        if game == Game.TACTICS and kind in FIGURE_KINDS:
            expected = figure_kind_from_cost(
                cleaned.get("gold"), cleaned.get("silver"), cleaned.get("copper")
            )
            if expected and expected != kind:
                self.add_error(
                    "kind",
                    _(
                        "A figure costing %(gold)s gold, %(silver)s silver and %(copper)s copper "
                        "is a %(expected)s (any gold: hero; silver without gold: champion; "
                        "copper only: soldier)."
                    )
                    % {
                        "gold": cleaned.get("gold"),
                        "silver": cleaned.get("silver"),
                        "copper": cleaned.get("copper"),
                        "expected": CardKind(expected).label,
                    },
                )
        return cleaned
