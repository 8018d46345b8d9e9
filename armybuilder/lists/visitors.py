"""Who is asking for a list: a logged-in user, or an anonymous visitor whose lists are theirs
through the session that built them.

One place reads and writes that session key, so the builder pages and the PDF exports
(which must let the same visitor export the same lists) can never disagree about it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest

from .models import ArmyList

SESSION_KEY = "citadel_lists"
MAX_SESSION_LISTS = 50


def session_list_ids(request: HttpRequest) -> list[int]:
    """The ids of the lists this browser session built; anything else stored there is ignored."""
    ids = request.session.get(SESSION_KEY, [])
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def remember(request: HttpRequest, army_list: ArmyList) -> None:
    """An anonymous visitor's lists are theirs through their session until they save them."""
    if army_list.owner_id is not None:
        return
    ids = [i for i in session_list_ids(request) if i != army_list.pk]
    request.session[SESSION_KEY] = [*ids, army_list.pk][-MAX_SESSION_LISTS:]


def viewer(request: HttpRequest) -> dict:
    """The keyword arguments the access selectors take (`can_edit`, `get_list_for_*`)."""
    return {"user": request.user, "session_list_ids": session_list_ids(request)}


def owner(request: HttpRequest) -> AbstractBaseUser | None:
    """Who owns a list made by this request: the user, or nobody (an anonymous session)."""
    return request.user if request.user.is_authenticated else None
