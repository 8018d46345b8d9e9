"""The settings the test suite runs with: the product's own (armybuilder.settings, read
from the same environment variables), served over plain HTTP as the test client and the
live server speak it. Only CITADEL_HTTPS's default differs."""

import os

os.environ.setdefault("CITADEL_HTTPS", "0")

from armybuilder.settings import *  # noqa: F403
