"""Shared fixtures. `shared_dir` points at ../shared beside the checkout (community data,
rulebooks); tests that need it fail loudly in CI when it is missing, and skip elsewhere."""

import os
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("CITADEL_SHARED_DIR", REPO_DIR.parent / "shared"))
COMMUNITY_DATA_DIR = SHARED_DIR / "data" / "asoiaf-tmg-data"


def require(path: Path) -> Path:
    if not path.exists():
        message = f"{path} is missing: tests that read ../shared need it beside the checkout"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return require(SHARED_DIR)


@pytest.fixture(scope="session")
def community_data_dir() -> Path:
    return require(COMMUNITY_DATA_DIR)


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
