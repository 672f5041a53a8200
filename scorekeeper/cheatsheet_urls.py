"""URLs of the printable rule sheets, score pads and the offline support (issue: cheat sheets)."""

from django.urls import URLPattern, path

from scorekeeper import cheatsheets

urlpatterns: list[URLPattern] = [
    path("rules/", cheatsheets.index, name="rules"),
    path("rules/<slug:family>/<slug:preset_id>/", cheatsheets.sheet, name="rule_sheet"),
    path("rules/<slug:family>/<slug:preset_id>/pad/", cheatsheets.pad, name="score_pad"),
    path("sessions/<slug:public_id>/rules/", cheatsheets.session_sheet, name="session_rules"),
    path("offline/", cheatsheets.offline, name="offline"),
    path("sw.js", cheatsheets.service_worker, name="service_worker"),
]
