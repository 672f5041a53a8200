"""scripts/run --dev: Django's development server says once that it watches for changes.
Django's own "django" logger prints it with DEBUG on, and the project's root handler must not
print it again."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
READY = "Quit the server with"
START_SECONDS = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_development_server_says_once_that_it_watches_for_changes(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env |= {
        "DEBUG": "true",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "PYTHONUNBUFFERED": "1",
    }
    # The command scripts/run --dev ends with, after its migrate and collectstatic.
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{_free_port()}"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if READY in line:
                break
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        if process.stdout is not None:
            process.stdout.close()
    output = "".join(lines)
    assert READY in output, f"the development server did not start:\n{output}"
    assert output.count("Watching for file changes") == 1, output
