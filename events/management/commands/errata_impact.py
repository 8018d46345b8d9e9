"""manage.py errata_impact: what new card data changed in lists, and why.

Runs the errata check first (it reports only what no report has said yet: after an import
the check has usually run already), then prints the newest report, or the reports asked for.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from armybuilder.lists.versions import ability_names
from cards.versions import StatChange
from common.i18n import card_language
from events import errata
from events.models import Event


class Command(BaseCommand):
    help = "Check lists against the current card data and print the errata-impact report."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--report", type=int, help="print this report (its number)")
        parser.add_argument("--all", action="store_true", help="print every report")
        parser.add_argument("--event", type=int, help="only the lists of this event")
        parser.add_argument(
            "--no-check", action="store_true", help="print only; do not check the lists first"
        )
        parser.add_argument(
            "--unchanged",
            action="store_true",
            help="also lists whose points and legality stay the same",
        )
        parser.add_argument("--format", choices=("text", "json"), default="text")
        parser.add_argument("--lang", default="en", help="en or fr")

    def handle(self, *args, **options) -> None:
        lang = card_language(options["lang"])
        event = None
        if options["event"] is not None:
            event = Event.objects.filter(pk=options["event"]).first()
            if event is None:
                raise CommandError(f"no event has the number {options['event']}")
        checked = None if options["no_check"] else errata.check_errata(source="command")
        found = errata.reports(report_id=options["report"], event=event)
        if options["report"] is not None and not found:
            raise CommandError(f"no errata report has the number {options['report']}")
        if not options["all"] and options["report"] is None:
            found = found[:1]
        if options["format"] == "json":
            self.stdout.write(
                json.dumps(
                    [self.report_json(report, event, lang, options) for report in found],
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return
        if checked is None and not options["no_check"]:
            self.stdout.write("No list is judged with outdated card data.")
        if not found:
            self.stdout.write("No errata report yet.")
        for report in found:
            self.write_report(report, event, lang, options)

    def impacts(self, report, event, options):
        impacts = list(report.impacts.all())
        if event is not None:
            impacts = [
                i for i in impacts if i.event_list and i.event_list.player.event_id == event.pk
            ]
        return impacts if options["unchanged"] else errata.relevant(impacts)

    def report_json(self, report, event, lang, options) -> dict:
        return {
            "report": report.pk,
            "created_at": report.created_at.isoformat(),
            "source": report.source,
            "cards": report.cards,
            "lists": [
                errata.impact_json(i, lang=lang) for i in self.impacts(report, event, options)
            ],
        }

    def write_report(self, report, event, lang, options) -> None:
        names = ability_names(lang)
        impacts = self.impacts(report, event, options)
        when = f"{report.created_at:%Y-%m-%d %H:%M}"
        self.stdout.write(
            f"Errata report {report.pk} ({when}, {report.source or 'check'}): "
            f"{len(report.cards)} card(s) changed, {len(impacts)} list(s) affected"
        )
        for card in report.cards:
            label = card["name"].get(lang) or card["name"].get("en")
            changes = "; ".join(
                StatChange(c["field"], c.get("old"), c.get("new")).describe(lang, names)
                for c in card["changes"]
            )
            self.stdout.write(f"  card {card['id']} {label}: {changes or 'no construction change'}")
        for impact in impacts:
            self.stdout.write(f"  {self.which(impact, lang)}: {self.verdicts(impact)}")
            for reason in impact.reasons:
                self.stdout.write(f"      because {errata.describe(reason, lang, names)}")

    @staticmethod
    def which(impact, lang) -> str:
        if impact.event_list_id is not None:
            player = impact.event_list.player
            return f"event {player.event_id} {player.event.name}: {player.name}"
        army_list = impact.army_list
        owner = army_list.owner.get_username() if army_list.owner_id else "-"
        return f"saved list {army_list.pk} {army_list.display_name(lang)} ({owner}, if updated)"

    @staticmethod
    def verdicts(impact) -> str:
        def verdict(legal: bool) -> str:
            return "legal" if legal else "illegal"

        said = (
            f"{impact.spent_before} → {impact.spent_after}, "
            f"{verdict(impact.legal_before)} → {verdict(impact.legal_after)}"
        )
        if impact.findings_added:
            said += f" (+{', '.join(impact.findings_added)})"
        if impact.findings_removed:
            said += f" (−{', '.join(impact.findings_removed)})"
        return said
