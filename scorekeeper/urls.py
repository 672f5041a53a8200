from django.contrib.auth import views as auth_views
from django.urls import path

from scorekeeper import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
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
    path("sessions/<slug:public_id>/", views.session, name="session"),
    path("sessions/<slug:public_id>/deals/<int:number>/", views.deal_edit, name="deal_edit"),
    path("sessions/<slug:public_id>/rounds/<int:number>/", views.round_edit, name="round_edit"),
    path("sessions/<slug:public_id>/history/", views.session_history, name="session_history"),
    path(
        "sessions/<slug:public_id>/scoresheet.json",
        views.session_scoresheet,
        name="session_scoresheet",
    ),
    path("theme/", views.theme, name="theme"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
