"""Forms of the builder pages: they only read and type the input; the services check it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from armybuilder.checking import MAX_LIST_CHARS
from armybuilder.tactics.draft import Coins
from armybuilder.tmg.rulesets import DEFAULT_RULESET, all_rulesets
from cards.models import Faction, Game, Scenario
from cards.templatetags.citadel import current_lang

from .models import EntryRole, Visibility
from .services import MAX_NAME, MAX_POINTS, MIN_POINTS
from .tactics_services import MAX_COPIES, SIZES, parse_budget

PRESET_SIZES = (30, 40, 50)  # AB-02: quick, standard and grand games


def faction_choices() -> list[tuple[str, str]]:
    lang = current_lang()
    return [(f.slug, f.name(lang)) for f in Faction.objects.filter(game=Game.TMG)]


def ruleset_choices() -> list[tuple[str, str]]:
    lang = current_lang()
    return [
        (r.id, r.name_fr if lang == "fr" else r.name_en)
        for r in sorted(all_rulesets().values(), key=lambda r: r.id)
    ]


SIZE_LABELS = {30: _("Quick game"), 40: _("Standard game"), 50: _("Grand game")}
OTHER = "other"


class ListSettingsForm(forms.Form):
    """Faction, game size (a preset or any number), ruleset and name of a list."""

    name = forms.CharField(label=_("Name"), max_length=MAX_NAME, required=False)
    faction = forms.ChoiceField(label=_("Faction"))
    size = forms.ChoiceField(
        label=_("Game size"),
        widget=forms.RadioSelect,
        initial="40",
        choices=[(str(n), f"{n} · {SIZE_LABELS[n]}") for n in PRESET_SIZES] + [(OTHER, _("Other"))],
    )
    points_limit = forms.IntegerField(
        label=_("Points"), min_value=MIN_POINTS, max_value=MAX_POINTS, required=False
    )
    ruleset = forms.ChoiceField(label=_("Ruleset"), initial=DEFAULT_RULESET)

    def __init__(self, *args, **kwargs):
        initial = kwargs.get("initial") or {}
        points = initial.get("points_limit")
        if points is not None:
            initial = {**initial, "size": str(points) if points in PRESET_SIZES else OTHER}
            if points in PRESET_SIZES:
                initial["points_limit"] = None
            kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = faction_choices()
        self.fields["ruleset"].choices = ruleset_choices()
        self.fields["points_limit"].widget.attrs.update(
            {
                "inputmode": "numeric",
                "placeholder": "35",
                "class": "size-other",
                # Convenience only: typing a number picks "Other" (the server decides).
                "oninput": "this.closest('fieldset').querySelector('input[value=other]')"
                ".checked = true",
            }
        )

    def clean(self):
        data = super().clean()
        size = data.get("size")
        if size and size != OTHER:
            data["points_limit"] = int(size)
        elif (
            size == OTHER and data.get("points_limit") is None and "points_limit" not in self.errors
        ):
            self.add_error("points_limit", _("Give the number of points."))
        return data

    def faction_object(self) -> Faction:
        return Faction.objects.get(game=Game.TMG, slug=self.cleaned_data["faction"])


class AddEntryForm(forms.Form):
    card = forms.IntegerField(min_value=1)
    role = forms.ChoiceField(
        choices=[(r, r) for r in (EntryRole.UNIT, EntryRole.ATTACHMENT, EntryRole.NCU)]
    )
    host = forms.IntegerField(min_value=1, required=False)


class EntryForm(forms.Form):
    entry = forms.IntegerField(min_value=1)


class MoveForm(forms.Form):
    entry = forms.IntegerField(min_value=1)
    host = forms.IntegerField(min_value=1)


class CommanderForm(forms.Form):
    # Empty: no chosen commander (the faction rule is not used).
    entry = forms.IntegerField(min_value=1, required=False)


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Visibility.choices)


class ImportForm(forms.Form):
    text = forms.CharField(
        label=_("List text or War Council share code"),
        max_length=MAX_LIST_CHARS,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
    )


# --- Tactics ---------------------------------------------------------------------------------

TACTICS_OTHER = "other"


def tactics_faction_choices() -> list[tuple[str, str]]:
    lang = current_lang()
    return [(f.slug, f.name(lang)) for f in Faction.objects.filter(game=Game.TACTICS)]


def tactics_size_choices() -> list[tuple[str, str]]:
    """Every Tactics scenario and game size (`scenario:<slug>`), the standard sizes missing
    from the table, then "other" (a literal gold-silver-copper budget)."""
    lang = current_lang()
    choices, budgets = [], set()
    for scenario in Scenario.objects.filter(game=Game.TACTICS):
        label = scenario.name(lang)
        if scenario.budget is None:
            label = _("%(name)s (budget unknown)") % {"name": label}
        else:
            budgets.add(Coins(**scenario.budget))
        choices.append((f"scenario:{scenario.slug}", label))
    words = {"small": _("Small"), "standard": _("Standard"), "large": _("Large")}
    for word, coins in SIZES.items():
        if coins not in budgets:
            choices.append((word, f"{words[word]} ({coins.label()})"))
    return [*choices, (TACTICS_OTHER, _("Other budget"))]


class TacticsSettingsForm(forms.Form):
    """Faction, scenario or game size (or any G-S-C budget) and name of a warband."""

    game = forms.CharField(widget=forms.HiddenInput, initial="tactics", required=False)
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME, required=False)
    faction = forms.ChoiceField(label=_("Faction"))
    size = forms.ChoiceField(label=_("Scenario or game size"), widget=forms.RadioSelect)
    budget = forms.CharField(label=_("Budget (gold-silver-copper)"), max_length=20, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = tactics_faction_choices()
        self.fields["size"].choices = tactics_size_choices()
        self.fields["budget"].widget.attrs.update(
            {
                "placeholder": "3-6-18",
                "class": "size-other",
                "autocomplete": "off",
                # Convenience only: typing a budget picks "Other" (the server decides).
                "oninput": "this.closest('fieldset').querySelector('input[value=other]')"
                ".checked = true",
            }
        )

    def clean(self):
        data = super().clean()
        size = data.get("size")
        data["scenario"] = None
        if size and size.startswith("scenario:"):
            data["scenario"] = Scenario.objects.filter(
                game=Game.TACTICS, slug=size.removeprefix("scenario:")
            ).first()
            data["budget"] = None
        elif size in SIZES:
            data["budget"] = size
        elif size == TACTICS_OTHER:
            try:
                data["budget"] = parse_budget(data.get("budget") or "")
            except ValidationError as exc:
                self.add_error("budget", exc)
        return data

    def faction_object(self) -> Faction:
        return Faction.objects.get(game=Game.TACTICS, slug=self.cleaned_data["faction"])

    @classmethod
    def initial_for(cls, army_list) -> dict:
        budget = (army_list.gold, army_list.silver, army_list.copper)
        if army_list.scenario_id:
            size, literal = f"scenario:{army_list.scenario.slug}", ""
        else:
            size, literal = TACTICS_OTHER, "-".join(str(n) for n in budget if n is not None)
        return {
            "name": army_list.name,
            "faction": army_list.faction.slug,
            "size": size,
            "budget": literal,
        }


class AddFigureForm(forms.Form):
    card = forms.IntegerField(min_value=1)
    copies = forms.IntegerField(min_value=1, max_value=MAX_COPIES, required=False)


class EquipForm(forms.Form):
    """Buy `card` for `holder`, or move the equipment `entry` to `holder`."""

    card = forms.IntegerField(min_value=1, required=False)
    entry = forms.IntegerField(min_value=1, required=False)
    holder = forms.IntegerField(min_value=1, required=False)


class CollectionForm(forms.Form):
    cards = forms.TypedMultipleChoiceField(coerce=int, required=False)

    def __init__(self, *args, card_ids=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cards"].choices = [(pk, pk) for pk in card_ids]
