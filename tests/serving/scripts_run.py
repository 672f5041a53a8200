"""What the tests of `scripts/run` share: a fresh clone of the repository, a network to serve
it on (a namespace of its own, or a second loopback address), and the server as a terminal
runs it. No browser here: the tests that open the server in Chromium are under
tests/browser/serving/ and take these fixtures from there."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60
# The app's settings that this process may carry (the test suite's) and the server must not.
NOT_PASSED = ("DATABASE_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")


@dataclass
class Network:
    """Where the server runs: `prefix` runs a command there; phones open `address`, from
    either of the addresses `phones` (two phones on the same Wi-Fi)."""

    address: str
    prefix: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    namespace: str = ""
    phones: tuple[str, str] = ("127.0.0.1", "127.0.0.3")

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
            _ip("addr", "add", f"{subnet}.3/24", "dev", host_side)  # a second phone
            _ip("link", "set", host_side, "up")
            _ip("-n", namespace, "addr", "add", f"{subnet}.2/24", "dev", "eth0")
            _ip("-n", namespace, "link", "set", "eth0", "up")
            _ip("-n", namespace, "link", "set", "lo", "up")
        except subprocess.CalledProcessError as failed:
            reason = f"`ip {' '.join(failed.cmd[1:])}` failed: {failed.stderr.decode().strip()}"
        else:
            try:
                # The server's own defaults (BIND and PORT unset): as the README runs it.
                in_namespace = ["ip", "netns", "exec", namespace]
                phones = (f"{subnet}.1", f"{subnet}.3")
                yield Network(f"{subnet}.2", in_namespace, {}, namespace, phones)
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
        self._wait_for_an_answer()

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

    def _wait_for_an_answer(self) -> None:
        """Until a worker answers: the address is printed once gunicorn listens, and its
        workers may take many seconds more to start on a busy machine."""
        parts = urlsplit(self.url)
        assert parts.hostname and parts.port
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if parts.scheme == "https":  # its certificate is self-signed
                unchecked = ssl.create_default_context()
                unchecked.check_hostname = False
                unchecked.verify_mode = ssl.CERT_NONE
                connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                    parts.hostname, parts.port, timeout=START_SECONDS, context=unchecked
                )
            else:
                connection = http.client.HTTPConnection(
                    parts.hostname, parts.port, timeout=START_SECONDS
                )
            try:
                connection.request("GET", "/healthz/")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass  # not accepting yet
            finally:
                connection.close()
            if self.process.poll() is not None:
                self.reader.join(5)
                pytest.fail(f"scripts/run stopped at start:\n{self.output}")
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"scripts/run answered nothing in {START_SECONDS} s:\n{self.output}")

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
