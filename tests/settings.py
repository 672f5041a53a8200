"""The tests' settings: the app's, with the benchmark harness installed (as BENCH=true installs
it), since the tests run the benchmarks briefly. The servers and commands that the tests start
run the app's own settings: a `manage.py bench_…` among them installs the harness itself."""

from scorekeeper.settings import *  # noqa: F403
from scorekeeper.settings import BENCH, INSTALLED_APPS

if not BENCH:
    BENCH = True
    INSTALLED_APPS = [*INSTALLED_APPS, "bench"]
