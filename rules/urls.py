from django.urls import path

from . import views

app_name = "rules"
urlpatterns = [
    path("", views.index, name="index"),
    path("search/", views.search, name="search"),
    path("<str:book_slug>/", views.book, name="book"),
    path("<str:book_slug>/<str:section_slug>/", views.section, name="section"),
]
