"""One way to say something in two languages: gettext messages rendered without Django.

Why: validator findings are shown in English and French (the page, the API's `lang`, a
PDF) by pure code that must not need Django. They are `common.i18n` messages, translated
with the same catalogue Django reads, so a French sentence missing from locale/fr, or a
.mo not compiled after the .po changed, would silently show English: these tests name it.
"""

from __future__ import annotations

import ast
import gettext
import string
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from armybuilder.findings import Finding
from armybuilder.tmg.draft import ArmyDraft, CardFacts, UnitEntry
from armybuilder.tmg.rulesets import get_ruleset
from armybuilder.tmg.validator import validate_army
from common import i18n
from common.i18n import Bilingual, _, catalogue, pgettext_lazy

ROOT = Path(__file__).resolve().parent.parent
FRENCH_PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PACKAGES = ("common", "cards", "rules", "armybuilder", "exports")
MARKERS = {"_": 0, "pgettext_lazy": 1}  # marker -> position of the msgid argument


def marked_messages() -> set[tuple[str | None, str]]:
    """(context, msgid) of every `_("...")` / `pgettext_lazy("ctx", "...")` call in the
    modules that import these markers from common.i18n (read with ast, as xgettext would)."""
    found = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            markers = {  # the name a module calls a marker by -> the marker
                alias.asname or alias.name: alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "common.i18n"
                for alias in node.names
                if alias.name in MARKERS
            }
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                if node.func.id not in markers:
                    continue
                args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
                position = MARKERS[markers[node.func.id]]
                assert all(isinstance(a, str) for a in args[: position + 1]), (
                    f"{path}:{node.lineno}: a translated message must be a literal string"
                )
                found.add((args[0] if position else None, args[position]))
    return found


@pytest.fixture(scope="module")
def french_po() -> dict[tuple[str | None, str], polib.POEntry]:
    return {(entry.msgctxt, entry.msgid): entry for entry in polib.pofile(str(FRENCH_PO))}


def placeholders(text: str) -> set[str]:
    return {
        field for _literal, field, _spec, _conversion in string.Formatter().parse(text) if field
    }


def test_the_scan_finds_the_finding_messages():
    messages = marked_messages()
    assert (None, "the army has no commander") in messages
    assert ("tactics figures", "keep one of {cards}") in messages
    assert len(messages) > 50


def test_every_message_has_a_french_translation_with_the_same_placeholders(french_po):
    missing, unusable = [], []
    for key in sorted(marked_messages(), key=str):
        entry = french_po.get(key)
        if entry is None or not entry.msgstr or entry.obsolete:
            missing.append(key)
        elif "fuzzy" in entry.flags or placeholders(entry.msgstr) != placeholders(key[1]):
            unusable.append((key, entry.msgstr))
    assert not missing, f"not translated in {FRENCH_PO}: {missing}"
    assert not unusable, f"fuzzy, or placeholders differ from the msgid: {unusable}"


def test_the_compiled_catalogue_matches_the_po(french_po):
    """The .mo is what runs: recompile it after editing the .po (see locale/README.md)."""
    compiled = catalogue("fr")
    stale = [
        key
        for key in marked_messages()
        if (compiled.pgettext(key[0], key[1]) if key[0] else compiled.gettext(key[1]))
        != french_po[key].msgstr
    ]
    assert not stale, f"django.mo is older than django.po for {stale}"


def test_a_message_renders_in_french_and_english():
    message = _("the army has no commander")
    assert message.in_language("fr") == "l'armée n'a pas de Général (commandant)"
    assert message.in_language("fr-ca") == "l'armée n'a pas de Général (commandant)"
    assert message.in_language("en") == "the army has no commander"
    assert message.en == "the army has no commander"


@pytest.mark.parametrize("lang", ["fa", "de", "", None])
def test_other_languages_read_english(lang):
    assert _("the army has no commander").in_language(lang) == "the army has no commander"


def test_params_are_formatted_and_said_in_the_same_language():
    card = Bilingual("Robb Stark - Young Wolf", "Robb Stark - Jeune Loup")
    message = _(
        "{card}: {requirement}",
        card=card,
        requirement=_("requires {cards} in the army", cards="Grey Wind"),
    )
    assert message.in_language("en") == "Robb Stark - Young Wolf: requires Grey Wind in the army"
    assert message.in_language("fr") == "Robb Stark - Jeune Loup : exige Grey Wind dans l'armée"
    assert message.in_language("fa") == message.in_language("en")


def test_a_context_tells_apart_two_translations_of_one_sentence():
    tmg = _("keep one of {cards}", cards="A, B")
    tactics = pgettext_lazy("tactics figures", "keep one of {cards}", cards="A, B")
    assert tmg.in_language("en") == tactics.in_language("en") == "keep one of A, B"
    assert tmg.in_language("fr") == "gardez une seule carte parmi A, B"
    assert tactics.in_language("fr") == "gardez une seule de A, B"


def test_bilingual_data_falls_back_to_english_when_french_is_missing():
    assert Bilingual("Stark", "").in_language("fr") == "Stark"
    assert Bilingual.of(lambda lang: f"<{lang}>") == Bilingual("<en>", "<fr>")


def test_messages_are_plain_values():
    assert _("remove {card}", card="X") == _("remove {card}", card="X")
    assert _("remove {card}", card="X") != _("remove {card}", card="Y")
    assert hash(_("remove {card}", card="X")) == hash(_("remove {card}", card="X"))


def test_a_missing_catalogue_reads_english(monkeypatch, tmp_path):
    catalogue.cache_clear()
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    try:
        assert isinstance(catalogue("fr"), gettext.NullTranslations)
        message = _("{count} commanders: {cards}; an army has one", count=2, cards="A, B")
        assert message.in_language("fr") == "2 commanders: A, B; an army has one"
    finally:
        catalogue.cache_clear()


def test_a_finding_from_the_validator_speaks_both_languages():
    draft = ArmyDraft(
        faction="stark",
        points_limit=40,
        ruleset=get_ruleset(),
        units=(
            UnitEntry(
                ref="unit-1",
                card=CardFacts(id="1", kind="unit", faction="stark", name_en="Sworn Swords"),
            ),
        ),
    )
    finding = next(f for f in validate_army(draft).findings if f.code == "COMMANDER_MISSING")
    assert isinstance(finding, Finding)
    assert finding.message.in_language("fr") == "l'armée n'a pas de Général (commandant)"
    assert finding.fix.in_language("fr") == "ajoutez une carte de Général (marquée G)"
    assert finding.fix.in_language("en") == "add a commander card (marked C)"


PROBE = """
import sys
from armybuilder.findings import Finding
from common.i18n import _
said = Finding(code="COMMANDER_MISSING", message=_("the army has no commander"), rule="AB-09")
assert said.message.in_language("fr") == "l'armée n'a pas de Général (commandant)", said
loaded = [name for name in ("django", "celery") if name in sys.modules]
sys.exit(f"loaded {loaded}" if loaded else 0)
"""


def test_findings_are_translated_without_django_or_celery():
    # -E: a fresh interpreter that ignores PYTHON* variables (no PYTHONPATH tricks).
    probe = subprocess.run(
        [sys.executable, "-E", "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert probe.returncode == 0, probe.stderr
