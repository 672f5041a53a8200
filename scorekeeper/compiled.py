"""The SQL Django compiles for a queryset, kept once per process and database by the reads
that every request at the table makes (`reads`, and a session's hands in `models`).

Its SQL never changes, so no request builds and compiles the queryset again (BENCHMARKS.md's
register). A read built from stand-in values compiles to Django's own SQL with each
value as one parameter; run with the real values through `Manager.raw()` or a cursor, it
reads what the queryset would.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

STAND_IN = "a-stand-in-for-the-value"  # a text value
STAND_IN_ID = 7_000_000_001  # a row's id


def compiled(queryset: QuerySet[Any], values: tuple[object, ...]) -> str:
    """The SQL Django compiles for `queryset`, built from `values`, each of which must be one
    of its parameters, in that order."""
    sql, params = queryset.query.sql_with_params()
    if params != values:
        raise ValueError(f"a compiled read must take its values alone, in order: {params!r}")
    return sql
