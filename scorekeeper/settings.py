"""Settings, read from environment variables through small typed helpers.

The defaults suit development on one machine (DEBUG on, SQLite next to the code).
Production sets DEBUG=false, and then SECRET_KEY and ALLOWED_HOSTS must be set too.
"""

import os
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from scorekeeper.rules import bounds

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def envstr(name: str, default: str) -> str:
    return os.environ.get(name) or default


def envorigin(name: str) -> str:
    """A site's address, its scheme and host only ("https://scores.example.org"), or ""."""
    value = os.environ.get(name) or ""
    parts = urlsplit(value.rstrip("/"))
    if value and (
        parts.scheme not in ("http", "https")
        or not parts.netloc
        or parts.path
        or parts.query
        or parts.fragment
    ):
        raise ImproperlyConfigured(
            f"{name} must be the site's address, such as https://scores.example.org, not {value!r}"
        )
    return value.rstrip("/")


def envlist(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)

_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production"
SECRET_KEY = envstr("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# The address phones open the site at ("https://scores.example.org"): share links and their QR
# codes carry it, even on a page opened at localhost, which no phone can open. scripts/run sets
# it to this computer's address on the local network. Unset, a link carries the address its page
# was opened at, and a page opened at a loopback address shows none.
SITE_URL = envorigin("SITE_URL")
# scripts/run's word that BIND keeps the phones out: where it listens ("127.0.0.1:8000"), and
# this computer's addresses on the local network that BIND leaves out. Where no link can be
# given, the share page says this cause and its cure, as the terminal does. Empty otherwise.
BIND_ONLY = envlist("SCOREKEEPER_BIND_ONLY", [])
BIND_LEAVES_OUT = envlist("SCOREKEEPER_BIND_LEAVES_OUT", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_tasks_db",
    "scorekeeper",
]
# The benchmark harness (the top-level app `bench`, with the `bench_*` commands) is no part of
# the product: it is installed only where BENCH is on, which `manage.py bench_…` and the tests'
# settings turn on.
BENCH = envbool("BENCH", False)
if BENCH:
    INSTALLED_APPS.append("bench")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "scorekeeper.staticfiles.StaticFilesMiddleware",  # WhiteNoise: static files, precompressed
    # Pages and htmx fragments, gzipped for phones on mobile data (Django masks the
    # CSRF token and pads the gzip header against BREACH); event streams are sent as they are.
    "scorekeeper.middleware.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the phone's language (cookie, browser)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scorekeeper.middleware.OwnerMarkMiddleware",  # whose each page is, for what phones keep
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.middleware.LinkMiddleware",
    "scorekeeper.middleware.UnreadableRulesMiddleware",
    "scorekeeper.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGES, for the language switch
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorekeeper.context_processors.kept_copy",  # after messages: it takes them away
                "scorekeeper.context_processors.theme",
                "scorekeeper.context_processors.connection",
                "scorekeeper.context_processors.owner",
            ],
        },
    },
]

# SQLite by default, tuned for several phones writing at once: WAL lets readers
# run beside one writer, IMMEDIATE takes the write lock at the start of a
# transaction (no upgrade deadlocks), and writers wait for each other.
SQLITE_PATH = Path(envstr("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")))
DATABASES: dict[str, dict[str, Any]] = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": SQLITE_PATH,
        # Tests use a file too (not memory), so threads can write at once as phones do;
        # one per process, so test runs side by side never share it.
        "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"scorekeeper-test-{os.getpid()}.db")},
        # Kept open between requests: opening the file and running the PRAGMAs below (once per
        # connection) would cost each unchanged poll more than its one query (BENCHMARKS.md's
        # register: kept SQLite connection).
        "CONN_MAX_AGE": envint("DB_CONN_MAX_AGE", 60),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": envint("SQLITE_TIMEOUT", 20),
            "init_command": (
                "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA foreign_keys=ON;"
            ),
        },
    }
}
ASGI_VARIABLE = "SCOREKEEPER_ASGI"  # set by asgi.py: this process serves the ASGI app
if os.environ.get("DATABASE_URL"):
    DATABASES["default"] = dict(
        dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=envint("DB_CONN_MAX_AGE", 60)
        )
    )
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if os.environ.get(ASGI_VARIABLE) and DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # Under ASGI each request's synchronous part runs on a thread made for that request, so
        # a connection kept by its thread would be a new connection for every request, left
        # open until the server refuses more. There, as Django's docs advise, the connections
        # come from a pool (psycopg's) and go back to it at each request's end.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": envint("DB_POOL_SIZE", 20),
            "timeout": 10,  # seconds a request waits for a connection before its 503
        }

# What every phone after the first is served from: each session's result and each watch link's
# rendered live fragment, keyed by the session's version (so never out of date). In this process
# by default; shared by every app process and server through Redis when REDIS_URL is set.
CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": envint("CACHE_MAX_ENTRIES", 2000)},
    },
    # Each rendered row of a deal grid, keyed by what it shows (templates/trick/grid.html): a
    # page of a session shows its last 12 deals, and a new version adds one row to them. Always
    # in this process: a row is small and quick to render, and a round trip to Redis for each
    # would cost more than the render it saves.
    "rows": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "rows",
        "OPTIONS": {"MAX_ENTRIES": envint("ROW_CACHE_MAX_ENTRIES", 10_000)},
    },
}
if os.environ.get("REDIS_URL"):
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["REDIS_URL"],
        "KEY_PREFIX": envstr("CACHE_KEY_PREFIX", "scorekeeper"),
    }

# Work that runs outside the request (a long replay of ratings: scorekeeper/club/ratings.py),
# kept in the database until a worker (`manage.py db_worker`, which scripts/run starts beside
# the server) has run it.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Argon2 first (argon2id, at OWASP's minimum: see scorekeeper/hashers.py): memory-hard, and a
# log-in costs far less CPU than PBKDF2 at Django's default strength (BENCHMARKS.md, bench_login).
# Older PBKDF2 hashes still check, and are made again with Argon2 at the user's next log-in.
PASSWORD_HASHERS = [
    "scorekeeper.hashers.TableArgon2PasswordHasher",  # checks any Argon2 hash, any settings
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Attempts allowed per window (seconds): logins per account name (three times as many per
# address), password changes per account, sign-ups per address, and requests for link tokens
# that do not exist, per address.
LOGIN_RATE_LIMIT = (envint("LOGIN_RATE_LIMIT", 10), 600)  # password changes too, per account
SIGNUP_RATE_LIMIT = (envint("SIGNUP_RATE_LIMIT", 10), 600)  # per address
LINK_RATE_LIMIT = (envint("LINK_RATE_LIMIT", 30), 600)
# Event streams (live push) one app process keeps open: per address, and in all (by default
# half the process's open-files limit, so that pages and the database always find a file).
# Past either, a stream is refused (429, 503) and that phone polls instead.
STREAMS_PER_ADDRESS = envint("STREAMS_PER_ADDRESS", 100)
STREAMS_PER_PROCESS = envint("STREAMS_PER_PROCESS", 0)  # 0: half the open-files limit
# The most bytes of a request's body the async server reads (scorekeeper/bodylimit.py): the
# largest body the app takes is a scoresheet file's upload, the file and its form around it.
# Past it the answer is 413 and the rest is never read. Behind nginx, its client_max_body_size.
MAX_REQUEST_BODY = envint("MAX_REQUEST_BODY", bounds.MAX_FILE_BYTES + 1_000_000)
# Load on the async server (scorekeeper/shedding.py says why this many): the requests one
# process runs in Django at a time, the others waiting in order, a person's actions first,
# and a live region's poll that would wait answered 503 with Retry-After (0: no bound).
REQUESTS_AT_ONCE = envint("REQUESTS_AT_ONCE", 4)
# How many reverse proxies in front append to X-Forwarded-For (0: none; count by REMOTE_ADDR).
TRUSTED_PROXIES = envint("TRUSTED_PROXIES", 0)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# What one account may keep (scorekeeper/services/limits.py), archived players and deleted
# sessions included: far past a real club's, they keep every page that lists them small (the
# start page draws each active player once in each of its eleven seat and dealer menus; the
# lists of nights and seasons are paged, and the ladder lists every season in one menu).
ACCOUNT_MAX_PLAYERS = envint("ACCOUNT_MAX_PLAYERS", 500)
ACCOUNT_MAX_RULESETS = envint("ACCOUNT_MAX_RULESETS", 200)
ACCOUNT_MAX_SESSIONS = envint("ACCOUNT_MAX_SESSIONS", 10_000)
ACCOUNT_MAX_NIGHTS = envint("ACCOUNT_MAX_NIGHTS", 1_000)  # a weekly club's twenty years
ACCOUNT_MAX_SEASONS = envint("ACCOUNT_MAX_SEASONS", 100)

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "scorekeeper" / "locale"]
# The language chosen in the footer, remembered on that phone for a year (docs/DEVELOPMENT.md,
# Languages). Its Secure flag follows the session cookie's (set further down).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True  # only the server reads it
# Dates as each language writes them: scorekeeper/formats/<code>/formats.py.
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
TIME_ZONE = envstr("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "scorekeeper.staticfiles.StaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Messages ride in a signed cookie (the session only for one too big for it: Django's default):
# kept in the login session, every saved deal wrote the session row twice (the message, then
# its reading), two more write transactions a deal, which SQLite serialises.
MESSAGE_STORAGE = "django.contrib.messages.storage.fallback.FallbackStorage"

# Security: strict by default; TLS terminates at the reverse proxy in production.
# Behind a reverse proxy that terminates TLS, its X-Forwarded-Proto says whether the phone came
# over HTTPS. With no proxy in front (scripts/run) that header is whatever the phone wrote.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if envbool("TRUST_X_FORWARDED_PROTO", True) else None
)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]  # health checks come over plain HTTP from inside
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# htmx reads the CSRF token from its cookie (static/js/csrf.js): no page holds one of its own.
CSRF_COOKIE_HTTPONLY = False
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
SESSION_ENGINE = "scorekeeper.browser_sessions"  # database sessions; an outage answers 503, not 400
SESSION_COOKIE_SAMESITE = "Lax"
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content Security Policy: every file from this site, scripts by URL; no nonce (a page kept for
# every phone that holds a link is the same bytes for all: scorekeeper/live/pages.py), so no
# inline script or style anywhere.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No line names a watch or scorer link's token (scorekeeper/logs.py).
    "filters": {"hide_link_tokens": {"()": "scorekeeper.logs.HideLinkTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["hide_link_tokens"]},
    },
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "WARNING")},
    # Django's own "django" logger has a console handler of its own with DEBUG on, and its
    # records also reach the root's: every line printed twice ("Watching for file changes").
    # Without handlers it passes its records (INFO and up, as Django sets) to the root's alone.
    "loggers": {
        "django": {"handlers": [], "level": "INFO"},
        # The task worker says at INFO and WARNING that it starts and stops; a task that fails
        # is an ERROR, and said.
        "django_tasks_db": {"level": "ERROR"},
    },
}
