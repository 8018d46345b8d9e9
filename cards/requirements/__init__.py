"""Structured list-building records: what a printed card restricts, in a form a validator reads.

`Card.requirements` holds a JSON list of records (dicts with a `"type"` key). They come
from the War Council `Requirements` mini-language (`parse_requirements`), from printed
tags (`parse_printed_restrictions`) and, for the rules cards, from the faction rules table
(`cards.faction_rules`). See docs/requirements.md for the meaning of every record type.

One module per job, each importing only the ones listed before it:

* `errors`       the exceptions;
* `factions`     faction slugs, printed names and spellings;
* `refs`         references to other cards (name, card id, faction);
* `records`      one frozen dataclass per record type, and their dict round trip;
* `parser`       the mini-language;
* `printed`      printed tags (loyalty);
* `wording`      how sentences name refs, factions and lists;
* `rule_records` the faction rule records' vocabulary and wording;
* `describe`     every record as a sentence;
* `construction` Citadel's table of construction abilities (cards/data/construction_abilities.json).

Pure Python (no Django ORM) so the importer, the validator and tests can share it. The
names below are the package's public ones; the record dataclasses themselves are in
`cards.requirements.records`.
"""

from .describe import describe
from .errors import FactionRulesError, RequirementSyntaxError, UnknownRecordType
from .factions import FACTIONS, faction_name, faction_slug
from .parser import parse_directives, parse_requirements
from .printed import parse_printed_restrictions
from .records import (
    CITADEL_TYPES,
    DIRECTIVE_TYPES,
    PRINTED_TYPES,
    RECORD_CLASSES,
    RECORD_TYPES,
    Record,
    record_from_dict,
)
from .refs import CardRef, FactionRef, NameRef, Ref, parse_ref, ref_from_record
from .rule_records import FACTION_RULE_TYPES, RULE_TYPES, SCOPES, describe_rule
from .wording import describe_ref

__all__ = [
    "CITADEL_TYPES",
    "DIRECTIVE_TYPES",
    "FACTIONS",
    "FACTION_RULE_TYPES",
    "PRINTED_TYPES",
    "RECORD_CLASSES",
    "RECORD_TYPES",
    "RULE_TYPES",
    "SCOPES",
    "CardRef",
    "FactionRef",
    "FactionRulesError",
    "NameRef",
    "Record",
    "Ref",
    "RequirementSyntaxError",
    "UnknownRecordType",
    "describe",
    "describe_ref",
    "describe_rule",
    "faction_name",
    "faction_slug",
    "parse_directives",
    "parse_printed_restrictions",
    "parse_ref",
    "parse_requirements",
    "record_from_dict",
    "ref_from_record",
]
