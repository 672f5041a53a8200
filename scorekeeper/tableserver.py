"""`scripts/run`: serve the app from this computer to every phone at the table.

The production server (gunicorn) with production settings (DEBUG off, compressed static files
from whitenoise) on SQLite, bound to this computer's addresses on the local network and to
127.0.0.1. What it needs is made on the first run and kept in `.run/` (git-ignored): the secret
key, and with `--https` a self-signed certificate. The settings it derives (allowed hosts, CSRF
origins, cookies, and SITE_URL, the local network's address that share links carry) give way to
the same variables set in the environment.

This module does not import Django: it prepares the environment, runs `migrate` and
`collectstatic` in it (the `prepare_table` command, which also says whether any account exists
yet), then becomes gunicorn (one process tree, which Ctrl-C stops whole).
`scorekeeper/gunicorn_table.py` prints the addresses and the QR code once gunicorn listens,
and asks for the host's account on the first start only.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import ipaddress
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATE = ROOT / ".run"
DEFAULT_PORT = 8000
LOOPBACK = "127.0.0.1"
# Interfaces of containers and virtual machines on this computer, not of the table's network.
VIRTUAL_INTERFACES = ("docker", "br-", "veth", "virbr", "lxc", "cni", "podman")
URLS_VARIABLE = "SCOREKEEPER_TABLE_URLS"  # from here to the gunicorn hook that prints them
# From here to the app (settings.BIND_ONLY, settings.BIND_LEAVES_OUT): where it listens, and
# this computer's local-network addresses, when BIND leaves the network out; else empty.
BIND_ONLY_VARIABLE = "SCOREKEEPER_BIND_ONLY"
LEFT_OUT_VARIABLE = "SCOREKEEPER_BIND_LEAVES_OUT"
CERT_DAYS = 825  # the longest validity Apple's devices accept for a server certificate
# Seconds after which gunicorn closes a phone's connection that sends nothing more: once it has
# had its answer (keep-alive), and while the body of its request has stopped coming (timeout).
IDLE_SECONDS = 2
BODY_SECONDS = 30


class Refused(Exception):
    """A setting that cannot be served; the message says which and why."""


@dataclass(frozen=True)
class Plan:
    """What to serve: where to listen, the addresses phones open, and how."""

    binds: list[str]  # gunicorn --bind values
    lan: list[str]  # the addresses phones at the table open (may be empty)
    port: int
    https: bool
    found: list[str] = field(default_factory=list)  # this computer's on the network, BIND or not

    @property
    def scheme(self) -> str:
        return "https" if self.https else "http"

    def url(self, host: str) -> str:
        host = host.strip("[]")
        shown = f"[{host}]" if ":" in host else host
        return f"{self.scheme}://{shown}:{self.port}/"

    @property
    def local(self) -> bool:
        """Whether localhost opens it: it listens on 127.0.0.1, ::1 or every interface."""
        hosts = [ipaddress.ip_address(bind.rsplit(":", 1)[0].strip("[]")) for bind in self.binds]
        return any(host.is_unspecified or str(host) in (LOOPBACK, "::1") for host in hosts)

    @property
    def urls(self) -> list[str]:
        """The addresses to print: the local network's first, then this computer's."""
        return [self.url(host) for host in self.lan] + [self.url("localhost")] * self.local

    @property
    def phone_url(self) -> str | None:
        """The address the phones open, which share links carry: the local network's first."""
        return self.url(self.lan[0]).rstrip("/") if self.lan else None

    @property
    def left_out(self) -> list[str]:
        """This computer's local-network addresses that BIND leaves out, when it leaves them all
        out (BIND=127.0.0.1 on a laptop on the Wi-Fi): no phone can open the app."""
        return [] if self.lan else self.found

    @property
    def hosts(self) -> list[str]:
        """Every name a request may carry in Host: the LAN addresses and the loopback ones."""
        return [*self.lan, "localhost", LOOPBACK, "[::1]"]


# The local network's addresses.


def _default_route_address() -> str | None:
    """The address this computer talks to the network from (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def _interface_addresses() -> list[str] | None:
    """Every IPv4 address of an interface that is up, from `ip` (Linux); None without it."""
    ip = shutil.which("ip") or next(
        (p for p in ("/usr/sbin/ip", "/sbin/ip") if Path(p).exists()), None
    )
    if ip is None:
        return None
    try:
        done = subprocess.run(
            [ip, "-j", "-4", "addr", "show", "up"], capture_output=True, text=True, timeout=5
        )
        interfaces = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if not isinstance(interfaces, list):
        return None
    return lan_from_interfaces(interfaces)


def lan_from_interfaces(interfaces: list[dict[str, object]]) -> list[str]:
    """The table's addresses among `ip -j addr`'s interfaces: IPv4, global scope, not loopback,
    link-local, or a container's or virtual machine's bridge."""
    found = []
    for interface in interfaces:
        name = str(interface.get("ifname", ""))
        if name.startswith(VIRTUAL_INTERFACES):
            continue
        infos = interface.get("addr_info")
        for info in infos if isinstance(infos, list) else []:
            if info.get("family") != "inet" or info.get("scope") != "global":
                continue
            address = ipaddress.ip_address(str(info.get("local")))
            if not (address.is_loopback or address.is_link_local):
                found.append(str(address))
    return found


def lan_addresses() -> list[str]:
    """This computer's addresses on its local networks, the default route's first."""
    found = _interface_addresses()
    preferred = _default_route_address()
    if found is None:  # no `ip` (macOS, BSD): the default route's address is the one
        return [preferred] if preferred else []
    if preferred in found:
        found.remove(preferred)
        found.insert(0, preferred)
    return list(dict.fromkeys(found))


def plan(env: Mapping[str, str], *, https: bool, lan: list[str] | None = None) -> Plan:
    """Where to listen, from BIND and PORT (see docs/CONFIGURATION.md)."""
    raw_port = env.get("PORT") or str(DEFAULT_PORT)
    try:
        port = int(raw_port)
    except ValueError:
        raise Refused(f"PORT must be a port number, not {raw_port!r}") from None
    if not 0 < port < 65536:
        raise Refused(f"PORT must be between 1 and 65535, not {port}")
    detected = lan_addresses() if lan is None else lan
    bind = [item.strip() for item in (env.get("BIND") or "").split(",") if item.strip()]
    for item in bind:
        try:
            ipaddress.ip_address(item.strip("[]"))
        except ValueError:
            raise Refused(
                f"BIND must be addresses separated by commas (e.g. 192.168.1.20), not {item!r}; "
                "the port is PORT"
            ) from None
    hosts = [item.strip("[]") for item in bind]
    if not hosts:  # the default: the local network's addresses and loopback
        hosts = [*detected, LOOPBACK]
    if any(ipaddress.ip_address(host).is_unspecified for host in hosts):
        lan = detected  # every interface: phones open the local network's addresses
    else:  # the addresses given, but this computer's own (127.0.0.2 serves a test)
        lan = [host for host in hosts if host not in (LOOPBACK, "::1")]
    binds = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}" for host in hosts]
    return Plan(binds=binds, lan=lan, port=port, https=https, found=detected)


# What is made once and kept.


def private_file(path: Path, content: bytes) -> None:
    """Write a new file that only this user can read (mode 600 from the start)."""
    path.parent.mkdir(mode=0o700, exist_ok=True)
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "wb") as out:
        out.write(content)
    path.chmod(0o600)


def secret_key(state: Path) -> str:
    """The secret key made on the first run; the same on every later one, so logged-in phones
    stay logged in and links keep working."""
    path = state / "secret_key"
    if path.exists():
        path.chmod(0o600)
        key = path.read_text().strip()
        if key:
            return key
    key = secrets.token_urlsafe(50)
    private_file(path, key.encode() + b"\n")
    return key


def _names_of(hosts: list[str]) -> tuple[set[str], set[str]]:
    addresses, names = set(), set()
    for host in hosts:
        try:
            addresses.add(str(ipaddress.ip_address(host.strip("[]"))))
        except ValueError:
            names.add(host)
    return addresses, names


def certificate(state: Path, hosts: list[str]) -> tuple[Path, Path, bool]:
    """A self-signed certificate for `hosts`, made once: (certificate, key, made just now).

    Kept while it covers every host and is valid for another week; else a new one is made
    (and each phone accepts it once more).
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    cert_path, key_path = state / "cert.pem", state / "key.pem"
    now = datetime.datetime.now(datetime.UTC)
    wanted_addresses, wanted_names = _names_of(hosts)
    if cert_path.exists() and key_path.exists():
        try:
            old = x509.load_pem_x509_certificate(cert_path.read_bytes())
            san = old.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
            covered = {str(a) for a in san.get_values_for_type(x509.IPAddress)}
            named = set(san.get_values_for_type(x509.DNSName))
            fresh = old.not_valid_after_utc > now + datetime.timedelta(days=7)
            if wanted_addresses <= covered and wanted_names <= named and fresh:
                key_path.chmod(0o600)
                return cert_path, key_path, False
        except (ValueError, x509.ExtensionNotFound):
            pass  # unreadable: make a new one
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Ninety-Nine Scorekeeper")])
    alternatives: list[x509.GeneralName] = [x509.DNSName(n) for n in sorted(wanted_names)]
    alternatives += [x509.IPAddress(ipaddress.ip_address(a)) for a in sorted(wanted_addresses)]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CERT_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .sign(key, hashes.SHA256())
    )
    private_file(
        key_path,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
    private_file(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path, True


def fingerprint(cert_path: Path) -> str:
    """The certificate's SHA-256 fingerprint, as browsers show it (AB:CD:…)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    digest = hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def environment(env: Mapping[str, str], served: Plan, key: str) -> dict[str, str]:
    """The app's settings for serving the table; a variable already set in `env` wins
    (except DEBUG, which is off: this is the real server)."""
    origins = [served.url(host).rstrip("/") for host in served.hosts]
    derived = {
        "SECRET_KEY": key,
        "ALLOWED_HOSTS": ",".join(served.hosts),
        "CSRF_TRUSTED_ORIGINS": ",".join(origins),
        # One server speaks to the phones directly: no redirect to HTTPS or HSTS (a
        # self-signed certificate is accepted by hand), secure cookies over HTTPS only.
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "true" if served.https else "false",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_HSTS_PRELOAD": "false",
        # No proxy in front: an X-Forwarded-Proto header is the phone's own word.
        "TRUST_X_FORWARDED_PROTO": "false",
    }
    if served.phone_url:  # share links carry it, even on a page opened at localhost
        derived["SITE_URL"] = served.phone_url
    # What BIND leaves out is this run's fact, never the environment's: the share page says it.
    told = {
        "DEBUG": "false",
        BIND_ONLY_VARIABLE: ",".join(served.binds) if served.left_out else "",
        LEFT_OUT_VARIABLE: ",".join(served.left_out),
    }
    return derived | {k: v for k, v in env.items() if v} | told


def announcement(served: Plan, notes: list[str], *, first_start: bool = False) -> str:
    """What gunicorn's hook prints once it listens (URLS_VARIABLE), as JSON: the plan, the
    notes, and whether no account exists yet (the host's first start)."""
    return json.dumps({"plan": asdict(served), "notes": notes, "first_start": first_start})


def gunicorn_command(served: Plan, tls: tuple[Path, Path] | None) -> list[str]:
    command = [
        sys.executable, "-m", "gunicorn", "scorekeeper.asgi:application",
        "--config", "python:scorekeeper.gunicorn_table",
        "--chdir", str(ROOT),
        # gunicorn's asyncio (ASGI) workers: phones connect straight to it with no proxy in
        # front, and a connection that sends its request slowly, or never, costs a socket and
        # a little memory but holds no worker and no thread, so every other phone is answered.
        # The same workers carry the watch and scorer links' event streams (live push).
        "--worker-class", "asgi",
        "--workers", os.environ.get("WEB_CONCURRENCY", "2"),
        # No proxy in front: X-Forwarded-* headers come from the phones themselves.
        "--forwarded-allow-ips", "",
        # A connection that has had its answer and sends nothing is closed after IDLE_SECONDS,
        # and a request whose body stops coming is given up after BODY_SECONDS. One that never
        # finishes its first request's headers stays open: gunicorn's asyncio workers have no
        # timeout for that, and the app sees a request only once its headers are all there
        # (SECURITY.md, Known limits).
        "--keep-alive", str(IDLE_SECONDS),
        "--timeout", str(BODY_SECONDS),
        "--graceful-timeout", "5",
        "--log-level", "warning",
    ]  # fmt: skip
    for bind in served.binds:
        command += ["--bind", bind]
    if tls:
        command += ["--certfile", str(tls[0]), "--keyfile", str(tls[1])]
    return command


def keep_private(env: Mapping[str, str]) -> None:
    """Files made from here on (the SQLite database, its -wal and -shm files, the static
    files) are this user's alone, and so are the database files an earlier run made: they hold
    password hashes and the phones' session keys."""
    os.umask(0o077)
    database = Path(env.get("SQLITE_PATH") or ROOT / "db.sqlite3")
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        if path.exists():
            path.chmod(0o600)


def prepare(env: dict[str, str]) -> bool:
    """Migrate and collect the static files in the app's environment (`prepare_table`, one
    process): whether no account exists yet, the host's first start. A failure stops here,
    its message on the terminal."""
    command = [sys.executable, str(ROOT / "manage.py"), "prepare_table"]
    done = subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if done.returncode:
        raise SystemExit(done.returncode)
    return done.stdout.split()[-1] == "0"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="scripts/run",
        description="Serve the scorekeeper to every phone at the table (see README).",
        epilog="scripts/run --dev runs Django's development server instead (DEBUG on). "
        "BIND and PORT choose where it listens.",
    )
    parser.add_argument(
        "--https", action="store_true", help="serve over HTTPS with a self-signed certificate"
    )
    args = parser.parse_args(argv)
    try:
        served = plan(os.environ, https=args.https)
    except Refused as refused:
        raise SystemExit(f"scripts/run: {refused}") from None
    key = os.environ.get("SECRET_KEY") or secret_key(STATE)
    env = environment(os.environ, served, key)
    tls = None
    notes = []
    if args.https:
        cert, cert_key, made = certificate(STATE, served.hosts)
        tls = (cert, cert_key)
        if made:
            notes.append(f"Made a self-signed certificate for {', '.join(served.hosts)}.")
        notes.append(f"Certificate fingerprint (SHA-256): {fingerprint(cert)}")
    env["PYTHONUNBUFFERED"] = "1"
    keep_private(env)
    print("Preparing the database and the static files…", flush=True)
    try:
        first_start = prepare(env)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    env[URLS_VARIABLE] = announcement(served, notes, first_start=first_start)
    sys.stdout.flush()
    command = gunicorn_command(served, tls)
    os.execve(command[0], command, env)  # gunicorn takes this process over: Ctrl-C reaches it


if __name__ == "__main__":
    main()
