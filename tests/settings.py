"""The tests' settings: the app's, with the benchmark harness installed (settings.BENCH), since
the tests run the benchmarks briefly."""

import os

os.environ.setdefault("BENCH", "true")

from scorekeeper.settings import *  # noqa: E402, F403
