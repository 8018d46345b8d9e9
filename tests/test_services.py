"""The production services. In CI's second pass (CITADEL_REQUIRE_SERVICES=1) the suite runs
on PostgreSQL with Redis, and these tests fail if either is not the one in use."""

import os

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

REQUIRE_SERVICES = os.environ.get("CITADEL_REQUIRE_SERVICES") == "1"


def test_cache_round_trip_works():
    cache.set("citadel-test-key", {"ok": True}, 30)
    assert cache.get("citadel-test-key") == {"ok": True}


@pytest.mark.skipif(not REQUIRE_SERVICES, reason="only in the PostgreSQL + Redis pass")
@pytest.mark.django_db
def test_database_is_postgresql_when_services_required():
    assert connection.vendor == "postgresql"


@pytest.mark.skipif(not REQUIRE_SERVICES, reason="only in the PostgreSQL + Redis pass")
def test_cache_and_broker_are_redis_when_services_required():
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    assert settings.CELERY_BROKER_URL.startswith("redis://")
