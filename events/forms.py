"""Forms of the event pages: they read and type the input; events.services checks it."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from armybuilder.checking import MAX_LIST_CHARS
from armybuilder.lists.forms import ruleset_choices
from armybuilder.lists.models import ArmyList, ListGame
from cards.models import Scenario, ScenarioKind
from common.i18n import current_language, localized

from .models import Event, EventVisibility

SIZES = (
    (30, _("30 points (quick)")),
    (40, _("40 points (standard)")),
    (50, _("50 points (grand)")),
)


def _scenario_choices(game: str, kind: str) -> list[tuple[str, str]]:
    lang = current_language()
    return [
        (scenario.slug, localized(scenario, "name", lang))
        for scenario in Scenario.objects.filter(game=game, kind=kind).order_by("slug")
    ]


class EventForm(forms.Form):
    """An event's settings, as the create and edit pages ask for them."""

    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label=_("Place"), max_length=160, required=False)
    game = forms.ChoiceField(label=_("Game"), choices=ListGame.choices, widget=forms.RadioSelect)
    points = forms.IntegerField(
        label=_("Game size (TMG points)"),
        min_value=1,
        max_value=500,
        required=False,
        help_text=_("30, 40 or 50 for the standard sizes."),
    )
    budget = forms.CharField(
        label=_("Budget (Tactics)"),
        max_length=64,
        required=False,
        help_text=_("gold-silver-copper, e.g. 3-6-18, or a scenario with a budget."),
    )
    ruleset = forms.ChoiceField(label=_("Ruleset (TMG)"), required=False)
    game_modes = forms.MultipleChoiceField(
        label=_("Game modes played"), required=False, widget=forms.CheckboxSelectMultiple
    )
    deadline = forms.DateTimeField(
        label=_("List deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Lists lock at this time. Leave empty to lock them yourself."),
    )
    team_size = forms.IntegerField(
        label=_("Players per team"),
        min_value=1,
        max_value=10,
        initial=1,
        help_text=_("1 for an event of single players."),
    )
    visibility = forms.ChoiceField(
        label=_("Who sees the event"),
        choices=EventVisibility.choices,
        widget=forms.RadioSelect,
        initial=EventVisibility.UNLISTED,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        newest = ("", _("The newest in force on the event's date"))
        self.fields["ruleset"].choices = [newest, *ruleset_choices()]
        self.fields["game_modes"].choices = _scenario_choices(
            ListGame.TMG, ScenarioKind.GAME_MODE
        ) + _scenario_choices(ListGame.TACTICS, ScenarioKind.SCENARIO)

    @classmethod
    def initial_for(cls, event: Event) -> dict:
        return {
            "name": event.name,
            "date": event.date,
            "place": event.place,
            "game": event.game,
            "points": event.points,
            "budget": event.scenario.slug if event.scenario_id else event.budget_label,
            "ruleset": event.ruleset,
            "game_modes": list(event.game_modes),
            "deadline": timezone.localtime(event.deadline) if event.deadline else None,
            "team_size": event.team_size,
            "visibility": event.visibility,
        }

    def settings(self) -> dict:
        """The cleaned values as events.services.event_settings reads them."""
        data = dict(self.cleaned_data)
        if data.get("points") is None:
            data.pop("points", None)
        if not data.get("budget"):
            data.pop("budget", None)
        data["game_modes"] = [
            slug
            for slug in data.get("game_modes", [])
            if Scenario.objects.filter(game=data.get("game"), slug=slug).exists()
        ]
        return data


class SubmitForm(forms.Form):
    """A player's list: pasted (or a share code), or one of their saved lists."""

    text = forms.CharField(
        label=_("Paste your list or a War Council share code"),
        required=False,
        max_length=MAX_LIST_CHARS,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )
    saved = forms.ModelChoiceField(
        label=_("Or choose one of your saved lists"),
        queryset=ArmyList.objects.none(),
        required=False,
    )

    def __init__(self, *args, user=None, game: str = ListGame.TMG, **kwargs):
        super().__init__(*args, **kwargs)
        if user is not None and user.is_authenticated:
            self.fields["saved"].queryset = ArmyList.objects.filter(owner=user, game=game).order_by(
                "-updated_at"
            )

    def clean(self) -> dict:
        data = super().clean()
        if not (data.get("text") or "").strip() and data.get("saved") is None:
            raise forms.ValidationError(_("Paste your list, or choose a saved list."))
        return data


class IntakeForm(forms.Form):
    """Many lists at once: pasted, or a file (text, CSV or JSON)."""

    text = forms.CharField(
        label=_("Paste the lists"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text=_(
            "Separate the lists with a line of --- or start each with a line naming its player "
            "(Player: Alice, or # Alice)."
        ),
    )
    file = forms.FileField(
        label=_("Or upload a file"),
        required=False,
        help_text=_("A text file as above, a CSV with player and list columns, or JSON."),
    )

    def clean(self) -> dict:
        data = super().clean()
        upload = data.get("file")
        if upload is not None and upload.size > settings.CITADEL_MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)d MB.")
                % {"size": settings.CITADEL_MAX_UPLOAD_BYTES // (1024 * 1024)}
            )
        if upload is None and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste the lists or choose a file."))
        return data


class ReviewForm(forms.Form):
    note = forms.CharField(
        label=_("Note (organisers only)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    approved = forms.BooleanField(label=_("Approved"), required=False)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Player's name"), max_length=120)
    username = forms.CharField(label=_("Their account (optional)"), max_length=150, required=False)
    team = forms.CharField(label=_("Team"), max_length=80, required=False)


class OrganiserForm(forms.Form):
    username = forms.CharField(label=_("Account name"), max_length=150)


class JoinForm(forms.Form):
    team = forms.CharField(label=_("Team"), max_length=80, required=False)
