"""The benchmark harness, apart from the request code: nothing the app serves imports it.

`sessions` makes scratch sessions of random valid deals; `server` runs gunicorn on a scratch
database with production settings; `phone` speaks HTTP to it as a phone's browser does;
`load` drives many tables at once and checks that every deal was stored exactly once. The
`bench_*` management commands are its entry points; the fault tests use it too. It is a Django
app of its own, installed only where settings.BENCH is on (`manage.py bench_…`, the tests).
"""
