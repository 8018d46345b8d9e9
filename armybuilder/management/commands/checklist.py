"""manage.py checklist: check army lists and warbands from files (contracts §3).

Exit status: 0 every list legal, 1 at least one illegal list, 2 usage error or
unreadable file.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from armybuilder.checking import (
    CheckError,
    CheckOptions,
    Pools,
    apply_team_rules,
    check_list_text,
)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"checklist: cannot read {path}: {exc}", returncode=2) from exc


def format_text(path: str, result: dict) -> str:
    verdict = "LEGAL" if result["legal"] else "ILLEGAL"
    if result["game"] == "tactics":
        coins = result.get("coins") or {}
        spent, budget = coins.get("spent"), coins.get("budget")
        summary = f"{result.get('faction') or '?'}"
        if spent:
            summary += " coins {gold}-{silver}-{copper}".format(**spent)
        if budget:
            summary += " of {gold}-{silver}-{copper}".format(**budget)
        summary += f", {result.get('figures', 0)} figures"
    else:
        points = result.get("points") or {}
        summary = f"{result.get('faction') or '?'}"
        if points:
            summary += (
                f" {points['spent']}/{points['limit']} pts"
                f" (neutral {points['neutral']}/{points['neutral_cap']})"
            )
    lines = [f"{path}: {verdict}  {summary}"]
    for finding in result["findings"]:
        line = f"  [{finding['severity'].upper()}] {finding['code']} ({finding['rule']}): "
        line += finding["message"]
        if finding.get("fix"):
            line += f" — {finding['fix']}"
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
        results = []
        for path in files:
            text = _read(path)
            try:
                result = check_list_text(text, check_options, pools=pools)
            except CheckError as exc:
                raise CommandError(f"checklist: {exc}", returncode=2) from exc
            results.append({"file": path, **result})
        if team:
            apply_team_rules(results, ["team"] * len(results), pools.tmg, lang)
        if format == "json":
            payload = results[0] if len(results) == 1 else results
            self.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2))
        else:
            for result in results:
                self.stdout.write(format_text(result["file"], result))
        if not all(result["legal"] for result in results):
            sys.exit(1)
