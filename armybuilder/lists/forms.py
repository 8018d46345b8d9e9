"""Forms of the builder pages: they only read and type the input; the services check it.

Each game's settings form (faction, game size, name) is a `GameSettingsForm`: the faction
choices of its game, the "other size" box, and the initial values for a new list or for
an existing one, so the builder pages can treat both games' settings alike.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from armybuilder.checking import MAX_LIST_CHARS
from armybuilder.tactics.draft import Coins
from armybuilder.tmg.rulesets import DEFAULT_RULESET, all_rulesets
from cards.card_sets.selectors import reading_sets, usable_sets, visible_scenarios
from cards.models import Faction, Game, Scenario
from common.i18n import current_language, localized

from .models import ArmyList, EntryRole, Visibility
from .services import MAX_NAME, MAX_POINTS, MIN_POINTS
from .tactics_services import MAX_COPIES, SIZES, parse_budget

PRESET_SIZES = (30, 40, 50)  # AB-02: quick, standard and grand games
OTHER = "other"  # the size choice that reads the "other size" box
# Convenience only: typing in the "other size" box picks "Other" (the server decides).
PICK_OTHER = "this.closest('fieldset').querySelector('input[value=other]').checked = true"


def faction_choices(game: str) -> list[tuple[str, str]]:
    lang = current_language()
    return [(f.slug, f.name(lang)) for f in Faction.objects.filter(game=game)]


def ruleset_choices() -> list[tuple[str, str]]:
    lang = current_language()
    return [
        (r.id, localized(r, "name", lang))
        for r in sorted(all_rulesets().values(), key=lambda r: r.id)
    ]


class GameSettingsForm(forms.Form):
    """Faction, game size and name of a list of `game`. `other_size` names the field of the
    box a size that is no preset is typed in (labelled `other_size_label`, else by its own
    label); `own_fields` are the game's other fields, shown as plain fields after the size
    (lists/_settings_fields.html draws either game's form)."""

    game: str
    other_size: str
    other_size_attrs: dict[str, str] = {}
    other_size_label: str | Promise | None = None
    own_fields: tuple[str, ...] = ()
    # The cleaned values the game's create and update services take, besides the faction.
    settings_fields: tuple[str, ...] = ()
    invalid_message: str | Promise  # what the builder says when the form does not validate

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user  # who chooses: the sets and scenarios they may see
        self.fields["faction"].choices = faction_choices(self.game)
        self.fields[self.other_size].widget.attrs.update(
            {**self.other_size_attrs, "class": "size-other", "oninput": PICK_OTHER}
        )

    def faction_object(self) -> Faction:
        return Faction.objects.get(game=self.game, slug=self.cleaned_data["faction"])

    def settings(self) -> dict:
        """The cleaned settings as the keyword arguments of the game's create and update
        services (`services.create_list`, `tactics_services.update_warband`, …)."""
        given = {name: self.cleaned_data[name] for name in self.settings_fields}
        return {"faction": self.faction_object(), **given}

    @property
    def other_size_field(self) -> forms.BoundField:
        return self[self.other_size]

    @property
    def other_size_text(self) -> str:
        return self.other_size_label or self.other_size_field.label

    @property
    def game_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.own_fields]

    @classmethod
    def initial_new(cls) -> dict:
        """The initial values of the form that starts a new list."""
        raise NotImplementedError

    @classmethod
    def initial_for(cls, army_list: ArmyList) -> dict:
        """The initial values of the form that changes `army_list`'s settings."""
        raise NotImplementedError


# --- TMG ---------------------------------------------------------------------------------------

SIZE_LABELS = {30: _("Quick game"), 40: _("Standard game"), 50: _("Grand game")}


class ListSettingsForm(GameSettingsForm):
    """Faction, game size (a preset or any number), ruleset and name of a list."""

    game = Game.TMG
    other_size = "points_limit"
    other_size_attrs = {"inputmode": "numeric", "placeholder": "35"}
    other_size_label = _("Points (any number)")
    own_fields = ("ruleset",)
    settings_fields = ("points_limit", "ruleset", "name")
    invalid_message = _("Check the list settings.")

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
        self.fields["ruleset"].choices = ruleset_choices()

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

    @classmethod
    def initial_new(cls) -> dict:
        return {"ruleset": DEFAULT_RULESET}

    @classmethod
    def initial_for(cls, army_list: ArmyList) -> dict:
        return {
            "name": army_list.name,
            "faction": army_list.faction.slug,
            "points_limit": army_list.points_limit,
            "ruleset": army_list.ruleset or DEFAULT_RULESET,
        }


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
    """A pasted list, and the card sets a Tactics warband is read against besides the
    shipped cards (those a warband of the reader may draw from; by default the example set
    and the reader's own sets). `sets_shown` tells "none ticked" from a post without the
    field (a script's), which takes the default."""

    text = forms.CharField(
        label=_("List text or War Council share code"),
        max_length=MAX_LIST_CHARS,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
    )
    card_sets = forms.MultipleChoiceField(
        label=_("Card sets a Tactics warband is read against (besides the shipped cards)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    sets_shown = forms.BooleanField(required=False, initial=True, widget=forms.HiddenInput)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.sets = {str(s.pk): s for s in usable_sets(user)}
        self.fields["card_sets"].choices = [(pk, set_label(s)) for pk, s in self.sets.items()]
        self.defaults = [str(pk) for pk in reading_sets(user).values_list("pk", flat=True)]
        self.fields["card_sets"].initial = self.defaults

    def clean(self):
        data = super().clean()
        chosen = data.get("card_sets") if data.get("sets_shown") else self.defaults
        data["card_sets"] = [self.sets[pk] for pk in chosen or () if pk in self.sets]
        return data


def set_label(card_set) -> str:
    if card_set.is_example:
        return _("%(name)s (example, not official)") % {"name": card_set.name}
    return card_set.name


# --- Tactics ---------------------------------------------------------------------------------


def _side_label(scenario: Scenario, side: str) -> str:
    budget = Coins(**(scenario.budget_for(side) or {}))
    name = (scenario.side_a_en if side == "a" else scenario.side_b_en) or side.upper()
    return _("%(name)s, side %(side)s (%(budget)s)") % {
        "name": scenario.name(current_language()),
        "side": name,
        "budget": budget.label(),
    }


def tactics_size_choices(user=None) -> list[tuple[str, str]]:
    """Every Tactics scenario and game size (`scenario:<slug>`; an asymmetric scenario once
    per side, `scenario:<slug>:b` for the second), the shipped ones and those of the sets
    `user` may see, the standard sizes missing from the table, then "other" (a literal
    gold-silver-copper budget)."""
    lang = current_language()
    choices, budgets = [], set()
    scenarios = visible_scenarios(Scenario.objects.filter(game=Game.TACTICS), user)
    for scenario in scenarios.order_by("card_set_id", "sort_order", "slug"):
        label = scenario.name(lang)
        if scenario.is_asymmetric:
            choices.append((f"scenario:{scenario.slug}", _side_label(scenario, "a")))
            choices.append((f"scenario:{scenario.slug}:b", _side_label(scenario, "b")))
            continue
        if scenario.budget is None:
            label = _("%(name)s (budget unknown)") % {"name": label}
        else:
            budgets.add(Coins(**scenario.budget))
        choices.append((f"scenario:{scenario.slug}", label))
    words = {"small": _("Small"), "standard": _("Standard"), "large": _("Large")}
    for word, coins in SIZES.items():
        if coins not in budgets:
            choices.append((word, f"{words[word]} ({coins.label()})"))
    return [*choices, (OTHER, _("Other budget"))]


class TacticsSettingsForm(GameSettingsForm):
    """Faction, scenario or game size (or any G-S-C budget) and name of a warband."""

    game = Game.TACTICS
    other_size = "budget"
    other_size_attrs = {"placeholder": "3-6-18", "autocomplete": "off"}
    settings_fields = ("scenario", "budget", "name", "side", "card_sets")
    own_fields = ("card_sets",)
    invalid_message = _("Check the warband settings.")

    name = forms.CharField(label=_("Name"), max_length=MAX_NAME, required=False)
    faction = forms.ChoiceField(label=_("Faction"))
    size = forms.ChoiceField(label=_("Scenario or game size"), widget=forms.RadioSelect)
    budget = forms.CharField(label=_("Budget (gold-silver-copper)"), max_length=20, required=False)
    card_sets = forms.MultipleChoiceField(
        label=_("Card sets it draws from (besides the shipped cards)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["size"].choices = tactics_size_choices(self.user)
        self.sets = {str(s.pk): s for s in usable_sets(self.user)}
        self.fields["card_sets"].choices = [(pk, set_label(s)) for pk, s in self.sets.items()]

    def clean(self):
        data = super().clean()
        size = data.get("size")
        data["scenario"] = None
        data["side"] = "a"
        data["card_sets"] = [self.sets[pk] for pk in data.get("card_sets") or () if pk in self.sets]
        if size and size.startswith("scenario:"):
            slug = size.removeprefix("scenario:")
            if slug.endswith(":b"):
                slug, data["side"] = slug.removesuffix(":b"), "b"
            data["scenario"] = Scenario.objects.filter(game=Game.TACTICS, slug=slug).first()
            data["budget"] = None
        elif size in SIZES:
            data["budget"] = size
        elif size == OTHER:
            try:
                data["budget"] = parse_budget(data.get("budget") or "")
            except ValidationError as exc:
                self.add_error("budget", exc)
        return data

    @classmethod
    def initial_new(cls) -> dict:
        """The standard game size (its scenario when the table has it), drawing from the
        example set when the demo has one."""
        choices = [value for value, _label in tactics_size_choices()]
        size = next((v for v in ("scenario:tac-standard", "standard") if v in choices), choices[0])
        examples = usable_sets(None).filter(is_example=True).values_list("pk", flat=True)
        return {"size": size, "card_sets": [str(pk) for pk in examples]}

    @classmethod
    def initial_for(cls, army_list: ArmyList) -> dict:
        budget = (army_list.gold, army_list.silver, army_list.copper)
        if army_list.scenario_id:
            size, literal = f"scenario:{army_list.scenario.slug}", ""
            if army_list.scenario_side == "b":
                size += ":b"
        else:
            size, literal = OTHER, "-".join(str(n) for n in budget if n is not None)
        return {
            "name": army_list.name,
            "faction": army_list.faction.slug,
            "size": size,
            "budget": literal,
            "card_sets": [str(pk) for pk in army_list.card_sets.values_list("pk", flat=True)],
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
