"""Game night as a user runs it: `scripts/run` from a fresh clone, opened from another address.

The server runs in a network namespace made by the test, behind a veth pair, as on a laptop
on the table's Wi-Fi; Chromium opens the address it prints from the root namespace, as a
phone would. Without namespaces (not root, no `ip`) the server listens on a second loopback
address, 127.0.0.1 being this computer's own. Ctrl-C is sent to the server's process group
as a terminal sends it. The clone is of the committed HEAD, and it uses this virtual
environment as it is (SCOREKEEPER_VENV) instead of installing its own.
"""

from __future__ import annotations

import re
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.journeys import (
    add_players,
    open_start_page,
    seat_players,
    sign_up,
    start_session,
    tap_event,
)
from tests.serving.scripts_run import Network, Server

pytestmark = pytest.mark.browser

PASSWORD = "a long table password"
PLAYERS = ["Ann", "Ben", "Cat"]
# The server answers before a test goes on (scripts_run.Server waits for it). Each wait is
# sized for a busy machine, where a page, or the phones' next poll (every 3 s), can take many
# seconds: a wait ends as soon as what it waits for is there.
PATIENCE = 60_000  # ms
LIVE = PATIENCE
EXPECT_DEFAULT = 5_000  # ms: Playwright's own, which the other browser tests keep


@pytest.fixture(autouse=True)
def _patient_expectations() -> Iterator[None]:
    """Every `expect` of these tests (and of the journeys' helpers they call) waits as long as
    a busy machine needs."""
    expect.set_options(timeout=PATIENCE)
    yield
    expect.set_options(timeout=EXPECT_DEFAULT)


def phone(browser: Browser, url: str, **overrides: Any) -> tuple[BrowserContext, Page]:
    """A phone opening the server's address."""
    context = browser.new_context(base_url=url, **{**PHONE, **overrides})
    context.set_default_timeout(PATIENCE)
    return context, context.new_page()


def sign_up_the_host(page: Page, name: str) -> None:
    page.get_by_role("link", name="Create an account").click()
    sign_up(page, name, PASSWORD)


def tap(page: Page, player: str, event: str) -> None:
    expect(tap_event(page, player, event)).to_contain_text(f"{player}: {event}.")


def test_game_night_from_a_fresh_clone_survives_a_restart(
    clone: Path, network: Network, browser: Browser, servers: list[Server]
) -> None:
    started = time.monotonic()
    server = Server(clone, network)
    servers.append(server)
    port = network.env.get("PORT", "8000")
    assert server.url == f"http://{network.address}:{port}/"
    assert "▄" in server.output or "▀" in server.output  # the QR code for the phones
    assert "First start: open it and create the host's account" in server.output
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
    add_players(host, PLAYERS)
    open_start_page(host, "Thirty-Three")
    seat_players(host, PLAYERS)
    start_session(host, "Game night")
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
    # The same server streams the session's news to the watch link (live push).
    html = guest.locator("html")
    expect(html).to_have_attribute("data-push", "open", timeout=LIVE)
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
    assert "First start" not in server.output  # the host's account is made
    expect(guest.locator("#live-trouble")).to_have_count(0, timeout=LIVE)
    host.goto(table_url)
    expect(host.get_by_role("heading", level=1)).to_have_text("Game night")
    expect(html).to_have_attribute("data-push", "open", timeout=LIVE)  # the stream came back
    heard = html.get_attribute("data-pushed")
    tap(host, "Ben", "Bust")
    expect(live).to_contain_text("Round 3", timeout=LIVE)
    assert html.get_attribute("data-pushed") != heard  # the new round came by push
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
