"""A TCP proxy on loopback that can play a database restart: drop every connection,
refuse new ones for a while, then carry on."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress


class Proxy:
    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.up = threading.Event()
        self.up.set()
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()  # the server is down: the app's connect fails at once
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def go_down(self) -> None:
        """The database stops: every open connection breaks, new ones are refused."""
        self.up.clear()
        with self.lock:
            dropped, self.open = self.open, []
        for end in dropped:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def come_up(self) -> None:
        self.up.set()

    def close(self) -> None:
        self.go_down()
        self.listener.close()
