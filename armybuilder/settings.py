"""Citadel settings: one module, driven by environment variables with safe defaults.

Without any variable set, Citadel runs on SQLite with Celery tasks executed in-process, so
a bare checkout needs no server. DATABASE_URL switches to PostgreSQL, REDIS_URL to Redis
(broker and cache); CELERY_BROKER_URL=filesystem:// (scripts/demo) runs exports in a real
worker without any server. With DEBUG off the site is secure by default (HTTPS redirect,
HSTS, secure cookies); CITADEL_HTTPS=0 opts out for a plain-HTTP local run. Every limit
the site enforces on a request is in the "Limits" block below.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "citadel-insecure-development-key-change-me")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "armybuilder",
    "cards",
    "rules",
    "events",
    "exports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files from STATIC_ROOT (collectstatic), compressed and cached forever.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so it sees the views' exceptions: a database restart answers 503, not 500.
    "armybuilder.api_errors.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "armybuilder.urls"
WSGI_APPLICATION = "armybuilder.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        # A kept connection is checked before a request uses it: after a database restart
        # the first request reconnects instead of failing.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The site and the demo's worker process write to one file: WAL lets readers read while
    # the other writes, and a writer waits for the lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
# The sentence encoder the rules search reads English questions with (a folder holding
# config.json, vocab.txt and model.safetensors; scripts/fetch-meaning-model installs it
# there, and the int8 graph questions are encoded with is made there on first use).
# Empty, or a folder without the model: the search ranks on words alone.
CITADEL_MEANING_MODEL = os.environ.get(
    "CITADEL_MEANING_MODEL", str(BASE_DIR / "var" / "meaning" / "all-minilm-l6-v2")
)
# The multilingual encoder it also reads questions with, French and Persian as written (a
# folder holding e5-small-q4.bin, installed by the same script). Empty, or a folder without
# it: the English model alone.
CITADEL_MULTILINGUAL_MODEL = os.environ.get(
    "CITADEL_MULTILINGUAL_MODEL", str(BASE_DIR / "var" / "meaning" / "multilingual-e5-small")
)
# The shipped section notes (rules/data/section_notes: the words players use for each
# section of the five rulebooks, and the questions it answers). Off, the search ranks the
# books as it ranks one imported from another text, which no note fits: what
# `CITADEL_SECTION_NOTES=0 manage.py rules_relevance` measures.
CITADEL_SECTION_NOTES = env_bool("CITADEL_SECTION_NOTES", True)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Once `collectstatic` wrote its manifest (scripts/production does), static files get
# hashed names and are cached for a year; before (tests, runserver) they keep their names.
_STATIC_MANIFEST = (STATIC_ROOT / "staticfiles.json").exists()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if _STATIC_MANIFEST or env_bool("CITADEL_STATIC_MANIFEST", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REDIS_URL = os.environ.get("REDIS_URL", "")
# Seconds to wait for Redis before giving up on one operation: the site keeps serving when
# Redis is down (the cache answers "miss", exports answer 503), so waiting long only hurts.
REDIS_TIMEOUT = float(os.environ.get("CITADEL_REDIS_TIMEOUT", "0.5"))


def redis_caches(url: str) -> dict:
    """The cache on Redis: a Redis that cannot be reached is a cache miss, never a 500, and
    costs one refused connection (no retries with backoff) per cache call."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": {
                "SOCKET_CONNECT_TIMEOUT": REDIS_TIMEOUT,
                "SOCKET_TIMEOUT": REDIS_TIMEOUT,
                "IGNORE_EXCEPTIONS": True,
                "CONNECTION_POOL_KWARGS": {"retry": Retry(NoBackoff(), 0)},
            },
        }
    }


DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
if REDIS_URL:
    CACHES = redis_caches(REDIS_URL)
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
elif os.environ.get("CELERY_BROKER_URL"):
    # A broker without Redis (scripts/demo: kombu's filesystem transport): a real worker
    # process runs the exports; the cache stays in memory, per process.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = os.environ["CELERY_BROKER_URL"]
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # No broker at all: tasks run in-process, so a bare checkout works on its own.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", True)

if CELERY_BROKER_URL.startswith("filesystem:"):
    _broker_dir = Path(os.environ.get("CITADEL_BROKER_DIR", BASE_DIR / "var" / "broker"))
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        "polling_interval": 0.2,
    }
elif CELERY_BROKER_URL.startswith("redis"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": 2,
        "socket_timeout": 10,
        "retry_on_timeout": True,
        # Longer than any export may run: an unacknowledged message is only redelivered
        # when its worker is surely gone (the claim in exports.services refuses a second run).
        "visibility_timeout": 3600,
    }
# Exports keep their state in the database; Celery stores no results.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Sending a task gives up quickly when the broker is down: the request answers 503 at once
# instead of hanging (exports.services.start_export).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True

# The queue Citadel's tasks go to and its workers consume: give each site (or test run)
# sharing one Redis database its own name, so no worker takes another site's jobs.
CITADEL_CELERY_QUEUE = os.environ.get("CITADEL_CELERY_QUEUE", "citadel")
CELERY_TASK_DEFAULT_QUEUE = CITADEL_CELERY_QUEUE
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Periodic jobs, run by `celery -A armybuilder beat` (scripts/production, compose.yaml):
# add an entry here for a new one.
CELERY_BEAT_SCHEDULE = {
    "prune-exports": {
        "task": "exports.prune_exports",
        "schedule": float(os.environ.get("CITADEL_PRUNE_EVERY", "300")),
    },
    # Catches lists judged with card data an import has since replaced, should the import's
    # own errata check be lost (events.errata).
    "errata-check": {
        "task": "events.check_errata",
        "schedule": float(os.environ.get("CITADEL_ERRATA_CHECK_EVERY", "3600")),
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = os.environ.get(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / "var" / "celerybeat-schedule")
)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "cards.api.pagination.CappedPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "armybuilder.api_errors.exception_handler",
    # A body nested too deeply for Python's JSON parser is a 400, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "armybuilder.api_parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Basic first: a wrong password answers 401 with WWW-Authenticate, not 403. A token
    # (POST /api/v1/auth/token/) costs no password hashing per request.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.BasicAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Citadel API",
    "DESCRIPTION": "Cards, army lists and rules for the games of A Song of Ice and Fire.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "exports.serializers.close_request_shapes",
        "events.serializers.require_event_bodies",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameEnum": "cards.models.Game",
        "CheckedGameEnum": [("tmg", "tmg"), ("tactics", "tactics")],
        "CardKindEnum": "cards.models.CardKind",
        "ScenarioKindEnum": "cards.models.ScenarioKind",
        "LanguageEnum": [("en", "en"), ("fr", "fr")],
        "ExportKindEnum": "exports.models.ExportKind",
        "ExportStatusEnum": "exports.models.ExportStatus",
        "ListGameEnum": "armybuilder.lists.models.ListGame",
        "VerdictStatusEnum": [
            ("legal", "legal"),
            ("illegal", "illegal"),
            ("empty", "empty"),
            ("undecided", "undecided"),
        ],
        "CardSetVisibilityEnum": "cards.models.SetVisibility",
        "EventVisibilityEnum": "events.models.EventVisibility",
        "EventListStatusEnum": "events.models.ListStatus",
        "EventListSourceEnum": "events.models.ListSource",
        "ExportLanguageEnum": [("en", "en"), ("fr", "fr"), ("fa", "fa")],
        "ArmyListKindEnum": [("army-list", "army-list")],
        "RulesSectionKindEnum": [("rules-section", "rules-section")],
        "RulebookKindEnum": [("rulebook", "rulebook")],
        "EventListsKindEnum": [("event-lists", "event-lists")],
    },
}

# PDF exports (exports/). A job past its hard time limit is killed by the worker; one still
# "running" a grace period later lost its worker and is re-run or failed (exports.services).
CITADEL_EXPORT_SOFT_TIME_LIMIT = int(os.environ.get("CITADEL_EXPORT_SOFT_TIME_LIMIT", "120"))
CITADEL_EXPORT_TIME_LIMIT = int(os.environ.get("CITADEL_EXPORT_TIME_LIMIT", "150"))
CITADEL_EXPORT_STALE_GRACE = int(os.environ.get("CITADEL_EXPORT_STALE_GRACE", "30"))
CITADEL_EXPORT_RESEND_AFTER = int(os.environ.get("CITADEL_EXPORT_RESEND_AFTER", "600"))
CITADEL_EXPORT_MAX_ATTEMPTS = int(os.environ.get("CITADEL_EXPORT_MAX_ATTEMPTS", "3"))
CITADEL_EXPORT_EXPIRY_HOURS = int(os.environ.get("CITADEL_EXPORT_EXPIRY_HOURS", str(7 * 24)))
CITADEL_EXPORT_RATE = os.environ.get("CITADEL_EXPORT_RATE", "30/hour")
# Seconds a client is told to wait (Retry-After) when the export queue cannot be reached.
CITADEL_RETRY_AFTER = int(os.environ.get("CITADEL_RETRY_AFTER", "30"))

# --- Limits: every bound on what one request may ask, each with a clear 4xx -------------------
# (API and pages read them from here; the events app reuses them.)


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


# Request body (JSON, form or upload), bytes: a larger one answers 413.
CITADEL_MAX_BODY_BYTES = env_int("CITADEL_MAX_BODY_BYTES", 10 * 1024 * 1024)
# One uploaded file (e.g. a list or an intake file), bytes.
CITADEL_MAX_UPLOAD_BYTES = env_int("CITADEL_MAX_UPLOAD_BYTES", 5 * 1024 * 1024)
# Characters of one pasted list, and entries (units, NCUs, attachments…) read in one list.
CITADEL_MAX_LIST_CHARS = env_int("CITADEL_MAX_LIST_CHARS", 20_000)
CITADEL_MAX_LIST_ENTRIES = env_int("CITADEL_MAX_LIST_ENTRIES", 60)
# Lists in one check-batch request, and in one tournament intake.
CITADEL_MAX_BATCH_LISTS = env_int("CITADEL_MAX_BATCH_LISTS", 2000)
CITADEL_MAX_INTAKE_LISTS = env_int("CITADEL_MAX_INTAKE_LISTS", 2000)
# Characters of a rules search or card query.
CITADEL_MAX_QUERY_CHARS = env_int("CITADEL_MAX_QUERY_CHARS", 500)
DATA_UPLOAD_MAX_MEMORY_SIZE = CITADEL_MAX_BODY_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = min(CITADEL_MAX_UPLOAD_BYTES, 2_621_440)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env_int("CITADEL_MAX_FORM_FIELDS", 2000)

# Where the demo command looks for rulebook files to import (issue: rules reference).
CITADEL_RULEBOOK_DIR = os.environ.get("CITADEL_RULEBOOK_DIR", "")

# --- HTTPS: on by default when DEBUG is off (`manage.py check --deploy` is clean) ------------
# CITADEL_HTTPS=0 opts out for a plain-HTTP run on localhost (the load drills, tests);
# behind a proxy that terminates TLS, CITADEL_PROXY_SSL_HEADER=1 trusts its
# X-Forwarded-Proto header.
CITADEL_HTTPS = env_bool("CITADEL_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", CITADEL_HTTPS)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", CITADEL_HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if CITADEL_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", CITADEL_HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", CITADEL_HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # load balancers probe over plain HTTP
if env_bool("CITADEL_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
