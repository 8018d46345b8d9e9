"""`manage.py rules_relevance` on bad input: one-line errors, never a traceback."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

LINE = (
    '{"id": "x", "q": "how far can a unit march", "lang": "en", "book": "tmg-1-5-fr", '
    '"expect": ["Marche"], "kind": "number"}'
)


def test_relevance_command_without_a_queries_file_says_so(tmp_path):
    with pytest.raises(CommandError, match="no relevance set at"):
        call_command("rules_relevance", queries=str(tmp_path / "none.jsonl"))


@pytest.mark.django_db
def test_relevance_command_names_the_line_that_is_not_json(tmp_path):
    queries = tmp_path / "batch.jsonl"
    queries.write_text(f"{LINE}\n{{not json\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"batch\.jsonl:2: not JSON"):
        call_command("rules_relevance", queries=str(queries))


@pytest.mark.django_db
def test_relevance_command_names_the_line_missing_a_field(tmp_path):
    queries = tmp_path / "batch.jsonl"
    queries.write_text('{"id": "x", "q": "march"}\n', encoding="utf-8")
    with pytest.raises(CommandError, match=r"batch\.jsonl:1: missing 'lang'"):
        call_command("rules_relevance", queries=str(queries))


@pytest.mark.django_db
def test_relevance_command_elsewhere_reads_the_sets_books(tmp_path):
    # A batch kept outside the set (no books.json beside it) names the set's books: with
    # none imported, the command says which, instead of failing on the missing file.
    queries = tmp_path / "batch.jsonl"
    queries.write_text(LINE + "\n", encoding="utf-8")
    with pytest.raises(CommandError, match="books not imported: agot-2e-fa"):
        call_command("rules_relevance", queries=str(queries))
