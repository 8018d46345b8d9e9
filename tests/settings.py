"""The settings the test suite runs with: the product's own (armybuilder.settings, read
from the same environment variables), served over plain HTTP as the test client and the
live server speak it. Only CITADEL_HTTPS's default and the password hasher differ."""

import os

os.environ.setdefault("CITADEL_HTTPS", "0")

from armybuilder.settings import *  # noqa: F403

# Basic auth hashes the password on every request: a fast hasher keeps the API fuzzer
# (tests/reliability/test_api_fuzz.py) from spending minutes in PBKDF2.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The rules search's meaning model is off in tests (building its phrase vectors takes
# seconds): the tests that need it turn it on (tests/rules/test_search_meaning.py, the
# relevance set) and skip, saying so, when it is not installed.
CITADEL_MEANING_MODEL = ""
CITADEL_MULTILINGUAL_MODEL = ""
