from django.contrib.auth import views as auth_views
from django.urls import path

from scorekeeper.views import accounts, exports, links, players, rules, sessions, site, table

handler500 = "scorekeeper.views.site.server_error"

DEAL, ROUND = {"unit": "deal"}, {"unit": "round"}

urlpatterns = [
    path("", site.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", accounts.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("players/", players.players, name="players"),
    path("players/<int:player_id>/", players.player, name="player"),
    path("sessions/", sessions.sessions, name="sessions"),
    path("sessions/import/", sessions.session_import, name="session_import"),
    path("sessions/new/", sessions.session_new, name="session_new"),
    path(
        "sessions/new/<slug:family>/<slug:preset_id>/",
        sessions.session_start,
        name="session_start",
    ),
    path("sessions/<slug:public_id>/", table.session, name="session"),
    path(
        "sessions/<slug:public_id>/deals/<int:number>/",
        table.session_correction,
        DEAL,
        name="deal_edit",
    ),
    path(
        "sessions/<slug:public_id>/rounds/<int:number>/",
        table.session_correction,
        ROUND,
        name="round_edit",
    ),
    path("sessions/<slug:public_id>/deals/", table.session_grid, DEAL, name="session_deals"),
    path("sessions/<slug:public_id>/rounds/", table.session_grid, ROUND, name="session_rounds"),
    path("sessions/<slug:public_id>/live/", table.session_live, name="session_live"),
    path("sessions/<slug:public_id>/history/", table.session_history, name="session_history"),
    path("sessions/<slug:public_id>/share/", links.session_share, name="session_share"),
    path(
        "sessions/<slug:public_id>/scoresheet.json",
        exports.session_scoresheet,
        name="session_scoresheet",
    ),
    path("sessions/<slug:public_id>/session.csv", exports.session_csv, name="session_csv"),
    path("sessions/<slug:public_id>/rules/", rules.session_sheet, name="session_rules"),
    path("w/<str:token>/", links.watch, name="watch"),
    path("w/<str:token>/live/", links.watch_live, name="watch_live"),
    path("w/<str:token>/deals/", links.watch_grid, DEAL, name="watch_deals"),
    path("w/<str:token>/rounds/", links.watch_grid, ROUND, name="watch_rounds"),
    path("s/<str:token>/", links.scorer, name="scorer"),
    path("s/<str:token>/name/", links.scorer_name_page, name="scorer_name"),
    path("s/<str:token>/forget/", links.scorer_forget, name="scorer_forget"),
    path("s/<str:token>/live/", links.scorer_live, name="scorer_live"),
    path("s/<str:token>/deals/", links.scorer_grid, DEAL, name="scorer_deals"),
    path("s/<str:token>/rounds/", links.scorer_grid, ROUND, name="scorer_rounds"),
    path(
        "s/<str:token>/deals/<int:number>/",
        links.scorer_correction,
        DEAL,
        name="scorer_deal_edit",
    ),
    path(
        "s/<str:token>/rounds/<int:number>/",
        links.scorer_correction,
        ROUND,
        name="scorer_round_edit",
    ),
    path("rules/", rules.index, name="rules"),
    path("rules/RULES.md", rules.document, {"name": "RULES.md"}, name="rules_document"),
    path("rules/FORMAT.md", rules.document, {"name": "FORMAT.md"}, name="format_document"),
    path("rules/<slug:family>/<slug:preset_id>/", rules.sheet, name="rule_sheet"),
    path("rules/<slug:family>/<slug:preset_id>/pad/", rules.pad, name="score_pad"),
    path("offline/", rules.offline, name="offline"),
    path("sw.js", rules.service_worker, name="service_worker"),
    path("theme/", site.theme, name="theme"),
    path("manifest.webmanifest", site.manifest, name="manifest"),
    path("healthz/", site.healthz, name="healthz"),
]
