"""Citadel settings: one module, driven by environment variables with safe defaults.

Without any variable set, Citadel runs on SQLite with Celery tasks executed in-process,
so the demo needs no server. DATABASE_URL switches to PostgreSQL, REDIS_URL to Redis
(broker, result backend and cache).
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
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "armybuilder",
    "cards",
    "rules",
    "exports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
    )
}
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # No Redis server: tasks run in-process, so the demo works on a bare machine.
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", True)

# The queue Citadel's tasks go to and its workers consume: give each site (or test run)
# sharing one Redis database its own name, so no worker takes another site's jobs.
CITADEL_CELERY_QUEUE = os.environ.get("CITADEL_CELERY_QUEUE", "citadel")
CELERY_TASK_DEFAULT_QUEUE = CITADEL_CELERY_QUEUE
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "cards.api.pagination.CappedPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "armybuilder.api_errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Citadel API",
    "DESCRIPTION": "Cards, army lists and rules for the games of A Song of Ice and Fire.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "GameEnum": "cards.models.Game",
        "CheckedGameEnum": [("tmg", "tmg"), ("tactics", "tactics")],
        "CardKindEnum": "cards.models.CardKind",
        "ScenarioKindEnum": "cards.models.ScenarioKind",
        "LanguageEnum": [("en", "en"), ("fr", "fr")],
        "ExportKindEnum": "exports.models.ExportKind",
        "ExportStatusEnum": "exports.models.ExportStatus",
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

# Where the demo command looks for rulebook files to import (issue: rules reference).
CITADEL_RULEBOOK_DIR = os.environ.get("CITADEL_RULEBOOK_DIR", "")

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
