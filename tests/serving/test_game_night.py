"""Game night as a user runs it: `scripts/run` from a fresh clone, opened from another address.

The server runs in a network namespace made by the test, behind a veth pair, as on a laptop
on the table's Wi-Fi; Chromium opens the address it prints from the root namespace, as a
phone would. Without namespaces (not root, no `ip`) the server listens on a second loopback
address, 127.0.0.1 being this computer's own. Ctrl-C is sent to the server's process group
as a terminal sends it. The clone is of the committed HEAD, and it uses this virtual
environment as it is (SCOREKEEPER_VENV) instead of installing its own.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long table password"
PLAYERS = ["Ann", "Ben", "Cat"]
START_SECONDS = 60
LIVE = 10_000  # ms: a poll every 3 s, and a worker may be starting
# The app's settings that this process may carry (the test suite's) and the server must not.
NOT_PASSED = ("DATABASE_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")


@dataclass
class Network:
    """Where the server runs: `prefix` runs a command there; phones open `address`."""

    address: str
    prefix: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    namespace: str = ""

    def pids(self) -> list[str]:
        if not self.namespace:
            return []
        done = subprocess.run(["ip", "netns", "pids", self.namespace], capture_output=True)
        return done.stdout.decode().split()


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


def _free_port(address: str) -> int:
    with socket.socket() as probe:
        probe.bind((address, 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def network() -> Iterator[Network]:
    ip = shutil.which("ip") or "/usr/sbin/ip"
    reason = ""
    if os.geteuid() != 0:
        reason = "not root"
    elif not Path(ip).exists():
        reason = "no `ip` command"
    if not reason:
        tag = f"{os.getpid() % 100000}"
        namespace, host_side = f"sk-night-{tag}", f"sknight{tag}"
        subnet = f"10.{100 + (os.getpid() >> 8) % 100}.{os.getpid() % 256}"
        try:
            _ip("netns", "add", namespace)
            peer = ["peer", "name", "eth0", "netns", namespace]  # eth0 inside, as on a laptop
            _ip("link", "add", host_side, "type", "veth", *peer)
            _ip("addr", "add", f"{subnet}.1/24", "dev", host_side)
            _ip("link", "set", host_side, "up")
            _ip("-n", namespace, "addr", "add", f"{subnet}.2/24", "dev", "eth0")
            _ip("-n", namespace, "link", "set", "eth0", "up")
            _ip("-n", namespace, "link", "set", "lo", "up")
        except subprocess.CalledProcessError as failed:
            reason = f"`ip {' '.join(failed.cmd[1:])}` failed: {failed.stderr.decode().strip()}"
        else:
            try:
                # The server's own defaults (BIND and PORT unset): as the README runs it.
                yield Network(f"{subnet}.2", ["ip", "netns", "exec", namespace], {}, namespace)
            finally:
                subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
                subprocess.run(["ip", "link", "del", host_side], capture_output=True)
            return
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
    try:
        port = _free_port("127.0.0.2")
    except OSError:
        pytest.skip(f"no network namespace ({reason}) and no second loopback address 127.0.0.2")
    print(f"No network namespace ({reason}): the server listens on 127.0.0.2 instead.")
    yield Network("127.0.0.2", env={"BIND": "127.0.0.2", "PORT": str(port)})


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A fresh clone of this repository's HEAD."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode:
        pytest.skip("the repository is not a git checkout: nothing to clone")
    target = tmp_path / "scorekeeper"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


class Server:
    """scripts/run as a terminal runs it: its own process group, its output read as it comes."""

    def __init__(self, clone: Path, network: Network, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED}
        env = {k: v for k, v in env.items() if not k.startswith("COV_CORE")}
        env |= network.env | {"SCOREKEEPER_VENV": sys.prefix, "WEB_CONCURRENCY": "2"}
        self.network = network
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [*network.prefix, str(clone / "scripts" / "run"), *args],
            cwd=clone,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        assert self.process.stdout
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,))
        self.reader.start()
        self.url = self._wait_for_address()

    def _read(self, stream: Any) -> None:
        with stream:
            for line in stream:
                self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def _wait_for_address(self) -> str:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if any(line.startswith("Press Ctrl-C to stop") for line in self.lines):
                found = re.search(r"^    (https?://\S+)$", self.output, re.MULTILINE)
                assert found, self.output
                return found.group(1)
            if self.process.poll() is not None:
                self.reader.join(5)
                pytest.fail(f"scripts/run stopped at start:\n{self.output}")
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"scripts/run printed no address in {START_SECONDS} s:\n{self.output}")

    def stop(self) -> None:
        """Ctrl-C: SIGINT to the whole foreground process group, as a terminal sends it."""
        began = time.monotonic()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(20)
            print(f"Ctrl-C stopped scripts/run in {time.monotonic() - began:.1f} s")
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            pytest.fail(f"scripts/run did not stop on Ctrl-C:\n{self.output}")
        self.reader.join(5)

    def expect_stopped_cleanly(self) -> None:
        # Nothing is left of the process group (a worker that the master had to kill at the
        # end of its graceful timeout may take a moment to go).
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"processes of scripts/run are left after Ctrl-C:\n{self.output}")
        assert self.network.pids() == [], "processes left in the namespace"
        assert self.output.count("The scorekeeper is ready") == 1, self.output
        assert self.output.count("Stopped. Every session is kept") == 1, self.output
        assert "Traceback" not in self.output, self.output
        assert "Error" not in self.output, self.output


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.stop()


def phone(browser: Browser, url: str, **overrides: Any) -> tuple[BrowserContext, Page]:
    context = browser.new_context(base_url=url, **{**PHONE, **overrides})
    context.set_default_timeout(10_000)
    return context, context.new_page()


def sign_up_the_host(page: Page, name: str) -> None:
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill(name)
    page.get_by_label(re.compile(r"^\s*Password\W*$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("status")).to_contain_text(f"Welcome, {name}!")


def tap(page: Page, player: str, event: str) -> None:
    row = page.locator("li.adding-seat").nth(PLAYERS.index(player))
    row.get_by_role("button", name=f"{player}: {event}", exact=True).click()
    expect(row.locator(".tap-said")).to_contain_text(f"{player}: {event}.")


def test_game_night_from_a_fresh_clone_survives_a_restart(
    clone: Path, network: Network, browser: Browser, servers: list[Server]
) -> None:
    started = time.monotonic()
    server = Server(clone, network)
    servers.append(server)
    port = network.env.get("PORT", "8000")
    assert server.url == f"http://{network.address}:{port}/"
    assert "▄" in server.output or "▀" in server.output  # the QR code for the phones
    key = clone / ".run" / "secret_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    status = ["git", "-C", str(clone), "status", "--porcelain"]
    left = subprocess.run(status, capture_output=True).stdout
    assert left == b"", f"scripts/run left files git does not ignore: {left!r}"

    # The host's phone: the first start asks for the host's account.
    _, host = phone(browser, server.url)
    host.goto("/")
    expect(host.get_by_role("heading", name=re.compile("First start"))).to_be_visible()
    if network.namespace:  # a LAN address over plain HTTP: the page says what is off
        expect(host.locator("#plain-http")).to_contain_text("plain HTTP on the local network")
    else:  # a loopback address is a secure context, even over plain HTTP
        expect(host.locator("#plain-http")).to_have_count(0)
    sign_up_the_host(host, "sam")
    for name in PLAYERS:
        host.get_by_label("Name").fill(name)
        host.get_by_role("button", name="Add player").click()
        expect(host.locator(".roster").get_by_role("link", name=name)).to_be_visible()
    host.get_by_role("navigation", name="Main").get_by_role("link", name="Sessions").click()
    host.get_by_role("link", name="Start a new session").click()
    host.get_by_role("link").filter(
        has=host.locator(".preset-name", has_text=re.compile(r"^Thirty-Three$"))
    ).click()
    for number, name in enumerate(PLAYERS, start=1):
        host.get_by_label(re.compile(rf"^\s*Seat {number}\*?\s*$")).select_option(label=name)
    host.get_by_label("Name (optional)").fill("Game night")
    host.locator("button.btn-lg", has_text="Start the session").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Game night")
    table_url = host.url
    tap(host, "Ann", "Bust")

    # The watch link, followed by a guest's phone: no account, another browser.
    host.goto(table_url + "share/")
    host.get_by_role("button", name="Turn on a watch link").click()
    watch_url = host.locator("#watch-url").get_attribute("href")
    assert watch_url and watch_url.startswith(server.url + "w/"), watch_url
    _, guest = phone(browser, server.url)
    guest.goto(watch_url)
    live = guest.locator("#live")
    expect(live).to_contain_text("Round 2")
    if network.namespace:  # plain HTTP at a LAN address: no wake lock, and the page says why
        assert guest.evaluate("window.isSecureContext") is False
        expect(guest.locator("#wake-lock")).to_be_hidden()
        expect(guest.get_by_text("Keeping the screen on needs HTTPS")).to_be_visible()
    guest.evaluate("window.sameDocument = true")

    # The laptop's server stops (Ctrl-C) while the guest's page is open...
    server.stop()
    server.expect_stopped_cleanly()
    expect(guest.locator("#live-trouble")).to_have_text(
        "The scoresheet cannot be reached just now. Still trying…", timeout=LIVE
    )

    # ...and starts again: the guest's page recovers by itself, the host is still logged in.
    server = Server(clone, network)
    servers.append(server)
    expect(guest.locator("#live-trouble")).to_have_count(0, timeout=LIVE)
    host.goto(table_url)
    expect(host.get_by_role("heading", level=1)).to_have_text("Game night")
    tap(host, "Ben", "Bust")
    expect(live).to_contain_text("Round 3", timeout=LIVE)
    assert guest.evaluate("window.sameDocument") is True  # never reloaded
    host.goto("/players/")
    expect(host.locator(".roster").get_by_role("listitem")).to_have_text(PLAYERS)
    host.goto("/sessions/")
    expect(host.get_by_role("link", name=re.compile("Game night")).first).to_be_visible()
    server.stop()
    server.expect_stopped_cleanly()
    print(f"Game night from a fresh clone: {time.monotonic() - started:.1f} s")


def test_https_makes_its_certificate_once_and_gives_the_phones_a_secure_context(
    clone: Path, network: Network, browser: Browser, servers: list[Server]
) -> None:
    server = Server(clone, network, "--https")
    servers.append(server)
    port = network.env.get("PORT", "8000")
    assert server.url == f"https://{network.address}:{port}/"
    assert "Made a self-signed certificate" in server.output
    assert "each phone warns about it the first" in server.output
    fingerprint = re.search(r"fingerprint \(SHA-256\): (\S+)", server.output)
    assert fingerprint
    for name in ["key.pem", "secret_key"]:
        assert stat.S_IMODE((clone / ".run" / name).stat().st_mode) == 0o600

    context, page = phone(browser, server.url, ignore_https_errors=True)
    page.goto("/")
    assert page.evaluate("window.isSecureContext") is True
    assert page.evaluate("'wakeLock' in navigator && 'serviceWorker' in navigator") is True
    expect(page.locator("#plain-http")).to_have_count(0)
    sign_up_the_host(page, "tess")
    cookies = {cookie["name"]: cookie for cookie in context.cookies()}
    assert cookies["sessionid"]["secure"] is True
    server.stop()
    server.expect_stopped_cleanly()

    # The next start keeps the certificate: each phone accepted it once.
    server = Server(clone, network, "--https")
    servers.append(server)
    assert "Made a self-signed certificate" not in server.output
    assert f"fingerprint (SHA-256): {fingerprint.group(1)}" in server.output
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hello, tess")
    server.stop()
    server.expect_stopped_cleanly()
