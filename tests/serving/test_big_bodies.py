"""A phone on the table's Wi-Fi sends a huge request body to `scripts/run`: the server answers
413 once the body passes its bound (MAX_REQUEST_BODY, a scoresheet file and its form), having
read no more of it, and writes none of it to the laptop's disk.

What the server writes is read from its processes' own count of bytes written
(/proc/PID/io, wchar): Django's handler spools a body it reads to a temporary file, which is
unlinked from the start and so never shows in a folder. What the phone managed to send before
the answer came is bounded by the bound and the sockets' buffers between the two, read from
the kernel's settings. The fault runs against `scripts/run` from a fresh clone
(tests/serving/scripts_run.py): commit before running it.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from scorekeeper.bodylimit import refusal
from scorekeeper.rules import bounds
from tests.serving.scripts_run import Network, Server

pytestmark = pytest.mark.browser  # starts scripts/run: with the browser tests, on SQLite only

SENT = 100 * 2**20  # what a rude phone sends at most
CHUNK = 2**16
PATIENCE = 60.0  # seconds without progress after which the server is taken to be stalled
GUNICORN_HELD = 256 * 1024  # what gunicorn's worker takes in before the app asks for it


def _kernel_buffers() -> int:
    """The most bytes the kernel's sockets hold between the phone and the server: the largest
    send buffer of the one and receive buffer of the other."""
    largest = [
        int(Path(f"/proc/sys/net/ipv4/{name}").read_text().split()[2])
        for name in ("tcp_wmem", "tcp_rmem")
    ]
    return sum(largest)


def _processes(group: int) -> list[int]:
    """The processes of a process group (scripts/run's: the gunicorn master and its workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            found.append(int(stat.parent.name))
    return found


def _written(server: Server) -> int:
    """The bytes the server's processes have written to files so far."""
    total = 0
    for pid in _processes(server.process.pid):
        try:
            counts = Path(f"/proc/{pid}/io").read_text()
        except OSError:
            continue
        wrote = re.search(r"^wchar: (\d+)$", counts, re.MULTILINE)
        assert wrote, counts
        total += int(wrote.group(1))
    return total


def _rude_phone(url: str, source: str, head: str, chunked: bool) -> tuple[bytes, int]:
    """Send `head`, then a body of up to SENT bytes, until the server answers or closes the
    connection: (what it answered, the bytes of body sent before)."""
    parts = urlsplit(url)
    assert parts.hostname and parts.port
    answer = bytearray()
    answered = threading.Event()
    address = (parts.hostname, parts.port)
    with socket.create_connection(address, PATIENCE, source_address=(source, 0)) as sock:

        def listen() -> None:
            try:
                while data := sock.recv(65536):
                    answer.extend(data)
                    if b"\r\n\r\n" in answer:
                        answered.set()
            except OSError:
                pass  # reset by the server once it has answered
            finally:
                answered.set()

        listener = threading.Thread(target=listen)
        listener.start()
        sock.sendall(head.encode())
        piece = b"x" * CHUNK
        framed = b"%x\r\n%s\r\n" % (CHUNK, piece) if chunked else piece
        sent = 0
        try:
            while sent < SENT and not answered.is_set():
                sock.sendall(framed)
                sent += CHUNK
            if chunked and not answered.is_set():
                sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server closed the connection
        listener.join(PATIENCE)
    return bytes(answer), sent


def _head(url: str, path: str, length: int | None, cookie: str = "") -> str:
    host = urlsplit(url).netloc
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"{cookie}{framing}\r\n\r\n"
    )


class Phone:
    """A browser's cookies and forms, over plain HTTP, from one address."""

    def __init__(self, url: str, source: str) -> None:
        parts = urlsplit(url)
        assert parts.hostname and parts.port
        self.host, self.port, self.source = parts.hostname, parts.port, source
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes = b"", content_type: str = ""
    ) -> tuple[int, str]:
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=PATIENCE, source_address=(self.source, 0)
        )
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if content_type:
            headers["Content-Type"] = content_type
        try:
            connection.request(method, path, body=body or None, headers=headers)
            answer = connection.getresponse()
            text = answer.read().decode()
        finally:
            connection.close()
        for value in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return answer.status, text

    def token(self, path: str) -> str:
        status, page = self.request("GET", path)
        assert status == 200, page
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert found, page
        return found.group(1)

    def sign_up(self, name: str, password: str) -> None:
        token = self.token("/accounts/signup/")
        form = f"csrfmiddlewaretoken={token}&username={name}"
        form += f"&password1={password}&password2={password}".replace(" ", "+")
        status, page = self.request(
            "POST", "/accounts/signup/", form.encode(), "application/x-www-form-urlencoded"
        )
        assert status == 302, page

    def upload(self, path: str, content: bytes) -> tuple[int, str]:
        token = self.token(path)
        boundary = uuid.uuid4().hex
        body = (
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{token}\r\n--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="big.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        body += content + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", path, body, f"multipart/form-data; boundary={boundary}")


def test_a_huge_body_is_answered_413_early_and_never_written_to_disk(
    clone: Path, network: Network, servers: list[Server]
) -> None:
    server = Server(clone, network)
    servers.append(server)
    rude, polite = network.phones
    bound: int = settings.MAX_REQUEST_BODY
    in_between = _kernel_buffers() + GUNICORN_HELD + CHUNK

    refusals = {
        "a declared 100 MB log-in": ("/accounts/login/", SENT, in_between),
        "a streamed 100 MB health check": ("/healthz/", None, bound + in_between),
        "a declared 100 MB import": ("/sessions/import/", SENT, in_between),
    }
    answers, figures = {}, {}
    for what, (path, length, _) in refusals.items():
        before = _written(server)
        answers[what], sent = _rude_phone(
            server.url, rude, _head(server.url, path, length), chunked=length is None
        )
        written = _written(server) - before
        figures[what] = {"sent before the answer": sent, "written by the server": written}
    print("\n" + json.dumps(figures, indent=1))
    for what, (_, _, most) in refusals.items():
        answer, sent = answers[what], figures[what]["sent before the answer"]
        assert answer.startswith(b"HTTP/1.1 413 "), (what, answer[:300], sent)
        assert answer.endswith(refusal(bound)), (what, answer[:300])
        assert sent <= most, (what, sent)  # answered early, before the body's end
        written = figures[what]["written by the server"]
        # No temporary file of it on disk: Django spools at most what the bound lets it read.
        assert written <= bound + CHUNK, (what, written)

    # The server goes on answering every phone; a scoresheet file over its own bound, inside
    # the server's, still gets the import's own message on its page.
    host = Phone(server.url, polite)
    assert host.request("GET", "/accounts/login/")[0] == 200
    host.sign_up("tess", "a long table password")
    over_the_files = bounds.MAX_FILE_BYTES + 100_000
    status, page = host.upload("/sessions/import/", b" " * over_the_files)
    assert status == 200, page
    assert "That file is too big for a scoresheet (over 5 MB)." in page
    server.stop()
    server.expect_stopped_cleanly()
