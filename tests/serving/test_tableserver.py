"""scripts/run's preparations (scorekeeper/tableserver.py), without starting a server: where
it listens, what it keeps, the settings it gives the app and what it prints."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cryptography import x509

from scorekeeper import tableserver
from scorekeeper.gunicorn_table import banner, banner_from
from scorekeeper.tableserver import (
    URLS_VARIABLE,
    Refused,
    certificate,
    environment,
    plan,
    secret_key,
)

LAN = ["192.168.1.20"]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_lan_addresses_are_the_global_ipv4_ones_of_real_interfaces() -> None:
    def interface(name: str, *addresses: tuple[str, str, str]) -> dict[str, object]:
        infos = [{"family": f, "local": a, "scope": s} for f, a, s in addresses]
        return {"ifname": name, "addr_info": infos}

    interfaces = [
        interface("lo", ("inet", "127.0.0.1", "host")),
        interface("wlan0", ("inet", "192.168.1.20", "global"), ("inet6", "fe80::1", "link")),
        interface("eth0", ("inet", "169.254.3.4", "global"), ("inet", "10.0.0.7", "global")),
        interface("docker0", ("inet", "172.17.0.1", "global")),
        interface("br-1a2b", ("inet", "172.18.0.1", "global")),
    ]
    assert tableserver.lan_from_interfaces(interfaces) == ["192.168.1.20", "10.0.0.7"]


def test_it_listens_on_the_lan_addresses_and_loopback_by_default() -> None:
    served = plan({}, https=False, lan=LAN)
    assert served.binds == ["192.168.1.20:8000", "127.0.0.1:8000"]
    assert served.urls == ["http://192.168.1.20:8000/", "http://localhost:8000/"]
    assert served.hosts == ["192.168.1.20", "localhost", "127.0.0.1", "[::1]"]


def test_bind_and_port_choose_where_it_listens() -> None:
    served = plan({"BIND": "10.0.0.7", "PORT": "8443"}, https=True, lan=LAN)
    assert served.binds == ["10.0.0.7:8443"]
    assert served.urls == ["https://10.0.0.7:8443/"]  # not on loopback: localhost opens nothing
    # Every interface: the phones still open the local network's addresses.
    served = plan({"BIND": "0.0.0.0"}, https=False, lan=LAN)
    assert (served.binds, served.lan) == (["0.0.0.0:8000"], LAN)
    # A second loopback address (the end-to-end test's fallback) is shown like a LAN one.
    served = plan({"BIND": "127.0.0.2,127.0.0.1", "PORT": "9000"}, https=False, lan=[])
    assert served.lan == ["127.0.0.2"]
    assert served.binds == ["127.0.0.2:9000", "127.0.0.1:9000"]
    assert plan({"BIND": "::1"}, https=False, lan=[]).binds == ["[::1]:8000"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"PORT": "eighty"}, "PORT must be a port number, not 'eighty'"),
        ({"PORT": "70000"}, "PORT must be between 1 and 65535, not 70000"),
        ({"BIND": "127.0.0.1:8000"}, "BIND must be addresses separated by commas"),
        ({"BIND": "laptop.local"}, "the port is PORT"),
    ],
)
def test_a_bad_bind_or_port_is_refused_by_name(env: dict[str, str], message: str) -> None:
    with pytest.raises(Refused, match=message):
        plan(env, https=False, lan=LAN)


def test_the_secret_key_is_made_once_and_readable_by_its_owner_only(tmp_path: Path) -> None:
    state = tmp_path / ".run"
    key = secret_key(state)
    assert len(key) >= 50
    assert mode(state / "secret_key") == 0o600
    assert mode(state) == 0o700
    assert secret_key(state) == key  # the next start: logged-in phones stay logged in
    (state / "secret_key").chmod(0o644)
    assert secret_key(state) == key
    assert mode(state / "secret_key") == 0o600


def test_the_certificate_is_made_once_for_the_hosts(tmp_path: Path) -> None:
    hosts = plan({}, https=True, lan=LAN).hosts
    cert, key, made = certificate(tmp_path, hosts)
    assert made
    assert mode(key) == 0o600
    loaded = x509.load_pem_x509_certificate(cert.read_bytes())
    san = loaded.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert {str(a) for a in san.get_values_for_type(x509.IPAddress)} == {
        "192.168.1.20", "127.0.0.1", "::1"
    }  # fmt: skip
    assert san.get_values_for_type(x509.DNSName) == ["localhost"]
    first = cert.read_bytes()
    assert certificate(tmp_path, hosts)[2] is False  # each phone accepts it once
    assert cert.read_bytes() == first
    # The laptop joined another network: a new address needs a new certificate.
    assert certificate(tmp_path, [*hosts, "10.0.0.7"])[2] is True
    assert cert.read_bytes() != first
    assert tableserver.fingerprint(cert).count(":") == 31


def test_the_app_gets_production_settings_for_the_table() -> None:
    served = plan({}, https=False, lan=LAN)
    env = environment({"DEBUG": "true", "PATH": "/bin"}, served, "k" * 50)
    assert env["DEBUG"] == "false"
    assert env["SECRET_KEY"] == "k" * 50
    assert env["ALLOWED_HOSTS"] == "192.168.1.20,localhost,127.0.0.1,[::1]"
    assert env["CSRF_TRUSTED_ORIGINS"].split(",") == [
        "http://192.168.1.20:8000",
        "http://localhost:8000",
        "http://127.0.0.1:8000",
        "http://[::1]:8000",
    ]
    assert env["SECURE_SSL_REDIRECT"] == env["SECURE_COOKIES"] == "false"
    assert env["SECURE_HSTS_SECONDS"] == "0"
    assert env["PATH"] == "/bin"
    https = environment({}, plan({}, https=True, lan=LAN), "k" * 50)
    assert https["SECURE_COOKIES"] == "true"
    assert https["CSRF_TRUSTED_ORIGINS"].startswith("https://192.168.1.20:8000,")
    # Configured hosts win over the derived ones.
    configured = environment({"ALLOWED_HOSTS": "scores.lan"}, served, "k" * 50)
    assert configured["ALLOWED_HOSTS"] == "scores.lan"


def test_with_no_proxy_in_front_a_phones_x_forwarded_proto_is_not_believed() -> None:
    """Under scripts/run the phones speak to the server directly: a request that says it came
    over HTTPS (X-Forwarded-Proto) over plain HTTP would be taken as secure."""
    env = environment({}, plan({}, https=False, lan=LAN), "k" * 50)
    assert env["TRUST_X_FORWARDED_PROTO"] == "false"
    command = tableserver.gunicorn_command(plan({}, https=False, lan=LAN), None)
    assert command[command.index("--forwarded-allow-ips") + 1] == ""
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import scorekeeper.settings as s; print(s.SECURE_PROXY_SSL_HEADER)",
        ],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == "None"


def test_the_database_and_what_is_made_beside_it_are_the_owners_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """db.sqlite3 holds password hashes and live session keys: no other user of the laptop may
    read it, nor its -wal and -shm files, made by an earlier run or by this one."""
    database = tmp_path / "db.sqlite3"
    for path in (database, tmp_path / "db.sqlite3-wal", tmp_path / "db.sqlite3-shm"):
        path.write_bytes(b"")
        path.chmod(0o644)
    before = os.umask(0o022)
    try:
        tableserver.keep_private({"SQLITE_PATH": str(database)})
        made = tmp_path / "made-after"
        made.write_bytes(b"")
        assert mode(made) == 0o600
    finally:
        os.umask(before)
    assert [mode(path) for path in tmp_path.glob("db.sqlite3*")] == [0o600] * 3


def test_gunicorn_serves_tls_with_the_certificate(tmp_path: Path) -> None:
    served = plan({}, https=True, lan=LAN)
    command = tableserver.gunicorn_command(served, (tmp_path / "c.pem", tmp_path / "k.pem"))
    assert command[command.index("--certfile") + 1] == str(tmp_path / "c.pem")
    assert command.count("--bind") == 2
    assert "--certfile" not in tableserver.gunicorn_command(plan({}, https=False, lan=LAN), None)


def test_the_banner_gives_the_address_a_qr_code_and_what_plain_http_lacks() -> None:
    text = banner(plan({}, https=False, lan=LAN), [], first_start=True)
    assert "    http://192.168.1.20:8000/\n" in text
    assert "▀" in text or "▄" in text  # the QR code, in half blocks
    assert "On this computer: http://localhost:8000/" in text
    assert "First start: open it and create the host's account" in text
    assert "scripts/run --https" in text
    assert "Press Ctrl-C to stop" in text
    https = banner(plan({}, https=True, lan=LAN), ["Fingerprint X"])
    assert "each phone warns about it the first" in https
    assert "Fingerprint X" in https
    alone = banner(plan({}, https=False, lan=[]), [])
    assert "The scorekeeper is ready at http://localhost:8000/" in alone
    assert "No local network was found, so only this computer can open it" in alone
    assert "join the Wi-Fi" in alone
    assert "▀" not in alone


def test_bind_on_loopback_alone_is_said_with_its_reason_not_as_no_network() -> None:
    """BIND=127.0.0.1 on a laptop on the Wi-Fi: the network is there, BIND leaves it out."""
    served = plan({"BIND": "127.0.0.1"}, https=False, lan=LAN)
    assert (served.lan, served.found) == ([], LAN)
    text = banner(served, [])
    assert "No local network" not in text
    assert "The scorekeeper is ready at http://localhost:8000/" in text
    assert "Listening on 127.0.0.1:8000 only, as BIND asks: the phones cannot open it." in text
    assert "Unset BIND to let them in (this computer is 192.168.1.20 on the local network)" in text
    assert "▀" not in text and "▄" not in text  # no code that no phone can open


def test_bind_without_loopback_offers_no_localhost_address() -> None:
    served = plan({"BIND": "192.168.1.20"}, https=False, lan=LAN)
    text = banner(served, [])
    assert "    http://192.168.1.20:8000/\n" in text
    assert "localhost" not in text
    assert "On this computer too: open http://192.168.1.20:8000/ (BIND leaves out 127.0.0.1)" in (
        text
    )


def test_the_banner_reads_what_the_server_was_told() -> None:
    """The plan goes to gunicorn's hook in an environment variable, and comes back whole."""
    served = plan({"BIND": "127.0.0.1"}, https=True, lan=LAN)
    env = {URLS_VARIABLE: tableserver.announcement(served, ["Fingerprint X"])}
    assert banner_from(env) == banner(served, ["Fingerprint X"])
    first = {URLS_VARIABLE: tableserver.announcement(served, [], first_start=True)}
    assert banner_from(first) == banner(served, [], first_start=True)
    assert banner_from({}) is None


def test_the_host_is_asked_for_an_account_on_the_first_start_only() -> None:
    """Once an account exists, every start after says nothing of making one."""
    served = plan({}, https=False, lan=LAN)
    assert "create the host's account" in banner(served, [], first_start=True)
    later = banner(served, [])
    assert "First start" not in later and "create the host's account" not in later
    assert "Press Ctrl-C to stop" in later


def test_preparing_says_whether_any_account_exists(tmp_path: Path) -> None:
    """scripts/run's one step before serving (the prepare_table command): it migrates a new
    database and collects the static files, and tells a first start from a later one."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env |= {
        "DEBUG": "true",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "STATIC_ROOT": str(tmp_path / "static"),
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    assert tableserver.prepare(env) is True
    assert (tmp_path / "static" / "css" / "app.css").exists()
    made = subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", "sam"],
        cwd=tableserver.ROOT,
        env=env
        | {"DJANGO_SUPERUSER_PASSWORD": "a long table password", "DJANGO_SUPERUSER_EMAIL": ""},
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    assert tableserver.prepare(env) is False


def test_the_app_is_told_the_address_phones_open() -> None:
    """Share links and their QR codes carry SITE_URL: the first local-network address, even on
    a page opened at localhost, which no phone can open."""
    assert environment({}, plan({}, https=False, lan=LAN), "k" * 50)["SITE_URL"] == (
        "http://192.168.1.20:8000"
    )
    https = plan({"PORT": "8443"}, https=True, lan=["10.0.0.7", *LAN])
    assert environment({}, https, "k" * 50)["SITE_URL"] == "https://10.0.0.7:8443"
    # No address phones can open: none is made up (the share page says so in words).
    assert "SITE_URL" not in environment({}, plan({}, https=False, lan=[]), "k" * 50)
    loopback = plan({"BIND": "127.0.0.1"}, https=False, lan=LAN)
    assert "SITE_URL" not in environment({}, loopback, "k" * 50)
    # The host's own address (a name on the network, a proxy) wins.
    configured = {"SITE_URL": "https://scores.example"}
    assert environment(configured, plan({}, https=False, lan=LAN), "k")["SITE_URL"] == (
        "https://scores.example"
    )


def test_a_server_closing_while_a_phone_connects_wakes_its_waiters_once() -> None:
    """The worker's server may be asked to wake its waiters twice at Ctrl-C (a connection
    accepted as it closed); the second time does nothing instead of printing a traceback."""
    from scorekeeper.gunicorn_table import wake_server_waiters_once

    wake_server_waiters_once()

    async def close_twice() -> None:
        server = await asyncio.start_server(lambda *_: None, "127.0.0.1", 0)
        server.close()
        server._wakeup()  # type: ignore[attr-defined]  # what a late connection's end calls
        await server.wait_closed()

    with ThreadPoolExecutor(1) as apart:  # a browser test may keep a loop running on this thread
        apart.submit(asyncio.run, close_twice()).result()


def test_the_app_is_told_when_bind_leaves_the_network_out() -> None:
    """The share page says the true cause where it has no link to give: BIND, not a missing
    network, when the computer is on one (settings.BIND_ONLY, BIND_LEAVES_OUT)."""
    loopback = environment({}, plan({"BIND": "127.0.0.1"}, https=False, lan=LAN), "k" * 50)
    assert loopback[tableserver.BIND_ONLY_VARIABLE] == "127.0.0.1:8000"
    assert loopback[tableserver.LEFT_OUT_VARIABLE] == "192.168.1.20"
    # The phones can come in, or there is no network to let them in from: nothing to tell.
    for served in (plan({}, https=False, lan=LAN), plan({}, https=False, lan=[])):
        told = environment({}, served, "k" * 50)
        assert told[tableserver.BIND_ONLY_VARIABLE] == told[tableserver.LEFT_OUT_VARIABLE] == ""
    # It is this run's fact: a value left in the environment by an earlier one does not stay.
    stale = {tableserver.BIND_ONLY_VARIABLE: "127.0.0.1:8000", tableserver.LEFT_OUT_VARIABLE: "x"}
    told = environment(stale, plan({}, https=False, lan=LAN), "k" * 50)
    assert told[tableserver.BIND_ONLY_VARIABLE] == told[tableserver.LEFT_OUT_VARIABLE] == ""


def test_the_settings_read_what_scripts_run_tells() -> None:
    told = environment({}, plan({"BIND": "127.0.0.1"}, https=False, lan=LAN), "k" * 50)
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.BIND_ONLY, settings.BIND_LEAVES_OUT)"
    )
    env = {**os.environ, **told, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tableserver.ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['127.0.0.1:8000'] ['192.168.1.20']"


def test_the_task_worker_starts_deaf_to_ctrl_c_and_stops_on_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C reaches the whole process group: a task worker still loading Django would stop
    with a traceback on the host's terminal. It starts with SIGINT ignored (its own handler
    takes over once it is ready), and the server's exit stops it."""
    from scorekeeper import gunicorn_table

    monkeypatch.setattr(gunicorn_table, "_tasks", None)
    gunicorn_table.on_starting(None)
    worker = gunicorn_table._tasks
    assert worker is not None
    try:
        status = Path(f"/proc/{worker.pid}/status").read_text()
        ignored = int(
            next(line for line in status.splitlines() if line.startswith("SigIgn:"))[7:], 16
        )
        assert ignored & (1 << (signal.SIGINT - 1))
    finally:
        gunicorn_table.on_exit(None)
    assert worker.poll() is not None
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # the server's own is back
