"""URLs of the printable rule sheets, score pads and the offline support (issue: cheat sheets)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
