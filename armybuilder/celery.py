"""The Celery application. Broker and result backend come from settings (REDIS_URL)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

app = Celery("citadel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
