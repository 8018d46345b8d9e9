from django.urls import path

from . import views

app_name = "events"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("join/<uuid:token>/", views.join, name="join"),
    path("<int:event_id>/", views.detail, name="detail"),
    path("<int:event_id>/edit/", views.edit, name="edit"),
    path("<int:event_id>/join/", views.join_public, name="join_public"),
    path("<int:event_id>/submit/", views.submit, name="submit"),
    path("<int:event_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:event_id>/lists/<int:list_id>/", views.list_detail, name="list"),
    path("<int:event_id>/organise/", views.organise, name="organise"),
    path("<int:event_id>/intake/", views.intake_view, name="intake"),
    path("<int:event_id>/lock/", views.lock, name="lock"),
    path("<int:event_id>/publish/", views.publish, name="publish"),
    path("<int:event_id>/lists/<int:list_id>/review/", views.review, name="review"),
    path("<int:event_id>/players/add/", views.add_player, name="add_player"),
    path("<int:event_id>/organisers/add/", views.add_organiser, name="add_organiser"),
]
