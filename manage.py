#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    # A benchmark's command installs the benchmark harness (settings.BENCH), for itself and for
    # the servers and commands it starts.
    if sys.argv[1:2] and sys.argv[1].startswith("bench_"):
        os.environ.setdefault("BENCH", "true")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
