"""Rulesets take effect on a date; an event plays the newest one in force on its day."""

from dataclasses import replace
from datetime import date

from armybuilder.tmg.rulesets import get_ruleset, ruleset_in_force

V15 = get_ruleset("rules-1.5")
LATER = replace(V15, id="rules-2.0", effective=date(2027, 3, 1))


def test_shipped_ruleset_says_when_it_took_effect():
    assert V15.effective == date(2021, 1, 1)


def test_newest_ruleset_in_force_on_the_day_is_chosen():
    assert ruleset_in_force(date(2027, 6, 1), [V15, LATER]).id == "rules-2.0"


def test_ruleset_not_yet_in_force_is_not_chosen():
    assert ruleset_in_force(date(2026, 12, 31), [V15, LATER]).id == "rules-1.5"


def test_before_any_ruleset_the_default_is_chosen():
    assert ruleset_in_force(date(2001, 1, 1), [LATER]).id == get_ruleset().id
