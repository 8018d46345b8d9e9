"""The Export PDF button in a real browser: the htmx progress bar polls until the job is
done, then offers the PDF."""

import pytest

from armybuilder.celery import app as celery_app
from exports import dispatch
from rules.models import Rulebook, Section

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def section_page(live_server):
    book = Rulebook.objects.create(slug="tmg-rules", game="tmg", lang="en", title="TMG Rules")
    Section.objects.create(book=book, slug="movement", position=0, heading="Movement", body="Move.")
    return f"{live_server.url}/rules/tmg-rules/movement/"


@pytest.fixture
def lost_first_message(monkeypatch, settings, tmp_path):
    """The first message goes nowhere (as if the broker lost it); once the job has waited
    CITADEL_EXPORT_RESEND_AFTER, a poll resends it and it runs in-process. The bar must
    show the waiting job and follow it by polling until the link appears."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CITADEL_EXPORT_RESEND_AFTER = 2
    conf = celery_app.conf
    eager = conf.task_always_eager
    conf.task_always_eager = False
    monkeypatch.setattr(dispatch, "send_run_export", lambda **kwargs: None)

    def deliver_from_now_on():
        conf.task_always_eager = True

    yield deliver_from_now_on
    conf.task_always_eager = eager


def test_export_button_shows_progress_then_download_link(
    section_page, lost_first_message, browser_page
):
    from playwright.sync_api import expect

    page = browser_page
    page.goto(section_page)
    page.get_by_test_id("export-pdf").click()
    job = page.get_by_test_id("export-job")
    expect(job).to_contain_text("Waiting for a free worker")
    expect(job.locator("progress")).to_be_visible()

    lost_first_message()
    with page.expect_response(lambda response: "/progress/" in response.url):
        pass  # the bar polls
    download_link = page.get_by_test_id("export-download")
    expect(download_link).to_be_visible(timeout=15_000)
    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename.endswith(".pdf")
    with open(download.value.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
