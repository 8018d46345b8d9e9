"""Shared fixtures. `shared_dir` points at ../shared beside the checkout (community data,
rulebooks); tests that need it fail loudly in CI when it is missing, and skip elsewhere."""

import os
import shutil
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("CITADEL_SHARED_DIR", REPO_DIR.parent / "shared"))
COMMUNITY_DATA_DIR = SHARED_DIR / "data" / "asoiaf-tmg-data"
SNAPSHOT = REPO_DIR / "cards" / "data" / "tmg-cards-snapshot.json"
# Where scripts/fetch-meaning-model installs the rules search's meaning model (the test
# settings turn it off; the tests that need it turn it on with this folder).
MEANING_MODEL_DIR = Path(
    os.environ.get("CITADEL_MEANING_MODEL") or REPO_DIR / "var" / "meaning" / "all-minilm-l6-v2"
)
MULTILINGUAL_MODEL_DIR = Path(
    os.environ.get("CITADEL_MULTILINGUAL_MODEL")
    or REPO_DIR / "var" / "meaning" / "multilingual-e5-small"
)


def require(path: Path, why: str = "tests that read ../shared need it beside the checkout") -> Path:
    if not path.exists():
        message = f"{path} is missing: {why}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return require(SHARED_DIR)


@pytest.fixture(scope="session")
def meaning_model() -> Path:
    """The meaning model's folder; tests that need it fail in CI without it, else skip."""
    require(MEANING_MODEL_DIR / "model.safetensors", "run scripts/fetch-meaning-model")
    return MEANING_MODEL_DIR


def _model_folder(folder: Path, installed: Path, names, *, phrases: bool = False) -> Path:
    """`folder` made, with the model files `names` of `installed` linked into it, and (with
    `phrases`) its installed phrase vectors copied: what a test encodes is kept there,
    never beside the installed model."""
    from rules.search.meaning import CACHE

    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).symlink_to(installed / name)
    if phrases and (installed / CACHE).is_file():
        shutil.copyfile(installed / CACHE, folder / CACHE)
    return folder


@pytest.fixture(scope="session")
def meaning_model_session(meaning_model, tmp_path_factory) -> Path:
    """The meaning model in a folder of the test session's own: its files linked, the
    installed phrase vectors copied (a head start) and the quick int8 graph made here once."""
    from rules.search.meaning import FILES, load_encoder

    folder = tmp_path_factory.mktemp("meaning-model")
    load_encoder(str(_model_folder(folder, meaning_model, FILES, phrases=True)))
    return folder


@pytest.fixture
def meaning_model_copy(meaning_model_session, tmp_path) -> Path:
    """The meaning model's files and its quick graph linked into a folder of the test's
    own, with no vectors cached yet: what the test encodes is cached there."""
    from rules.search.meaning import FILES, QUICK

    return _model_folder(tmp_path / "meaning-model", meaning_model_session, (*FILES, QUICK))


@pytest.fixture(scope="session")
def multilingual_model() -> Path:
    """The multilingual model's folder; tests that need it fail in CI without it, else skip."""
    from rules.search.multilingual import FILE

    require(MULTILINGUAL_MODEL_DIR / FILE, "run scripts/fetch-meaning-model")
    return MULTILINGUAL_MODEL_DIR


@pytest.fixture(scope="session")
def multilingual_model_session(multilingual_model, tmp_path_factory) -> Path:
    """The multilingual model in a folder of the test session's own, as
    `meaning_model_session` makes the English one's."""
    from rules.search.multilingual import FILE, load_multilingual

    folder = tmp_path_factory.mktemp("multilingual-model")
    load_multilingual(str(_model_folder(folder, multilingual_model, (FILE,), phrases=True)))
    return folder


@pytest.fixture
def multilingual_model_copy(multilingual_model_session, tmp_path) -> Path:
    """The multilingual model's file and its quick graph linked into a folder of the test's
    own, with no vectors cached yet."""
    from rules.search.multilingual import FILE, MultilingualEncoder

    names = (FILE, MultilingualEncoder.quick_file)
    return _model_folder(tmp_path / "multilingual-model", multilingual_model_session, names)


@pytest.fixture(scope="session")
def community_data_dir() -> Path:
    return require(COMMUNITY_DATA_DIR)


@pytest.fixture(scope="module")
def snapshot_cards(django_db_setup, django_db_blocker):
    """The repository's own TMG card snapshot, imported for one test module and removed
    after it (no ../shared needed)."""
    import io

    from django.core.management import call_command

    from cards.models import Ability, Card, CardVersion, Character, Faction, Scenario

    with django_db_blocker.unblock():
        call_command(
            "import_cards",
            "--source",
            "citadel-json",
            str(SNAPSHOT),
            "--no-progress",
            stdout=io.StringIO(),
        )
    yield
    with django_db_blocker.unblock():
        for model in (CardVersion, Card, Ability, Character, Scenario, Faction):
            model.objects.all().delete()


@pytest.fixture(scope="module")
def snapshot_pool(snapshot_cards, django_db_blocker):
    """The whole TMG pool of `snapshot_cards`."""
    from armybuilder.pool import tmg_pool

    with django_db_blocker.unblock():
        return tmg_pool()


@pytest.fixture(autouse=True)
def _fresh_card_data_version():
    """The card data's version is re-read every few seconds per process; a test that
    changed cards must not be answered from the search cache of the previous one."""
    from cards.selectors import forget_card_data_version

    forget_card_data_version()
    yield


@pytest.fixture(autouse=True)
def _fresh_rule_citations():
    """Rule links are cached per process; a rolled-back test must not leak its books' links."""
    from armybuilder.citations import clear_cache

    clear_cache()
    yield
    clear_cache()


@pytest.fixture(autouse=True)
def _fresh_rules_search_index():
    """The rules search index keeps the sections it shows and checks the books every few
    seconds; a rolled-back test (no delete signal) must not leak its sections."""
    from rules.search.vocabulary import recheck_soon

    recheck_soon()
    yield


@pytest.fixture(autouse=True)
def in_process_celery(request):
    """Tasks (export jobs, the errata check after a card import) run in the test's process,
    whatever REDIS_URL says (the PostgreSQL pass sets it), except in the real-worker tests
    (tests/exports/test_worker.py), which point Celery at Redis."""
    if "worker" in request.fixturenames:
        yield
        return
    from armybuilder.celery import app as celery_app

    conf = celery_app.conf
    eager = conf.task_always_eager
    conf.task_always_eager = True
    yield
    conf.task_always_eager = eager


@pytest.fixture(autouse=True)
def _english_by_default():
    """Each test starts in the site's default language: a request in French (the client's
    Accept-Language) leaves the thread's language active after it, for the next test."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


# Two players (issue 14's card sets: an owner and someone else).
@pytest.fixture
def alice(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("bob", password="pw-bob-123")
