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


@dataclass(frozen=True, slots=True)
class RuleLink:
    """Where a rule is stated: `url` in the reader's language when a book has it (a quick
    reference in that language when no rulebook is), and `original_url`, the rulebook's
    own section, when `url` is a quick reference."""

    url: str
    original_url: str | None = None


_cache: dict[str, tuple[float, dict[str, RuleLink]]] = {}


def rule_links(*, language: str) -> dict[str, RuleLink]:
    """Rule id -> where it is stated, for the rules some book covers."""
    cached = _cache.get(language)
    if cached and time.monotonic() - cached[0] < CACHE_SECONDS:
        return cached[1]
    links = _resolve(language)
    _cache[language] = (time.monotonic(), links)
    return links


def rule_urls(*, language: str) -> dict[str, str]:
    """Rule id -> URL of the section that states it, for the rules some book covers."""
    return {rule: link.url for rule, link in rule_links(language=language).items()}


def clear_cache(**_signal_kwargs) -> None:
    _cache.clear()


def _resolve(language: str) -> dict[str, RuleLink]:
    from rules.selectors import definition_index

    links: dict[str, RuleLink] = {}
    indexes = {}
    for rule, citation in load_citations().items():
        if citation.game not in indexes:
            indexes[citation.game] = definition_index(citation.game)
        index = indexes[citation.game]
        found = index.find_first(citation.headings, language=language)
        if found is None:
            continue
        original = None
        if found.is_quick_reference:
            original = index.find_first(citation.headings, language=language, full_rulebook=True)
        links[rule] = RuleLink(url=_url(found), original_url=_url(original) if original else None)
    return links


def _url(definition) -> str:
    return reverse("rules:section", args=[definition.book_slug, definition.slug])


def _clear_now_and_after_commit(**_signal_kwargs) -> None:
    # Now, for this transaction's own reads; after commit, for what was read meanwhile.
    clear_cache()
    transaction.on_commit(clear_cache)


def connect_signals() -> None:
    from rules.models import Rulebook

    clear = _clear_now_and_after_commit
    post_save.connect(clear, sender=Rulebook, dispatch_uid="citations-save")
    post_delete.connect(clear, sender=Rulebook, dispatch_uid="citations-delete")
