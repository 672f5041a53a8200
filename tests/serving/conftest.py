"""The fixtures of the `scripts/run` tests (tests/serving/scripts_run.py)."""

from tests.serving.scripts_run import clone, network, servers

__all__ = ["clone", "network", "servers"]
