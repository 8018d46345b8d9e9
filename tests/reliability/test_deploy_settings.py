"""Production settings are secure by default when DEBUG is off (issue 16, defect 8), with an
explicit opt-out for a plain-HTTP run on localhost. Run in a fresh interpreter on the
product's settings module (the suite itself runs on tests.settings, over plain HTTP)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "armybuilder.settings",
    "SECRET_KEY": "k3y-" + "x7Qp2Lm9Rt5Vw8Zb4Nc6Hj1Fd3Gs0Ya" * 2,
    "ALLOWED_HOSTS": "citadel.example.org",
}
DROPPED = {"DEBUG", "CITADEL_HTTPS", "SECURE_SSL_REDIRECT", "SECURE_COOKIES", "SECURE_HSTS_SECONDS"}


def _run(args: list[str], **extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env.update(PRODUCTION_ENV, **extra)
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
    "s.SECURE_HSTS_SECONDS]))"
)


def test_check_deploy_with_production_settings_is_clean():
    run = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert run.returncode == 0, run.stdout + run.stderr


def test_production_settings_redirect_to_https_with_secure_cookies_and_hsts():
    run = _run(["-c", SHOW])
    redirect, session_secure, csrf_secure, hsts = json.loads(run.stdout)
    assert (redirect, session_secure, csrf_secure) == (True, True, True)
    assert hsts >= 31_536_000


def test_plain_http_opt_out_turns_https_settings_off():
    run = _run(["-c", SHOW], CITADEL_HTTPS="0")
    assert json.loads(run.stdout) == [False, False, False, 0]


SERVE = (
    "from armybuilder.wsgi import application; from django.test import Client; "
    "answer = Client(HTTP_HOST='citadel.example.org').post("
    "'/api/v1/lists/check/', {}, content_type='application/json'); "
    "print(answer.status_code, answer['Content-Type'])"
)


def test_wsgi_application_starts_in_a_fresh_interpreter_and_answers_the_api():
    """As gunicorn loads it: the WSGI module first, nothing else imported before."""
    run = _run(["-c", SERVE], CITADEL_HTTPS="0")
    assert run.stdout.split() == ["400", "application/json"], run.stderr[-2000:]
