from django.contrib.auth import views as auth_views
from django.urls import include, path

from scorekeeper import table, views

handler500 = "scorekeeper.views.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("players/", views.players, name="players"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("sessions/", views.sessions, name="sessions"),
    path("sessions/import/", views.session_import, name="session_import"),
    path("sessions/new/", views.session_new, name="session_new"),
    path(
        "sessions/new/<slug:family>/<slug:preset_id>/",
        views.session_start,
        name="session_start",
    ),
    path("sessions/<slug:public_id>/", table.session, name="session"),
    path("sessions/<slug:public_id>/deals/<int:number>/", table.deal_edit, name="deal_edit"),
    path("sessions/<slug:public_id>/rounds/<int:number>/", table.round_edit, name="round_edit"),
    path(
        "sessions/<slug:public_id>/deals/",
        table.session_grid,
        {"unit": "deal"},
        name="session_deals",
    ),
    path(
        "sessions/<slug:public_id>/rounds/",
        table.session_grid,
        {"unit": "round"},
        name="session_rounds",
    ),
    path("sessions/<slug:public_id>/live/", table.session_live, name="session_live"),
    path("sessions/<slug:public_id>/history/", table.session_history, name="session_history"),
    path("sessions/<slug:public_id>/share/", table.session_share, name="session_share"),
    path(
        "sessions/<slug:public_id>/scoresheet.json",
        table.session_scoresheet,
        name="session_scoresheet",
    ),
    path("sessions/<slug:public_id>/session.csv", table.session_csv, name="session_csv"),
    path("w/<str:token>/", table.watch, name="watch"),
    path("w/<str:token>/live/", table.watch_live, name="watch_live"),
    path("w/<str:token>/deals/", table.watch_grid, {"unit": "deal"}, name="watch_deals"),
    path("w/<str:token>/rounds/", table.watch_grid, {"unit": "round"}, name="watch_rounds"),
    path("s/<str:token>/", table.scorer, name="scorer"),
    path("s/<str:token>/name/", table.scorer_name, name="scorer_name"),
    path("s/<str:token>/forget/", table.scorer_forget, name="scorer_forget"),
    path("s/<str:token>/live/", table.scorer_live, name="scorer_live"),
    path("s/<str:token>/deals/", table.scorer_grid, {"unit": "deal"}, name="scorer_deals"),
    path("s/<str:token>/rounds/", table.scorer_grid, {"unit": "round"}, name="scorer_rounds"),
    path("s/<str:token>/deals/<int:number>/", table.scorer_deal_edit, name="scorer_deal_edit"),
    path("s/<str:token>/rounds/<int:number>/", table.scorer_round_edit, name="scorer_round_edit"),
    path("", include("scorekeeper.cheatsheet_urls")),
    path("theme/", views.theme, name="theme"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("healthz/", views.healthz, name="healthz"),
]
