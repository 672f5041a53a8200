"""The settings module fails loudly on bad environment values."""

import os
import subprocess
import sys

import pytest

from scorekeeper.settings import envbool, envint, envlist

PROD = {"DEBUG": "false", "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "scores.example.org"}


def _import_settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    ours = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "SCOREKEEPER_ASGI"}
    clean = {k: v for k, v in os.environ.items() if k not in ours}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import scorekeeper.settings as s; d = s.DATABASES['default']; "
            "print(s.DEBUG, d['ENGINE'], d['CONN_MAX_AGE'], d.get('OPTIONS', {}).get('pool'))",
        ],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_settings_load() -> None:
    result = _import_settings(PROD)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False django.db.backends.sqlite3 60 None"


def test_database_url_selects_postgresql() -> None:
    result = _import_settings({**PROD, "DATABASE_URL": "postgres://u:p@db.internal:5432/scores"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False django.db.backends.postgresql 60 None"


def test_an_asgi_server_takes_postgresql_connections_from_a_pool() -> None:
    """Under ASGI a request's thread is its own: a kept connection would be one a request."""
    result = _import_settings(
        {**PROD, "DATABASE_URL": "postgres://u:p@db:5432/s", "SCOREKEEPER_ASGI": "1"}
    )
    assert result.returncode == 0, result.stderr
    engine, kept, pool = result.stdout.strip().split(" ", 3)[1:]
    assert (engine, kept) == ("django.db.backends.postgresql", "0")
    assert pool == "{'min_size': 1, 'max_size': 20, 'timeout': 10}"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "false", "ALLOWED_HOSTS": "x.org"}, "SECRET_KEY must be set when DEBUG is off"),
        ({"DEBUG": "false", "SECRET_KEY": "k" * 50}, "ALLOWED_HOSTS must be set when DEBUG is off"),
        ({**PROD, "DEBUG": "maybe"}, "DEBUG must be true or false, not 'maybe'"),
        ({**PROD, "SQLITE_TIMEOUT": "soon"}, "SQLITE_TIMEOUT must be a whole number, not 'soon'"),
        (
            {**PROD, "SITE_URL": "scores.example.org"},
            "SITE_URL must be the site's address, such as https://scores.example.org, "
            "not 'scores.example.org'",
        ),
        ({**PROD, "SITE_URL": "https://scores.example.org/99/"}, "not 'https://scores"),
    ],
)
def test_it_fails_loudly(env: dict[str, str], message: str) -> None:
    result = _import_settings(env)
    assert result.returncode != 0
    assert message in result.stderr


def test_helpers_read_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_BOOL", "Yes")
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_LIST", " a.org, ,b.org ")
    assert envbool("X_BOOL", False) is True
    assert envint("X_INT", 0) == 42
    assert envlist("X_LIST", []) == ["a.org", "b.org"]
    assert envbool("X_MISSING", True) is True
    assert envint("X_MISSING", 7) == 7


def test_sqlite_is_tuned_for_several_writers() -> None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("running on PostgreSQL")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert options["timeout"] >= 5
