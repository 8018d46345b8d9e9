"""`with quiet("pypdf"):` — a library's logger held at a higher level for a block, then put
back: for libraries that log what they do on their own (pypdf's repairs, ONNX Runtime's
advice) where Citadel reports the outcome itself."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator


@contextlib.contextmanager
def quiet(name: str | None, *, level: int = logging.ERROR) -> Iterator[None]:
    """Hold logger `name` (None: the root logger) at `level` for the block."""
    logger = logging.getLogger(name)
    before = logger.level
    logger.setLevel(level)
    try:
        yield
    finally:
        logger.setLevel(before)
