"""Where a card that joins another may go (a TMG attachment on a combat unit, a Tactics
item on a figure), and why not: pure, and the same for every game.

The answer is never a second copy of the rules: the game's validator runs on trial drafts.

* baseline: the list with the card taken but placed nowhere. What it adds to the current
  findings (a second commander, coins or points over the budget, …) follows from taking
  the card at all: side effects, shown with every candidate but blocking none. The
  finding that only says the trial card is placed nowhere is left out: that is what the
  trial does.
* for each candidate: the card placed on it. A finding (code and message) the baseline
  does not have comes from this placement (a full unit, a figure that may not carry it,
  …): a reason against this candidate.

Each game builds its trial drafts (`lists.hosts`, `lists.tactics_holders`); this module
compares the findings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from armybuilder.findings import Finding, Severity

Draft = TypeVar("Draft")


@dataclass(frozen=True)
class PlacementCheck:
    ref: str  # the candidate (unit, figure) the card was tried on
    allowed: bool
    reasons: tuple[Finding, ...] = ()  # errors this placement causes
    side_effects: tuple[Finding, ...] = ()  # errors taking the card causes wherever it goes
    resolves: tuple[str, ...] = ()  # codes that disappear (e.g. COMMANDER_MISSING)


def _key(finding: Finding) -> tuple[str, str]:
    return finding.code, finding.message.en


def _errors(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


def _new(findings: Iterable[Finding], known: Iterable[Finding]) -> list[Finding]:
    """`findings` minus `known`, as multisets of (code, message)."""
    left = Counter(_key(f) for f in known)
    new = []
    for finding in findings:
        if left[_key(finding)] > 0:
            left[_key(finding)] -= 1
        else:
            new.append(finding)
    return new


def check_placements(
    validate: Callable[[Draft], Iterable[Finding]],
    *,
    draft: Draft,
    taken: Draft,
    trials: Iterable[tuple[str, Draft]],
    unplaced: tuple[str, str],
) -> tuple[PlacementCheck, ...]:
    """One check per trial, in order.

    `taken` is `draft` with the card taken but placed nowhere; `trials` are (candidate ref,
    `draft` with the card on that candidate); `unplaced` is the (code, trial ref) of the
    finding that only says the trial card is placed nowhere."""
    code, trial_ref = unplaced
    current = _errors(validate(draft))
    baseline = [
        f for f in _errors(validate(taken)) if not (f.code == code and trial_ref in f.entries)
    ]
    side_effects = tuple(_new(baseline, current))
    before_codes = Counter(f.code for f in current)
    checks = []
    for ref, trial in trials:
        after = _errors(validate(trial))
        reasons = tuple(_new(after, baseline))
        checks.append(
            PlacementCheck(
                ref=ref,
                allowed=not reasons,
                reasons=reasons,
                side_effects=side_effects,
                resolves=tuple(sorted(before_codes - Counter(f.code for f in after))),
            )
        )
    return tuple(checks)
