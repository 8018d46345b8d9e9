"""manage.py checklist: check army lists and warbands from files (contracts §3).

Exit status: 0 every list legal, 1 at least one illegal list, 2 usage error or
unreadable file.
"""

import json
import sys
from collections.abc import Mapping

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from armybuilder.checking import (
    BatchItem,
    CheckError,
    CheckOptions,
    Pools,
    apply_team_rules,
    check_list_text,
)
from armybuilder.lists.selectors import reading_card_names
from armybuilder.result import CheckResult
from armybuilder.serializers import result_json
from cards.card_sets.selectors import UnusableSet, usable_sets_named


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"checklist: cannot read {path}: {exc}", returncode=2) from exc


def format_text(path: str, result: CheckResult, names: Mapping[str, str] | None = None) -> str:
    """The human summary: verdict, what was spent, one line per finding, then how each
    input line was read (`names`: card id -> name, for the cards a line could have been)."""
    verdict = "LEGAL" if result.legal else "ILLEGAL"
    summary = result.faction or "?"
    if result.coins is not None:
        summary += f" coins {result.coins.spent.label()}"
        if result.coins.budget:
            summary += f" of {result.coins.budget.label()}"
    if result.game == "tactics":
        summary += f", {result.figures} figures"
    if result.points is not None:
        points = result.points
        summary += (
            f" {points.spent}/{points.limit} pts (neutral {points.neutral}/{points.neutral_cap})"
        )
    lines = [f"{path}: {verdict}  {summary}"]
    for finding in result.findings:
        line = f"  [{finding.severity.upper()}] {finding.code} ({finding.rule}): "
        line += finding.message.in_language(result.lang)
        if finding.fix:
            line += f" — {finding.fix.in_language(result.lang)}"
        lines.append(line)
    if result.lines:
        lines.append("  reading:")
        lines += format_reading(result, names or {})
    return "\n".join(lines)


def format_reading(result: CheckResult, names: Mapping[str, str]) -> list[str]:
    """One line per input line: its number, its kind, what was read from it."""
    lang = result.lang
    entries = {entry.ref: entry for entry in result.entries}

    def card(ref: str) -> str:
        entry = entries.get(ref)
        if entry is None:
            return ref
        said = entry.card.label(lang)
        if entry.printed_cost:
            said += f" ({entry.printed_cost})"
        if entry.how is not None:
            said += f" [{entry.how.in_language(lang)}]"
        if entry.alternatives:
            said += " or: " + ", ".join(names.get(i, i) for i in entry.alternatives)
        return said

    out = []
    for reading in result.lines:
        if reading.refs:
            said = "; ".join(card(ref) for ref in reading.refs)
        else:
            said = reading.text.strip()
        if reading.note is not None:
            said += f" — {reading.note.in_language(lang)}"
        if reading.candidates:
            said += " — did you mean: " + ", ".join(names.get(i, i) for i in reading.candidates)
        out.append(f"    {reading.number:>4}  {reading.kind:<9}  {said}".rstrip())
    return out


def _card_sets(refs: list[str], username: str | None) -> list:
    reader = None
    if username:
        reader = get_user_model().objects.filter(username=username).first()
        if reader is None:
            raise CommandError(f"checklist: no user {username!r}", returncode=2)
    try:
        return usable_sets_named(refs, reader)
    except UnusableSet as exc:
        raise CommandError(f"checklist: unknown card set {exc.ref!r}", returncode=2) from exc


class Command(BaseCommand):
    help = "Check TMG army lists or Tactics warbands given as text files ('-' = stdin)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--game", choices=["tmg", "tactics"])
        parser.add_argument("--ruleset")
        parser.add_argument("--lang", choices=["en", "fr"], default="en")
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument(
            "--team",
            action="store_true",
            help="the files are allied lists of one team: each character at most once",
        )
        parser.add_argument(
            "--set",
            action="append",
            default=[],
            dest="sets",
            metavar="SLUG",
            help="Tactics: also read warbands against this card set (slug or id; repeat for "
            "several); a published, shared or example set, or one of --user's own",
        )
        parser.add_argument(
            "--user", metavar="USERNAME", help="read --set as this user (their private sets)"
        )

    def handle(
        self, *args, files, game, ruleset, lang, format, team=False, sets=(), user=None, **options
    ):
        check_options = CheckOptions(game=game, ruleset=ruleset, lang=lang)
        pools = Pools(card_sets=_card_sets(list(sets), user)) if sets else Pools()
        items = []
        for path in files:
            text = _read(path)
            try:
                result = check_list_text(text, check_options, pools=pools)
            except CheckError as exc:
                raise CommandError(f"checklist: {exc}", returncode=2) from exc
            items.append(BatchItem(label=path, result=result, team="team" if team else None))
        checked = apply_team_rules(items) if team else tuple(items)
        if format == "json":
            payload = [{"file": item.label, **result_json(item.result)} for item in checked]
            output = payload[0] if len(payload) == 1 else payload
            self.stdout.write(json.dumps(output, ensure_ascii=False, indent=2))
        else:
            for item in checked:
                result = item.result
                names = reading_card_names(result, lang=result.lang, pool=pools.get(result.game))
                self.stdout.write(format_text(item.label, result, names))
        if not all(item.result.legal for item in checked):
            sys.exit(1)
