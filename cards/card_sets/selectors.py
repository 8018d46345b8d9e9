"""Who may see a card set, and what a reader may see of the card pool.

A set is seen by its owner always; by anyone when it is published and not hidden by an
admin; by anyone holding its share token when it is shared by link (and not hidden).
Searches (pages, API, the query language's `set:`) list the shipped cards, the published
sets' cards and the reader's own sets' cards; a set shared by link is reached through its
link only. Anything else answers "no such set" (404), never "forbidden".
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from cards.models import Card, CardSet, CostOverride, Scenario, SetVisibility

SLUG = re.compile(r"[-\w]+")  # what a set's slug can be (SlugField, unicode or not)

User = AbstractBaseUser | AnonymousUser | None


def _user_id(user: User) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def listed_sets_q(user: User, *, prefix: str = "") -> Q:
    """Sets a reader finds in searches: published and not hidden, or their own."""
    published = Q(**{f"{prefix}visibility": SetVisibility.PUBLISHED}) & Q(
        **{f"{prefix}hidden_by_admin": False}
    )
    owner = _user_id(user)
    return published | Q(**{f"{prefix}owner_id": owner}) if owner else published


def listed_sets(user: User) -> QuerySet[CardSet]:
    return CardSet.objects.filter(listed_sets_q(user)).select_related("owner")


def published_sets() -> QuerySet[CardSet]:
    return listed_sets(None).order_by("-updated_at", "pk")


def published_sets_of_others(user: User) -> QuerySet[CardSet]:
    """Published sets less the reader's own (listed apart): the example set, which has no
    owner, stays listed for everyone, anonymous visitors included."""
    owner = _user_id(user)
    sets = published_sets()
    return sets.exclude(owner_id=owner) if owner is not None else sets


def sets_of(user: User) -> QuerySet[CardSet]:
    """A user's own sets (none for an anonymous visitor)."""
    owner = _user_id(user)
    if owner is None:
        return CardSet.objects.none()
    return CardSet.objects.filter(owner_id=owner).order_by("-updated_at", "pk")


def visible_cards(queryset: QuerySet[Card], user: User) -> QuerySet[Card]:
    """`queryset` without the cards of sets the reader may not list."""
    return queryset.filter(Q(card_set__isnull=True) | listed_sets_q(user, prefix="card_set__"))


def visible_scenarios(queryset: QuerySet[Scenario], user: User) -> QuerySet[Scenario]:
    return queryset.filter(Q(card_set__isnull=True) | listed_sets_q(user, prefix="card_set__"))


def may_see(card_set: CardSet, user: User, *, token: str | None = None) -> bool:
    owner = _user_id(user)
    if owner is not None and card_set.owner_id == owner:
        return True
    if card_set.hidden_by_admin:
        return False
    if card_set.visibility == SetVisibility.PUBLISHED:
        return True
    return card_set.visibility == SetVisibility.LINK and token == str(card_set.share_token)


def viewable_set(slug: str, user: User, *, token: str | None = None) -> CardSet | None:
    """The set if the reader may see it, else None (the caller answers 404)."""
    card_set = CardSet.objects.select_related("owner").filter(slug=slug).first()
    if card_set is None or not may_see(card_set, user, token=token):
        return None
    return card_set


def set_by_token(token: str) -> CardSet | None:
    try:
        value = uuid.UUID(str(token))
    except ValueError:
        return None
    card_set = CardSet.objects.select_related("owner").filter(share_token=value).first()
    if card_set is None or card_set.hidden_by_admin or card_set.visibility == "private":
        return None
    return card_set


def editable_set(slug: str, user: User) -> CardSet | None:
    """The set if the reader owns it, else None (404: another user's set is not there)."""
    owner = _user_id(user)
    if owner is None:
        return None
    return CardSet.objects.filter(slug=slug, owner_id=owner).first()


def set_cards(card_set: CardSet) -> QuerySet[Card]:
    return (
        card_set.cards.select_related("faction")
        .prefetch_related("characters")
        .order_by("kind", "name_en", "title_en")
    )


def set_overrides(card_set: CardSet) -> QuerySet[CostOverride]:
    return card_set.overrides.select_related("card", "card__faction").order_by("card__name_en")


def usable_sets(user: User, *, game: str = "tactics") -> QuerySet[CardSet]:
    """The sets a warband may draw from: the reader's own, published ones, and the
    project's example set."""
    return listed_sets(user).filter(game=game).order_by("-is_example", "name", "pk")


def reading_sets(user: User) -> QuerySet[CardSet]:
    """The sets a pasted warband is read against when the reader chooses none: the example
    set (ticked by default for a new warband in the builder) and the reader's own sets."""
    owner = _user_id(user)
    mine = Q(is_example=True) | Q(owner_id=owner) if owner else Q(is_example=True)
    return usable_sets(user).filter(mine)


class UnusableSet(LookupError):
    """A set named by slug or id that does not exist or that the reader may not use."""

    def __init__(self, ref: str) -> None:
        super().__init__(ref)
        self.ref = ref


def usable_sets_named(refs: Sequence[str], user: User) -> list[CardSet]:
    """The sets `refs` name (a slug, or an id written in digits), in their order and each
    once, among those a warband of `user` may draw from; the first that names none raises
    `UnusableSet` (a set the reader may not see is "unknown", as on its page)."""
    ids = [int(ref) for ref in refs if ref.isascii() and ref.isdigit() and len(ref) < 19]
    # Only what could be a slug goes to the database (PostgreSQL refuses a NUL in a string).
    slugs = [ref for ref in refs if SLUG.fullmatch(ref)]
    usable = list(usable_sets(user).filter(Q(slug__in=slugs) | Q(pk__in=ids)))
    by_slug = {s.slug: s for s in usable}
    by_id = {str(s.pk): s for s in usable}
    chosen: list[CardSet] = []
    for ref in refs:
        card_set = by_slug.get(ref) or by_id.get(ref)
        if card_set is None:
            raise UnusableSet(ref)
        if card_set not in chosen:
            chosen.append(card_set)
    return chosen


def cost_override_for(card: Card, set_ids: list[int]) -> CostOverride | None:
    """The override one of these sets gives `card` (the first set by name)."""
    if not set_ids or card.card_set_id is not None:
        return None
    return (
        CostOverride.objects.filter(card=card, card_set_id__in=set_ids)
        .select_related("card_set")
        .order_by("card_set__name", "pk")
        .first()
    )
