"""Run the app under gunicorn on loopback, on a database made for the run.

Used by the benchmarks that need a real server (`bench_load`, `bench_figures`) and by
the fault tests. Each server runs with production settings (DEBUG off, compressed
static files) except that it speaks plain HTTP on 127.0.0.1.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.core.management.base import CommandParser

from bench.phone import Phone, ServerGone

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def postgres_answers(url: str = DEFAULT_POSTGRES) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), 1).close()
    except OSError:
        return False
    return True


def app_env(database: dict[str, str], **settings: str) -> dict[str, str]:
    """This process's environment for the app, pointed at `database` (the variables of
    scratch_database) instead of whatever database this process uses, with `settings`. It is
    the app as deployed, without the benchmark harness: a `manage.py bench_…` that it runs
    installs the harness itself."""
    skip = ("DATABASE_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE", "BENCH")
    return {k: v for k, v in os.environ.items() if k not in skip} | database | settings


def production_env(database: dict[str, str], scratch: Path) -> dict[str, str]:
    """The environment of a production server, for loopback: plain HTTP, no HSTS."""
    return app_env(
        database,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(40),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        SECURE_HSTS_SECONDS="0",
        STATIC_ROOT=str(scratch / "static"),
        PYTHONUNBUFFERED="1",
        # Every phone of the benchmark comes from loopback: one address with thousands of
        # streams open, where a real address holds a few.
        STREAMS_PER_ADDRESS="1000000",
    )


def manage(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    """Run a management command in a fresh process with `env`; its output."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@contextmanager
def scratch_database(kind: str, postgres_url: str = DEFAULT_POSTGRES) -> Iterator[dict[str, str]]:
    """A new, empty database of `kind` ("sqlite" or "postgresql"), dropped afterwards.

    For PostgreSQL, `postgres_url` names the server; its database name is not used.

    Yields the environment variables that point the app at it.
    """
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
            yield {"SQLITE_PATH": str(Path(folder) / "bench.sqlite3")}
        return
    import psycopg

    name = f"scorekeeper_bench_{os.getpid()}_{secrets.token_hex(3)}"
    parts = urlsplit(postgres_url)
    server = urlunsplit(parts._replace(path="/postgres"))  # any database of the server will do
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {"DATABASE_URL": urlunsplit(parts._replace(path=f"/{name}"))}
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def connections_made(env: dict[str, str]) -> int | None:
    """How many connections the app's PostgreSQL database has been opened with so far (each
    costs the server a process), or None on SQLite."""
    if "DATABASE_URL" not in env:
        return None
    import psycopg

    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as admin:
        found = admin.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(found[0]) - 1 if found else None  # not counting this one


@dataclass
class Gunicorn:
    """A running gunicorn; `base_url` is where it answers."""

    process: subprocess.Popen[bytes]
    base_url: str
    log: Path
    env: dict[str, str] = field(repr=False)
    # "app" serves every request; "events" (uvicorn beside gunicorn) only the event streams.
    role: str = "app"
    name: str = "gunicorn"

    def worker_pids(self) -> set[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return {int(pid) for pid in children.read_text().split()}

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    @property
    def address(self) -> str:
        return self.base_url.removeprefix("http://")


def wait_until_up(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    phone = Phone(base_url, timeout=5)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn stopped at start:\n{log.read_text(errors='replace')}")
        with suppress(ServerGone):
            if phone.get("/healthz/").status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer in 60 s:\n{log.read_text(errors='replace')}")


@contextmanager
def _running(
    command: list[str], env: dict[str, str], base_url: str, log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """`command` started with `env`, its output in `log`, once it answers at `base_url`;
    stopped afterwards (SIGTERM, then SIGKILL after 15 s) and its log removed."""
    with log.open("ab") as out:
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=out)
    try:
        wait_until_up(base_url, process, log)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.unlink(missing_ok=True)


@contextmanager
def gunicorn(
    env: dict[str, str],
    *,
    workers: int = 4,
    app: str = "scorekeeper.wsgi:application",
    timeout: int = 30,
    worker_class: str = "sync",
) -> Iterator[Gunicorn]:
    """gunicorn serving `app` on a free loopback port with `env`, with workers of
    `worker_class` ("asgi": gunicorn's own asyncio workers, as scripts/run serves); stopped
    afterwards."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    handle, name = tempfile.mkstemp(prefix="gunicorn-", suffix=".log")
    os.close(handle)
    log = Path(name)
    command = [
        sys.executable, "-m", "gunicorn", app,
        "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers),
        "--timeout", str(timeout),
        "--graceful-timeout", "5",
        "--chdir", str(ROOT),
        "--error-logfile", str(log),
        "--worker-class", worker_class,
    ]  # fmt: skip
    with _running(command, env, base_url, log) as process:
        yield Gunicorn(process, base_url, log, env)


@contextmanager
def uvicorn(env: dict[str, str], *, workers: int = 2, role: str = "app") -> Iterator[Gunicorn]:
    """uvicorn serving the ASGI app (event streams too) on a free loopback port with `env`,
    with `workers` processes under one supervisor; stopped afterwards."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    handle, name = tempfile.mkstemp(prefix="uvicorn-", suffix=".log")
    os.close(handle)
    log = Path(name)
    command = [
        sys.executable, "-m", "uvicorn", "scorekeeper.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
        "--no-access-log", "--timeout-graceful-shutdown", "3", "--backlog", "2048",
    ]  # fmt: skip
    with _running(command, env, base_url, log) as process:
        yield Gunicorn(process, base_url, log, env, role=role, name="uvicorn")


@contextmanager
def production_server(
    kind: str, *, workers: int = 4, postgres_url: str = DEFAULT_POSTGRES
) -> Iterator[Gunicorn]:
    """A scratch database of `kind`, migrated, and gunicorn serving the app on it."""
    scratch = Path(tempfile.mkdtemp(prefix="scorekeeper-server-"))
    try:
        with scratch_database(kind, postgres_url) as database:
            env = production_env(database, scratch)
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            with gunicorn(env, workers=workers) as server:
                yield server
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


NGINX_CONF = Path(__file__).with_name("nginx.conf")


def nginx_binary() -> str | None:
    """Debian's nginx, if installed."""
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx",) if Path(path).exists()), None
    )


def nginx_config(
    listen: str, upstreams: list[str], temp: Path, events: list[str] | None = None
) -> str:
    """NGINX_CONF filled in: nginx on `listen`, in front of the app servers `upstreams`, with
    the event streams sent to `events` (the uvicorn serving them; by default the app servers,
    which answer a stream 204)."""

    def servers(addresses: list[str]) -> str:
        return "\n".join(
            f"        server {address} max_fails=1 fail_timeout=10s;" for address in addresses
        )

    return (
        NGINX_CONF.read_text()
        .replace("@TEMP@", str(temp))
        .replace("@LISTEN@", listen)
        .replace("@UPSTREAMS@", servers(upstreams))
        .replace("@EVENTS@", servers(events or upstreams))
    )


@dataclass
class Nginx:
    process: subprocess.Popen[bytes]
    base_url: str
    folder: Path

    def log_text(self) -> str:
        return (self.folder / "error.log").read_text(errors="replace")


@contextmanager
def nginx(upstreams: list[str], events: list[str] | None = None) -> Iterator[Nginx]:
    """nginx on a free loopback port in front of `upstreams` (host:port) and, for the event
    streams, `events` (`nginx_config`), with its own config, pid and log files in a temporary
    folder; stopped and removed afterwards."""
    binary = nginx_binary()
    if not binary:
        raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-nginx-"))
    folder.chmod(0o755)  # nginx's workers (nobody, when started as root) write temp files here
    port = free_port()
    config = folder / "nginx.conf"
    config.write_text(nginx_config(f"127.0.0.1:{port}", upstreams, folder, events))
    command = [binary, "-c", str(config), "-p", str(folder), "-e", str(folder / "error.log")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if checked.returncode:
        raise RuntimeError(f"nginx refused its configuration:\n{checked.stderr}")
    with (folder / "stderr.log").open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base_url, process, folder / "error.log")
        yield Nginx(process, base_url, folder)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGQUIT)  # finish what is under way, then stop
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def redis_answers(url: str) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 1).close()
    except OSError:
        return False
    return True


@contextmanager
def app_servers(
    kind: str,
    *,
    servers: int = 1,
    workers: int = 4,
    postgres_url: str = DEFAULT_POSTGRES,
    redis_url: str = "",
    push: str = "",
    stream_workers: int = 2,
) -> Iterator[tuple[str, list[Gunicorn], Nginx | None]]:
    """A scratch database of `kind`, migrated, and `servers` gunicorns serving the app on it:
    (the address phones use, the servers, nginx in front of them when there are several).

    Several servers share the cache through `redis_url` (under a key prefix of their own,
    deleted afterwards) when it is given.

    `push`: "" gunicorn alone (event streams answered 204, phones poll); "asgi" uvicorn with
    `workers` processes serving everything, streams included; "table" gunicorn's asyncio
    workers serving everything, as scripts/run serves a game night; "split" gunicorn as before and
    one uvicorn beside it with `stream_workers` processes for the event streams alone (role
    "events", last in the list). With several servers nginx sends the streams to it; with one,
    the phones open their streams there, as nginx would send them.
    """
    scratch = Path(tempfile.mkdtemp(prefix="scorekeeper-server-"))
    prefix = f"bench-{secrets.token_hex(4)}"
    try:
        with scratch_database(kind, postgres_url) as database, ExitStack() as stack:
            env = production_env(database, scratch)
            if redis_url:
                env |= {"REDIS_URL": redis_url, "CACHE_KEY_PREFIX": prefix}
                stack.callback(_forget_cache, redis_url, prefix)
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            serve = {
                "asgi": partial(uvicorn, env, workers=workers),
                "table": partial(
                    gunicorn, env, workers=workers, app="scorekeeper.asgi:application",
                    worker_class="asgi",
                ),
            }.get(push, partial(gunicorn, env, workers=workers))  # fmt: skip
            running = [stack.enter_context(serve()) for _ in range(servers)]
            if push == "split":
                running.append(
                    stack.enter_context(uvicorn(env, workers=stream_workers, role="events"))
                )
            if servers == 1:
                yield running[0].base_url, running, None
                return
            apps = [server.address for server in running if server.role == "app"]
            streams = [server.address for server in running if server.role == "events"]
            proxy = stack.enter_context(nginx(apps, streams))
            yield proxy.base_url, running, proxy
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _forget_cache(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


# What both server benchmarks share: which databases to run on, and naming the one in use.


def add_database_options(parser: CommandParser) -> None:
    parser.add_argument(
        "--databases", nargs="+", choices=["sqlite", "postgresql"],
        default=["sqlite", "postgresql"],
    )  # fmt: skip
    parser.add_argument(
        "--postgres-url", default=DEFAULT_POSTGRES, help="the PostgreSQL server to use"
    )


def database_kinds(options: dict[str, Any], say: Callable[[str], None]) -> Iterator[str]:
    """The databases asked for; PostgreSQL is skipped, with a line, when no server answers."""
    for kind in options["databases"]:
        if kind == "postgresql" and not postgres_answers(options["postgres_url"]):
            say(f"PostgreSQL: no server at {options['postgres_url']}; skipped.")
            continue
        yield kind


def database_server() -> str:
    """The database the app is using, as "SQLite 3.40.1" or "PostgreSQL 15.20 (...)"."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "select 'SQLite ' || sqlite_version()" if connection.vendor == "sqlite" else
            "select split_part(version(), ' on ', 1)"
        )  # fmt: skip
        server: str = cursor.fetchone()[0]
    return server
