from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from cards import selectors as card_selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"stats": card_selectors.card_counts_by_game()})


def health(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
