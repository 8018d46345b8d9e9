"""manage.py checklist (contracts §3): formats and exit statuses."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.armybuilder.test_check_api import LEGAL_TMG, OVER_TMG, WARBAND

pytestmark = pytest.mark.usefixtures("small_pool")


def run(*args):
    out = io.StringIO()
    code = 0
    try:
        call_command("checklist", *args, stdout=out)
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue()


@pytest.fixture
def lists(tmp_path):
    paths = {}
    for name, text in (("legal", LEGAL_TMG), ("over", OVER_TMG), ("warband", WARBAND)):
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    return paths


def test_checklist_legal_list_exits_zero(lists):
    code, out = run(lists["legal"])
    assert code == 0 and "LEGAL" in out


def test_checklist_illegal_list_exits_one_and_names_the_finding(lists):
    code, out = run(lists["over"])
    assert code == 1 and "POINTS_OVER_LIMIT" in out


def test_checklist_json_for_one_file_is_an_object(lists):
    _, out = run("--format", "json", lists["legal"])
    data = json.loads(out)
    assert data["file"] == lists["legal"] and data["legal"] is True
    assert set(data["points"]) >= {"spent", "limit", "neutral", "neutral_cap"}


def test_checklist_json_for_several_files_is_an_array(lists):
    code, out = run("--format", "json", lists["legal"], lists["warband"])
    data = json.loads(out)
    assert [d["game"] for d in data] == ["tmg", "tactics"] and code == 0


def test_checklist_reads_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(OVER_TMG))
    code, out = run("-")
    assert code == 1 and "-: ILLEGAL" in out


def test_checklist_unreadable_file_is_a_usage_error(tmp_path):
    with pytest.raises(CommandError) as error:
        call_command("checklist", str(tmp_path / "missing.txt"))
    assert error.value.returncode == 2


def test_checklist_unknown_ruleset_is_a_usage_error(lists):
    with pytest.raises(CommandError) as error:
        call_command("checklist", "--ruleset", "nope", lists["legal"])
    assert error.value.returncode == 2


def test_checklist_french_messages(lists):
    _, out = run("--lang", "fr", lists["over"])
    assert "de plus que la taille de partie" in out


def test_checklist_team_flags_a_shared_character(lists):
    code, out = run("--team", lists["legal"], lists["legal"])
    assert code == 1 and "TEAM_CHARACTER_DUPLICATE" in out
