"""The short share link of a list: its share token written in URL-safe base64 (22
characters instead of 36), so a printed sheet's link is short enough to type. It opens the
same read-only page as the long link, and only while the owner shares the list."""

from __future__ import annotations

import base64
import binascii
import uuid

from django.urls import reverse

from .models import ArmyList, Visibility

CODE_LENGTH = 22


def short_code(token: uuid.UUID) -> str:
    return base64.urlsafe_b64encode(token.bytes).decode("ascii").rstrip("=")


def token_from_code(code: str) -> uuid.UUID | None:
    """The share token a short code stands for; None for anything that is not one."""
    if len(code) != CODE_LENGTH:
        return None
    try:
        raw = base64.urlsafe_b64decode(code + "==")
    except (binascii.Error, ValueError):
        return None
    if len(raw) != 16 or short_code(uuid.UUID(bytes=raw)) != code:
        return None
    return uuid.UUID(bytes=raw)


def short_path(army_list: ArmyList) -> str:
    return reverse("short-share", args=[short_code(army_list.share_token)])


def is_shared(army_list: ArmyList) -> bool:
    return army_list.visibility == Visibility.LINK
