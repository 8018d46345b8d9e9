"""manage.py checklist: check army lists and warbands from files (contracts §3).

Exit status: 0 every list legal, 1 at least one illegal list, 2 usage error or
unreadable file.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from armybuilder.checking import (
    BatchItem,
    CheckError,
    CheckOptions,
    Pools,
    apply_team_rules,
    check_list_text,
)
from armybuilder.result import CheckResult
from armybuilder.serializers import result_json


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"checklist: cannot read {path}: {exc}", returncode=2) from exc


def format_text(path: str, result: CheckResult) -> str:
    """The human summary: verdict, what was spent, then one line per finding."""
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
    return "\n".join(lines)


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

    def handle(self, *args, files, game, ruleset, lang, format, team=False, **options):
        check_options = CheckOptions(game=game, ruleset=ruleset, lang=lang)
        pools = Pools()
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
                self.stdout.write(format_text(item.label, item.result))
        if not all(item.result.legal for item in checked):
            sys.exit(1)
