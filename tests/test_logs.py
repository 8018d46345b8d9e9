"""common.logs.quiet: a library's records dropped for a block, nobody else's."""

from __future__ import annotations

import logging

from common.logs import quiet


def test_quiet_root_drops_records_logged_on_the_root_logger(caplog):
    with quiet(None):
        logging.warning("advice")
    assert "advice" not in caplog.text


def test_quiet_root_keeps_other_loggers_records(caplog):
    with quiet(None):
        logging.getLogger("citadel.elsewhere").warning("still said")
    assert "still said" in caplog.text


def test_quiet_root_keeps_records_at_its_level(caplog):
    with quiet(None):
        logging.error("an error")
    assert "an error" in caplog.text


def test_quiet_named_logger_drops_its_childrens_records(caplog):
    with quiet("citadel.library"):
        logging.getLogger("citadel.library.reader").warning("repaired")
    assert "repaired" not in caplog.text


def test_quiet_puts_everything_back_after_the_block(caplog):
    with quiet(None), quiet("citadel.library"):
        pass
    logging.warning("root again")
    logging.getLogger("citadel.library.reader").warning("library again")
    assert "root again" in caplog.text and "library again" in caplog.text
