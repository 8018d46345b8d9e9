"""Properties of the TMG validator over generated armies (hypothesis, pure)."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.tmg.draft import ArmyDraft, CardFacts, Entry, UnitEntry
from armybuilder.tmg.rulesets import get_ruleset
from armybuilder.tmg.validator import validate_army

RULESET = get_ruleset()
BUDGET_CODES = {"POINTS_OVER_LIMIT", "NEUTRAL_CAP_EXCEEDED"}

unit_cards = st.builds(
    CardFacts,
    id=st.sampled_from(["u1", "u2", "u3", "u4"]),
    kind=st.just("unit"),
    faction=st.sampled_from(["stark", "neutral"]),
    name_en=st.sampled_from(["Swords", "Riders", "Bowmen"]),
    points=st.integers(min_value=0, max_value=12),
    unit_type=st.sampled_from(["infantry", "cavalry"]),
    tray=st.sampled_from(["infantry", "cavalry", "solo"]),
)
attachment_cards = st.builds(
    CardFacts,
    id=st.sampled_from(["a1", "a2", "a3"]),
    kind=st.just("attachment"),
    faction=st.sampled_from(["stark", "neutral"]),
    name_en=st.sampled_from(["Captain", "Sergeant"]),
    points=st.integers(min_value=0, max_value=3),
    unit_type=st.sampled_from(["infantry", "cavalry"]),
    is_commander=st.booleans(),
)
ncu_cards = st.builds(
    CardFacts,
    id=st.sampled_from(["n1", "n2"]),
    kind=st.just("ncu"),
    faction=st.sampled_from(["stark", "neutral"]),
    name_en=st.sampled_from(["Lady", "Maester"]),
    points=st.integers(min_value=0, max_value=6),
)


@st.composite
def armies(draw):
    units = []
    for index, card in enumerate(draw(st.lists(unit_cards, max_size=6))):
        attachments = draw(st.lists(attachment_cards, max_size=2))
        units.append(UnitEntry.with_attachments(f"unit-{index + 1}", card, attachments))
    ncus = draw(st.lists(ncu_cards, max_size=3))
    return ArmyDraft(
        faction="stark",
        points_limit=draw(st.integers(min_value=0, max_value=60)),
        ruleset=RULESET,
        units=tuple(units),
        ncus=tuple(Entry(ref=f"ncu-{i + 1}", card=c) for i, c in enumerate(ncus)),
    )


def budget_codes(draft) -> set[str]:
    return {f.code for f in validate_army(draft).findings} & BUDGET_CODES


@settings(max_examples=300, deadline=None)
@given(armies())
def test_points_over_limit_exactly_when_spent_exceeds_the_limit(draft):
    report = validate_army(draft)
    over = any(f.code == "POINTS_OVER_LIMIT" for f in report.findings)
    assert over == (report.totals.spent > draft.points_limit)


@settings(max_examples=300, deadline=None)
@given(armies(), st.data())
def test_removing_an_entry_never_adds_a_budget_error(draft, data):
    refs = [entry.ref for entry in draft.entries()]
    if not refs:
        return
    removed = data.draw(st.sampled_from(refs))
    assert budget_codes(draft.without(removed)) <= budget_codes(draft)


@settings(max_examples=100, deadline=None)
@given(armies())
def test_validator_is_deterministic(draft):
    assert validate_army(draft) == validate_army(replace(draft))
