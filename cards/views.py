from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def browse(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/browse.html", {})
