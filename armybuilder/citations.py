"""Links from a finding's rule id (AB-06, TW-13…) to the rulebook section stating the rule.

Which headings state which rule is data (data/rule_citations.json); where those headings
are depends on the books imported, so the links are resolved through the rules app and
cached: a check-batch of a thousand lists resolves them once. The cache empties when a
rulebook is saved or deleted in this process, and expires after a few minutes elsewhere.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.urls import reverse

CITATIONS_PATH = Path(__file__).resolve().parent / "data" / "rule_citations.json"
CACHE_SECONDS = 300


@dataclass(frozen=True, slots=True)
class RuleCitation:
    rule: str
    game: str
    headings: tuple[str, ...]


@lru_cache(maxsize=1)
def load_citations() -> dict[str, RuleCitation]:
    data = json.loads(CITATIONS_PATH.read_text(encoding="utf-8"))
    return {
        rule: RuleCitation(rule=rule, game=record["game"], headings=tuple(record["headings"]))
        for rule, record in data["rules"].items()
    }


_cache: dict[str, tuple[float, dict[str, str]]] = {}


def rule_urls(*, language: str) -> dict[str, str]:
    """Rule id -> URL of the section that states it, for the rules some book covers."""
    cached = _cache.get(language)
    if cached and time.monotonic() - cached[0] < CACHE_SECONDS:
        return cached[1]
    urls = _resolve(language)
    _cache[language] = (time.monotonic(), urls)
    return urls


def clear_cache(**_signal_kwargs) -> None:
    _cache.clear()


def _resolve(language: str) -> dict[str, str]:
    from rules.selectors import definition_index

    urls: dict[str, str] = {}
    indexes = {}
    for rule, citation in load_citations().items():
        if citation.game not in indexes:
            indexes[citation.game] = definition_index(citation.game)
        found = indexes[citation.game].find_first(citation.headings, language=language)
        if found is not None:
            urls[rule] = reverse("rules:section", args=[found.book_slug, found.slug])
    return urls


def _clear_now_and_after_commit(**_signal_kwargs) -> None:
    # Now, for this transaction's own reads; after commit, for what was read meanwhile.
    clear_cache()
    transaction.on_commit(clear_cache)


def connect_signals() -> None:
    from rules.models import Rulebook

    clear = _clear_now_and_after_commit
    post_save.connect(clear, sender=Rulebook, dispatch_uid="citations-save")
    post_delete.connect(clear, sender=Rulebook, dispatch_uid="citations-delete")
