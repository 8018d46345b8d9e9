"""/api/v1/events/ (events.api)."""

from django.urls import path, re_path

from . import api

urlpatterns = [
    path("", api.EventsView.as_view(), name="api-events"),
    path("<int:event_id>/", api.EventDetailView.as_view(), name="api-events-detail"),
    path("<int:event_id>/join/", api.EventJoinView.as_view(), name="api-events-join"),
    path("<int:event_id>/players/", api.EventPlayersView.as_view(), name="api-events-players"),
    path("<int:event_id>/lists/", api.EventListsView.as_view(), name="api-events-lists"),
    path(
        "<int:event_id>/lists/<int:list_id>/",
        api.EventListDetailView.as_view(),
        name="api-events-list",
    ),
    path("<int:event_id>/intake/", api.EventIntakeView.as_view(), name="api-events-intake"),
    path("<int:event_id>/lock/", api.EventLockView.as_view(), name="api-events-lock"),
    path("<int:event_id>/publish/", api.EventPublishView.as_view(), name="api-events-publish"),
    path("<int:event_id>/errata/", api.EventErrataView.as_view(), name="api-events-errata"),
    re_path(
        r"^(?P<event_id>[0-9]+)/report\.(?P<fmt>json|csv)$",
        api.EventReportView.as_view(),
        name="api-events-report",
    ),
]
