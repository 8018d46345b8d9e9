"""The event pages: thin views over events.services and events.selectors.

An event the visitor may not see, and a list they may not read, answer 404; an action only
organisers may take answers 403 with the reason; a refused write (locked lists, a bad value)
shows the page again with the message, nothing stored is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.i18n import current_language
from common.redirects import safe_next

from . import errata, intake, selectors, services
from .forms import (
    EventForm,
    IntakeForm,
    JoinForm,
    OrganiserForm,
    PlayerForm,
    ReviewForm,
    SubmitForm,
)
from .models import Event, EventList


def _event(request: HttpRequest, event_id: int) -> Event:
    found = selectors.event_for_viewer(
        event_id=event_id, user=request.user, token=request.GET.get("t")
    )
    if found is None:
        raise Http404(_("No event you may see has this number."))
    return found


def _organised(request: HttpRequest, event_id: int) -> Event:
    event = _event(request, event_id)
    if not selectors.is_organiser(event, request.user):
        raise services.EventRefused(_("Only the event's organisers may do this."), status=403)
    return event


def _organiser_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view takes the event, organised by the visitor; anyone else is answered 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, event_id: int, *args, **kwargs) -> HttpResponse:
        try:
            event = _organised(request, event_id)
        except services.EventRefused as exc:
            return HttpResponseForbidden(exc.message)
        return view(request, event, *args, **kwargs)

    return wrapper


def _refused_on(form: forms.Form, exc: services.EventRefused) -> None:
    """The refusal shown on the form: on its field when the form has it, else above it."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def _refusal(request: HttpRequest, exc: services.EventRefused, back: str) -> HttpResponse:
    if exc.status == 403:
        return HttpResponseForbidden(exc.message)
    messages.error(request, exc.message)
    return redirect(back)


# --- the events --------------------------------------------------------------------------------


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    public = selectors.public_events()
    return render(
        request,
        "events/index.html",
        {
            "mine": selectors.my_events(request.user),
            "upcoming": public.filter(date__gte=today).order_by("date", "id")[:50],
            "past": public.filter(date__lt=today)[:20],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    form = EventForm(
        request.POST or None, initial={"game": request.GET.get("game", "tmg"), "points": 40}
    )
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(creator=request.user, data=form.settings())
        except services.EventRefused as exc:
            _refused_on(form, exc)
        else:
            messages.success(
                request, _("The event is ready: share its join link with the players.")
            )
            return redirect("events:detail", event.pk)
    return render(request, "events/form.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
@_organiser_page
def edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, initial=EventForm.initial_for(event))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_event(event=event, actor=request.user, data=form.settings())
        except services.EventRefused as exc:
            _refused_on(form, exc)
        else:
            messages.success(request, _("The event's settings are saved."))
            return redirect("events:detail", event.pk)
    return render(
        request,
        "events/form.html",
        {"form": form, "event": event},
        status=400 if form.errors else 200,
    )


def _my_list_context(request: HttpRequest, event: Event, player, form=None) -> dict:
    stored = getattr(player, "event_list", None) if player else None
    lang = current_language()
    return {
        "player": player,
        "my_list": stored,
        "my_row": selectors.report_rows([stored], lang=lang)[0] if stored else None,
        # To fix a list, the player starts from what they submitted.
        "submit_form": form
        or SubmitForm(
            user=request.user,
            game=event.game,
            initial={"text": stored.text if stored and stored.source != "saved" else ""},
        ),
    }


@require_GET
def detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(request, event_id)
    return render(request, "events/detail.html", _detail_context(request, event))


def _detail_context(request: HttpRequest, event: Event, form=None) -> dict:
    organiser = selectors.is_organiser(event, request.user)
    player = selectors.player_of(event, request.user)
    players = event.players.select_related("team", "event_list").order_by("name")
    return {
        "event": event,
        "organiser": organiser,
        "players": players,
        "published_lists": (
            selectors.lists_for_viewer(event, request.user) if event.is_published else None
        ),
        "join_url": request.build_absolute_uri(reverse("events:join", args=[event.join_token])),
        "join_form": JoinForm(),
        **_my_list_context(request, event, player, form),
    }


# --- players ------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token) -> HttpResponse:
    """The join link: an unlisted event's page for whoever holds it, and its Join button."""
    event = selectors.event_by_join_token(token)
    if event is None:
        raise Http404(_("This join link does not lead to any event."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        form = JoinForm(request.POST)
        team = form.cleaned_data["team"] if form.is_valid() else ""
        try:
            services.join_event(event=event, user=request.user, team=team)
        except services.EventRefused as exc:
            messages.error(request, exc.message)
            return redirect(request.path)
        messages.success(
            request, _("You play in %(event)s. Submit your list below.") % {"event": event.name}
        )
        return redirect(reverse("events:detail", args=[event.pk]) + "#my-list")
    return render(request, "events/join.html", {"event": event, "join_form": JoinForm()})


@login_required
@require_POST
def join_public(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(request, event_id)
    form = JoinForm(request.POST)
    try:
        services.join_event(
            event=event,
            user=request.user,
            team=form.cleaned_data["team"] if form.is_valid() else "",
        )
    except services.EventRefused as exc:
        return _refusal(request, exc, reverse("events:detail", args=[event.pk]))
    return redirect(reverse("events:detail", args=[event.pk]) + "#my-list")


@login_required
@require_POST
def submit(request: HttpRequest, event_id: int) -> HttpResponse:
    """A player's list, pasted or saved: judged at once; the page shows the verdict and how
    each line was read. Refused once the lists are locked, with the reason."""
    event = _event(request, event_id)
    player = selectors.player_of(event, request.user)
    if player is None:
        messages.error(request, _("Join the event before submitting a list."))
        return redirect("events:detail", event.pk)
    form = SubmitForm(request.POST, user=request.user, game=event.game)
    if form.is_valid():
        try:
            services.submit_list(
                event=event,
                player=player,
                actor=request.user,
                text=form.cleaned_data["text"] if form.cleaned_data.get("saved") is None else None,
                saved_list=form.cleaned_data.get("saved"),
            )
        except services.EventRefused as exc:
            form.add_error("text" if exc.field == "text" else None, exc.message)
        else:
            messages.success(
                request, _("Your list is submitted. You may change it until the lists lock.")
            )
            return redirect(reverse("events:detail", args=[event.pk]) + "#my-list")
    player.refresh_from_db()
    return render(request, "events/detail.html", _detail_context(request, event, form), status=400)


@login_required
@require_POST
def withdraw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(request, event_id)
    player = selectors.player_of(event, request.user)
    back = reverse("events:detail", args=[event.pk])
    if player is None:
        return redirect(back)
    try:
        services.withdraw_list(event=event, player=player, actor=request.user)
    except services.EventRefused as exc:
        return _refusal(request, exc, back)
    messages.success(request, _("Your list is withdrawn."))
    return redirect(back)


@require_GET
def list_detail(request: HttpRequest, event_id: int, list_id: int) -> HttpResponse:
    """One list as it was judged and stored: for its player, the organisers, and everyone who
    may see the event once the lists are published."""
    event = _event(request, event_id)
    stored = selectors.lists_for_viewer(event, request.user).filter(pk=list_id).first()
    if stored is None:
        raise Http404(_("No list you may see has this number."))
    organiser = selectors.is_organiser(event, request.user)
    [row] = selectors.report_rows([stored], lang=current_language())
    return render(
        request,
        "events/list.html",
        {
            "event": event,
            "row": row,
            "organiser": organiser,
            "review_form": ReviewForm(initial={"note": stored.note, "approved": stored.approved}),
        },
    )


# --- organisers ---------------------------------------------------------------------------------


def _organise_context(request: HttpRequest, event: Event, **extra) -> dict:
    shown = request.GET.get("show", "all")
    if shown not in selectors.FILTERS:
        shown = "all"
    lang = current_language()
    everything = selectors.lists_for_viewer(event, request.user)
    report = selectors.event_report(
        event, selectors.filtered(everything, shown), lang=lang, now=timezone.now()
    )
    return {
        "event": event,
        "organiser": True,
        "report": report,
        "summary": selectors.event_report(event, everything, lang=lang, now=timezone.now()).summary,
        "shown": shown,
        "filters": selectors.FILTERS,
        "waiting": selectors.players_without_list(event),
        "intake_form": IntakeForm(),
        "player_form": PlayerForm(),
        "organiser_form": OrganiserForm(),
        "impacts": errata.said_in(errata.relevant(errata.impacts_of_event(event)), lang=lang),
        "join_url": request.build_absolute_uri(reverse("events:join", args=[event.join_token])),
        **extra,
    }


@login_required
@require_GET
@_organiser_page
def organise(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "events/organise.html", _organise_context(request, event))


@login_required
@require_POST
@_organiser_page
def intake_view(request: HttpRequest, event: Event) -> HttpResponse:
    """Bulk intake: the lists just taken in, with the report of each, above the dashboard."""
    form = IntakeForm(request.POST, request.FILES)
    extra: dict = {"intake_form": form}
    status = 400
    if form.is_valid():
        upload = form.cleaned_data.get("file")
        try:
            read = intake.read_intake(
                upload.read() if upload is not None else form.cleaned_data["text"],
                filename=upload.name if upload is not None else "",
                is_list_line=services.list_line_test(event),
            )
            outcome = services.intake_lists(event=event, pieces=read.pieces, actor=request.user)
        except intake.IntakeError as exc:
            form.add_error(None, exc.message.in_language(current_language()))
        except services.EventRefused as exc:
            form.add_error(None, exc.message)
        else:
            extra = {
                "intake_form": IntakeForm(),
                "intake": selectors.intake_report(
                    event,
                    outcome.lists,
                    pieces=outcome.pieces,
                    lang=current_language(),
                    now=timezone.now(),
                ),
            }
            status = 200
    return render(
        request, "events/organise.html", _organise_context(request, event, **extra), status=status
    )


def _organiser_action(request: HttpRequest, event_id: int, action) -> HttpResponse:
    back = reverse("events:organise", args=[event_id])
    try:
        event = _organised(request, event_id)
        action(event)
    except services.EventRefused as exc:
        return _refusal(request, exc, back)
    return redirect(safe_next(request) or back)


def _every_list_action(
    request: HttpRequest, event_id: int, service: Callable[..., Event], done: str
) -> HttpResponse:
    """An organiser's action on every list of the event at once (`service`), then `done`."""

    def perform(event: Event) -> None:
        service(event=event, actor=request.user)
        messages.success(request, done)

    return _organiser_action(request, event_id, perform)


@login_required
@require_POST
def lock(request: HttpRequest, event_id: int) -> HttpResponse:
    return _every_list_action(request, event_id, services.lock_event, _("Every list is locked."))


@login_required
@require_POST
def publish(request: HttpRequest, event_id: int) -> HttpResponse:
    return _every_list_action(
        request, event_id, services.publish_lists, _("Every list is published (and locked).")
    )


@login_required
@require_POST
def review(request: HttpRequest, event_id: int, list_id: int) -> HttpResponse:
    def perform(event: Event) -> None:
        stored = EventList.objects.filter(pk=list_id, player__event=event).first()
        if stored is None:
            raise Http404(_("No list you may see has this number."))
        form = ReviewForm(request.POST)
        if not form.is_valid():
            raise services.EventRefused(_("This request is missing a value or has a wrong one."))
        services.review_list(
            event_list=stored,
            actor=request.user,
            note=form.cleaned_data["note"],
            approved=form.cleaned_data["approved"],
        )
        messages.success(request, _("Saved for %(player)s.") % {"player": stored.player.name})

    return _organiser_action(request, event_id, perform)


def _account(username: str) -> AbstractBaseUser:
    """The account of this name; EventRefused on the username field when there is none."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise services.EventRefused(_("No account has this name."), field="username")
    return user


@login_required
@require_POST
def add_player(request: HttpRequest, event_id: int) -> HttpResponse:
    def perform(event: Event) -> None:
        form = PlayerForm(request.POST)
        if not form.is_valid():
            raise services.EventRefused(_("Give the player's name."), field="name")
        username = form.cleaned_data["username"]
        player = services.add_player(
            event=event,
            actor=request.user,
            name=form.cleaned_data["name"],
            user=_account(username) if username else None,
            team=form.cleaned_data["team"],
        )
        messages.success(request, _("%(player)s plays in the event.") % {"player": player.name})

    return _organiser_action(request, event_id, perform)


@login_required
@require_POST
def add_organiser(request: HttpRequest, event_id: int) -> HttpResponse:
    def perform(event: Event) -> None:
        form = OrganiserForm(request.POST)
        name = form.cleaned_data["username"] if form.is_valid() else ""
        services.add_organiser(event=event, actor=request.user, user=_account(name))
        messages.success(request, _("%(name)s organises the event too.") % {"name": name})

    return _organiser_action(request, event_id, perform)
