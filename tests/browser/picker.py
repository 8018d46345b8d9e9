"""The builder's card picker, driven as a person would: type, wait for the answer, pick."""

import re


def search_picker(page, text: str) -> None:
    """Type `text` in the picker and return once its answer is on the page.

    Waiting for the response alone is not enough: htmx swaps it in a moment later, and a
    click in between lands on the stale results (whose form is then removed, so its add
    is lost). The answer carries the query it answers in `data-q`.

    Typing before htmx has bound the picker's `input` trigger sends nothing (seen once in
    the SQLite pass of `scripts/test`, under load: the builder's page was asserted on as
    soon as its URL changed, before its scripts had run), so it first waits for the page's
    load and htmx.
    """
    from playwright.sync_api import expect

    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined")
    box = page.locator("#picker-q")
    if box.input_value() != text:
        with page.expect_response(re.compile(r"/cards/\?q=")):
            box.fill(text)
    expect(page.locator("#picker-results")).to_have_attribute("data-q", text)
