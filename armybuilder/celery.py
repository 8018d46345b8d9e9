"""The Celery application. Broker and result backend come from settings (REDIS_URL).

Loaded by ArmybuilderConfig.ready() in every process that starts Django, and by
`celery -A armybuilder worker`, which finds `app` in this submodule.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

app = Celery("citadel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The default app of every thread, not only of the one that imported this module: the web
# process sends tasks through `celery.current_app` (exports.dispatch) from request threads.
app.set_default()
