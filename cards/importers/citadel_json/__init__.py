"""The `citadel-cards/1` file format (docs/citadel-json.md): read, validate, write.

`reader`: `records_from_document` turns a parsed document into `ImportRecords`; the
community-data importer builds a document too and goes through the same function, so both
sources are validated alike and share one database writer
(`cards.services.import_card_records`).

`writer`: `document_from_database` is the inverse, used by `export_cards`; `dump_document`
writes it with a stable key order and one row per line, so regenerating gives an identical
file.
"""

from .reader import (
    known_requirement_types,
    read_citadel_json,
    read_citadel_json_files,
    records_from_document,
)
from .schema import EXTRA_CARD_FIELDS, FORMAT, PROSE_KEYS
from .writer import assert_no_prose, document_from_database, dump_document

__all__ = [
    "EXTRA_CARD_FIELDS",
    "FORMAT",
    "PROSE_KEYS",
    "assert_no_prose",
    "document_from_database",
    "dump_document",
    "known_requirement_types",
    "read_citadel_json",
    "read_citadel_json_files",
    "records_from_document",
]
