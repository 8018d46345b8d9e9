"""The JSON of a checked list (contracts §3), written once: these serializers shape the API
responses, `checklist --format json`, and document the OpenAPI schema.

They read the typed `CheckResult` (armybuilder/result.py). The reader's language comes
from the serializer context (`lang`), else the language the list was checked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from armybuilder.checking import GAMES, BatchItem, BatchResult
from armybuilder.findings import Finding
from armybuilder.listtext.reading import LineKind, LineReading
from armybuilder.result import CheckResult, ResultEntry
from armybuilder.tmg.deck import DeckCard
from common.i18n import card_language, pick


def _lang(serializer: serializers.BaseSerializer, result: CheckResult | None = None) -> str:
    asked = serializer.context.get("lang")
    return card_language(asked or (result.lang if result else None))


class StrictCharField(serializers.CharField):
    """A string field that takes only a JSON string: DRF's CharField would turn 0, true or
    1.5 into text, which the schema (type: string) does not allow. Its length limit counts
    the string as sent, as the schema's maxLength does (DRF counts it after trimming
    white space, which includes control characters such as U+001D)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """An integer field that takes only a JSON integer: not "40", not true."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A boolean field that takes only true or false: not "yes", not 1."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


@extend_schema_serializer(component_name="CheckError")
class ErrorSerializer(serializers.Serializer):
    """An error answer: what went wrong, as a sentence and as a stable code; a field
    error also gives the errors by field."""

    detail = serializers.CharField(required=False)
    code = serializers.CharField(required=False)


@extend_schema_serializer(component_name="FindingSchema")
class FindingSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="A fixed code of contracts §1, e.g. NEUTRAL_CAP_EXCEEDED."
    )
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField(help_text="In the requested language (en or fr).")
    entries = serializers.ListField(child=serializers.CharField(), help_text="Entry refs.")
    rule = serializers.CharField(help_text="AB-xx (TMG), TW-xx (Tactics), a faction rule card.")
    fix = serializers.CharField(allow_null=True, help_text="A concrete fix, when there is one.")
    rule_url = serializers.CharField(
        required=False,
        help_text="The section stating the rule, once a book is imported: in the reader's "
        "language when a book has it (a quick reference when no rulebook is in that language).",
    )
    rule_original_url = serializers.CharField(
        required=False,
        help_text="When rule_url is a quick reference: the rulebook's own section of the rule.",
    )

    def to_representation(self, finding: Finding) -> dict[str, Any]:
        return _finding(
            finding,
            _lang(self),
            self.context.get("citations", {}),
            self.context.get("original_citations", {}),
        )


def _finding(
    finding: Finding,
    lang: str,
    citations: Mapping[str, str],
    originals: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "code": finding.code,
        "severity": str(finding.severity),
        "message": finding.message.in_language(lang),
        "entries": list(finding.entries),
        "rule": finding.rule,
        "fix": finding.fix.in_language(lang) if finding.fix else None,
    }
    url = citations.get(finding.rule)
    if url:
        data["rule_url"] = url
        original = (originals or {}).get(finding.rule)
        if original:
            data["rule_original_url"] = original
    return data


@extend_schema_serializer(component_name="PointsSchema")
class PointsSerializer(serializers.Serializer):
    spent = serializers.IntegerField()
    limit = serializers.IntegerField()
    neutral = serializers.IntegerField()
    neutral_cap = serializers.IntegerField()
    limit_assumed = serializers.BooleanField(help_text="No Points line: the limit was assumed.")


@extend_schema_serializer(component_name="CoinSchema")
class CoinSerializer(serializers.Serializer):
    gold = serializers.IntegerField()
    silver = serializers.IntegerField()
    copper = serializers.IntegerField()


@extend_schema_serializer(component_name="CoinsSchema")
class CoinsSerializer(serializers.Serializer):
    spent = CoinSerializer()
    budget = CoinSerializer(allow_null=True)


@extend_schema_serializer(component_name="DeckCardSchema")
class DeckCardSerializer(serializers.Serializer):
    id = serializers.CharField(source="card_id")
    name = serializers.CharField(help_text="In the requested language.")
    copies = serializers.IntegerField()
    source = serializers.CharField()

    def to_representation(self, card: DeckCard) -> dict[str, Any]:
        return _deck_card(card, _lang(self))


def _deck_card(card: DeckCard, lang: str) -> dict[str, Any]:
    return {
        "id": card.card_id,
        "name": pick(lang, card.name_en, card.name_fr),
        "copies": card.copies,
        "source": card.source,
    }


def _tmg_entry(entry: ResultEntry, lang: str) -> dict[str, Any]:
    card: Any = entry.card
    data = {
        "ref": entry.ref,
        "line": entry.line,
        "role": entry.role,
        "host": entry.host,
        "id": card.id,
        "name": card.label(lang),
        "faction": card.faction,
        "points": entry.points,
        "printed_points": card.points,
        "commander": entry.commander,
    }
    if entry.corrected_from:
        data["corrected_from"] = entry.corrected_from
    return _with_reading(data, entry, lang)


def _with_reading(data: dict[str, Any], entry: ResultEntry, lang: str) -> dict[str, Any]:
    """What the text reader adds to an entry: how its card was chosen, the other cards the
    name could be, the cost printed beside it."""
    if entry.how is not None:
        data["how"] = entry.how.in_language(lang)
    if entry.alternatives:
        data["alternatives"] = list(entry.alternatives)
    if entry.printed_cost is not None:
        data["printed_cost"] = entry.printed_cost
    return data


def _line(reading: LineReading, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "line": reading.number,
        "text": reading.text,
        "kind": str(reading.kind),
        "entries": list(reading.refs),
    }
    if reading.note is not None:
        data["note"] = reading.note.in_language(lang)
    if reading.candidates:
        data["candidates"] = list(reading.candidates)
    return data


def _tactics_entry(entry: ResultEntry, lang: str) -> dict[str, Any]:
    card: Any = entry.card
    data = {
        "ref": entry.ref,
        "line": entry.line,
        "id": card.id,
        "kind": card.kind,
        "name": card.label(lang),
        "faction": card.faction,
        "cost": card.cost.as_dict() if card.cost else None,
    }
    if card.cost_from:  # a player's set gave the cost of a card whose own is unknown
        data["cost_from"] = card.cost_from
    if card.example:  # from the demo's example set: made-up, not official
        data["example"] = True
    if entry.host:
        data["holder"] = entry.host
    return _with_reading(data, entry, lang)


# Which keys each game's result has: the contract §3 shapes. `name`, `text` (and a
# warband's `scenario`) only once something was read.
_ENTRY_WRITERS = {"tmg": _tmg_entry, "tactics": _tactics_entry}
_GAME_KEYS = {
    "tmg": (
        "legal",
        "status",
        "game",
        "ruleset",
        "faction",
        "points",
        "entries",
        "findings",
        "deck",
        "lines",
    ),
    "tactics": (
        "legal",
        "status",
        "game",
        "faction",
        "coins",
        "figures",
        "entries",
        "findings",
        "lines",
    ),
}
_READ_KEYS = {"tmg": ("name", "text"), "tactics": ("scenario", "name", "text")}


@extend_schema_serializer(component_name="LineReadingSchema")
class LineReadingSerializer(serializers.Serializer):
    """Documents one line of the line-by-line reading (written by `_line`)."""

    line = serializers.IntegerField(help_text="1-based line number in the pasted text.")
    text = serializers.CharField(help_text="The line as printed.")
    kind = serializers.ChoiceField(choices=[kind.value for kind in LineKind])
    entries = serializers.ListField(
        child=serializers.CharField(), help_text="Refs of the entries read from this line."
    )
    note = serializers.CharField(
        required=False, help_text="Why the line was read so (a header, prose, …)."
    )
    candidates = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Card ids the line could name, when it was left unread.",
    )


@extend_schema_serializer(component_name="CheckResultSchema")
class CheckResultSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    status = serializers.ChoiceField(
        choices=["legal", "illegal", "empty", "undecided"],
        help_text=(
            "The verdict in one word: empty (no card: LIST_EMPTY), undecided (cards of "
            "unknown cost, CARD_COST_UNKNOWN, block the verdict), else legal or illegal."
        ),
    )
    game = serializers.ChoiceField(choices=list(GAMES))
    faction = serializers.CharField(allow_null=True)
    name = serializers.CharField(required=False)
    entries = serializers.SerializerMethodField(help_text="Resolved cards with their ids.")
    findings = serializers.SerializerMethodField()
    text = serializers.CharField(required=False, help_text="The list in canonical text.")
    ruleset = serializers.CharField(required=False, help_text="TMG only.")
    points = PointsSerializer(required=False, allow_null=True, help_text="TMG only.")
    deck = DeckCardSerializer(many=True, required=False, help_text="TMG only: the tactics deck.")
    coins = CoinsSerializer(
        required=False, allow_null=True, help_text="Tactics only (null: nothing was read)."
    )
    figures = serializers.IntegerField(required=False, help_text="Tactics only.")
    scenario = serializers.CharField(required=False, allow_null=True, help_text="Tactics only.")
    lines = LineReadingSerializer(
        many=True,
        help_text=(
            "Pasted text: every input line in order (blank ones included) and what became "
            "of it. Empty for a share code or a saved list."
        ),
    )

    # The JSON is written by `_VALUES` below (plain dicts: a thousand results serialize in
    # a fraction of the time checking them takes); the fields above document it.

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_entries(self, result: CheckResult) -> list[dict[str, Any]]:
        return _VALUES["entries"](result, _lang(self, result))

    @extend_schema_field(FindingSerializer(many=True))
    def get_findings(self, result: CheckResult) -> list[dict[str, Any]]:
        return _VALUES["findings"](result, _lang(self, result))

    def to_representation(self, result: CheckResult) -> dict[str, Any]:
        lang = _lang(self, result)
        keys = _GAME_KEYS[result.game] + (_READ_KEYS[result.game] if result.read else ())
        return {key: _VALUES[key](result, lang) for key in keys}


def _coins(result: CheckResult) -> dict[str, Any] | None:
    if result.coins is None:
        return None
    budget = result.coins.budget
    return {"spent": result.coins.spent.as_dict(), "budget": budget.as_dict() if budget else None}


_VALUES: dict[str, Callable[[CheckResult, str], Any]] = {
    "legal": lambda result, lang: result.legal,
    "status": lambda result, lang: result.status,
    "game": lambda result, lang: result.game,
    "ruleset": lambda result, lang: result.ruleset,
    "faction": lambda result, lang: result.faction,
    "name": lambda result, lang: result.name,
    "scenario": lambda result, lang: result.scenario,
    "text": lambda result, lang: result.text,
    "points": lambda result, lang: asdict(result.points) if result.points else None,
    "coins": lambda result, lang: _coins(result),
    "figures": lambda result, lang: result.figures,
    "entries": lambda result, lang: [
        _ENTRY_WRITERS[result.game](entry, lang) for entry in result.entries
    ],
    "findings": lambda result, lang: [
        _finding(finding, lang, result.citations, result.original_citations)
        for finding in result.findings
    ],
    "deck": lambda result, lang: [_deck_card(card, lang) for card in result.deck],
    "lines": lambda result, lang: [_line(reading, lang) for reading in result.lines],
}


@extend_schema_serializer(component_name="BatchResultSchema")
class BatchItemResultSerializer(CheckResultSerializer):
    id = serializers.CharField()
    team = serializers.CharField(required=False)

    def to_representation(self, item: BatchItem) -> dict[str, Any]:
        return {"id": item.label, **super().to_representation(item.result)}


@extend_schema_serializer(component_name="BatchSummarySchema")
class BatchSummarySerializer(serializers.Serializer):
    lists = serializers.IntegerField()
    legal = serializers.IntegerField()
    illegal = serializers.IntegerField()
    findings_by_code = serializers.DictField(child=serializers.IntegerField())


@extend_schema_serializer(component_name="CheckBatchResponseSchema")
class BatchResultSerializer(serializers.Serializer):
    results = BatchItemResultSerializer(many=True, source="items")
    summary = BatchSummarySerializer()


def result_json(result: CheckResult, *, lang: str | None = None) -> dict[str, Any]:
    """One result as contracts §3 JSON (for the CLI, the API and tests)."""
    return CheckResultSerializer(result, context={"lang": lang or result.lang}).data


def batch_json(batch: BatchResult, *, lang: str | None = None) -> dict[str, Any]:
    context = {"lang": lang} if lang else {}
    return BatchResultSerializer(batch, context=context).data


def findings_json(
    findings: tuple[Finding, ...] | list[Finding], *, lang: str = "en"
) -> tuple[dict[str, Any], ...]:
    """Findings without a result (the host chooser's reasons), as contracts §3 JSON."""
    return tuple(FindingSerializer(findings, many=True, context={"lang": lang}).data)
