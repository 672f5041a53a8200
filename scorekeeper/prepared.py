"""Lookups that every request of a phone at the table makes, their SQL compiled once.

Django builds and compiles a queryset's SQL each time it runs. For the one-row lookup of a
session by its link token that is about 1 ms of CPU on these machines, against 0.1 ms for the
query itself, and a session read with its seats and players (three querysets) cost 3.3 ms: the
largest share of a live fragment's first render and of a scorer's save (a py-spy profile of
`bench_load --real-pace`: 18 % of the app servers' CPU).

`Prepared` holds a queryset's SQL as Django compiled it, once per process and database vendor,
and runs it with `Manager.raw()`, which makes the model instances with the fields' own
converters (a JSON field, a date). The querysets are the same as before, so the SQL is Django's
own: the same columns, quoting and row lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection, models


class Prepared[M: models.Model]:
    """A queryset of `model` whose SQL is compiled once; `build(*args)` makes the queryset
    from its arguments, each of which must land in the SQL as one parameter."""

    def __init__(self, build: Callable[..., models.QuerySet[M]]) -> None:
        self.build = build
        self._compiled: dict[str, tuple[models.QuerySet[M], str, list[int]]] = {}

    def rows(self, *args: Any) -> list[M]:
        """The model instances the queryset gives for these arguments."""
        queryset, sql, order = self._compiled.get(connection.vendor) or self._compile(len(args))
        return list(queryset.model._default_manager.raw(sql, [args[i] for i in order]))

    def first(self, *args: Any) -> M | None:
        found = self.rows(*args)
        return found[0] if found else None

    def _compile(self, count: int) -> tuple[models.QuerySet[M], str, list[int]]:
        """Compile the queryset built from stand-in arguments, and where each argument goes
        among the SQL's parameters."""
        # Numbers, which a text column takes as their digits and a number column as they are.
        stand_ins = [str(7_000_000_001 + i) for i in range(count)]
        queryset = self.build(*(int(stand_in) for stand_in in stand_ins))
        sql, params = queryset.query.sql_with_params()
        found = [str(param) for param in params]
        if sorted(found) != stand_ins:
            raise ValueError(f"each argument must be one parameter of the SQL: {params!r}")
        compiled = (queryset, sql, [stand_ins.index(param) for param in found])
        self._compiled[connection.vendor] = compiled
        return compiled
