"""Forms of the card-set pages: they read and type the input; the services check it.

The card form is made for Tactics cards: the coin cost as three small fields, the
character key that pairs a mounted and a foot version, two attack modes, abilities one per
line ("Name: text"), and the equipment restrictions (who may carry it, unique, foot only).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from cards.models import FIGURE_KINDS, Card, CardKind, CardSet, Faction, Game, SetVisibility

from .services import AbilityText, Attack, ScenarioInput, SetCardInput

COIN = {"min_value": 0, "max_value": 99, "required": False}
SMALL = forms.NumberInput(attrs={"class": "coin-input", "inputmode": "numeric", "size": 2})
KIND_CHOICES = [(k, label) for k, label in CardKind.choices if k in (*FIGURE_KINDS, "equipment")]
RANGES = [("melee", _("Melee")), ("ranged", _("Ranged"))]
MAX_ATTACKS = 2


def tactics_factions():
    return Faction.objects.filter(game=Game.TACTICS).order_by("sort_order", "slug")


class CardSetForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    factions = forms.ModelMultipleChoiceField(
        label=_("Factions"),
        queryset=Faction.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    description = forms.CharField(
        label=_("Description"), max_length=5000, required=False, widget=forms.Textarea
    )
    licence_note = forms.CharField(
        label=_("Licence note"),
        max_length=1000,
        required=False,
        help_text=_("Where the data comes from and what others may do with it."),
    )
    visibility = forms.ChoiceField(label=_("Who can see it"), choices=SetVisibility.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["factions"].queryset = tactics_factions()

    @staticmethod
    def initial_for(card_set: CardSet) -> dict:
        return {
            "name": card_set.name,
            "factions": list(card_set.factions.all()),
            "description": card_set.description,
            "licence_note": card_set.licence_note,
            "visibility": card_set.visibility,
        }


class SetCardForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=KIND_CHOICES)
    name_en = forms.CharField(label=_("Name (English)"), max_length=160)
    name_fr = forms.CharField(label=_("Name (French)"), max_length=160, required=False)
    title_en = forms.CharField(label=_("Title"), max_length=160, required=False)
    faction = forms.ChoiceField(label=_("Faction"), required=False)
    character = forms.CharField(
        label=_("Character"),
        max_length=80,
        required=False,
        help_text=_("The same word on a mounted and a foot version pairs them (never both)."),
    )
    mounted = forms.BooleanField(label=_("Mounted"), required=False)
    gold = forms.IntegerField(label=_("Gold"), widget=SMALL, **COIN)
    silver = forms.IntegerField(label=_("Silver"), widget=SMALL, **COIN)
    copper = forms.IntegerField(label=_("Copper"), widget=SMALL, **COIN)
    will = forms.IntegerField(label=_("Will"), min_value=0, max_value=12, required=False)
    defense = forms.IntegerField(label=_("Defense"), min_value=0, max_value=12, required=False)
    wounds = forms.IntegerField(label=_("Wounds"), min_value=0, max_value=30, required=False)
    abilities = forms.CharField(
        label=_("Abilities"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One per line: name, a colon, then its text in your own words."),
    )
    carriers = forms.MultipleChoiceField(
        label=_("Equipment: who may carry it"),
        choices=[(k, label) for k, label in CardKind.choices if k in FIGURE_KINDS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    unique = forms.BooleanField(label=_("Equipment: unique (one per warband)"), required=False)
    infantry_only = forms.BooleanField(label=_("Equipment: figures on foot only"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = [("", _("None (equipment)"))] + [
            (f.slug, f.name_en) for f in tactics_factions()
        ]
        for number in range(1, MAX_ATTACKS + 1):
            self.fields[f"attack_{number}_name"] = forms.CharField(
                label=_("Attack %(n)d: name") % {"n": number}, max_length=80, required=False
            )
            self.fields[f"attack_{number}_range"] = forms.ChoiceField(
                label=_("range"), choices=RANGES, required=False
            )
            for stat, label in (("ap", _("armour piercing")), ("dice", _("dice")),
                                ("to_hit", _("to hit"))):  # fmt: skip
                self.fields[f"attack_{number}_{stat}"] = forms.IntegerField(
                    label=label, min_value=0, max_value=20, required=False, widget=SMALL
                )

    @property
    def attack_rows(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"attack_{n}_{part}"] for part in ("name", "range", "ap", "dice", "to_hit")]
            for n in range(1, MAX_ATTACKS + 1)
        ]

    def clean_abilities(self) -> tuple[AbilityText, ...]:
        abilities = []
        for line in (self.cleaned_data.get("abilities") or "").splitlines():
            name, _colon, text = line.partition(":")
            if name.strip():
                abilities.append(AbilityText(name=name.strip()[:120], text=text.strip()))
        return tuple(abilities)

    def value(self) -> SetCardInput:
        data = self.cleaned_data
        attacks = tuple(
            Attack(
                name=data[f"attack_{n}_name"],
                range=data[f"attack_{n}_range"] or "melee",
                ap=data[f"attack_{n}_ap"],
                dice=data[f"attack_{n}_dice"],
                to_hit=data[f"attack_{n}_to_hit"],
            )
            for n in range(1, MAX_ATTACKS + 1)
            if data.get(f"attack_{n}_name")
        )
        coins = [data.get(c) for c in ("gold", "silver", "copper")]
        if any(c is not None for c in coins):  # a blank coin next to typed ones is 0
            coins = [c or 0 for c in coins]
        return SetCardInput(
            kind=data["kind"],
            name_en=data["name_en"],
            name_fr=data["name_fr"],
            title_en=data["title_en"],
            faction=data["faction"] or None,
            character=data["character"],
            mounted=data["mounted"],
            gold=coins[0],
            silver=coins[1],
            copper=coins[2],
            will=data["will"],
            defense=data["defense"],
            wounds=data["wounds"],
            attacks=attacks,
            abilities=data["abilities"],
            carriers=tuple(data["carriers"]),
            unique=data["unique"],
            infantry_only=data["infantry_only"],
        )

    @staticmethod
    def initial_for(card: Card) -> dict:
        initial = {
            "kind": card.kind,
            "name_en": card.name_en,
            "name_fr": card.name_fr,
            "title_en": card.title_en,
            "faction": card.faction.slug if card.faction else "",
            "character": ", ".join(c.key for c in card.characters.all()),
            "mounted": card.mounted,
            "gold": card.gold,
            "silver": card.silver,
            "copper": card.copper,
            "will": card.will,
            "defense": card.defense,
            "wounds": card.wounds,
            "abilities": "\n".join(
                f"{a.get('name', '')}: {a.get('text', '')}" for a in card.extra.get("abilities", [])
            ),
            "carriers": card.carriers,
            "unique": card.is_unique,
            "infantry_only": bool(card.extra.get("infantry_only")),
        }
        for number, attack in enumerate(card.attacks[:MAX_ATTACKS], start=1):
            initial[f"attack_{number}_name"] = attack.get("name_en", "")
            for part in ("range", "ap", "dice", "to_hit"):
                initial[f"attack_{number}_{part}"] = attack.get(part)
        return initial


class ImportForm(forms.Form):
    file = forms.FileField(label=_("citadel-json file"), required=False)
    text = forms.CharField(
        label=_("or paste the JSON"),
        required=False,
        max_length=2_000_000,
        widget=forms.Textarea(attrs={"rows": 10}),
    )

    def clean(self):
        data = super().clean()
        if not data.get("file") and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Choose a file or paste a document."))
        return data

    def document_text(self) -> str | bytes:
        upload = self.cleaned_data.get("file")
        return upload.read() if upload else self.cleaned_data["text"]


class OverrideForm(forms.Form):
    card = forms.ChoiceField(label=_("Shipped card of unknown cost"))
    gold = forms.IntegerField(label=_("Gold"), widget=SMALL, min_value=0, max_value=99)
    silver = forms.IntegerField(label=_("Silver"), widget=SMALL, min_value=0, max_value=99)
    copper = forms.IntegerField(label=_("Copper"), widget=SMALL, min_value=0, max_value=99)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        unknown = Card.objects.filter(game=Game.TACTICS, card_set__isnull=True).filter(
            gold__isnull=True
        )
        self.fields["card"].choices = [
            (c.external_id, c.full_name()) for c in unknown.order_by("name_en", "title_en")
        ]


def _long_text(label, *, max_length: int, rows: int) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=max_length,
        widget=forms.Textarea(attrs={"rows": rows}),
    )


class ScenarioForm(forms.Form):
    """A scenario of a set, in English and (optionally) French, as cards are."""

    name_en = forms.CharField(label=_("Name"), max_length=120)
    name_fr = forms.CharField(label=_("Name (French)"), max_length=120, required=False)
    summary_en = _long_text(_("Summary"), max_length=2000, rows=3)
    summary_fr = _long_text(_("Summary (French)"), max_length=2000, rows=3)
    special_rules_en = _long_text(_("Special rules"), max_length=5000, rows=4)
    special_rules_fr = _long_text(_("Special rules (French)"), max_length=5000, rows=4)
    gold = forms.IntegerField(label=_("Gold"), widget=SMALL, min_value=0, max_value=99)
    silver = forms.IntegerField(label=_("Silver"), widget=SMALL, min_value=0, max_value=99)
    copper = forms.IntegerField(label=_("Copper"), widget=SMALL, min_value=0, max_value=99)
    side_b_gold = forms.IntegerField(label=_("Gold"), widget=SMALL, **COIN)
    side_b_silver = forms.IntegerField(label=_("Silver"), widget=SMALL, **COIN)
    side_b_copper = forms.IntegerField(label=_("Copper"), widget=SMALL, **COIN)
    side_a = forms.CharField(label=_("First side's name"), max_length=80, required=False)
    side_b = forms.CharField(label=_("Second side's name"), max_length=80, required=False)

    def value(self) -> ScenarioInput:
        data = self.cleaned_data
        second = [data.get(f"side_b_{c}") for c in ("gold", "silver", "copper")]
        return ScenarioInput(
            name_en=data["name_en"],
            name_fr=data["name_fr"],
            summary_en=data["summary_en"],
            summary_fr=data["summary_fr"],
            special_rules_en=data["special_rules_en"],
            special_rules_fr=data["special_rules_fr"],
            budget=(data["gold"], data["silver"], data["copper"]),
            budget_b=tuple(c or 0 for c in second) if any(c is not None for c in second) else None,
            side_a=data["side_a"],
            side_b=data["side_b"],
        )
