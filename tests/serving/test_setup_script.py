"""scripts/_setup.sh (sourced by scripts/run, scripts/test and CI) says what it is doing while it
installs the Python packages, a minute of pip with nothing else to see, and says nothing of it
when they are installed already. pip is a stand-in here, which waits for the test's word."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 60  # s: a line the script prints comes within this, however busy the machine
# The virtual environment's python: the version check passes; pip's upgrade of itself is quick;
# the project's install says what it collects, then waits until the test creates $GO.
FAKE_PYTHON = """#!/usr/bin/env bash
case "$*" in
    "-c "*) exit 0 ;;
    *"--upgrade pip"*) echo "Requirement already satisfied: pip" ;;
    *"pip install"*)
        echo "Collecting django-htmx>=1.21"
        while [ ! -e "$GO" ]; do sleep 0.1; done
        echo "Successfully installed django-htmx"
        exit "${FAIL:-0}" ;;
esac
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The setup script and pyproject.toml in a directory of their own, with a stand-in
    virtual environment and msgfmt."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "_setup.sh", tmp_path / "scripts" / "_setup.sh")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "msgfmt").write_text("#!/bin/sh\nexit 0\n")
    (tools / "msgfmt").chmod(0o755)
    return tmp_path


class Setup:
    """`source scripts/_setup.sh` as scripts/run does it, its output read line by line."""

    def __init__(self, checkout: Path, **env: str) -> None:
        self.go = checkout / "go"
        environment = {k: v for k, v in os.environ.items() if k != "SCOREKEEPER_VENV"}
        environment |= {
            "PATH": f"{checkout / 'tools'}:{environment['PATH']}",
            "GO": str(self.go),
            "SCOREKEEPER_INSTALL_TICK": "1",
            **env,
        }
        self.process = subprocess.Popen(
            ["bash", "-c", "source scripts/_setup.sh && echo 'Set up.'"],
            cwd=checkout,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []

    def until(self, start: str) -> str:
        """The next line that starts so (the lines before it are kept in `lines`)."""
        assert self.process.stdout
        while line := self.process.stdout.readline():
            self.lines.append(line.rstrip("\n"))
            if line.startswith(start):
                return line.rstrip("\n")
        raise AssertionError(f"no line {start!r}:\n" + "\n".join(self.lines))

    def rest(self) -> list[str]:
        assert self.process.stdout
        out, _ = self.process.communicate(timeout=PATIENCE)
        return out.splitlines()


@pytest.fixture
def setups() -> Iterator[list[Setup]]:
    started: list[Setup] = []
    yield started
    for setup in started:
        setup.go.touch()
        if setup.process.poll() is None:
            setup.process.kill()
            setup.process.wait()


def test_the_install_says_what_it_does_while_it_runs_then_is_silent_once_done(
    checkout: Path, setups: list[Setup]
) -> None:
    setup = Setup(checkout)
    setups.append(setup)
    first = setup.until("Installing Python packages into .venv")
    assert "(first run, or pyproject.toml changed:" in first
    assert setup.until("about a minute;") == (
        "about a minute; everything it does goes to .venv/install.log) …"
    )
    still = setup.until("  … still installing, ")
    assert still.endswith(": Collecting django-htmx>=1.21"), still
    setup.go.touch()
    assert setup.until("Installed the Python packages in ").endswith(" s.")
    assert setup.rest() == ["Set up."]
    assert setup.process.returncode == 0

    again = Setup(checkout)
    setups.append(again)
    assert again.rest() == ["Set up."]  # installed already: not a word of it


def test_a_failed_install_shows_its_log_and_stops_saying_it_is_installing(
    checkout: Path, setups: list[Setup]
) -> None:
    setup = Setup(checkout, FAIL="1")
    setups.append(setup)
    setup.until("  … still installing, ")
    setup.go.touch()
    setup.until("Installing the Python packages failed (log above).")
    rest = setup.rest()
    assert setup.process.returncode == 1
    assert not any("still installing" in line for line in rest), rest
    assert "Collecting django-htmx>=1.21" in setup.lines  # the log, shown
