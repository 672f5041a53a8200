"""The password hasher: Argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane).

Django's own Argon2 settings (100 MiB, 2 passes, 8 lanes) hold 100 MiB for each log-in at once
and cost many times the CPU of these on the 2-core server a game night runs on (BENCHMARKS.md,
`bench_login`); these stay within OWASP's Password Storage Cheat Sheet. A hash stores its own
settings: one made with other settings still checks, and is made again with these at the next
log-in (Django's must_update).
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class TableArgon2PasswordHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
