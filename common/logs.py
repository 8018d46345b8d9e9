"""`with quiet("pypdf"):` — a library's log records below a level dropped for a block: for
libraries that log what they do on their own (pypdf's repairs, ONNX Runtime's advice) where
Citadel reports the outcome itself."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator


@contextlib.contextmanager
def quiet(name: str | None, *, level: int = logging.ERROR) -> Iterator[None]:
    """Drop the records below `level` of logger `name` and its children for the block.

    None: only the records logged on the root logger itself (`logging.warning(…)`, as
    ONNX Runtime's quantization does). Holding the root logger's level instead would quiet
    every logger of the process that has no level of its own, other threads' included."""
    logger = logging.getLogger(name)
    if name is None:
        keep = lambda record: record.levelno >= level  # noqa: E731
        logger.addFilter(keep)
        try:
            yield
        finally:
            logger.removeFilter(keep)
        return
    before = logger.level
    logger.setLevel(level)
    try:
        yield
    finally:
        logger.setLevel(before)
