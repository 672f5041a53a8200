import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from scorekeeper.events import Handler  # noqa: E402 (needs the settings and apps loaded above)
from scorekeeper.warm import warm  # noqa: E402

application = Handler()  # Django's, except for the event streams
warm()
